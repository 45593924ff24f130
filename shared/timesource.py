"""Time sources: one monotonic clock in production, a hand-advanced fake in tests.

Both give ``now()`` in float seconds, ``timeout_until(deadline)`` for a queue/event wait, and
``wait_until(deadline, wake)``: block until the deadline has passed or ``wake`` is set (whichever is first), so
worker threads wait on absolute deadlines and never sleep in steps.
"""

from __future__ import annotations

import threading
import time


class MonotonicTime:
    """``time.monotonic``: the one source every deadline of the daemon comes from."""

    def now(self) -> float:
        return time.monotonic()

    def timeout_until(self, deadline: float | None) -> float | None:
        """Seconds from now to ``deadline`` (never negative), or None (wait for ever) if there is none."""
        return None if deadline is None else max(0.0, deadline - self.now())

    def wait_until(self, deadline: float | None, wake: threading.Event) -> bool:
        """Wait until ``deadline`` or until ``wake`` is set; True if woken. May return a little early if the OS
        does: callers re-check ``now()``."""
        return wake.wait(self.timeout_until(deadline))


class FakeTime:
    """A time source that only moves when told (``advance``/``set``); threads waiting on it wake as it passes."""

    def __init__(self, start: float = 0.0) -> None:
        self._t = float(start)
        self._lock = threading.Lock()
        self._waiters: dict[threading.Event, float | None] = {}

    def now(self) -> float:
        with self._lock:
            return self._t

    def advance(self, seconds: float) -> float:
        """Move time forward by ``seconds`` (>= 0) and return the new time; raises ValueError if negative."""
        if seconds < 0:
            raise ValueError(f"FakeTime cannot go back: advance({seconds!r})")
        return self.set(self.now() + seconds)

    def set(self, t: float) -> float:
        """Jump to ``t`` (not earlier than now); wakes every waiter whose deadline has passed."""
        with self._lock:
            if t < self._t:
                raise ValueError(f"FakeTime cannot go back from {self._t!r} to {t!r}")
            self._t = float(t)
            for wake, deadline in self._waiters.items():
                if deadline is not None and deadline <= self._t:
                    wake.set()
            return self._t

    def timeout_until(self, deadline: float | None) -> float | None:
        return None if deadline is None else max(0.0, deadline - self.now())

    def wait_until(self, deadline: float | None, wake: threading.Event) -> bool:
        with self._lock:
            if deadline is not None and deadline <= self._t:
                return wake.is_set()
            self._waiters[wake] = deadline
        try:
            wake.wait()
        finally:
            with self._lock:
                self._waiters.pop(wake, None)
        return True
