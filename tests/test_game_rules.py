"""The game state machine: turns, bag count, refusals, challenges, crosses, appeals, the A-B-C playout, ends."""

from __future__ import annotations

import pytest

from engine.board import Square
from engine.draw import DrawUndecided, draw_order, starting_player
from engine.game import (
    AlreadyRuled,
    AppealRuling,
    BadPlayer,
    BadRackEntry,
    ChallengeExchange,
    ChallengePending,
    ChallengeScore,
    ChallengeWord,
    CrossGiven,
    EndReason,
    Exchange,
    ExchangeNotAllowed,
    Forfeit,
    Game,
    GameError,
    GameNotOver,
    GameOver,
    IllegalMove,
    MoveKind,
    NoChallenge,
    NoOpenMove,
    NothingToAppeal,
    NotStarted,
    OnMove,
    Pass,
    Phase,
    PlayNotAllowed,
    PutBack,
    RackEntry,
    RestartMoveClock,
    Ruling,
    Start,
    TakeBack,
    TurnLost,
    UnknownWord,
)
from engine.game.script import run_script
from engine.ruleset import CAS, ENGLISH, HOME, Ruleset, RulesetError, preset
from engine.tiles import tile_set


def refused(game: Game, event, error: type[GameError]) -> None:
    """The event raises ``error`` and the state is exactly as before."""
    before = game.to_dict()
    count = len(game.events)
    with pytest.raises(error):
        game.apply(event)
    assert game.to_dict() == before
    assert len(game.events) == count


OPENING = """
start cas Jan Eva
play H7V ROZUM
"""


def test_event_before_start_is_refused():
    refused(Game(), Pass(0), NotStarted)


def test_turns_alternate_and_bag_count_follows_board_and_racks():
    game = run_script(OPENING)
    assert game.bag_count == 100 - 5 - 14  # five on the board, the rack refilled
    assert game.rack_counts == [7, 7]
    assert game.player_on_move == 1
    out = game.apply(Pass(10))
    assert out == [OnMove(0)]
    assert game.player_on_move == 0
    assert game.history[0].score == 16 and game.history[0].total == 16
    assert [m.kind for m in game.history] == [MoveKind.PLAY, MoveKind.PASS]


def test_home_play_with_four_players_rotates():
    game = run_script("start home A B C D\npass\npass\npass")
    assert game.player_on_move == 3
    assert game.bag_count == 100 - 28
    assert game.ruleset.scoreless_turns(4) == 8


def test_exchange_needs_enough_tiles_and_one_with_too_few_in_the_bag_is_the_opponents_challenge():
    """000 "Protest lze podat i na neoprávněnou výměnu (situaci, kdy je v sáčku 6 a méně kamenů) ... pokud je
    protest úspěšný, hráč, který chtěl vyměnit kameny ztrácí svůj tah bez výměny": the game records it and opens
    it to the challenge; the referee rules."""
    game = run_script(OPENING)
    refused(game, Exchange(5, 8), ExchangeNotAllowed)
    game.apply(Exchange(5, 7))
    assert game.bag_count == 81 and game.open_move is None  # enough in the bag: nothing to challenge
    refused(game, ChallengeExchange(6), NoOpenMove)
    # a ruleset needing more tiles in the bag than there are
    for upheld in (True, False):
        strict = Game()
        strict.apply(Start(0, ("A", "B"), preset("cas", exchange_min_bag=87)))
        strict.apply(Exchange(1, 3))
        move = strict.history[-1]
        assert move.kind is MoveKind.EXCHANGE and move.note == "exchange with 86 in the bag"
        assert strict.open_move is not None and strict.open_move.challenger == 1
        refused(strict, ChallengeScore(2), NoOpenMove)
        strict.apply(ChallengeExchange(2))
        assert strict.pending is not None and strict.pending.kind == "exchange"
        out = strict.apply(Ruling(3, upheld=upheld))
        assert not [o for o in out if isinstance(o, TakeBack)]
        assert strict.history[0].kind is (MoveKind.WITHDRAWN if upheld else MoveKind.EXCHANGE)
        assert strict.crosses == ([0, 0] if upheld else [0, 1]) and strict.player_on_move == 1
        assert strict.open_move is None and strict.rack_counts == [7, 7]


def test_illegal_placements_and_missing_tiles_are_refused():
    game = run_script("start cas A B")
    from engine.game import Play
    from engine.placement import Placement

    refused(game, Play(1, (Placement.at(0, 0, "A"), Placement.at(0, 1, "B"))), IllegalMove)  # off centre
    refused(game, Play(1, tuple(Placement.at(7, c, "A") for c in range(4, 12))), IllegalMove)  # 8 tiles
    refused(game, Play(1, (Placement.at(7, 7, "Q"), Placement.at(7, 8, "A"))), IllegalMove)  # no Q tile
    # a blank may be any letter, even one outside the set
    game.apply(Play(1, (Placement.at(7, 7, "q"), Placement.at(7, 8, "A"))))
    assert game.history[-1].words == ("qA",)


def test_word_challenge_upheld_withdraws_the_move():
    game = run_script(OPENING + "play G8S K.T")  # KOT by Eva
    assert game.scores == [16, 3]
    game.apply(ChallengeWord(5, "KOT"))
    out = game.apply(Ruling(6, True))
    assert TakeBack(1, (Square(6, 7), Square(8, 7))) in out
    assert out[-1] == RestartMoveClock(0)
    assert game.scores == [16, 0]
    assert game.history[-1].kind is MoveKind.WITHDRAWN
    assert game.board.get(6, 7) is None
    assert game.bag_count == 81 and game.rack_counts == [7, 7]
    assert game.player_on_move == 0
    refused(game, ChallengeWord(7, 0), NoOpenMove)


def test_refusals_around_challenges():
    game = run_script(OPENING)
    refused(game, Ruling(3, True), NoChallenge)
    refused(game, AppealRuling(3, True), NothingToAppeal)
    refused(game, ChallengeWord(3, "KOT"), UnknownWord)
    refused(game, ChallengeWord(3, 5), UnknownWord)
    refused(game, ChallengeWord(3, 0, by=0), BadPlayer)
    game.apply(ChallengeWord(3, "rozum"))
    refused(game, Pass(4), ChallengePending)
    refused(game, ChallengeWord(4, 0), ChallengePending)
    game.apply(Ruling(5, False))
    refused(game, ChallengeWord(6, 0), AlreadyRuled)
    game.apply(Pass(7))
    refused(game, ChallengeWord(8, 0), NoOpenMove)


def test_several_words_challenged_in_sequence():
    game = run_script(OPENING + "play I8V AŽ")  # forms AŽ, OA, ZŽ
    assert game.history[-1].words == ("AŽ", "OA", "ZŽ")
    game.apply(ChallengeWord(5, "OA"))
    game.apply(Ruling(6, False))
    assert game.crosses == [1, 0]
    game.apply(ChallengeWord(7, 2))
    out = game.apply(Ruling(8, True))
    assert any(isinstance(o, TakeBack) for o in out)
    assert game.crosses == [1, 0]
    assert game.scores[1] == 0


def test_third_cross_costs_the_next_turn():
    game = run_script(
        OPENING
        + """
        challenge 0
        ruling rejected
        pass
        play G11S P.
        challenge 0
        ruling rejected
        pass
        play I11S Y
        """
    )
    assert game.crosses == [0, 2]
    game.apply(ChallengeWord(20, 0))
    out = game.apply(Ruling(21, False))
    assert CrossGiven(1, 3, 1) in out
    assert game.turns_owed == [0, 1]
    assert game.player_on_move == 1  # Eva's current turn goes on
    out = game.apply(Pass(22))
    # Jan moves, then Eva's next turn is lost automatically
    out = game.apply(Pass(23))
    assert TurnLost(1) in out and out[-1] == OnMove(0)
    assert game.history[-1].kind is MoveKind.PENALTY and game.history[-1].player == 1
    assert game.turns_owed == [0, 0]


def test_appeal_against_a_rejection_fails_adds_a_cross():
    game = run_script(OPENING + "challenge 0\nruling rejected")
    out = game.apply(AppealRuling(5, False))
    assert game.crosses == [0, 2]
    assert out[-1] == RestartMoveClock(1)
    refused(game, AppealRuling(6, False), NothingToAppeal)


def test_appeal_for_the_challenger_reverses_the_rejection():
    game = run_script(OPENING + "challenge 0\nruling rejected")
    out = game.apply(AppealRuling(5, True))
    assert game.crosses == [0, 0]
    assert any(isinstance(o, TakeBack) for o in out)
    assert game.history[0].kind is MoveKind.WITHDRAWN and game.board.is_empty()
    assert game.scores == [0, 0] and game.player_on_move == 1


def test_appeal_for_the_challenged_player_puts_the_move_back():
    game = run_script(OPENING + "challenge 0\nruling upheld")
    assert game.board.is_empty()
    out = game.apply(AppealRuling(5, True))
    assert PutBack(0, tuple(Square(7, c) for c in range(6, 11))) in out
    assert game.scores == [16, 0] and game.crosses == [0, 1]
    assert game.history[0].kind is MoveKind.PLAY and game.bag_count == 81


def test_failed_appeal_with_two_crosses_costs_two_turns():
    game = run_script(OPENING + "challenge 0\nruling rejected\nchallenge score\nruling rejected")
    assert game.crosses == [0, 2]
    game = run_script(
        OPENING + "challenge score\nruling rejected\npass\nplay G11S P.\nchallenge 0\nruling rejected"
    )
    game.apply(AppealRuling(20, False))
    assert game.crosses == [0, 3] and game.turns_owed == [0, 1]


def test_score_challenge_outcomes_per_ruleset():
    cas = run_script(OPENING.replace("ROZUM", "ROZUM =30") + "challenge score\nruling upheld")
    assert cas.history[0].kind is MoveKind.WITHDRAWN and cas.scores == [0, 0]
    home = run_script(
        OPENING.replace("cas", "home").replace("ROZUM", "ROZUM =30") + "challenge score\nruling upheld"
    )
    assert home.history[0].kind is MoveKind.PLAY and home.scores == [16, 0] and home.crosses == [1, 0]
    # the announced score is what counts only if the ruleset says so
    announced = Game()
    announced.apply(
        Start(0, ("A", "B"), preset("cas", record_announced_score=True, score_challenge="corrected"))
    )
    run_script("play H7V ROZUM =30", announced)
    assert announced.scores == [30, 0]
    run_script("challenge score\nruling upheld", announced)
    assert announced.scores == [16, 0] and announced.crosses == [0, 0]


def test_rejected_challenge_points_and_bonus():
    game = Game()
    game.apply(Start(0, ("A", "B"), preset("cas", rejected_challenge="points", rejected_challenge_points=5)))
    run_script("play H7V ROZUM\nchallenge 0\nruling rejected", game)
    assert game.scores == [16, -5] and game.crosses == [0, 0]
    english = run_script("start english A B\nplay H7V QUIRE\nchallenge 0\nruling rejected")
    assert english.scores[0] == english.history[0].score + 5


def test_four_scoreless_turns_end_the_game_and_racks_are_entered():
    game = run_script(OPENING + "pass\nexchange 7\ntimeout\npass")
    assert game.ended is EndReason.SCORELESS and game.phase is Phase.ENDED
    assert game.result is None and game.racks_needed == (0, 1)
    refused(game, Pass(20), GameOver)
    refused(game, RackEntry(20, 0, "ABC"), BadRackEntry)  # 3 tiles, the rack holds 7
    refused(game, RackEntry(20, 0, "XXAAAAA"), BadRackEntry)  # one X in the set
    game.apply(RackEntry(20, 0, "xaaaaae"))
    game.apply(RackEntry(21, 1, "ĎÓŤŇEEE"))
    result = game.result
    assert result is not None
    assert result.minus == (16, 31) and result.plus == (0, 0)
    assert result.final == (0, -31) and result.winners == (0,)


def test_upheld_challenge_counts_as_a_scoreless_turn():
    game = run_script(OPENING + "pass\npass\nplay G8S K.T\nchallenge 0\nruling upheld")
    # ROZUM, pass, pass, KOT withdrawn: three scoreless turns after the play
    assert game.ended is None and game.scoreless_streak == 3
    game.apply(Pass(30))
    assert game.ended is EndReason.SCORELESS


def test_rack_entry_before_the_end_is_refused():
    refused(run_script(OPENING), RackEntry(3, 0, "A"), GameNotOver)


def test_resignation_and_forfeit():
    game = run_script(OPENING + "resign 0")
    assert game.ended is EndReason.RESIGNED and game.result.final == (0, 100)
    game = run_script(OPENING + "resign 1")
    assert game.result.final == (100, 0)
    big = Game()
    big.apply(Start(0, ("A", "B"), CAS))
    run_script("play H7V ROZUM\ncorrection 0 150 test\nresign 1", big)
    assert big.result.final == (166, 0)
    assert run_script("start cas A B\nforfeit 1").result.final == (100, 0)
    assert run_script("start cas A B\nforfeit 0 1").result.final == (0, 0)
    refused(run_script(OPENING), Forfeit(3, (0,)), BadPlayer)  # player 0 has played
    assert run_script(OPENING + "forfeit 1").result.final == (100, 0)  # Eva never turned up


def test_abc_playout_started_with_the_starting_player_on_move():
    game = run_script(OPENING + "pass\nexpire")  # round 2, Jan on move
    assert game.phase is Phase.A and game.abc_rounds == {"A": 2, "B": 3, "C": 4}
    run_script("pass\nplay G8S K.T", game)  # A: Jan, Eva
    assert game.phase is Phase.B
    run_script("pass\npass", game)
    assert game.phase is Phase.C
    refused(game, Exchange(40, 1), ExchangeNotAllowed)
    bag = game.bag_count
    run_script("play I9V OK\npass", game)  # no drawing in C
    assert game.bag_count == bag and game.rack_counts[0] == 5
    assert game.ended is EndReason.PLAYOUT and game.racks_needed == (0, 1)


def test_abc_playout_started_with_the_second_player_on_move():
    game = run_script(OPENING + "expire")  # round 1, Eva on move: A is just her turn
    assert game.phase is Phase.A and game.abc_rounds == {"A": 1, "B": 2, "C": 3}
    run_script("pass", game)
    assert game.phase is Phase.B
    run_script("play G8S K.T\npass", game)
    assert game.phase is Phase.C
    run_script("pass\npass", game)
    assert game.ended is EndReason.PLAYOUT
    refused(game, Pass(99), GameOver)


def test_expiry_refused_twice_and_without_a_playout():
    game = run_script(OPENING + "expire")
    from engine.game import BaseTimeExpired

    refused(game, BaseTimeExpired(9), PlayNotAllowed)
    refused(run_script("start home A B"), BaseTimeExpired(1), PlayNotAllowed)


def test_ruleset_presets_and_dict_round_trip():
    for rules in (CAS, HOME, ENGLISH):
        assert Ruleset.from_dict(rules.to_dict()) == rules
        assert preset(rules.name) is rules
    assert preset("cas", move_time_seconds=90).move_time_seconds == 90
    with pytest.raises(RulesetError):
        preset("scrabble")
    with pytest.raises(RulesetError):
        Ruleset.from_dict({"bogus": 1})
    with pytest.raises(RulesetError):
        Ruleset(score_challenge="never")  # type: ignore[arg-type]
    assert ENGLISH.scoring.going_out == "2x" and CAS.scoring.going_out == "1x"


def test_starting_player_draw():
    czech = tile_set("czech")
    assert starting_player(czech, {0: ["Á"], 1: ["A"]}) == 1
    assert starting_player(czech, {0: ["E"], 1: ["Ě"]}) == 0
    assert starting_player(czech, {0: ["?", "Ž"], 1: ["Z"]}) == 1  # a drawn blank draws again
    assert starting_player(czech, {0: ["K", "B"], 1: ["K", "A"]}) == 1  # tie drawn again
    with pytest.raises(DrawUndecided):
        starting_player(czech, {0: ["K"], 1: ["K"]})
    assert draw_order(czech, {0: ["Ů"], 1: ["U"], 2: ["Ú"]}) == [1, 2, 0]
    with pytest.raises(DrawUndecided):
        draw_order(czech, {0: ["?"], 1: ["A"]})


def test_outputs_and_state_are_json_able():
    import json

    game = run_script(OPENING + "play G8S K.T")
    game.apply(ChallengeWord(5, 0))
    out = game.apply(Ruling(6, True))
    assert [o.to_dict() for o in out] == [
        {"type": "TakeBack", "player": 1, "squares": ["H7", "H9"]},
        {"type": "RestartMoveClock", "player": 0},
    ]
    state = json.loads(json.dumps(game.to_dict()))
    assert state["history"][1]["kind"] == "withdrawn" and state["bag_count"] == 81
    assert state["appealable"] is True and state["phase"] == "normal"


def test_who_draws_next_for_the_start_until_the_starter_is_decided():
    """001: each player draws a tile, the lowest letter starts, the players tied for it draw another; 004: a
    drawn blank is set aside and that player draws again; 002 (Mattel): a blank beats A."""
    from engine.draw import next_to_draw

    czech = tile_set("czech")
    assert next_to_draw(czech, {0: [], 1: []}) == 0
    assert next_to_draw(czech, {0: ["K"], 1: []}) == 1
    assert next_to_draw(czech, {0: ["K"], 1: ["B"]}) is None and starting_player(czech, {0: ["K"], 1: ["B"]}) == 1
    assert next_to_draw(czech, {0: ["K"], 1: ["K"]}) == 0  # a tie: both draw again, in seat order
    assert next_to_draw(czech, {0: ["K", "A"], 1: ["K"]}) == 1
    assert next_to_draw(czech, {0: ["?"], 1: ["A"]}) == 0  # 004: the blank does not count
    assert next_to_draw(czech, {0: ["?"], 1: ["A"]}, blank_first=True) is None
    assert starting_player(czech, {0: ["?"], 1: ["A"]}, blank_first=True) == 0
    assert next_to_draw(czech, {0: ["?"], 1: ["?"]}, blank_first=True) == 0  # two blanks tie under 002
    # three players: only a tie for the first place is drawn again, and only by the tied players
    assert next_to_draw(czech, {0: ["M"], 1: ["C"], 2: ["M"]}) is None
    assert next_to_draw(czech, {0: ["C"], 1: ["M"], 2: ["C"]}) == 0
    assert next_to_draw(czech, {0: ["C", "E"], 1: ["M"], 2: ["C"]}) == 2
    assert next_to_draw(czech, {0: ["C", "E"], 1: ["M"], 2: ["C", "D"]}) is None
    assert starting_player(czech, {0: ["C", "E"], 1: ["M"], 2: ["C", "D"]}) == 2
