"""The move clock: a pure state machine fed with timestamped inputs (no board, no game, no hardware).

``core.MoveClock`` is the machine, ``modes`` the presets (ČAS tournament, doubles, home, duplicate), ``signal`` the
beep schedule, ``events`` what the clock emits and ``timesource`` the monotonic / fake time sources.
"""

from device.clock.errors import ClockError

__all__ = ["ClockError"]
