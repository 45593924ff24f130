"""``shared.stop_signal.wait_for_stop``: the hub and the simulator stop on SIGTERM wherever it finds their main
thread, even inside the wait's own lock handling (a handler setting an Event deadlocked there)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import signal, sys, threading
from shared.stop_signal import wait_for_stop

calls = [0]

def as_if_sigterm_came_here(frame, event, arg):
    # every call the main thread makes inside the threading module while it waits (the Event's and the
    # Condition's code, some of it holding the Event's lock): a SIGTERM delivered right there
    if frame.f_code.co_filename == threading.__file__:
        calls[0] += 1
        signal.raise_signal(signal.SIGTERM)

sys.setprofile(as_if_sigterm_came_here)
wait_for_stop()
sys.setprofile(None)
assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the previous handler is back
print("stopped after", calls[0], "signals", flush=True)
"""


def test_sigterm_at_any_call_of_the_wait_stops_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=120
    )  # a deadlocked wait would hang here until the timeout fails the test
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("stopped after") and not done.stdout.startswith("stopped after 0 ")
