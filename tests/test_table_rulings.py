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
