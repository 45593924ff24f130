"""The daemon's start-up as before issue 18's fix and as now, for benches that compare them in one run.

Before: only the table's loop (``SCHED_FIFO`` 2) and its LCD writes (5) at real-time priority; every other thread
(the board link's reader, the signal process's reader, ...) at normal priority, and the garbage collector's full
passes walk the whole start-up heap. Now (``device.cli.run``): every thread the daemon starts at
``device.realtime.DAEMON_PRIORITY`` and the start-up heap frozen (``device.realtime.settle_heap``).

The scripts import this module as ``startup`` (a script's own folder is first on its path).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import AbstractContextManager

from device.realtime import DAEMON_PRIORITY, realtime, settle_heap

STARTUPS = ("before 18", "now")


class Startup:
    """One way to start the daemon in the bench's process: build the stack and start its loop inside
    ``threads()`` (threads started there inherit its priority), call ``settled()`` after ``resume``, ``close()``
    after the stack is closed (the next start-up begins with the heap as before)."""

    def __init__(self, name: str) -> None:
        if name not in STARTUPS:
            raise ValueError(f"start-up {name!r}: one of {STARTUPS}")
        self.name = name
        self.now = name == "now"

    def threads(self) -> AbstractContextManager[bool]:
        return realtime(DAEMON_PRIORITY if self.now else None)

    def settled(self) -> None:
        if self.now:
            settle_heap()

    def close(self) -> None:
        if self.now:
            gc.unfreeze()


def alternated(rounds: int, names: tuple[str, ...] = STARTUPS) -> Iterator[tuple[int, Startup]]:
    """``rounds`` x every start-up (of ``names``), alternated (both see the same machine): (round, start-up)."""
    for i in range(rounds):
        for name in names:
            yield i, Startup(name)
