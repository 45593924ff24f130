"""Who starts, as game events (engine.game.start): the tiles drawn (004 "Určení začínajícího hráče", 001, 002)
and an order given by name, before the first move; journaled so a power cut keeps them."""

from __future__ import annotations

import pytest
from test_game_rules import refused

from engine.game import (
    EventFormatError,
    Forfeit,
    Game,
    GameOver,
    Pass,
    RefereeWarning,
    SetChecked,
    Start,
    StartDraw,
    StartOrder,
    StartRefused,
    decode_event,
    encode_event,
)
from engine.ruleset import preset


def game(*players: str, ruleset: str = "cas", **rules) -> Game:
    g = Game()
    g.apply(Start(at=0.0, players=players or ("Jan", "Eva"), ruleset=preset(ruleset, **rules)))
    return g


def test_the_draw_decides_and_the_order_turns_round() -> None:
    g = game("Jan", "Eva", "Ota", ruleset="home")
    g.apply(StartDraw(at=1.0, player=0, tile="M"))
    g.apply(StartDraw(at=2.0, player=1, tile="C"))
    assert g.players == ("Jan", "Eva", "Ota")  # Ota has not drawn yet
    g.apply(StartDraw(at=3.0, player=2, tile="K"))
    assert g.players == ("Eva", "Ota", "Jan")  # 001: the winner, then on round the table
    assert g.start_draws == {0: ("C",), 1: ("K",), 2: ("M",)}
    assert g.to_dict()["start_draws"] == ["C", "K", "M"]
    assert g.player_on_move == 0 and g.rack_counts == [7, 7, 7]


def test_a_tie_is_drawn_again_by_the_tied_players_and_a_blank_again_by_its_player() -> None:
    g = game()
    g.apply(StartDraw(at=1.0, player=0, tile="?"))  # 004: a blank is drawn again at once
    refused(g, StartDraw(at=2.0, player=1, tile="A"), StartRefused)
    g.apply(StartDraw(at=2.0, player=0, tile="K"))
    g.apply(StartDraw(at=3.0, player=1, tile="K"))
    g.apply(StartDraw(at=4.0, player=0, tile="C"))
    g.apply(StartDraw(at=5.0, player=1, tile="A"))
    assert g.players == ("Eva", "Jan") and g.start_draws == {0: ("K", "A"), 1: ("?", "K", "C")}


def test_the_mattel_blank_beats_a() -> None:
    g = game(ruleset="home", draw_blank="first")
    g.apply(StartDraw(at=1.0, player=0, tile="A"))
    g.apply(StartDraw(at=2.0, player=1, tile="?"))
    assert g.players == ("Eva", "Jan")


def test_refusals_leave_the_game_as_it_was() -> None:
    g = game()
    refused(g, StartDraw(at=1.0, player=1, tile="A"), StartRefused)  # Jan draws first
    refused(g, StartDraw(at=1.0, player=0, tile="Q"), StartRefused)  # no Q in the Czech set
    g.apply(StartDraw(at=1.0, player=0, tile="Ž"))
    refused(g, StartDraw(at=2.0, player=1, tile="Ž"), StartRefused)  # one Ž, and drawn tiles stay out
    refused(g, StartOrder(at=2.0, players=("Eva", "Ota")), StartRefused)
    g.apply(StartDraw(at=2.0, player=1, tile="Z"))
    refused(g, StartDraw(at=3.0, player=0, tile="A"), StartRefused)  # decided: Eva starts


def test_a_set_checked_without_a_tile_has_none_to_draw() -> None:
    g = game()
    g.apply(SetChecked(at=1.0, missing="Ž", extra=""))
    refused(g, StartDraw(at=2.0, player=0, tile="Ž"), StartRefused)


def test_an_order_given_by_name_ends_the_draw_and_puts_a_mistake_right() -> None:
    g = game()
    g.apply(StartDraw(at=1.0, player=0, tile="K"))
    g.apply(StartOrder(at=2.0, players=("Eva", "Jan")))
    assert g.players == ("Eva", "Jan") and g.start_draws == {}
    refused(g, StartDraw(at=3.0, player=0, tile="A"), StartRefused)
    g.apply(StartOrder(at=3.0, players=("Jan", "Eva")))
    assert g.players == ("Jan", "Eva")


@pytest.mark.parametrize(
    "before",
    [
        Pass(at=1.0),
        RefereeWarning(at=1.0, player=1),
    ],
)
def test_refused_once_something_is_recorded_for_a_player(before) -> None:
    g = game()
    g.apply(before)
    refused(g, StartOrder(at=2.0, players=("Eva", "Jan")), StartRefused)
    refused(g, StartDraw(at=2.0, player=g.player_on_move, tile="A"), StartRefused)


def test_refused_in_doubles_and_after_the_end() -> None:
    g = game("A1", "B1", "A2", "B2", ruleset="prague")
    refused(g, StartDraw(at=1.0, player=0, tile="A"), StartRefused)
    ended = game()
    ended.apply(Forfeit(at=1.0, absent=(1,)))
    refused(ended, StartOrder(at=2.0, players=("Eva", "Jan")), GameOver)


def test_the_events_round_trip_and_replay_to_the_same_order() -> None:
    events = [
        Start(at=0.0, players=("Jan", "Eva"), ruleset=preset("cas")),
        StartDraw(at=1.0, player=0, tile="Č"),
        StartDraw(at=2.0, player=1, tile="?"),
        StartDraw(at=3.0, player=1, tile="B"),
    ]
    lines = [encode_event(e) for e in events]
    assert [decode_event(line) for line in lines] == events
    assert Game.replay(decode_event(line) for line in lines).players == ("Eva", "Jan")
    with pytest.raises(EventFormatError):
        decode_event('{"type":"start_draw","at":1.0,"player":0,"tile":"k"}')
