"""A change feed for server-sent events: which keys (tables, the round) changed since a client's last look.

``bump(key)`` records the key at a new version and wakes every waiting stream; a stream asks for the keys it
cares about that changed after the version it has seen. Changes faster than a client reads are coalesced (the
client then sends the latest view of each key once), never queued.
"""

from __future__ import annotations

import threading
from collections.abc import Collection


class ChangeFeed:
    """Versioned change keys under one condition; ``close()`` ends every stream."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._version = 0
        self._changed: dict[str, int] = {}
        self._closed = False

    @property
    def version(self) -> int:
        with self._cond:
            return self._version

    def bump(self, key: str) -> None:
        """``key`` changed: wake every stream."""
        with self._cond:
            self._version += 1
            self._changed[key] = self._version
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _since(self, seen: int, keys: Collection[str] | None) -> list[str]:
        if keys is None:
            return [k for k, v in self._changed.items() if v > seen]
        return [k for k in keys if self._changed.get(k, 0) > seen]

    def wait(self, seen: int, keys: Collection[str] | None, timeout: float) -> tuple[int, list[str]] | None:
        """Wait until one of ``keys`` (None = any) changed after version ``seen``: returns the current version
        and the changed keys (an empty list after ``timeout``), or None once the feed is closed."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or bool(self._since(seen, keys)), timeout)
            if self._closed:
                return None
            changed = self._since(seen, keys)
            return (self._version if changed else seen), changed
