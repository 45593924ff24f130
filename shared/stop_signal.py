"""Waiting on the main thread for SIGTERM or Ctrl-C (the hub, the simulator), with no lock in a signal handler.

A Python signal handler runs on the main thread between two of its bytecodes, wherever that thread is. A handler
that sets a ``threading.Event`` takes the Event's lock; if the signal came while the main thread was inside
``Event.wait`` holding that same lock, the process hangs on its stop for good (the daemon's loop hung that way on
its input queue: ``device.table``). Here SIGTERM raises ``KeyboardInterrupt`` instead, as Ctrl-C does, which simply
unwinds the wait."""

from __future__ import annotations

import signal
import threading


def wait_for_stop() -> None:
    """Block the main thread until SIGTERM or SIGINT; SIGTERM's previous handler is back on return."""
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
