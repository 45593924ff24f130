"""The play that closes the game can be challenged at the table (004 "Některý z hráčů zavřel, tj. platně zahrál
všechny své zbývající kameny"): the end-of-game menu offers the challenge and the announced score, the LCDs hold
the result back while the referee rules, an upheld challenge reopens the game with the challenger's move clock
running, and all of it survives a restart and a power cut between the journal and the clock's checkpoint."""

from __future__ import annotations

from collections import Counter

import pytest
from table_rig import Rig, cut_power_writing

from device import inputs
from device.announce import announce
from device.screens import render
from engine.game import EndReason, MoveKind
from engine.tiles import tile_set

A, B = 0, 1
SET_LETTERS = "ROZUMUB" + "DMYAAEI"
"""A 14-tile set found at the check: both racks drawn, the bag empty. Anna lays ROZUM, then U and B; Bedřich D, M,
Y; his rack A, A, E, I is left when Anna goes out."""


def small_set_rig(state_dir) -> Rig:
    """A table whose tile-set check found only ``SET_LETTERS`` (004: the game is played with the set it started
    with), the check square cleared again."""
    rig = Rig(state_dir)
    rig.start()
    want = Counter(SET_LETTERS)
    missing, kept = [], []
    for i, letter in enumerate(tile_set("czech").check_square()):
        if want[letter] > 0:
            want[letter] -= 1
            kept.append((i // 10, i % 10))
        else:
            missing.append((i // 10, i % 10))
    assert not +want
    rig.lay_check_square(missing)
    rig.menu("check", "ano")
    rig.menu("set_ruling", "hrát s ní", "ano")  # the referee: play with the set as found (004)
    assert rig.table.game.set_size == 14
    rig.lift(kept)
    return rig


def play_out(rig: Rig) -> list[tuple[int, int]]:
    """Anna: ROZUM; Bedřich: DOMY through its O; Anna goes out with ZUB through the Z. Returns ZUB's new cells."""
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.advance(10.0)
    rig.press(A)
    rig.lay("DOMY", "E7")
    rig.advance(10.0)
    rig.press(B)
    closing = rig.lay("ZUB", "F8")
    rig.advance(10.0)
    rig.press(A)
    game = rig.table.game
    assert game.ended is EndReason.PLAYED_OUT and game.went_out == A and game.rack_counts == [0, 4]
    return closing


def lcd(rig: Rig, columns: int = 16, lines: int = 2, index: int = 0) -> tuple[str, ...]:
    return render(rig.view, "cs", columns, lines, index, 2)


def offered(rig: Rig) -> list[str]:
    return [item.kind for item in rig.table.menu.items]


@pytest.fixture
def out(tmp_path):
    rig = small_set_rig(tmp_path)
    closing = play_out(rig)
    yield rig, closing
    rig.close()


def test_after_going_out_the_menu_offers_the_challenge_and_the_announced_score(out):
    rig, _ = out
    assert rig.table.clock.stopped
    kinds = offered(rig)
    assert kinds.index("challenge_word") < kinds.index("new_game") and "announce" in kinds
    words = [c.label for c in next(i for i in rig.table.menu.items if i.kind == "challenge_word").choices]
    assert words == ["ZUB", "MU", "YB"]
    rig.menu("announce", "1", "9", "hotovo")  # the closing play's score is announced as any other
    assert rig.table.game.history[-1].announced == 19 and "challenge_score" in offered(rig)


def test_while_the_closing_play_is_challenged_no_result_shows_and_only_the_ruling_is_offered(out):
    rig, _ = out
    rig.advance(30.0)  # the end's notices are gone
    assert lcd(rig, 20, 4) == ("Konec hry           ", "Anna   50 Bedřich 2 ", "Kameny +4:-4        ",
                               "Vítěz: Anna         ")  # fmt: skip
    rig.menu("challenge_word", "ZUB")
    rig.advance(70.0)  # the lexicon hint, if any, has gone too
    assert offered(rig) == ["ruling"]
    assert lcd(rig) == ("Námitka: konec? ", "46:6            ")  # the points played, no result
    assert lcd(rig, index=1) == ("Námitka: konec? ", "6:46            ")
    assert lcd(rig, 20, 4) == ("Námitka: konec?     ", "Anna   46 Bedřich 6 ", " " * 20, " " * 20)
    page = announce(rig.view, "cs")  # the simulator's page and its words
    assert page["result"] is None and page["next_kind"] == "closing_challenged" and "rozhoduje" in page["next"]
    assert rig.view["game"]["result"] is None


def test_an_upheld_challenge_of_the_closing_play_reopens_the_game_with_the_challengers_clock(out):
    rig, closing = out
    rig.menu("challenge_word", "ZUB")
    rig.advance(45.0)
    rig.menu("ruling", "oprávněná")
    game, clock = rig.table.game, rig.table.clock
    assert game.ended is None and game.history[-1].kind is MoveKind.WITHDRAWN
    assert game.rack_counts == [2, 4] and game.player_on_move == B
    assert clock.state == "paused" and clock.player_on_move == B  # held while the withdrawn tiles lie
    rig.advance(10.0)
    assert rig.view["clock"]["move_left"] == pytest.approx(120.0)
    assert sorted(map(tuple, rig.view["take_back"])) == sorted(closing) and rig.notice[0] == "Vrať kameny"
    assert "challenge_word" not in offered(rig) and "pass" in offered(rig)
    rig.lift(closing)
    rig.advance(30.0)
    assert lcd(rig)[0].startswith(">Bedřich") and lcd(rig)[0].endswith("1:30")
    rig.lay("MA", "H8")
    rig.press(B)
    assert game.history[-1].kind is MoveKind.PLAY and game.history[-1].player == B
    assert clock.player_on_move == A and game.ended is None


def test_a_rejected_challenge_of_the_closing_play_gives_the_cross_and_the_result_stands(out):
    rig, _ = out
    final = rig.table.game.result.final
    rig.menu("challenge_word", "ZUB")
    rig.menu("ruling", "neoprávněná")
    game = rig.table.game
    assert game.ended is EndReason.PLAYED_OUT and game.crosses == [0, 1] and game.result.final == final
    assert rig.table.clock.stopped
    rig.advance(30.0)
    assert lcd(rig, 20, 4)[3].startswith("Vítěz: Anna")


def test_the_reopened_game_survives_a_restart(out):
    rig, closing = out
    rig.menu("challenge_word", "ZUB")
    rig.menu("ruling", "oprávněná")
    rig.advance(20.0)
    rig.close()
    again = rig.restarted()
    try:
        game, clock = again.table.game, again.table.clock
        assert game.ended is None and game.player_on_move == B
        assert clock.state == "paused" and clock.player_on_move == B  # the withdrawn tiles still lie
        again.advance(5.0)  # "Obnoveno, tah N" first
        assert again.view["clock"]["move_left"] == pytest.approx(120.0) and again.notice[0] == "Vrať kameny"
        again.lift(closing)
        again.advance(20.0)
        assert clock.state == "running" and again.view["clock"]["move_left"] == pytest.approx(100.0)
    finally:
        again.close()


def test_a_power_cut_before_the_clock_checkpoint_of_the_reopening_ruling(tmp_path, monkeypatch):
    """The ruling is journaled, the power goes before the clock's checkpoint (which still says stopped): the
    restarted table catches the clock up from the journal, the challenger's move held while the withdrawn tiles
    lie, running once they are off."""
    rig = small_set_rig(tmp_path)
    closing = play_out(rig)
    rig.menu("challenge_word", "ZUB")
    again = cut_power_writing(monkeypatch, rig, "clock.json", lambda: rig.menu("ruling", "oprávněná"))
    try:
        game, clock = again.table.game, again.table.clock
        assert game.ended is None and game.history[-1].kind is MoveKind.WITHDRAWN
        again.advance(5.0)  # "Obnoveno, tah N" first
        assert clock.state == "paused" and clock.player_on_move == B and again.notice[0] == "Vrať kameny"
        again.lift(closing)
        assert clock.state == "running" and again.view["clock"]["move_left"] == pytest.approx(120.0)
    finally:
        again.close()


def test_a_restart_while_the_referee_rules_on_the_closing_play_asks_for_the_ruling_again(out):
    rig, _ = out
    rig.menu("challenge_word", "ZUB")
    rig.close()
    again = rig.restarted()
    try:
        again.advance(10.0)  # the resume notice is gone
        assert again.table.game.pending is not None and again.table.clock.stopped
        again.table.menu.close()
        again.table.handle(inputs.EncoderPushed())
        assert offered(again) == ["ruling"]
        again.table.menu.close()
        assert lcd(again)[0] == "Námitka: konec? "
        again.menu("ruling", "neoprávněná")
        assert again.table.game.result is not None and again.table.game.crosses == [0, 1]
    finally:
        again.close()
