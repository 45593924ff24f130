"""Real-time scheduling and a quiet garbage collector for what players notice on the table: the buzzer's edges,
the LCD writes, the loop that answers a press.

Linux runs a ``SCHED_FIFO`` thread as soon as it wakes, ahead of every normal process; the right to ask for it is
root's or ``CAP_SYS_NICE`` (``deploy/systemd/partiar.service`` grants it). Without it the thread keeps its normal
priority and the log says so once. Only code that mostly sleeps or waits on I/O gets it: it can never hog a core.

A Python thread also needs the interpreter lock (the GIL), so a real-time thread is only as quick as the thread
holding it: the daemon runs every thread it starts at ``DAEMON_PRIORITY``, and ``settle_heap`` keeps the garbage
collector's full passes (which hold the lock) short. ``docs/daemon.md`` has the figures.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

DAEMON_PRIORITY = 1
"""``SCHED_FIFO`` priority of every thread of the table daemon (``device.cli.run``): the board link's reader, the hub
publisher, the signal process's reader, the GPIO library's callback thread. Any of them may hold the interpreter
lock when the loop (2), an LCD write (5) or the fallback buzzer driver (10) wakes; at normal priority the kernel
could leave it waiting for a core behind other processes, and the real-time thread with it. At 1 it loses no core
to a normal process, and yields to every other real-time thread of the table. One interpreter lock lets the
daemon's Python run on one core at a time, so even a runaway thread leaves the Pi's other three cores to the rest."""

_refused: set[int] = set()  # priorities the kernel refused once: not asked for again


def raise_priority(priority: int) -> str:
    """Give the calling thread ``SCHED_FIFO`` ``priority`` for good; returns the policy it has now (``scheduling``)."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))  # 0: this thread
    except (AttributeError, OSError) as e:  # not Linux, or no CAP_SYS_NICE
        log.info("thread %s keeps its normal priority (%s)", threading.current_thread().name, e)
    return scheduling()


def scheduling() -> str:
    """The calling thread's scheduling policy and priority as the kernel has them, e.g. ``SCHED_FIFO 10``."""
    try:
        tid = threading.get_native_id()
        policy = os.sched_getscheduler(tid)
        priority = os.sched_getparam(tid).sched_priority
    except (AttributeError, OSError) as e:
        return f"unknown ({e})"
    names = {getattr(os, n): n for n in ("SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "SCHED_IDLE")
             if hasattr(os, n)}
    return f"{names.get(policy, policy)} {priority}"


@contextmanager
def realtime(priority: int | None) -> Iterator[bool]:
    """Run the block with the calling thread at ``SCHED_FIFO`` ``priority`` (None: as it is), then give it back its
    own policy (its nice value stays); yields whether the priority was granted."""
    if priority is None or priority in _refused:
        yield False
        return
    try:
        policy, param = os.sched_getscheduler(0), os.sched_getparam(0)
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except (AttributeError, OSError) as e:
        _refused.add(priority)
        log.info("real-time priority %d refused (%s): %s runs at normal priority", priority, e,
                 threading.current_thread().name)
        yield False
        return
    try:
        yield True
    finally:
        os.sched_setscheduler(0, policy, param)


def settle_heap() -> int:
    """After start-up: collect its garbage, then move every object left to the collector's permanent generation
    (``gc.freeze``); returns how many objects that is.

    The modules, the lexicon's index, the config and the resumed game live as long as the process; a full
    collection would walk all of them again (the daemon's heap after start-up: ~40,000 objects, 20-40 ms here,
    some 200-400 ms on a Pi Zero 2 W), holding the interpreter lock the loop and the LCD writes need. Frozen, they
    are never walked again: a full pass walks only what the game made since, the young passes are unchanged.
    Frozen objects are still freed when nothing refers to them; only a reference cycle among them would stay."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def malloc_trim() -> bool:
    """Hand the C allocator's free memory back to the system (glibc ``malloc_trim(0)``, as on Raspberry Pi OS);
    False where the C library has none."""
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError, TypeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True


def release_memory() -> int:
    """Between two games: collect what the finished game left (the start-up heap is frozen, so the pass walks only
    the games' objects) and hand the allocator's free memory back, so that a day of games leaves the daemon's
    resident size where the first left it (without it the C and Python allocators keep what the games freed: some
    +1.2 MB over 27 games, all of it returned by this; ``bench/day.py``). Returns the objects collected."""
    found = gc.collect()
    malloc_trim()
    return found

