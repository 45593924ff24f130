"""Clock snapshots survive a reboot: durations, not monotonic instants; the three resume rules."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.clock import events as ev
from device.clock.core import MoveClock
from device.clock.errors import ClockError
from device.clock.modes import PRESETS, ClockMode, mode

CAS = mode("cas")


def through_json(snapshot: dict) -> dict:
    return json.loads(json.dumps(snapshot))


def shifted(events: list, by: float) -> list[tuple]:
    """Events as comparable tuples with their times moved by ``by`` and rounded (float noise only)."""
    out = []
    for e in events:
        d = dataclasses.asdict(e)
        d = {k: (round(v + by, 6) if k == "at" else round(v, 6) if isinstance(v, float) else v) for k, v in d.items()}
        out.append((type(e).__name__, tuple(sorted(d.items()))))
    return out


def test_continue_keeps_the_move_time_left_on_a_new_time_base() -> None:
    c = MoveClock(CAS, 100.0)
    c.start_game(100.0)
    c.press(1, 100.0)
    c.press(0, 130.0)  # player 1 on move from 130
    snap = through_json(c.snapshot(175.0))
    assert snap["game_left"] == pytest.approx(2325.0)
    d = MoveClock.restore(snap, 5.0, "continue")  # after a reboot, monotonic time starts near 0
    v = d.view(5.0)
    assert v["move_left"] == pytest.approx(75.0) and v["player_on_move"] == 1 and v["game_left"] == pytest.approx(2325.0)
    assert d.next_deadline() == pytest.approx(70.0)
    assert [e for e in d.advance(81.0) if not isinstance(e, ev.SignalEdge)] == [ev.TimeOut(1, pytest.approx(80.0))]


def test_restart_gives_the_player_on_move_the_full_time() -> None:
    c = MoveClock(CAS, 0.0)
    c.press(1, 0.0)
    d = MoveClock.restore(through_json(c.snapshot(100.0)), 10.0, "full")
    assert d.view(10.0)["move_left"] == pytest.approx(120.0) and d.state == "running"


def test_paused_rule_comes_back_paused_with_the_time_left() -> None:
    c = MoveClock(CAS, 0.0)
    c.press(1, 0.0)
    d = MoveClock.restore(through_json(c.snapshot(100.0)), 10.0, "paused")
    assert d.paused and d.view(500.0)["move_left"] == pytest.approx(20.0)
    d.resume(600.0)
    assert d.next_deadline() == pytest.approx(610.0)  # the first beep: 10 s before the end


def test_a_snapshot_taken_while_paused_restores_paused() -> None:
    c = MoveClock(CAS, 0.0)
    c.press(1, 0.0)
    c.pause(50.0)
    for rule in ("continue", "paused"):
        d = MoveClock.restore(through_json(c.snapshot(80.0)), 0.0, rule)
        assert d.paused and d.view(3.0)["move_left"] == pytest.approx(70.0)


def test_pending_results_of_an_input_are_kept() -> None:
    c = MoveClock(CAS, 0.0)
    c.press(1, 0.0)
    c.mark_present(0, 0.0)
    snap = c.snapshot(121.0)  # the time-out happened but was not yet taken by advance
    d = MoveClock.restore(through_json(snap), 1000.0, "continue")
    assert ev.TimeOut(0, pytest.approx(999.0)) in d.advance(1000.0)


def test_a_broken_snapshot_or_rule_is_a_clock_error_naming_it() -> None:
    good = MoveClock(CAS, 0.0).snapshot()
    with pytest.raises(ClockError, match="unknown resume rule 'later'"):
        MoveClock.restore(good, 0.0, "later")
    with pytest.raises(ClockError, match="expected version 1"):
        MoveClock.restore({"version": 99}, 0.0)
    broken = dict(good, state="flying")
    with pytest.raises(ClockError, match="bad state 'flying'"):
        MoveClock.restore(broken, 0.0)
    with pytest.raises(ClockError, match="side 5 out of range"):
        MoveClock.restore(dict(good, on_move=5), 0.0)
    with pytest.raises(ClockError, match="broken"):
        MoveClock.restore({k: v for k, v in good.items() if k != "moves"}, 0.0)
    assert isinstance(ClockError("x"), ValueError)


OPS = st.lists(
    st.tuples(
        st.sampled_from(["press", "press", "press", "advance", "pause", "resume", "restart", "set_on_move", "present"]),
        st.one_of(st.floats(min_value=0.0, max_value=3.0), st.floats(min_value=0.0, max_value=400.0)),
        st.integers(min_value=0, max_value=3),
    ),
    max_size=25,
)


def apply(clock: MoveClock, op: tuple[str, float, int], now: float) -> list:
    kind, _, player = op
    sides = clock.mode.sides
    if kind == "press":
        return clock.press(player % sides, now)
    if kind == "pause":
        return clock.pause(now)
    if kind == "resume":
        return clock.resume(now)
    if kind == "restart":
        return clock.restart_move(now)
    if kind == "set_on_move":
        return clock.set_on_move(player % sides, now)
    if kind == "present":
        clock.mark_present(player % sides, now)
        return []
    return []


def play(clock: MoveClock, ops: list, start: float, shift: float) -> list:
    out: list = []
    t = start
    for op in ops:
        t += op[1]
        out += shifted(apply(clock, op, t + shift), -shift)
        out += shifted(clock.advance(t + shift), -shift)
    out += shifted(clock.advance(t + 3000.0 + shift), -shift)
    return out


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(sorted(PRESETS)),
    before=OPS,
    after=OPS,
    shift=st.sampled_from([0.0, -400.0, 12345.678]),
)
def test_restoring_a_snapshot_with_continue_gives_the_same_future(
    name: str, before: list, after: list, shift: float
) -> None:
    m: ClockMode = PRESETS[name]
    a = MoveClock(m, 500.0)
    t = 500.0
    for op in before:
        t += op[1]
        apply(a, op, t)
        a.advance(t)
    snap = through_json(a.snapshot(t))
    b = MoveClock.restore(snap, t + shift, "continue")
    assert play(a, after, t, 0.0) == play(b, after, t, shift)


@pytest.mark.parametrize("shift", [0.0, -400.0, 12345.678])
def test_a_press_at_the_debounce_windows_end_reads_the_same_on_any_time_base(shift: float) -> None:
    # found by Hypothesis: 12345.978 - 12345.678 is a hair under 0.3, so the restored clock ended a move the
    # original one had ignored as a bounce
    m = PRESETS["cas"]
    a = MoveClock(m, 500.0)
    b = MoveClock.restore(through_json(a.snapshot(500.0)), 500.0 + shift, "continue")
    ops = [("press", 0.0, 0), ("press", m.debounce, 0)]
    assert play(a, ops, 500.0, 0.0) == play(b, ops, 500.0, shift)
    assert not any(isinstance(e, ev.PressIgnored) for e in play(MoveClock(m, shift), ops, 0.0, shift))
