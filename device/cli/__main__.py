"""``python -m device.cli``: the ``partiar`` command without the console script."""

import sys

from device.cli import main

sys.exit(main())
