"""The move clock's state machine: every mode and transition, on exact timestamps (no sleeps, no real time)."""

from __future__ import annotations

import json

import pytest

from device.clock import events as ev
from device.clock.core import MoveClock
from device.clock.errors import ClockError
from device.clock.modes import PRESETS, ClockMode, mode
from device.clock.signal import SignalPattern, signal_schedule

CAS = mode("cas")
# ČAS default signal for a move started at 0: beeps at 110..118 s (0.1 s), the long tone from 118.5 s to 120 s.
CAS_SCHEDULE = sorted(
    [(110.0 + k, True) for k in range(9)] + [(110.1 + k, False) for k in range(9)] + [(118.5, True), (120.0, False)]
)


def r(pairs: list[tuple[float, bool]]) -> list[tuple[float, bool]]:
    """(time, on) pairs with the times rounded to 1e-9 s: float noise only, far below any real error."""
    return [(round(t, 9), on) for t, on in pairs]


def edges(events: list) -> list[tuple[float, bool]]:
    return r([(e.at, e.on) for e in events if isinstance(e, ev.SignalEdge)])


def others(events: list) -> list:
    return [e for e in events if not isinstance(e, ev.SignalEdge)]


def run_to(clock: MoveClock, end: float) -> list:
    """Advance exactly from deadline to deadline (as the table loop does) up to ``end``; checks every event is due
    exactly at the deadline the clock announced."""
    out = []
    while (d := clock.next_deadline()) is not None and d <= end:
        got = clock.advance(d)
        assert got, f"next_deadline {d} announced but nothing was due"
        assert all(e.at == d for e in got), (d, got)
        out += got
    out += clock.advance(end)
    return out


def started(m: ClockMode = CAS, at: float = 0.0, presser: int = 1) -> MoveClock:
    c = MoveClock(m, at)
    assert c.press(presser, at) == [ev.MoveStarted(0, at)]
    return c


# --------------------------------------------------------------------------------------------- press order
def test_the_second_players_press_starts_the_first_players_first_move() -> None:
    c = MoveClock(CAS, 0.0)
    assert not c.started and c.player_on_move is None and c.state == "idle"
    assert c.press(1, 3.0) == [ev.MoveStarted(0, 3.0)]
    assert c.started and c.player_on_move == 0 and c.state == "running"
    assert c.view(13.0)["move_left"] == pytest.approx(110.0)


def test_the_player_on_move_ends_the_move_and_starts_the_opponents() -> None:
    c = started()
    assert c.press(0, 30.0) == [ev.MoveEnded(0, 30.0, 90.0), ev.MoveStarted(1, 30.0)]
    assert c.player_on_move == 1
    assert c.press(1, 50.0) == [ev.MoveEnded(1, 50.0, 100.0), ev.MoveStarted(0, 50.0)]
    assert c.view(50.0)["move_no"] == 3


def test_a_press_by_the_player_not_on_move_is_ignored_logged_and_changes_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    c = started()
    before = c.view(10.0)
    with caplog.at_level("INFO", logger="device.clock.core"):
        assert c.press(1, 10.0) == [ev.PressIgnored(1, ev.NOT_ON_MOVE, 10.0)]
    assert "press by player 1 at 10.000 ignored: not on move" in caplog.text
    assert c.view(10.0) == before
    assert c.next_deadline() == 110.0


def test_a_bounce_is_ignored_then_the_same_player_is_simply_not_on_move() -> None:
    c = started()
    c.press(0, 20.0)
    assert c.press(0, 20.2) == [ev.PressIgnored(0, ev.BOUNCE, 20.2)]
    assert c.press(0, 21.0) == [ev.PressIgnored(0, ev.NOT_ON_MOVE, 21.0)]
    assert c.player_on_move == 1


def test_an_unknown_player_is_ignored_without_an_exception() -> None:
    c = started()
    assert c.press(5, 1.0) == [ev.PressIgnored(5, ev.UNKNOWN_PLAYER, 1.0)]
    assert c.press(-1, 1.0)[0].reason == ev.UNKNOWN_PLAYER
    with pytest.raises(ClockError, match="player must be 0..1, got 7"):
        c.set_on_move(7, 1.0)


def test_time_never_goes_back() -> None:
    c = started()
    c.advance(50.0)
    assert c.press(0, 40.0) == [ev.MoveEnded(0, 50.0, 70.0), ev.MoveStarted(1, 50.0)]


# ------------------------------------------------------------------------------------------- the signal
def test_the_exact_beep_schedule_of_a_cas_move_and_the_time_out_when_the_long_tone_has_sounded_out() -> None:
    c = started()
    c.mark_present(0, 0.0)
    out = run_to(c, 130.0)
    assert edges(out) == r(CAS_SCHEDULE)
    assert [e.kind for e in out if isinstance(e, ev.SignalEdge)][-2:] == ["long", "long"]
    assert others(out) == [ev.TimeOut(0, 120.0)]
    assert out[-2:] == [ev.SignalEdge(False, 120.0, "long"), ev.TimeOut(0, 120.0)]
    assert r(signal_schedule(0.0)) == r(CAS_SCHEDULE)


def test_the_schedule_does_not_depend_on_when_the_caller_wakes_up() -> None:
    a, b = started(at=7.25), started(at=7.25)
    fine = []
    t = 7.25
    while t < 140:
        t += 0.037
        fine += a.advance(t)
    late = b.advance(140.0)
    assert fine == late
    assert edges(late) == r([(t + 7.25, on) for t, on in CAS_SCHEDULE])


def test_a_press_during_the_long_tone_cuts_it_at_once() -> None:
    c = started()
    c.advance(119.0)
    assert c.view(119.0)["signal"] is True
    c.press(0, 119.0)
    assert c.advance(119.0) == [ev.SignalEdge(False, 119.0, "cut")]
    assert c.next_deadline() == 229.0  # the opponent's first beep


def test_a_configured_pattern_is_followed() -> None:
    pattern = SignalPattern.move_signal(beeps_from=3.0, period=1.0, beep=0.2, long=0.5)
    m = ClockMode("short", move_time=5.0, game_time=None, warning_before=None, move_signal=pattern)
    c = started(m)
    assert edges(run_to(c, 6.0)) == r(
        [(2.0, True), (2.2, False), (3.0, True), (3.2, False), (4.0, True), (4.2, False), (4.5, True), (5.0, False)]
    )


# ------------------------------------------------------------------------------------------- time-outs
def test_after_a_time_out_only_the_timed_out_players_press_starts_the_opponent() -> None:
    c = started()
    c.mark_present(0, 1.0)
    out = c.advance(120.0)
    assert others(out) == [ev.TimeOut(0, 120.0)]
    assert c.state == "awaiting" and c.awaiting_press == 0 and c.next_on_move == 1
    assert c.next_deadline() is not None and c.next_deadline() > 1000  # only the game time is pending
    assert c.press(1, 125.0) == [ev.PressIgnored(1, ev.NOT_AWAITED, 125.0)]
    assert c.press(0, 130.0) == [ev.MoveStarted(1, 130.0)]
    assert c.next_deadline() == 240.0


def test_auto_start_starts_the_opponent_exactly_at_the_deadline() -> None:
    m = ClockMode("auto", auto_start=True)
    c = started(m)
    c.mark_present(0, 0.0)
    out = c.advance(500.0)
    assert [e for e in others(out)] == [
        ev.TimeOut(0, 120.0),
        ev.MoveStarted(1, 120.0),
        ev.TimeOut(1, 240.0),
        ev.MoveStarted(0, 240.0),
        ev.TimeOut(0, 360.0),
        ev.MoveStarted(1, 360.0),
        ev.TimeOut(1, 480.0),
        ev.MoveStarted(0, 480.0),
    ]
    assert len(edges(out)) == 4 * len(CAS_SCHEDULE)


# -------------------------------------------------------------------------------------------- no-show
def test_no_show_the_first_player_gave_no_sign_the_clock_reports_it_and_times_the_move_out() -> None:
    """004: "Pokud se hráč nedostaví k partii nejpozději do konce doby vymezené na jeho prvý tah, je partie
    kontumována" - but only the referee knows the player has not come: the clock reports it and goes on."""
    c = started()
    out = c.advance(125.0)
    assert others(out) == [ev.PossibleNoShow(0, 120.0), ev.TimeOut(0, 120.0)]
    assert not c.stopped and c.state == "awaiting"
    assert others(c.press(0, 126.0)) == [ev.MoveStarted(1, 126.0)]  # he was there after all


def test_no_show_the_second_player_never_came_the_first_started_their_own_clock() -> None:
    c = MoveClock(CAS, 0.0)
    assert c.press(0, 0.0) == [ev.MoveStarted(0, 0.0)]  # a lone player starts their own first move (seed 004)
    c.press(0, 60.0)
    out = c.advance(200.0)
    assert others(out) == [ev.PossibleNoShow(1, 180.0), ev.TimeOut(1, 180.0)]


def test_a_checkpoint_written_before_the_rename_still_restores() -> None:
    data = CAS.to_dict()
    data["no_show_forfeit"] = data.pop("no_show_check")
    assert ClockMode.from_dict(data) == CAS


def test_a_present_player_who_runs_out_of_time_in_the_first_move_only_loses_the_move() -> None:
    c = MoveClock(CAS, 0.0)
    c.press(0, 0.0)  # player 0 is there: pressed to start their own clock
    assert others(c.advance(120.0)) == [ev.TimeOut(0, 120.0)]
    c2 = started()
    c2.mark_present(0, 5.0)  # the game saw player 0's tiles
    assert others(c2.advance(120.0)) == [ev.TimeOut(0, 120.0)]


def test_a_later_time_out_is_never_a_forfeit() -> None:
    c = started()
    c.press(0, 10.0)
    c.press(1, 20.0)
    assert others(c.advance(140.0)) == [ev.TimeOut(0, 140.0)]


# ---------------------------------------------------------------------------------------- pause, ruling
def test_pause_freezes_the_move_time_and_cuts_the_tone_resume_continues() -> None:
    c = started()
    c.advance(115.05)  # inside the beep at 115.0-115.1
    assert c.pause(115.05) == [ev.Paused(115.05, pytest.approx(4.95))]
    assert c.advance(115.05) == [ev.SignalEdge(False, 115.05, "cut")]
    assert c.paused and c.view(200.0)["move_left"] == pytest.approx(4.95)
    assert c.press(0, 150.0) == [ev.PressIgnored(0, ev.PAUSED, 150.0)]
    assert c.pause(160.0) == []
    assert c.resume(215.0) == [ev.Resumed(215.0)]
    out = c.advance(221.0)
    # the rest of the cut beep, then the pattern shifted by the pause: 4.95 s left ends the move at 219.95
    assert edges(out) == r([(215.0, True), (215.05, False), (215.95, True), (216.05, False), (216.95, True),
                            (217.05, False), (217.95, True), (218.05, False), (218.45, True), (219.95, False)])
    assert others(out) == [ev.TimeOut(0, 219.95)]


def test_after_a_ruling_the_player_on_move_gets_the_full_move_time() -> None:
    c = started()
    c.press(0, 30.0)
    c.pause(100.0)
    c.resume(160.0)
    assert c.restart_move(160.0) == [ev.MoveStarted(1, 160.0)]
    assert c.view(160.0)["move_left"] == pytest.approx(120.0)
    assert c.next_deadline() == 270.0
    assert others(c.advance(300.0)) == [ev.TimeOut(1, 280.0)]


def test_restart_while_paused_gives_the_full_time_from_the_resume() -> None:
    c = started()
    c.pause(100.0)
    c.restart_move(110.0)
    assert c.view(130.0)["move_left"] == pytest.approx(120.0)
    c.resume(140.0)
    assert c.next_deadline() == 250.0


def test_restart_does_nothing_when_no_move_runs() -> None:
    c = MoveClock(CAS, 0.0)
    assert c.restart_move(1.0) == [] and c.state == "idle"
    c = started()
    c.mark_present(0, 1.0)
    c.advance(121.0)
    assert c.restart_move(122.0) == [] and c.state == "awaiting"


def test_a_referee_pause_before_the_start_blocks_presses_until_resumed() -> None:
    c = MoveClock(CAS, 0.0)
    c.pause(1.0)
    assert c.press(1, 2.0) == [ev.PressIgnored(1, ev.PAUSED, 2.0)]
    c.resume(3.0)
    assert c.state == "idle"
    assert c.press(1, 4.0) == [ev.MoveStarted(0, 4.0)]


# ------------------------------------------------------------------------------------------- game time
def test_game_time_warning_10_minutes_before_and_expiry_at_40_minutes() -> None:
    c = MoveClock(CAS, 0.0)
    c.start_game(5.0)
    c.press(1, 20.0)
    collected = []
    t = 20.0
    while t < 2410.0:
        t += 60.0
        collected += c.advance(t)
        if c.state == "running":
            c.press(c.player_on_move, t)
        else:
            c.press(c.awaiting_press, t)
    game = [e for e in collected if isinstance(e, (ev.GameTimeWarning, ev.GameTimeExpired))]
    assert game == [ev.GameTimeWarning(1805.0, 600.0), ev.GameTimeExpired(2405.0)]
    chimes = r([(e.at, e.on) for e in collected if isinstance(e, ev.SignalEdge) and e.kind in ("warning", "expired")])
    assert chimes == r(
        [(1805.0, True), (1805.2, False), (1805.4, True), (1805.6, False), (1805.8, True), (1806.0, False),
         (2405.0, True), (2407.0, False)]
    )
    assert c.view(2500.0)["game_left"] == 0.0 and c.view(2500.0)["game_phase"] == "expired"
    assert c.state == "running"  # the playout goes on with the move clock


def test_game_time_starts_with_the_first_move_without_a_round_start_and_runs_through_pauses() -> None:
    c = MoveClock(CAS, 0.0)
    assert c.view(100.0)["game_left"] == 2400.0 and c.view(100.0)["game_phase"] == "not started"
    c.press(1, 100.0)
    c.pause(150.0)
    assert c.view(1000.0)["game_left"] == pytest.approx(1500.0)
    out = c.advance(1900.0)
    assert others(out) == [ev.GameTimeWarning(1900.0, 600.0)]
    assert c.paused


# --------------------------------------------------------------------------------------------- modes
def test_prague_doubles_four_players_clockwise_two_minutes_35_minute_game() -> None:
    m = mode("prague")
    assert (m.sides, m.move_time, m.game_time) == (4, 120.0, 2100.0)
    c = MoveClock(m, 0.0)
    assert c.press(3, 0.0) == [ev.MoveStarted(0, 0.0)]
    order = []
    for k, t in enumerate((10.0, 20.0, 30.0, 40.0, 50.0)):
        out = c.press(k % 4, t)
        order.append(out[-1].player)
    assert order == [1, 2, 3, 0, 1]
    assert c.press(3, 60.0)[0].reason == ev.NOT_ON_MOVE
    assert others(c.advance(1600.0)) == [ev.TimeOut(1, 170.0), ev.GameTimeWarning(1500.0, 600.0)]
    c.press(1, 1600.0)
    assert ev.GameTimeWarning(1500.0, 600.0) not in c.advance(1601.0)  # fired already, not twice


def test_polish_doubles_three_minutes_per_double_move() -> None:
    m = mode("polish")
    c = started(m)
    assert c.next_deadline() == 170.0
    c.press(0, 100.0)
    assert c.next_deadline() == 270.0
    assert others(c.advance(300.0)) == [ev.TimeOut(1, 280.0)]
    assert c.view(300.0)["game_left"] == pytest.approx(1800.0)


def test_home_one_minute_no_game_time_no_forfeit() -> None:
    m = mode("home")
    c = started(m)
    assert others(c.advance(61.0)) == [ev.TimeOut(0, 60.0)]
    v = c.view(61.0)
    assert v["game_left"] is None and v["game_phase"] is None
    three = MoveClock(m.with_sides(3), 0.0)
    three.press(2, 0.0)
    three.press(0, 1.0)
    three.press(1, 2.0)
    assert three.player_on_move == 2


def test_home_chess_clock_budgets_run_down_and_run_out() -> None:
    m = mode("home_chess")
    c = started(m)
    assert c.view(0.0)["move_left"] is None
    c.press(0, 300.0)  # player 0 used 5 min
    c.press(1, 400.0)  # player 1 used 100 s
    v = c.view(450.0)
    assert v["budgets"] == pytest.approx([850.0, 1100.0])
    out = c.advance(2000.0)
    assert others(out) == [ev.BudgetExpired(0, 1300.0)]
    assert edges(out) == r([(t + 1180.0, on) for t, on in CAS_SCHEDULE])
    assert c.stopped and c.next_deadline() is None


def test_free_mode_has_no_deadlines_but_keeps_the_order() -> None:
    c = started(mode("free"))
    assert c.next_deadline() is None and c.advance(1e6) == []
    c.press(0, 1e6)
    assert c.player_on_move == 1 and c.view(2e6)["move_left"] is None


def test_duplicate_three_minutes_for_everyone_the_referee_starts_each_round() -> None:
    m = mode("duplicate")
    c = MoveClock(m, 0.0)
    assert c.press(0, 0.0) == [ev.MoveStarted(0, 0.0)]
    assert others(c.advance(200.0)) == [ev.TimeOut(0, 180.0)]
    assert c.state == "awaiting"
    assert c.press(0, 250.0) == [ev.MoveStarted(0, 250.0)]
    assert c.press(0, 300.0) == [ev.MoveEnded(0, 300.0, 130.0)]  # everyone done: the referee ends the round
    assert c.state == "awaiting" and c.next_deadline() is None
    assert c.view(301.0)["move_no"] == 2


# ------------------------------------------------------------------------------------------ set_on_move
def test_set_on_move_follows_the_game() -> None:
    c = MoveClock(CAS, 0.0)
    c.set_on_move(1, 0.0)
    assert c.press(0, 1.0) == [ev.MoveStarted(1, 1.0)]
    c.press(1, 10.0)  # player 0 on move ...
    assert c.set_on_move(1, 12.0) == [ev.MoveStarted(1, 12.0)]  # ... but loses the turn: player 1 again
    assert c.next_deadline() == 122.0
    assert c.set_on_move(1, 13.0) == []  # already
    c.mark_present(1, 13.0)
    c.advance(200.0)
    assert c.state == "awaiting" and c.awaiting_press == 1
    c.set_on_move(1, 201.0)
    assert c.press(1, 202.0) == [ev.MoveStarted(1, 202.0)]


def test_set_on_move_while_paused_takes_effect_with_full_time() -> None:
    c = started()
    c.pause(50.0)
    c.set_on_move(1, 60.0)
    assert c.player_on_move == 1 and c.view(60.0)["move_left"] == pytest.approx(120.0)
    c.resume(70.0)
    assert c.next_deadline() == 180.0


def test_stop_silences_and_ends_everything() -> None:
    c = started()
    c.advance(119.0)
    c.stop(119.0)
    assert c.advance(119.0) == [ev.SignalEdge(False, 119.0, "cut")]
    assert c.next_deadline() is None and c.stopped


def test_a_reopened_game_runs_the_side_on_moves_full_move_from_the_reopening() -> None:
    """An upheld challenge of the play that closed the game: the stopped clock runs the challenger's move again,
    its signal at the usual offsets, the move count unchanged (the same move, restarted), the game time going on."""
    c = started()
    c.press(0, 30.0)  # the closing play: side 1's move starts, then the game's end stops the clock
    c.stop(30.0)
    assert c.press(1, 50.0)[0].reason == ev.STOPPED
    moves = c.view(60.0)["move_no"]
    assert c.reopen(1, 60.0) == [ev.MoveStarted(1, 60.0)]
    assert c.state == "running" and c.player_on_move == 1 and c.view(60.0)["move_no"] == moves
    assert c.view(60.0)["game_left"] == pytest.approx(CAS.game_time - 60.0)
    restored = MoveClock.restore(json.loads(json.dumps(c.snapshot(100.0))), 5000.0)
    assert restored.state == "running" and restored.view(5000.0)["move_left"] == pytest.approx(80.0)
    assert edges(run_to(c, 181.0)) == r([(t + 60.0, on) for t, on in CAS_SCHEDULE])


def test_reopen_does_nothing_unless_the_clock_stopped() -> None:
    c = started()
    assert c.reopen(1, 10.0) == [] and c.player_on_move == 0
    with pytest.raises(ClockError):
        c.reopen(2, 10.0)


# ---------------------------------------------------------------------------------------------- view
def test_the_view_is_json_and_shows_tenths_worth_of_precision() -> None:
    c = started()
    v = c.view(112.34)
    json.dumps(v)
    assert v["move_left"] == pytest.approx(7.66)
    assert v["player_on_move"] == 0 and v["next_on_move"] == 1 and v["signal"] is False
    c.advance(112.34)
    assert c.view(112.34)["signal"] is False
    c.advance(113.05)
    assert c.view(113.05)["signal"] is True


def test_signal_plan_predicts_the_edges_without_advancing() -> None:
    c = started()
    plan = c.signal_plan(105.0, horizon=20.0)
    assert r([(e.at, e.on) for e in plan]) == r(CAS_SCHEDULE)
    assert c.view(105.0)["signal"] is False and c.next_deadline() == 110.0


# ---------------------------------------------------------------------------------------------- modes
def test_every_preset_runs_a_few_moves_without_error() -> None:
    for name, m in PRESETS.items():
        c = MoveClock(m, 0.0)
        c.press(m.sides - 1, 0.0)
        for k in range(6):
            on = c.player_on_move if c.state == "running" else c.awaiting_press
            if on is not None:
                c.press(on, 10.0 + 30 * k)
            c.advance(10.0 + 30 * k)
        json.dumps(c.view(200.0)), name


def test_mode_errors_name_the_mode_and_the_value() -> None:
    with pytest.raises(ClockError, match="unknown clock mode 'blitz'; presets: cas, prague"):
        mode("blitz")
    with pytest.raises(ClockError, match="clock mode 'x': move_time must be > 0"):
        ClockMode("x", move_time=0)
    with pytest.raises(ClockError, match="unknown keys"):
        ClockMode.from_dict({"name": "cas", "speed": 2})
    assert ClockMode.from_dict(CAS.to_dict()) == CAS
    assert ClockMode.from_dict({"name": "cas", "auto_start": True}).auto_start
    with pytest.raises(ClockError, match="MoveClock needs a ClockMode"):
        MoveClock("cas", 0.0)  # type: ignore[arg-type]


def test_signal_patterns_from_config_data_and_their_errors() -> None:
    m = ClockMode.from_dict(
        {"name": "cas", "move_signal": {"tones": [{"offset": -5, "length": 0.5}, {"offset": -1, "length": 1, "kind": "long"}]}}
    )
    c = started(m)
    c.mark_present(0, 0.0)
    assert edges(run_to(c, 121.0)) == r([(115.0, True), (115.5, False), (119.0, True), (120.0, False)])
    with pytest.raises(ClockError, match=r"clock mode 'cas'.move_signal: tones .* overlap"):
        ClockMode.from_dict({"name": "cas", "move_signal": {"tones": [{"offset": -2, "length": 1.5},
                                                                      {"offset": -1, "length": 1}]}})
    with pytest.raises(ClockError, match=r"move_signal.tones\[0\]: bad tone"):
        ClockMode.from_dict({"name": "cas", "move_signal": {"tones": [{"length": 1}]}})
    with pytest.raises(ClockError, match="tone length must be > 0"):
        ClockMode.from_dict({"name": "cas", "move_signal": {"tones": [{"offset": -1, "length": 0}]}})
