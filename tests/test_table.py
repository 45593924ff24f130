"""The table's logic: buttons, board readings, the menu, the clock and the journal together, on fake time."""

from __future__ import annotations

import json

import pytest
from table_rig import Rig, first_move, started_rig

from device import inputs
from device.board_link.events import CellFault
from device.journal import read_journal
from engine.game import MoveKind
from engine.lexicon import Lexicon, czech_alphabet
from engine.lexicon.builder import build_index, encode_words
from engine.tiles import tile_set

A, B = 0, 1


@pytest.fixture
def rig(tmp_path):
    yield from started_rig(tmp_path)


def test_a_new_table_starts_a_game_with_the_configured_players(rig):
    game = rig.table.game
    assert game.players == ("Anna", "Bedřich")
    assert game.ruleset.name == "cas"
    assert [r["type"] for r in read_journal(rig.config.journal_path)] == ["start", "info"]
    assert rig.table.game.info["table"] == "Stůl 1" and rig.table.game.info["started"]


def test_the_second_players_press_starts_the_first_move_and_the_move_is_read_from_the_board(rig):
    first_move(rig)
    game = rig.table.game
    assert game.scores == [18, 0]
    assert game.history[-1].words == ("ROZUM",)
    assert game.player_on_move == B
    assert rig.table.clock.player_on_move == B
    assert rig.view["last_move"] == {"word": "ROZUM", "position": "H4V", "score": 18, "player": A, "kind": "play"}


def test_a_press_by_the_player_not_on_move_changes_nothing(rig):
    first_move(rig)
    before = len(rig.table.game.events)
    rig.press(A)  # A again: B is on move
    assert len(rig.table.game.events) == before
    assert rig.table.clock.player_on_move == B


def test_an_irregular_placement_is_not_taken_at_the_first_press_and_the_clock_keeps_running(rig):
    rig.press(B)
    rig.lay("ROZUM", "1A")  # not through the centre
    rig.press(A)
    assert rig.table.game.history == []
    assert rig.notice == ["Nepravidelný tah", "znovu=zápis"]
    assert rig.table.clock.player_on_move == A


def test_a_tile_taken_from_an_earlier_move_is_a_board_error_not_a_move(rig):
    cells = first_move(rig)
    rig.lift(cells[:1])
    rig.lay("A", "8I")
    rig.press(B)
    assert len(rig.table.game.history) == 1
    assert rig.notice == ["Polož zpět", "H4"]  # the R taken from ROZUM (ČAS notation: row H, column 4)


def test_nothing_new_on_the_board_is_a_pass(rig):
    first_move(rig)
    rig.press(B)
    assert rig.table.game.history[-1].kind is MoveKind.PASS
    assert rig.table.clock.player_on_move == A


def test_exchange_from_the_menu_ends_the_move(rig):
    first_move(rig)
    rig.menu("exchange", "3")
    move = rig.table.game.history[-1]
    assert (move.kind, move.exchanged) == (MoveKind.EXCHANGE, 3)
    assert rig.table.clock.player_on_move == A


def test_a_blank_must_be_named_before_the_move_is_taken(rig):
    rig.press(B)
    rig.lay("ROZUm", "8D")  # the M is a blank: the board reads "?"
    assert rig.table.menu.open and rig.table.menu.chosen.kind == "blank"
    rig.table.menu.close()
    rig.advance(30.0)
    rig.press(A)
    assert rig.table.game.history == [] and rig.notice[0] == "Jaký je žolík?"
    assert rig.table.clock.paused and rig.view["blank_wait"] == A
    assert rig.view["says"]["cs"]["next"] == "Anna: zvol písmeno žolíku v nabídce"
    rig.advance(300.0)  # naming the blank takes none of the player's time: no time-out while the table waits
    assert rig.table.game.history == []
    rig.menu("blank", "M", "hotovo")  # naming it ends the move the press asked for
    move = rig.table.game.history[-1]
    assert move.words == ("ROZUm",) and move.score == 14  # the blank M (lowercase, as in GCG) scores 0: (2+1+2+2+0) x 2
    clock = rig.table.clock
    assert clock.state == "running" and clock.player_on_move == B and rig.view["blank_wait"] is None
    assert rig.view["clock"]["move_left"] == pytest.approx(120.0)


def test_a_blank_taken_off_while_the_table_waits_lets_the_move_time_run_again(rig):
    rig.press(B)
    cells = rig.lay("ROZUm", "8D")
    rig.advance(20.0)
    rig.press(A)
    assert rig.table.clock.paused
    rig.advance(50.0)
    rig.lift(cells[-1:])  # the player takes the blank back instead
    assert not rig.table.clock.paused and rig.view["blank_wait"] is None
    assert rig.view["clock"]["move_left"] == pytest.approx(100.0)  # 20 s used before the press, none while waiting
    assert rig.table.game.history == []


def test_the_blank_menu_offers_the_letters_the_lexicon_accepts_first(tmp_path):
    alphabet = czech_alphabet()
    data, _ = build_index(encode_words(["rozum", "rozuv", "koza"], alphabet), alphabet)
    rig = Rig(tmp_path)
    rig.table.lexicon = Lexicon.from_bytes(data)
    rig.start()
    rig.press(B)
    rig.lay("ROZUm", "8D")
    labels = [c.label for c in rig.table.menu.chosen.choices]
    assert labels[:2] == ["M", "V"] and labels.count("M") == 1  # ROZUM, ROZUV; then the rest of the set
    assert labels[2:5] == ["A", "Á", "B"] and labels[-2:] == ["hotovo", "< zpět"]
    rig.close()


def test_time_out_loses_the_turn_and_the_opponent_starts_the_next_move(rig):
    first_move(rig)
    rig.advance(120.0)
    game = rig.table.game
    assert game.history[-1].kind is MoveKind.TIMEOUT
    assert game.player_on_move == A
    rig.press(A)  # per 004 the opponent starts the clock: A's move runs only after B's press
    assert rig.table.clock.state == "awaiting" and rig.table.clock.awaiting_press == B
    assert len(game.history) == 2
    rig.press(B)
    assert rig.table.clock.state == "running" and rig.table.clock.player_on_move == A
    assert len(game.history) == 2  # B's press after the time-out is not a move


def test_an_upheld_challenge_takes_the_tiles_back_and_restarts_the_challengers_clock(rig):
    cells = first_move(rig)
    rig.advance(30.0)
    rig.menu("challenge_word", "ROZUM")
    assert rig.table.clock.paused and rig.table.game.pending is not None
    rig.advance(60.0)  # the referee takes their time: the clock is frozen
    rig.menu("ruling", "oprávněná")
    game = rig.table.game
    assert game.scores == [0, 0] and game.history[0].kind is MoveKind.WITHDRAWN
    assert not rig.table.clock.paused
    assert rig.view["clock"]["move_left"] == pytest.approx(120.0)
    assert sorted(map(tuple, rig.view["take_back"])) == sorted(cells)
    rig.press(B)  # the tiles are still on the board: not a move for B
    assert len(game.history) == 1 and rig.notice[0] == "Vrať kameny"
    rig.lift(cells)
    assert rig.view["take_back"] == []
    rig.lay("ROZUM", "8D")
    rig.press(B)
    assert game.scores == [0, 18]


def test_a_rejected_challenge_gives_a_cross(rig):
    first_move(rig)
    rig.menu("challenge_word", "ROZUM")
    rig.menu("ruling", "neoprávněná")
    assert rig.table.game.crosses == [0, 1]
    assert rig.table.game.scores == [18, 0]


def test_referee_pause_freezes_the_move_time(rig):
    first_move(rig)
    rig.advance(20.0)
    rig.menu("pause")
    rig.advance(300.0)
    assert rig.table.game.history[-1].kind is MoveKind.PLAY  # no time-out while paused
    rig.menu("resume")
    assert rig.view["clock"]["move_left"] == pytest.approx(100.0)


def test_unplugging_the_board_pauses_the_move_and_replugging_resumes_it(rig):
    first_move(rig)
    rig.advance(10.0)
    rig.unplug()
    assert rig.table.clock.paused
    rig.advance(200.0)
    rig.press(B)
    assert len(rig.table.game.history) == 1
    rig.replug()
    assert not rig.table.clock.paused
    assert rig.view["clock"]["move_left"] == pytest.approx(110.0)


def test_cell_faults_are_shown_and_cleared(rig):
    rig.table.handle(inputs.LinkEvent(CellFault(7, 3, "open")))
    assert rig.view["faults"] == [[7, 3, "open"]]
    assert rig.notice == ["Vadné pole H4", "nekontakt"]  # ČAS notation: row H, column 4
    rig.table.handle(inputs.LinkEvent(CellFault(7, 3, None)))
    assert rig.view["faults"] == []


def test_english_notices_use_the_classic_notation_and_english_words(tmp_path):
    rig = Rig(tmp_path, extra='language = "en"')
    rig.start()
    rig.table.handle(inputs.LinkEvent(CellFault(7, 3, "short")))
    assert rig.notice == ["Cell fault D8", "short"]  # classic: column D, row 8
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    assert rig.view["last_move"]["position"] == "8D"
    rig.close()


def test_the_tile_set_check_names_missing_and_extra_tiles(rig):
    letters = tile_set("czech").check_square()
    for i, letter in enumerate(letters):
        rig.grid[i // 10][i % 10] = letter
    rig.grid[0][0] = None  # the first A is missing
    rig.grid[12][12] = "X"  # a second X lies outside the square
    rig.send([(0, 0), (12, 12)])
    rig.menu("check")
    assert rig.view["tile_check"] == {"missing": "A", "extra": "X", "complete": False}
    assert rig.notice == ["chybí A", "navíc X"]


def test_a_restart_resumes_the_same_game_and_the_move_time_left(tmp_path):
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.advance(45.0)
    view_before = first.view["game"]
    first.close()  # a power cut: nothing is stopped cleanly, the journal and the checkpoint are on disk

    second = Rig(tmp_path, time=type(first.time)(5000.0))  # monotonic time does not survive a reboot
    assert second.start() is True
    assert second.view["game"] == view_before
    assert second.view["resumed"] is True and second.notice[0] == "Hra obnovena"
    assert second.table.clock.player_on_move == B
    assert second.view["clock"]["move_left"] == pytest.approx(75.0, abs=2.0)
    second.close()


def test_a_damaged_journal_line_is_set_aside_and_the_valid_part_resumes(tmp_path):
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.close()
    path = first.config.journal_path
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"type": "play", "at": 1.0, "placements": [["H8", "Q"]]}) + "\n")
    second = Rig(tmp_path)
    assert second.start() is True
    assert second.table.game.scores == [18, 0]
    assert list(tmp_path.glob("journal.jsonl.damaged-*"))
    assert len(list(read_journal(path))) == 3  # start, info, the play; the refused line is only in the copy
    second.close()


def test_new_game_archives_the_journal(rig):
    first_move(rig)
    rig.menu("new_game", "ano")
    assert rig.table.game.history == []
    assert list(rig.state_dir.glob("journal-*.jsonl"))
    assert [r["type"] for r in read_journal(rig.config.journal_path)] == ["start", "info"]
    assert rig.table.game.info["table"] == "Stůl 1" and rig.table.game.info["started"]


def test_tiles_to_take_back_and_named_blanks_survive_a_restart(tmp_path):
    first = Rig(tmp_path)
    first.start()
    cells = first_move(first)
    first.menu("challenge_word", "ROZUM")
    first.menu("ruling", "oprávněná")
    first.lay("Ab", "9H")  # B starts laying a word with a blank (still beside the withdrawn tiles)
    first.menu("blank", "E", "hotovo")
    first.close()

    second = Rig(tmp_path)
    second.grid = first.grid
    second.start()
    assert sorted(map(tuple, second.view["take_back"])) == sorted(cells)
    assert second.view["blanks"] == [[8, 8, "E"]]
    second.press(B)
    assert len(second.table.game.history) == 1 and second.notice[0] == "Vrať kameny"
    second.close()


def small_lexicon(*words: str) -> Lexicon:
    """A real index (the builder and the reader the daemon uses) over a few words."""
    alphabet = czech_alphabet()
    data, _nodes = build_index(encode_words(words, alphabet), alphabet)
    return Lexicon.from_bytes(data, "<test words>")


@pytest.mark.parametrize(("words", "shown"), [(("rozum",), "ve slovníku"), ((), "není ve slovníku")])
def test_a_challenged_word_shows_its_lexicon_status_for_the_referee(tmp_path, words, shown):
    rig = Rig(tmp_path)
    rig.table.lexicon = small_lexicon("osel", *words)
    rig.start()
    first_move(rig)
    rig.menu("challenge_word", "ROZUM")
    assert rig.notice == ["ROZUM", shown]
    assert rig.view["lexicon"] == {"ROZUM": "known" if words else "unknown"}
    rig.close()




def test_tiles_laid_show_the_player_is_present_so_a_slow_first_move_is_a_time_out(rig):
    rig.press(B)
    rig.lay("ROZ", "8D")
    rig.advance(121.0)
    game = rig.table.game
    assert game.ended is None and game.history[-1].kind is MoveKind.TIMEOUT
