"""A change feed for the live pages: which keys (tables, the round) changed since a client's last look.

``bump(key)`` records the key at a new version and wakes every waiter: threads blocked in ``wait`` and the
web server's asyncio streams (``subscribe`` hands a loop a ``Notifier``). A stream asks for the keys it cares
about that changed after the version it has seen, so changes faster than a client reads are coalesced (the
client then gets the latest view of each key once), never queued.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Collection


class Notifier:
    """Wakes the asyncio streams of one event loop; ``bump`` may come from any thread (one wake-up call is in
    flight at a time, however many bumps)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._event = asyncio.Event()
        self._scheduled = False
        self._lock = threading.Lock()

    def poke(self) -> None:
        with self._lock:
            if self._scheduled:
                return
            self._scheduled = True
        try:
            self.loop.call_soon_threadsafe(self._wake)
        except RuntimeError:  # the loop has closed
            pass

    def _wake(self) -> None:
        with self._lock:
            self._scheduled = False
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait(self, timeout: float) -> bool:
        """Wait (on the loop) for the next change; False after ``timeout`` seconds."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        return True


class ChangeFeed:
    """Versioned change keys under one condition; ``close()`` ends every stream."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._version = 0
        self._changed: dict[str, int] = {}
        self._closed = False
        self._notifiers: list[Notifier] = []

    @property
    def version(self) -> int:
        with self._cond:
            return self._version

    @property
    def closed(self) -> bool:
        with self._cond:
            return self._closed

    def subscribe(self, loop: asyncio.AbstractEventLoop) -> Notifier:
        """A notifier poked on every change (one per event loop is enough)."""
        notifier = Notifier(loop)
        with self._cond:
            self._notifiers.append(notifier)
        return notifier

    def unsubscribe(self, notifier: Notifier) -> None:
        with self._cond:
            if notifier in self._notifiers:
                self._notifiers.remove(notifier)

    def bump(self, key: str) -> None:
        """``key`` changed: wake every waiter."""
        with self._cond:
            self._version += 1
            self._changed[key] = self._version
            self._cond.notify_all()
            notifiers = list(self._notifiers)
        for n in notifiers:
            n.poke()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            notifiers = list(self._notifiers)
        for n in notifiers:
            n.poke()

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
