"""Real-time scheduling for the few things on the table whose timing players notice: the buzzer's edges and the
LCD writes.

Linux runs a ``SCHED_FIFO`` thread as soon as it wakes, ahead of every normal process; the right to ask for it is
root's or ``CAP_SYS_NICE`` (``deploy/systemd/partiar.service`` grants it). Without it the thread keeps its normal
priority and the log says so once. Only code that mostly sleeps or waits on I/O gets it: it can never hog a core.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

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
        log.info("real-time priority %d refused (%s): written at normal priority", priority, e)
        yield False
        return
    try:
        yield True
    finally:
        os.sched_setscheduler(0, policy, param)
