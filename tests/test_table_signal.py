"""The table and its signal driver: an input that may change the signal holds the driver until the new plan."""

from __future__ import annotations

from table_rig import Rig

from device import inputs
from device.clock.events import SignalEdge


class SignalLog:
    """Stands in for ``device.buzzer.SignalDriver``: records what the table asks of it, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []

    def __call__(self, edge: SignalEdge) -> None:
        self.calls.append(("edge", edge.at))

    def hold(self, now: float) -> None:
        self.calls.append(("hold", now))

    def plan(self, edges: list[SignalEdge], now: float) -> None:
        self.calls.append(("plan", now))


def test_a_press_holds_the_driver_from_before_its_time_until_the_plan(tmp_path) -> None:
    rig = Rig(tmp_path)
    log = SignalLog()
    rig.table.signal = log
    rig.start()
    rig.press(1)  # B starts A's move
    rig.time.set(109.99)  # 10 ms before the first beep of the move
    log.calls.clear()
    rig.press(0)  # A ends the move
    kinds = [kind for kind, _ in log.calls]
    assert kinds[0] == "hold" and "plan" in kinds
    hold_at = log.calls[0][1]
    first_plan = log.calls[kinds.index("plan")][1]
    assert hold_at <= 109.99 <= first_plan
    assert rig.table.clock.player_on_move == 1
    # inputs that cannot change the signal do not hold it
    log.calls.clear()
    rig.table.handle(inputs.EncoderTurned(1))
    assert "hold" not in [kind for kind, _ in log.calls]


def test_timer_ticks_keep_the_plan_until_it_needs_renewing_and_a_clock_event_replans(tmp_path, monkeypatch) -> None:
    import device.table
    from device.table import PLAN_REFRESH_S

    rig = Rig(tmp_path)
    log = SignalLog()
    rig.table.signal = log
    rig.start()
    rig.press(1)  # B starts A's move at 0 s; the plan handed over reaches 15 s ahead
    plans = lambda: [at for kind, at in log.calls if kind == "plan"]  # noqa: E731
    first = plans()[-1]
    log.calls.clear()
    t = first
    while t + 1.0 < first + PLAN_REFRESH_S:  # ticks: only time passes, the plan still holds
        t += 1.0
        rig.time.set(t)
        rig.table.handle(inputs.Tick())
    assert plans() == []
    monkeypatch.setattr(device.table, "PLAN_REFRESH_S", 1000.0)  # the renewal's plan holds: only an event re-plans
    rig.time.set(first + PLAN_REFRESH_S)
    rig.table.handle(inputs.Tick())
    assert plans() == [first + PLAN_REFRESH_S]  # renewed before its 15 s run out
    log.calls.clear()
    rig.time.set(120.5)  # A's move time ran out: a clock event (the time-out) changes what comes next
    rig.table.handle(inputs.Tick())
    assert plans() == [120.5]
    log.calls.clear()
    rig.table.handle(inputs.EncoderTurned(1))  # any input plans again
    assert plans() == [120.5]
