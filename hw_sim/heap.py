"""Heap diagnostics of the simulated daemon, for the tournament-day bench (``bench/day.py --heap``).

With ``PARTIAR_TRACEMALLOC=FRAMES`` in its environment the daemon traces its allocations from the start
(``start_from_env``, called by ``hw_sim.daemon``); the panel then answers ``GET /debug/heap`` with ``report()``:
the resident size, what Python's allocations hold (tracemalloc), the garbage collector's object count and
generation counts, and the allocation sites that grew most since the previous report. ``?trim=1`` first hands the
C allocator's free memory back to the system (glibc ``malloc_trim``) and reports the resident size before and
after: memory freed by the program but kept by the allocator shows as the difference. Without the variable the
report has the resident size and the garbage collector's counts only.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import tracemalloc
from pathlib import Path
from typing import Any

from device.realtime import malloc_trim

log = logging.getLogger(__name__)

TRACEMALLOC_ENV = "PARTIAR_TRACEMALLOC"
"""Frames kept per traced allocation (1-25); unset or 0: no tracing (it slows the daemon and doubles its memory)."""
TOP = 12
"""Allocation sites listed per report."""

_lock = threading.Lock()
_previous: tracemalloc.Snapshot | None = None


def start_from_env() -> bool:
    """Start tracing if ``PARTIAR_TRACEMALLOC`` asks for it; True if tracing. Raises ValueError for a value that
    is not 0-25."""
    value = os.environ.get(TRACEMALLOC_ENV, "").strip()
    if not value or value == "0":
        return False
    frames = int(value)
    if not 1 <= frames <= 25:
        raise ValueError(f"{TRACEMALLOC_ENV} must be 1-25 frames, got {value!r}")
    tracemalloc.start(frames)
    log.info("tracemalloc on (%d frames): GET /debug/heap on the panel", frames)
    return True


def resident_kb() -> int:
    """This process's resident memory (``VmRSS``) in KB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise OSError("no VmRSS in /proc/self/status")


def report(trim: bool = False) -> dict[str, Any]:
    """The heap now (see the module doc); after a full collection, so only what is still referenced counts."""
    global _previous
    gc.collect()
    out: dict[str, Any] = {
        "rss_kb": resident_kb(),
        "gc_objects": len(gc.get_objects()),
        "gc_counts": list(gc.get_count()),
        "gc_collections": [s["collections"] for s in gc.get_stats()],
        "tracing": tracemalloc.is_tracing(),
    }
    if tracemalloc.is_tracing():
        current, peak = tracemalloc.get_traced_memory()
        out["traced_kb"] = current // 1024
        out["traced_peak_kb"] = peak // 1024
        with _lock:
            snapshot = tracemalloc.take_snapshot().filter_traces(
                (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, __file__))
            )
            if _previous is not None:
                stats = snapshot.compare_to(_previous, "lineno")
                out["growth"] = [
                    {"site": str(s.traceback[0]), "size_diff_kb": round(s.size_diff / 1024, 1), "count_diff": s.count_diff}
                    for s in stats[:TOP]
                ]
            _previous = snapshot
    if trim:
        out["trimmed"] = malloc_trim()
        out["rss_after_trim_kb"] = resident_kb()
    return out
