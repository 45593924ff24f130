"""The change bookkeeping of the live pages: a version number that goes up at every change and a ``closed`` flag,
under one lock, waking on both the threads that wait (``Condition``) and the asyncio streams (one ``Notifier`` per
event loop). A change may come from any thread (gpiozero callbacks, the table's loop, the hub's MQTT thread, the
referee's terminal); a woken stream reads the latest state, so changes that come faster than a client reads are
coalesced, never queued.

``Changes`` is that bookkeeping; ``Broadcaster`` is it with one state (the simulator's page and panel, the
duplicate room's page) and ``state_stream`` its server-sent events; the hub's ``ChangeFeed`` (``hub/feed.py``)
adds the keys that changed (tables, the round).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from eventstream import KEEPALIVE, KEEPALIVE_SECONDS, frame, response


class Notifier:
    """Wakes the asyncio streams of one event loop; ``poke`` may come from any thread (one wake-up call is in
    flight at a time, however many pokes)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.users = 0
        """How many subscriptions hold it (``Changes.subscribe``/``unsubscribe``)."""
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
        """Wait (on the loop) for the next poke; False after ``timeout`` seconds. A stream checks what it waits
        for, then calls this without awaiting anything in between: a change after the check wakes it."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        return True


class Changes:
    """A version counter and a closed flag that wake waiting threads and asyncio streams. Thread-safe.

    Subclasses record what changed with each version through ``_advance(note)`` and wait for their own condition
    with ``_cond.wait_for`` (threads) or a ``Notifier`` (streams)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._version = 0
        self._closed = False
        self._notifiers: dict[asyncio.AbstractEventLoop, Notifier] = {}

    @property
    def version(self) -> int:
        with self._cond:
            return self._version

    @property
    def closed(self) -> bool:
        with self._cond:
            return self._closed

    def subscribe(self, loop: asyncio.AbstractEventLoop) -> Notifier:
        """The notifier of ``loop``, poked on every change and on ``close`` (one per loop, however many streams
        ask: hand it back with ``unsubscribe``)."""
        with self._cond:
            notifier = self._notifiers.get(loop)
            if notifier is None:
                notifier = self._notifiers[loop] = Notifier(loop)
            notifier.users += 1
            return notifier

    def unsubscribe(self, notifier: Notifier) -> None:
        with self._cond:
            notifier.users -= 1
            if notifier.users <= 0 and self._notifiers.get(notifier.loop) is notifier:
                del self._notifiers[notifier.loop]

    def _advance(self, note: Callable[[int], None] | None = None) -> None:
        """A change: the next version (``note(version)`` records what changed, under the lock); wakes everyone."""
        with self._cond:
            self._version += 1
            if note is not None:
                note(self._version)
            notifiers = self._wake()
        for notifier in notifiers:
            notifier.poke()

    def close(self) -> None:
        """No more changes: every waiter returns, every stream ends."""
        with self._cond:
            self._closed = True
            notifiers = self._wake()
        for notifier in notifiers:
            notifier.poke()

    def _wake(self) -> list[Notifier]:
        """Under the lock: wake the waiting threads; the notifiers to poke once the lock is released."""
        self._cond.notify_all()
        return list(self._notifiers.values())

    async def wait_change(self, seen: int, timeout: float) -> int | None:
        """Wait (on the running loop) until the version differs from ``seen`` (returns it), the timeout passes
        (returns ``seen``) or this closes (returns None)."""
        loop = asyncio.get_running_loop()
        notifier = self.subscribe(loop)
        try:
            end = loop.time() + timeout
            while True:
                with self._cond:
                    if self._closed:
                        return None
                    if self._version != seen:
                        return self._version
                left = end - loop.time()
                if left <= 0:
                    return seen
                await notifier.wait(left)  # a wake-up poked before this version was seen: look again
        finally:
            self.unsubscribe(notifier)


class Broadcaster(Changes):
    """One state's changes: ``bump()`` after the state changed wakes every stream of it (``state_stream``)."""

    def bump(self) -> None:
        """The state changed: wake every stream (callable from any thread)."""
        self._advance()


def state_stream(state: Callable[[], Any], broadcaster: Broadcaster) -> StreamingResponse:
    """Server-sent events: ``state()`` now, then once after every ``bump()`` (the latest state, however many bumps
    came meanwhile), a keep-alive comment when nothing changed for ``KEEPALIVE_SECONDS``, until the client goes
    or the broadcaster closes. ``state()`` runs on a worker thread (it may wait for a lock)."""

    async def events() -> AsyncIterator[bytes]:
        seen = broadcaster.version
        yield frame(await run_in_threadpool(state))
        while True:
            version = await broadcaster.wait_change(seen, KEEPALIVE_SECONDS)
            if version is None:
                return
            if version == seen:
                yield KEEPALIVE
                continue
            seen = version
            yield frame(await run_in_threadpool(state))

    return response(events())


def state_route(path: str, state: Callable[[], Any], broadcaster: Broadcaster) -> Route:
    """``GET path``: the server-sent events of ``state()`` (see ``state_stream``)."""

    async def endpoint(_request: Request) -> Response:
        return state_stream(state, broadcaster)

    return Route(path, endpoint)
