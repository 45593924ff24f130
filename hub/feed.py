"""A change feed for the live pages: which keys (tables, the round) changed since a client's last look.

``bump(key)`` records the key at a new version and wakes every waiter: threads blocked in ``wait`` and the
web server's asyncio streams (``subscribe`` hands a loop its ``Notifier``). A stream asks for the keys it cares
about that changed after the version it has seen, so changes faster than a client reads are coalesced (the
client then gets the latest view of each key once), never queued. The version, the closed flag and the waking are
the bookkeeping every live page shares (``eventstream.changes.Changes``); this adds the keys.
"""

from __future__ import annotations

from collections.abc import Collection

from eventstream.changes import Changes


class ChangeFeed(Changes):
    """Versioned change keys; ``close()`` ends every stream. Thread-safe."""

    def __init__(self) -> None:
        super().__init__()
        self._changed: dict[str, int] = {}

    def bump(self, key: str) -> None:
        """``key`` changed: wake every waiter."""
        self._advance(lambda version: self._changed.__setitem__(key, version))

    def key_version(self, key: str) -> int:
        """The version at which ``key`` last changed (0: never)."""
        with self._cond:
            return self._changed.get(key, 0)

    def changes(self, seen: int, keys: Collection[str] | None) -> tuple[int, list[str]]:
        """The current version and the keys (of ``keys``; None = any) changed after version ``seen``."""
        with self._cond:
            return self._version, self._since(seen, keys)

    def _since(self, seen: int, keys: Collection[str] | None) -> list[str]:
        if keys is None:
            return [k for k, v in self._changed.items() if v > seen]
        return [k for k in keys if self._changed.get(k, 0) > seen]

    def wait(self, seen: int, keys: Collection[str] | None, timeout: float) -> tuple[int, list[str]] | None:
        """Block the thread until one of ``keys`` (None = any) changed after version ``seen``: returns the
        current version and the changed keys (an empty list after ``timeout``), or None once closed."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or bool(self._since(seen, keys)), timeout)
            if self._closed:
                return None
            changed = self._since(seen, keys)
            return (self._version if changed else seen), changed
