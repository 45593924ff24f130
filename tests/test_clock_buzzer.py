"""The buzzer driver on gpiozero mock pins, with a fake time source: edges land at their scheduled instants."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Buzzer, TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from device.buzzer import SignalDriver
from device.clock.core import MoveClock
from device.clock.events import SignalEdge
from device.clock.modes import mode
from shared.timesource import FakeTime


class FakeStampedPin(MockPin):
    """Records (fake time, state) at each change; ``source`` is set by the test."""

    source: FakeTime | None = None

    def _set_state(self, value: bool) -> None:
        before = self._state
        super()._set_state(value)
        if bool(self._state) != bool(before) and self.source is not None:
            self.stamps.append((round(self.source.now(), 9), bool(self._state)))

    def clear_states(self) -> None:
        super().clear_states()
        self.stamps: list[tuple[float, bool]] = []


@pytest.fixture
def ft() -> FakeTime:
    return FakeTime(0.0)


@pytest.fixture
def rig(ft: FakeTime) -> Iterator[tuple[SignalDriver, FakeStampedPin]]:
    factory = MockFactory(pin_class=FakeStampedPin)
    buzzer = Buzzer(17, pin_factory=factory)
    pin = factory.pin(17)
    pin.source = ft
    pin.clear_states()
    with SignalDriver(buzzer, ft) as driver:
        yield driver, pin
    buzzer.close()
    factory.close()


def step_to(ft: FakeTime, driver: SignalDriver, t: float) -> None:
    ft.set(t)
    assert driver.settled(5.0)


def test_planned_edges_are_written_exactly_at_their_instants(ft: FakeTime, rig) -> None:
    driver, pin = rig
    clock = MoveClock(mode("cas"), 0.0)
    clock.press(1, 0.0)
    driver.plan(clock.signal_plan(0.0, horizon=130.0), 0.0)
    assert len(driver.pending) == 20 and pin.stamps == []
    t = 0.0
    while t < 125.0:  # the fake time moves in coarse steps that skip over edges
        t = round(t + 0.7, 9)
        step_to(ft, driver, t)
    # each edge was written when the time source reached it: the fake time at the write is the first step past it
    assert len(pin.stamps) == 20
    scheduled = [(e.at, e.on) for e in clock.signal_plan(0.0, horizon=130.0)]
    for (written, on), (at, want) in zip(pin.stamps, scheduled, strict=True):
        assert on == want and at <= written < at + 0.7 + 1e-9
    assert [(round(a, 9), on) for a, _, on, _ in driver.history] == [(round(a, 9), on) for a, on in scheduled]


def test_edges_from_the_table_loop_are_written_at_their_deadlines(ft: FakeTime, rig) -> None:
    driver, pin = rig
    clock = MoveClock(mode("cas"), 0.0)
    clock.press(1, 0.0)
    # the table loop: wait exactly until the next deadline, advance, hand each edge to the driver
    while (d := clock.next_deadline()) is not None and d <= 121.0:
        ft.set(d)
        for e in clock.advance(d):
            if isinstance(e, SignalEdge):
                driver(e)
        assert driver.settled(5.0)
    expected = [(110.0 + k, True) for k in range(9)] + [(110.1 + k, False) for k in range(9)]
    expected = sorted(expected) + [(118.5, True), (120.0, False)]
    assert pin.stamps == [(round(t, 9), on) for t, on in expected]


def test_an_edge_already_written_is_not_written_twice(ft: FakeTime, rig) -> None:
    driver, pin = rig
    edges = [SignalEdge(True, 1.0, "beep"), SignalEdge(False, 1.1, "beep")]
    driver.plan(edges, 0.0)
    step_to(ft, driver, 2.0)
    for e in edges:  # the same edges again, as the loop's advance reports them
        driver(e)
    assert driver.settled(5.0)
    assert pin.stamps == [(2.0, True), (2.0, False)]
    assert len(driver.history) == 2 and driver.pending == []


def test_a_new_plan_replaces_the_future_and_silence_cuts(ft: FakeTime, rig) -> None:
    driver, pin = rig
    driver.plan([SignalEdge(True, 5.0, "beep"), SignalEdge(False, 6.0, "beep")], 0.0)
    driver.plan([SignalEdge(True, 7.0, "long"), SignalEdge(False, 9.0, "long")], 1.0)
    step_to(ft, driver, 7.0)
    assert pin.stamps == [(7.0, True)]
    driver.silence()
    assert pin.stamps == [(7.0, True), (7.0, False)] and driver.pending == []
    step_to(ft, driver, 10.0)
    assert pin.stamps == [(7.0, True), (7.0, False)]


def test_a_passive_buzzer_plays_a_tone_per_kind(ft: FakeTime) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    tonal = TonalBuzzer(18, pin_factory=factory)
    try:
        with SignalDriver(tonal, ft) as driver:
            driver(SignalEdge(True, 0.0, "beep"))
            assert driver.settled(5.0)
            assert tonal.is_active and tonal.tone.frequency == pytest.approx(tonal.mid_tone.frequency)
            driver(SignalEdge(False, 0.0, "beep"))
            driver(SignalEdge(True, 1.0, "long"))
            step_to(ft, driver, 1.0)
            assert tonal.tone.frequency == pytest.approx(tonal.max_tone.frequency)
            driver(SignalEdge(False, 2.0, "long"))
            step_to(ft, driver, 2.0)
            assert not tonal.is_active
    finally:
        tonal.close()
        factory.close()


def test_a_failing_device_never_stops_the_driver(ft: FakeTime) -> None:
    class Broken:
        def on(self) -> None:
            raise OSError("pin gone")

        def off(self) -> None:
            raise OSError("pin gone")

    with SignalDriver(Broken(), ft) as driver:
        driver(SignalEdge(True, 0.0, "beep"))
        assert driver.settled(5.0)
        assert list(driver.history) == []
        assert driver._thread.is_alive()


def test_a_beep_written_ahead_of_a_press_that_withdrew_it_is_cut_at_the_new_plan(ft: FakeTime, rig) -> None:
    """The loop reads the time of a press (109.99 s into a ČAS move, just before the beep at 110 s), but the
    driver, on its own thread, writes the planned beep before the loop hands it the new plan: the beep must not
    go on sounding (its off edge belonged to the withdrawn plan)."""
    driver, pin = rig
    clock = MoveClock(mode("cas"), 0.0)
    clock.press(1, 0.0)  # player 0's move from 0 s: the first beep at 110 s
    driver.plan(clock.signal_plan(0.0, horizon=130.0), 0.0)
    press = 109.99
    for e in clock.press(0, press):  # the loop takes the press at 109.99 s ...
        if isinstance(e, SignalEdge):
            driver(e)
    step_to(ft, driver, 110.05)  # ... while the driver, on time, writes the beep planned for 110 s
    assert pin.stamps == [(110.05, True)]
    driver.plan(clock.signal_plan(press, horizon=130.0), press)  # the loop hands over the new move's plan
    assert driver.settled(5.0)
    assert pin.stamps[-1] == (110.05, False)  # cut at once: the clock was silent at the press
    step_to(ft, driver, press + 109.0)
    assert pin.stamps[-1] == (110.05, False)  # silent until the new move's first beep
    step_to(ft, driver, press + 110.0)
    assert pin.stamps[-1] == (press + 110.0, True)


def test_edges_after_a_held_input_wait_for_its_plan(ft: FakeTime, rig) -> None:
    """The table holds the driver when an input arrives: a beep the input withdraws never sounds, one it keeps
    sounds when the plan arrives, and without a plan the hold ends by itself."""
    driver, pin = rig
    clock = MoveClock(mode("cas"), 0.0)
    clock.press(1, 0.0)
    driver.plan(clock.signal_plan(0.0, horizon=130.0), 0.0)
    driver.hold(109.99)  # a press at 109.99 s; the loop is still working on it at 110.05 s
    step_to(ft, driver, 110.05)
    assert pin.stamps == []
    clock.press(0, 109.99)
    driver.plan(clock.signal_plan(109.99, horizon=130.0), 109.99)
    assert driver.settled(5.0) and pin.stamps == []  # the withdrawn beep never sounded
    # an input that changes nothing: the held beep sounds as soon as the (same) plan arrives
    driver.hold(219.98)
    step_to(ft, driver, 220.0)
    assert pin.stamps == []
    driver.plan(clock.signal_plan(219.98, horizon=130.0), 219.98)
    assert driver.settled(5.0) and pin.stamps == [(220.0, True)]
    # no plan comes at all: the hold lapses after its limit and the edges are written
    driver.hold(220.05, limit=0.5)
    step_to(ft, driver, 220.3)
    assert pin.stamps == [(220.0, True)]
    step_to(ft, driver, 220.6)
    assert pin.stamps == [(220.0, True), (220.6, False)]


def test_a_beep_a_press_withdrew_stays_silent_when_the_plan_comes_after_its_instant(ft: FakeTime, rig) -> None:
    """As ``Table`` does it: hold at the press, the clock's due edges handed over as the loop advances it, and the
    plan taken at the end of the handling (its ``now`` later than the press, past the withdrawn beep's instant):
    the withdrawn beep never sounds; an edge the clock hands over after the press still does."""
    driver, pin = rig
    clock = MoveClock(mode("cas"), 0.0)
    clock.press(1, 0.0)
    driver.plan(clock.signal_plan(0.0, horizon=130.0), 0.0)
    driver.hold(109.99)  # the loop takes the press at 109.99 s, just before the beep at 110 s ...
    step_to(ft, driver, 110.05)
    for e in [*clock.press(0, 109.99), *clock.advance(110.05)]:
        if isinstance(e, SignalEdge):
            driver(e)
    driver.plan(clock.signal_plan(110.05, horizon=130.0), 110.05)  # ... and plans at 110.05 s, when it is done
    assert driver.settled(5.0) and pin.stamps == []
    # an input that changes nothing, handled across the beep at 220 s: the clock hands that beep over as due
    driver.hold(219.98)
    step_to(ft, driver, 220.05)
    for e in clock.advance(220.05):
        if isinstance(e, SignalEdge):
            driver(e)
    driver.plan(clock.signal_plan(220.05, horizon=130.0), 220.05)
    assert driver.settled(5.0) and pin.stamps == [(220.05, True)]
