"""Settings every test shares.

Hypothesis: no per-example deadline and no ``too_slow`` health check, in every test that does not say otherwise.
Both measure the machine's speed, not the code's correctness: on a loaded 2-core machine they fail at random
(speed targets live in ``bench/``). A test's own ``@settings`` still sets its example count and the rest.

The locale: neutral (``LANG=C.UTF-8``), so the ``partiar`` command's words are Czech as an organiser's are.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("partiar", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("partiar")


@pytest.fixture(autouse=True)
def _czech_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``partiar`` command speaks Czech unless asked for English (``--lang en``, or ``LANG=en_*``:
    ``device.cli.language``): every test starts from a neutral locale, whatever the machine's ``LANG``."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
