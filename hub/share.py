"""Every table's fair share of the hub's time: the hub handles one table's messages at up to ``RATE`` a second
(``BURST`` at once: a resend of a whole game fits), and drops the rest unread, acknowledged to the broker. A
real table sends a few messages a second; a table whose credentials flood the hub (thousands a second) costs it
a topic parse per excess message instead of a JSON parse, a validation and database writes, so the other
tables' moves are not held up behind the flood. An event dropped this way is not lost: the hub sees the gap at
the table's next event and asks the table to resend (``hub.store.RESEND_AFTER``).
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from typing import Any

RATE = 20.0
"""Messages a second one table gets handled, on average."""
BURST = 500
"""Messages one table gets handled at once (a game's events resent together: a few hundred)."""


class TableShare:
    """A token bucket per table (thread-safe)."""

    def __init__(self, rate: float = RATE, burst: int = BURST, now: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}
        self.dropped: collections.Counter[str] = collections.Counter()

    def take(self, table: str) -> bool:
        """True if the table's message is to be handled now; False (counted) if over its share."""
        now = self._now()
        with self._lock:
            tokens, last = self._buckets.get(table, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens < 1.0:
                self._buckets[table] = (tokens, now)
                self.dropped[table] += 1
                return False
            self._buckets[table] = (tokens - 1.0, now)
            return True

    def view(self) -> dict[str, Any]:
        """For the status page: messages dropped per table over its share."""
        with self._lock:
            return {"rate": self.rate, "burst": self.burst, "dropped": dict(self.dropped.most_common(20))}
