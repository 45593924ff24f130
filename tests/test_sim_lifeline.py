"""A ``partiar sim`` killed without its stop() takes its daemon child with it (``hw_sim.lifeline``): the daemon
stops through its own clean SIGTERM path, its journal stays whole, and the next sim on the same state dir resumes
the game. Real processes throughout: the sim command, the daemon it starts, ``kill -9``."""

from __future__ import annotations

import ctypes
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from polling import wait_until

from engine.game.events import decode_journal
from hw_sim.lifeline import LIFELINE_FD_ENV, open_lifeline, watch_lifeline
from hw_sim.scenario import Scenario, run_step
from hw_sim.sim import Sim
from hw_sim.sim_client import SimClient

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux prctl")
PR_SET_CHILD_SUBREAPER = 36

MOVES = """
press B
place ROZUM at 8D
advance 20
press A
advance 5
"""


class Subreaper:
    """This test process adopts orphans while the block runs, so a daemon whose sim was killed becomes our child
    and its exit status can be read with waitpid (not left to a PID 1 that may never reap it)."""

    def __enter__(self) -> Subreaper:
        self._libc = ctypes.CDLL(None, use_errno=True)
        assert self._libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        return self

    def __exit__(self, *exc: object) -> None:
        self._libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)

    @staticmethod
    def exit_status(pid: int, timeout: float) -> int | None:
        """The adopted child's wait status once it ended, or None if it is still running after ``timeout``."""
        found: list[int] = []

        def ended() -> bool:
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not (yet) adopted: the sim is still being torn down
                return False
            if done == pid:
                found.append(status)
            return bool(found)

        return found[0] if wait_until(ended, timeout) else None


def test_a_closed_lifeline_calls_on_gone_once():
    read_end, write_end = open_lifeline()
    gone = threading.Event()
    calls: list[int] = []
    watcher = watch_lifeline(read_end, lambda: (calls.append(1), gone.set()))
    assert not gone.wait(0.2)  # the write end is open: the parent is there
    os.close(write_end)
    assert gone.wait(60.0)
    watcher.join(60.0)
    assert calls == [1]


def test_the_lifeline_alone_stops_a_real_child_cleanly(tmp_path):
    """The fallback without the Linux signal (what runs elsewhere): a child that watches only the pipe ends
    through its SIGTERM handler when the pipe's write end closes."""
    read_end, write_end = open_lifeline()
    child_code = (
        "import os, signal, sys, threading\n"
        "from hw_sim.lifeline import watch_lifeline, stop_self\n"
        "stopped = threading.Event()\n"
        "signal.signal(signal.SIGTERM, lambda *_: stopped.set())\n"
        f"watch_lifeline(int(os.environ['{LIFELINE_FD_ENV}']), stop_self)\n"
        "print('watching', flush=True)\n"
        "stopped.wait()\n"
        "print('stopped cleanly', flush=True)\n"
    )
    env = dict(os.environ, **{LIFELINE_FD_ENV: str(read_end)})
    child = subprocess.Popen(
        [sys.executable, "-c", child_code], env=env, pass_fds=(read_end,), stdout=subprocess.PIPE, text=True
    )
    os.close(read_end)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "watching"
        assert child.poll() is None
        os.close(write_end)
        out, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0
    assert out.strip() == "stopped cleanly"


@linux_only
def test_kill_9_of_partiar_sim_stops_its_daemon_and_the_game_resumes(tmp_path):
    state_dir = tmp_path / "state"
    with Subreaper() as reaper:
        sim = subprocess.Popen(
            [sys.executable, "-m", "device.cli", "sim", "--no-browser", "--no-lexicon", "--port", "0",
             "--time", "manual", "--state-dir", str(state_dir)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        try:
            assert sim.stdout is not None
            seen: list[str] = []
            url = None
            for line in sim.stdout:  # its log lines (stderr) come on the same pipe, before or after it
                seen.append(line)
                url = re.search(r"partiar sim: (http://127\.0\.0\.1:\d+/)", line)
                if url:
                    break
            assert url, f"the sim printed no address: {''.join(seen)[-2000:]}"
            threading.Thread(target=seen.extend, args=(sim.stdout,), daemon=True).start()  # never a full pipe
            with SimClient(url.group(1)) as client:
                assert client.wait_daemon(120.0), "the daemon did not come up"
                for step in Scenario.parse(MOVES, "<moves>").steps:
                    run_step(client, step)
                table = (client.state().get("panel") or {}).get("table") or {}
                game_before = table.get("game")
                daemon_pid = (client.state().get("daemon") or {}).get("pid")
            assert game_before and game_before["scores"] != [0, 0]
            assert isinstance(daemon_pid, int)
            journal = state_dir / "journal.jsonl"
            events_before, warning = decode_journal(journal.read_text(encoding="utf-8"))
            assert warning is None and events_before

            sim.send_signal(signal.SIGKILL)  # no stop(), no finally: what a crash or `kill -9` does
            sim.wait(60)
            status = reaper.exit_status(daemon_pid, 120.0)
            if status is None:  # the bug: leave no orphan behind the failing test
                os.kill(daemon_pid, signal.SIGKILL)
                reaper.exit_status(daemon_pid, 60.0)
        finally:
            if sim.poll() is None:
                sim.kill()
                sim.wait()
    assert status is not None, f"daemon {daemon_pid} still running 120 s after its sim was killed"
    assert os.waitstatus_to_exitcode(status) == 0, "the daemon did not stop through its clean path"
    log_path = re.search(r"daemon log (\S+)\)", "".join(seen))
    assert log_path, "the sim did not say where its daemon logs"
    log = Path(log_path.group(1)).read_text(encoding="utf-8", errors="replace")
    assert "signal 15: stopping" in log and "Traceback" not in log

    events_after, warning = decode_journal(journal.read_text(encoding="utf-8"))
    assert warning is None
    assert events_after[: len(events_before)] == events_before

    with Sim(state_dir, port=0, time_mode="manual") as again, SimClient(again.url) as client:
        resumed = client.wait_for(
            lambda s: ((s.get("panel") or {}).get("table") or {}).get("resumed") is True, 120.0
        )
        assert resumed is not None, "the next sim on the same state dir did not resume the game"
        assert resumed["panel"]["table"]["game"] == game_before


def test_a_sim_that_stops_normally_still_stops_its_daemon_cleanly(tmp_path):
    """The supervisor's own stop path is unchanged by the lifeline: SIGTERM, a clean exit, no restart."""
    with Sim(tmp_path, port=0, time_mode="manual") as sim, SimClient(sim.url) as client:
        assert client.wait_daemon(120.0)
        proc = sim.daemon._proc
        assert proc is not None and proc.poll() is None
    assert proc.returncode == 0
    assert sim.daemon.restarts == 0
