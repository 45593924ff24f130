"""Real-time scheduling for the buzzer and the LCD writes (``device.realtime``)."""

# ruff: noqa: F811  (pytest fixtures imported from test_lcd_rig are redefined as test parameters)

from __future__ import annotations

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
