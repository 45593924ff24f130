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
