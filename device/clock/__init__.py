"""The move clock: a pure state machine fed with timestamped inputs (no board, no game, no hardware).

``core.MoveClock`` is the machine, ``modes`` the presets (ČAS tournament, doubles, home, duplicate), ``signal`` the
beep schedule, ``events`` what the clock emits and ``timesource`` the monotonic / fake time sources. See
docs/clock.md.
"""

from device.clock.core import MoveClock
from device.clock.errors import ClockError
from device.clock.modes import PRESETS, ClockMode, mode

__all__ = ["PRESETS", "ClockError", "ClockMode", "MoveClock", "mode"]
