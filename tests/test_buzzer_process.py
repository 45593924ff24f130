"""The buzzer's signal process (``device.buzzer_process``): its command protocol on a fake time source, and the
real process on gpiozero mock pins: edges written and reported, mirrored onto the daemon's pin, and the daemon's own
driver taking over (and saying so) when the process dies."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import time

import pytest
from gpiozero import Buzzer
from gpiozero.pins.mock import MockFactory

from device.buzzer import SignalDriver
from device.buzzer_process import SignalProcess, serve
from device.clock.events import SignalEdge
from shared.timesource import FakeTime

WAIT = 60.0
"""Generous limit for anything that crosses processes on a busy machine."""


def commands(*msgs: dict) -> io.BytesIO:
    return io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in msgs))


def test_the_protocol_schedules_holds_plans_and_stops_at_close() -> None:
    ft = FakeTime(0.0)
    factory = MockFactory()
    buzzer = Buzzer(17, pin_factory=factory)
    written: list[tuple[float | None, bool, str]] = []
    with SignalDriver(buzzer, ft, on_write=lambda at, t, on, kind: written.append((at, on, kind))) as driver:
        serve(driver, commands(
            {"op": "edges", "edges": [[1.0, True, "beep"], [1.1, False, "beep"]]},
            {"op": "hold", "now": 0.5},
            {"op": "plan", "now": 0.6, "edges": [[2.0, True, "long"], [3.0, False, "long"]]},  # withdraws 1.0/1.1
            {"op": "nonsense"},
            "not json",  # a bad line is logged, the next ones still apply
            {"op": "close"},
            {"op": "silence"},  # after close: never read
        ))
        assert [e.at for e in driver.pending] == [2.0, 3.0]
        ft.set(2.5)
        assert driver.settled(WAIT)
        assert written == [(2.0, True, "long")]
        serve(driver, commands({"op": "silence"}))
        assert driver.pending == [] and written[-1] == (None, False, "cut") and not buzzer.is_active
    buzzer.close()
    factory.close()


@pytest.fixture
def mirror():
    factory = MockFactory()
    device = Buzzer(18, pin_factory=factory)
    yield device
    device.close()
    factory.close()


def test_the_process_writes_a_plan_on_its_own_pin_and_the_daemon_mirrors_it(mirror) -> None:
    with SignalProcess(18, factory="mock", mirror=mirror, fallback=lambda: mirror) as process:
        assert process.ready.wait(WAIT), "the signal process never said it was ready"
        assert process.ready_info is not None and process.ready_info["pin"] == 18
        now = time.monotonic()
        edges = [SignalEdge(True, now + 0.05, "beep"), SignalEdge(False, now + 0.1, "beep"),
                 SignalEdge(True, now + 0.15, "long")]
        process.plan(edges, now)
        assert process.wait_written(edges, WAIT)
        assert [(at, on) for at, _, on, _ in process.history] == [(e.at, e.on) for e in edges]
        assert all(written >= at for at, written, _, _ in process.history)  # never early
        with process.changed:
            assert process.changed.wait_for(lambda: mirror.is_active, WAIT)  # the mirror follows the last write
        assert not process.fell_back.is_set()
    assert not mirror.is_active  # closing switches the buzzer off


def test_a_stop_signal_to_the_whole_group_leaves_the_closing_to_the_daemon(mirror) -> None:
    """systemd stops the unit with SIGTERM to every process, a terminal's Ctrl-C sends SIGINT to the group: the
    signal process must not die of it (and the daemon report a failure and fall back while it stops)."""
    with SignalProcess(18, factory="mock", mirror=mirror, fallback=lambda: mirror) as process:
        assert process.ready.wait(WAIT)
        os.kill(process.pid, signal.SIGTERM)
        os.kill(process.pid, signal.SIGINT)
        now = time.monotonic()
        edge = SignalEdge(True, now + 0.05, "beep")
        process.plan([edge], now)  # read after both signals were delivered
        assert process.wait_written([edge], WAIT)
        assert not process.fell_back.is_set()
    assert not process.fell_back.is_set() and not mirror.is_active  # closed by the daemon, the buzzer off


def test_when_the_process_dies_the_daemon_falls_back_and_says_so(mirror, caplog) -> None:
    caplog.set_level(logging.ERROR)
    reasons: list[str] = []
    process = SignalProcess(18, factory="mock", mirror=mirror, fallback=lambda: mirror, on_fallback=reasons.append)
    try:
        assert process.ready.wait(WAIT)
        far = time.monotonic() + 3600.0
        process.plan([SignalEdge(True, far, "beep"), SignalEdge(False, far + 0.1, "beep")], time.monotonic())
        process.kill()
        assert process.fell_back.wait(WAIT)
        assert reasons and "exited" in reasons[0]
        assert any("falls back" in r.getMessage() for r in caplog.records)
        driver = process.driver
        assert driver is not None
        assert sorted((e.at, e.on) for e in driver.pending) == [(far, True), (far + 0.1, False)]  # handed over
        now = time.monotonic()
        edge = SignalEdge(True, now + 0.05, "beep")
        process.plan([edge], now)  # the daemon goes on planning: its own driver writes the mirror's pin now
        assert process.wait_written([edge], WAIT)
        assert mirror.is_active
    finally:
        process.close()


def test_a_process_that_cannot_start_falls_back_at_once(mirror, caplog) -> None:
    caplog.set_level(logging.ERROR)
    process = SignalProcess(18, factory="mock", fallback=lambda: mirror, command=["/nonexistent/python"])
    try:
        assert process.fell_back.is_set() and "cannot start" in process.reason
        now = time.monotonic()
        edge = SignalEdge(True, now + 0.01, "beep")
        process(edge)
        assert process.wait_written([edge], WAIT) and mirror.is_active
    finally:
        process.close()
