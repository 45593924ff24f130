"""Real-time scheduling for the buzzer and the LCD writes (``device.realtime``)."""

# ruff: noqa: F811  (pytest fixtures imported from test_lcd_rig are redefined as test parameters)

from __future__ import annotations

import gc
import logging
import os

import pytest
from test_lcd_rig import gpio_rig

import device.realtime as rt
from device.lcd import CharDisplay


def fifo_allowed() -> bool:
    policy, param = os.sched_getscheduler(0), os.sched_getparam(0)
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except PermissionError:
        return False
    os.sched_setscheduler(0, policy, param)
    return True


needs_fifo = pytest.mark.skipif(not fifo_allowed(), reason="real-time priority needs root or CAP_SYS_NICE")


@needs_fifo
def test_a_block_runs_at_fifo_and_the_thread_gets_its_own_policy_back() -> None:
    before = rt.scheduling()
    with rt.realtime(3) as granted:
        assert granted and rt.scheduling() == "SCHED_FIFO 3"
    assert rt.scheduling() == before


def test_a_refused_priority_is_logged_once_and_not_asked_for_again(monkeypatch, caplog) -> None:
    calls: list[int] = []

    def refuse(pid: int, policy: int, param: object) -> None:
        calls.append(policy)
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(rt.os, "sched_setscheduler", refuse)
    monkeypatch.setattr(rt, "_refused", set())
    caplog.set_level(logging.INFO)
    for _ in range(3):
        with rt.realtime(7) as granted:
            assert not granted
    assert calls == [os.SCHED_FIFO]
    assert sum("priority 7 refused" in r.getMessage() for r in caplog.records) == 1
    with rt.realtime(None) as granted:  # no priority asked: nothing tried
        assert not granted and calls == [os.SCHED_FIFO]


@needs_fifo
def test_a_display_with_a_priority_writes_every_byte_at_it() -> None:
    rig = gpio_rig(16, 2)
    seen: list[str] = []
    rig.lcd.listeners.append(lambda: seen.append(rt.scheduling()))
    before = rt.scheduling()
    try:
        display = CharDisplay(rig.factory, 16, 2, priority=4)
        display.show(["Hrac A  1:58", ""])
        assert rig.lcd.text_rows()[0] == "Hrac A  1:58".ljust(16)
        assert seen and set(seen) == {"SCHED_FIFO 4"}
        assert rt.scheduling() == before
    finally:
        rig.factory.close()


@needs_fifo
def test_the_table_loop_runs_at_its_priority_and_gives_it_back_when_it_stops(tmp_path) -> None:
    import threading

    from table_rig import Rig

    from device import inputs

    rig = Rig(tmp_path)
    rig.start()
    seen: list[str] = []
    after: list[str] = []

    class Screen:
        def show(self, rows) -> int:
            seen.append(rt.scheduling())
            return 0

    rig.table.displays = [Screen()]
    rig.table.render = lambda view, index: [""]
    rig.table.priority = 2

    def loop() -> None:
        rig.table.run()
        after.append(rt.scheduling())

    thread = threading.Thread(target=loop)
    thread.start()
    rig.table.inputs.put(inputs.ButtonPressed(1))
    assert rig.table.settle(60.0)
    rig.table.stop()
    thread.join(60.0)
    assert seen and set(seen) == {"SCHED_FIFO 2"}
    assert after == ["SCHED_OTHER 0"]
    rig.close()


# ------------------------------------------------------------------------------------------ the daemon as a whole
class Daemon:
    """``partiar run`` on mock pins in a process of its own; its log lines are collected as they come."""

    def __init__(self, tmp_path, preexec=None) -> None:
        import subprocess
        import sys
        import threading
        from pathlib import Path

        config = tmp_path / "table.toml"
        config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\npin_factory = "mock"\n'
                          'serial_url = "loop://"\nplayers = ["Anna", "Bedřich"]\n', encoding="utf-8")
        root = Path(__file__).resolve().parent.parent
        self.proc = subprocess.Popen([sys.executable, "-m", "device.cli", "run", "--config", str(config)], cwd=root,
                                     stderr=subprocess.PIPE, text=True, preexec_fn=preexec)
        self.lines: list[str] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for row in self.proc.stderr:
            with self.changed:
                self.lines.append(row.rstrip("\n"))
                self.changed.notify_all()

    def wait_for_line(self, part: str) -> str:
        with self.changed:
            assert self.changed.wait_for(lambda: any(part in r for r in self.lines), 120.0), (part, self.lines)
            return next(r for r in self.lines if part in r)

    def scheduling(self) -> dict[int, str]:
        """Every thread of the daemon (thread id -> ``SCHED_FIFO 1`` ...)."""
        names = {os.SCHED_FIFO: "SCHED_FIFO", os.SCHED_OTHER: "SCHED_OTHER"}
        out = {}
        for tid in os.listdir(f"/proc/{self.proc.pid}/task"):
            try:
                policy, priority = os.sched_getscheduler(int(tid)), os.sched_getparam(int(tid)).sched_priority
            except ProcessLookupError:  # a thread that just ended
                continue
            out[int(tid)] = f"{names.get(policy, policy)} {priority}"
        return out

    def stop(self) -> int:
        import signal

        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(120.0)


def until(predicate) -> bool:
    """Wait (generously) for ``predicate``, which the daemon makes true by itself."""
    import threading

    pause = threading.Event()
    for _ in range(2400):
        if predicate():
            return True
        pause.wait(0.05)
    return False


@needs_fifo
def test_the_daemon_runs_every_thread_at_real_time_priority_and_freezes_its_start_up_heap(tmp_path) -> None:
    daemon = Daemon(tmp_path)
    try:
        frozen = daemon.wait_for_line("start-up heap frozen")
        assert int(frozen.split("frozen: ")[1].split()[0]) > 1000  # modules, config, game: all of start-up
        daemon.wait_for_line("signal process")  # the buzzer's process is up: every thread has started
        # the loop (the main thread) at its own priority, every other thread (board link reader, signal process
        # reader, ...) at the daemon's: none of them is left to wait for a core behind a normal process
        assert until(lambda: daemon.scheduling().get(daemon.proc.pid) == "SCHED_FIFO 2"), daemon.scheduling()
        others = {tid: s for tid, s in daemon.scheduling().items() if tid != daemon.proc.pid}
        assert len(others) >= 2 and set(others.values()) == {f"SCHED_FIFO {rt.DAEMON_PRIORITY}"}, others
        assert not any("refused" in r for r in daemon.lines)
    finally:
        assert daemon.stop() == 0


def test_without_the_right_to_real_time_the_daemon_runs_at_normal_priority_and_says_so_once(tmp_path) -> None:
    import ctypes
    import resource

    if resource.getrlimit(resource.RLIMIT_RTPRIO)[0] != 0:
        pytest.skip("RLIMIT_RTPRIO grants real-time priority without CAP_SYS_NICE here")

    def drop_cap_sys_nice() -> None:  # the unit without CAP_SYS_NICE (root: from the bounding set; others lack it)
        ctypes.CDLL(None).prctl(24, 23, 0, 0, 0)  # PR_CAPBSET_DROP, CAP_SYS_NICE

    daemon = Daemon(tmp_path, preexec=drop_cap_sys_nice)
    try:
        daemon.wait_for_line("start-up heap frozen")
        daemon.wait_for_line("signal process")
        assert until(lambda: set(daemon.scheduling().values()) == {"SCHED_OTHER 0"}), daemon.scheduling()
        for priority in (rt.DAEMON_PRIORITY, 2, 5):  # the daemon's threads, the loop, the LCD writes
            daemon.wait_for_line(f"real-time priority {priority} refused")
            said = [r for r in daemon.lines if f"real-time priority {priority} refused" in r]
            assert len(said) == 1 and "runs at normal priority" in said[0], daemon.lines
    finally:
        assert daemon.stop() == 0


def test_settling_the_heap_collects_start_up_garbage_then_freezes_what_lives() -> None:
    import gc
    import weakref

    class Node:
        pass

    garbage, kept = Node(), Node()
    garbage.me = garbage  # a reference cycle nothing else refers to: only the collector frees it
    gone = weakref.ref(garbage)
    del garbage
    try:
        frozen = rt.settle_heap()
        assert gone() is None  # collected before the freeze, not kept for ever
        # a frozen object is still freed when nothing refers to it (another thread may drop one meanwhile)
        assert frozen > 1000 and 0 < gc.get_freeze_count() <= frozen
        assert not any(o is kept for o in gc.get_objects())  # walked by no pass from now on
        later = Node()
        later.me = later  # what the game makes after start-up is still collected
        after = weakref.ref(later)
        del later
        gc.collect()
        assert after() is None
    finally:
        gc.unfreeze()


def test_between_games_the_finished_games_cycles_are_collected_and_free_memory_handed_back() -> None:
    """``release_memory`` (called by ``Table.new_game``): the game's reference cycles go at once, not at some later
    full pass, and glibc's allocator returns its free memory (``bench/day.py`` shows the resident size it saves)."""
    import platform
    import weakref

    from device.realtime import malloc_trim, release_memory

    class Node:
        pass

    gc.disable()  # no automatic pass may collect the cycle before the call does
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]
        gone = weakref.ref(a)
        del a, b
        assert gone() is not None
        assert release_memory() >= 2 and gone() is None
    finally:
        gc.enable()
    if platform.libc_ver()[0] == "glibc":
        assert malloc_trim() is True
