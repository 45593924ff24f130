"""Rulings the table must get right through a tournament day (issue 26): the tiles of a timed-out move, who must
press after a time-out in every variant, an exchange the opponent may challenge, and the exchange that ends with
the player's press; on fake time through the table rig."""

from __future__ import annotations

import pytest
from table_rig import Rig

from device.screens import render
from engine.game import MoveKind

A, B = 0, 1
DOUBLES = ("Jan", "Petr", "Eva", "Ivo")


def variant_rig(tmp_path, variant: str) -> Rig:
    if variant == "singles":
        rig = Rig(tmp_path)
    else:
        rig = Rig(tmp_path, clock=variant, players=DOUBLES, extra=f'ruleset = "{variant}"')
    rig.start()
    return rig


def move_time(rig: Rig) -> float:
    return rig.table.clock.mode.move_time


# ---- 1. the tiles of a timed-out move ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["singles", "prague", "polish"])
def test_tiles_left_by_a_timed_out_move_are_taken_back_never_scored_for_the_opponent(tmp_path, variant):
    """004 "Při ztrátě práva na tah hráč žádné kameny ani nepokládá na desku": A lays ROZUM, the long signal ends
    the move, A presses late, B presses without laying a tile: not B's ROZUM; the table asks for the tiles back."""
    rig = variant_rig(tmp_path, variant)
    rig.press(B)  # B starts A's clock (doubles: team 2 starts Jan's)
    cells = rig.lay("ROZU", "8D")
    rig.advance(move_time(rig) + 1.0)  # the long signal: the move is lost
    game = rig.table.game
    assert game.history[0].kind is MoveKind.TIMEOUT
    assert rig.notice[0] == "Vrať kameny"
    rig.lay("ROZUM", "8D")  # the M laid after the signal, before the late press
    rig.press(A)  # the late press starts the next move
    assert sorted(map(tuple, rig.view["take_back"])) == sorted([*cells, (7, 7)])
    rig.press(B)  # nothing laid by B: ROZUM is not B's
    assert not any(game.scores) and all(m.kind is not MoveKind.PLAY for m in game.history)
    assert rig.notice[0] == "Vrať kameny"
    rig.lift([*cells, (7, 7)])
    assert rig.view["take_back"] == []
    rig.press(B)
    assert not any(game.scores) and game.history[-1].kind is MoveKind.PASS
    rig.close()


def test_the_tiles_to_take_back_after_a_time_out_survive_a_restart(tmp_path):
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    cells = rig.lay("ROZUM", "8D")
    rig.advance(121.0)
    rig.close()
    again = rig.restarted()
    assert sorted(map(tuple, again.view["take_back"])) == sorted(cells)
    again.press(A)
    again.press(B)
    assert again.table.game.scores == [0, 0]
    again.close()


# ---- 2. who must press: the same on the LCD, the page and the buttons ------------------------------------------


def button_of(rig: Rig, player: int) -> int:
    """The button a player presses: their own, in doubles their team's (team 1 = A)."""
    return player % 2 if rig.table.game.doubles else player


def assert_one_presser(rig: Rig, name: str) -> None:
    """The LCD, the page (both languages) and the buttons agree that ``name`` must press to start the next move
    after a time-out: the other button changes nothing, ``name``'s starts the next move."""
    rig.advance(7.0)  # the time-out notice leaves the status row
    view = rig.view
    player = rig.table.game.players.index(name)
    assert rig.table.clock.state == "awaiting"
    assert render(view, "cs", 16, 2)[0].startswith(f"{name}: stiskni")
    assert view["says"]["cs"]["next"] == f"Čas vypršel, stiskne: {name}"
    assert view["says"]["en"]["next_player"] == player
    assert view["says"]["cs"]["times"][player] == "0.0"
    events = len(rig.table.game.events)
    rig.press(1 - button_of(rig, player))
    assert rig.table.clock.state == "awaiting" and len(rig.table.game.events) == events
    rig.press(button_of(rig, player))
    assert rig.table.clock.state == "running"


@pytest.mark.parametrize("variant", ["singles", "prague", "polish"])
def test_after_a_time_out_the_lcd_the_page_and_the_buttons_name_the_same_presser(tmp_path, variant):
    """Issue 26: team 1 ran out of time in its double move; the LCD said "Petr: stiskni", the page "stiskne: Jan"
    and Petr's button did nothing. Every variant: the player whose move timed out (Polish: who was on move when
    the team's time ran out) presses, and everything says so."""
    rig = variant_rig(tmp_path, variant)
    names = rig.table.game.players
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)  # the opening move: Anna's / Jan's
    if variant == "polish":  # team 2's double move, then team 1's runs out with Eva first, Jan on move
        rig.press(B)
        rig.press(B)
        rig.menu("plays_first", "Eva")
        rig.press(A)  # Eva passes; Jan is on move when the three minutes run out
    rig.advance(move_time(rig) + 1.0)
    assert rig.table.game.history[-1].kind is MoveKind.TIMEOUT
    timed_out = {"singles": names[1], "prague": names[1], "polish": "Jan"}[variant]
    assert_one_presser(rig, timed_out)
    rig.close()


def test_a_polish_double_move_lost_whole_names_its_first_player(tmp_path):
    """Team 2's three minutes run out before either move: Petr (first listed, on move) presses."""
    rig = variant_rig(tmp_path, "polish")
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.advance(181.0)
    assert_one_presser(rig, "Petr")
    rig.close()


# ---- 13. the blank's question leaves once the blank is named --------------------------------------------------


def test_the_blank_question_leaves_the_lcd_once_the_blank_is_named_without_time_passing(tmp_path):
    """Issue 26: "Jaký je žolík?" stayed on the LCD after the blank was named (the simulator's manual time: no
    second passes)."""
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    rig.lay("ROZUm", "8D")
    rig.table.menu.close()
    rig.press(A)
    assert rig.notice[0] == "Jaký je žolík?"
    rig.menu_continue("M", "hotovo")
    assert rig.table.game.history[-1].words == ("ROZUm",)
    assert rig.notice is None
    assert all("žolík" not in row for row in render(rig.view, "cs", 16, 2))
    rig.close()
