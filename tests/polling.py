"""Waiting in tests for something another process does, with a generous limit and no fixed sleep."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


def wait_until(predicate: Callable[[], object], timeout: float, period: float = 0.05) -> bool:
    """Ask ``predicate()`` every ``period`` seconds until it is true (True) or ``timeout`` passed (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        threading.Event().wait(period)
    return False
