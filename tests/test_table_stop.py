"""Stopping the table from a signal handler: SIGTERM (systemd's stop, a sim's lifeline) runs ``Table.stop`` on the
loop's own thread, between any two of its steps, including while the loop is taking its next input."""

from __future__ import annotations

import sys
import threading

from table_rig import Rig


def test_stop_called_at_any_call_the_loop_makes_ends_the_loop(tmp_path) -> None:
    # A signal handler runs on the main thread wherever that thread happens to be. The loop there waits in
    # ``inputs.get``; a queue whose get holds a plain lock while it runs Python code deadlocks a handler that
    # puts ``Stop`` at that moment: the daemon hung for good on its SIGTERM (CI, a sim killed with -9).
    rig = Rig(tmp_path)
    rig.start()
    stops = [0]

    def as_if_a_signal_came_here(frame, event, arg) -> None:  # runs at every call and return of the loop
        stops[0] += 1
        rig.table.stop()

    def loop() -> None:
        sys.setprofile(as_if_a_signal_came_here)
        try:
            rig.table.run()
        finally:
            sys.setprofile(None)

    runner = threading.Thread(target=loop, daemon=True)  # a deadlocked loop must not hold the test run
    runner.start()
    runner.join(120.0)
    assert not runner.is_alive(), "the loop hung on a stop() made while it took an input"
    assert stops[0] > 0
