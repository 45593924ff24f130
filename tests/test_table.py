"""The table's logic: buttons, board readings, the menu, the clock and the journal together, on fake time."""

from __future__ import annotations

import json

import pytest
from table_rig import (
    PowerCut,
    Rig,
    cut_journal_op,
    cut_power_writing,
    file_size_limit,
    first_move,
    started_rig,
)

from device import inputs
from device.screens import render
from device.table import JOURNAL_EVENTS
from engine.game import MoveKind
from engine.lexicon import Lexicon, czech_alphabet
from engine.lexicon.builder import build_index, encode_words
from engine.tiles import tile_set
from shared.board_link.events import CellFault
from shared.journal import read_journal
from shared.texts import text

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
    assert rig.view["last_move"] == {"word": "ROZUM", "position": "H4V", "at": [7, 3, True], "score": 18, "player": A, "kind": "play"}


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


def test_an_exchange_announced_on_the_menu_ends_with_the_players_press(rig):
    """Issue 26: confirming the exchange ended the move and the player's own press was ignored; as at a real table
    the exchange ends with the press."""
    first_move(rig)
    rig.menu("exchange", "3", "ano")
    assert len(rig.table.game.history) == 1 and rig.table.clock.player_on_move == B
    assert rig.notice == ["Výměna 3", "stiskni tlačítko"]
    rig.press(B)
    assert rig.notice is None
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
    assert rig.table.clock.paused  # held at its start while the withdrawn tiles lie (docs/cs/rozhodci.md)
    assert rig.view["clock"]["move_left"] == pytest.approx(120.0)
    assert sorted(map(tuple, rig.view["take_back"])) == sorted(cells)
    rig.advance(10.0)
    assert rig.view["clock"]["move_left"] == pytest.approx(120.0)  # it was 1:50: B's time ran with the tiles on
    rig.press(B)  # the tiles are still on the board: not a move for B
    assert len(game.history) == 1 and rig.notice[0] == "Vrať kameny"
    rig.lift(cells)
    assert rig.view["take_back"] == [] and not rig.table.clock.paused
    rig.advance(5.0)
    assert rig.view["clock"]["move_left"] == pytest.approx(115.0)  # in full from the lift (004)
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
    rig.menu("pause", "ano")
    rig.advance(300.0)
    assert rig.table.game.history[-1].kind is MoveKind.PLAY  # no time-out while paused
    rig.menu("resume", "ano")
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
    rig.menu("check", "ano")
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
    assert second.view["resumed"] is True and second.notice == ["Obnoveno, tah 2"]
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


@pytest.mark.parametrize("ruling", ["neoprávněná", "oprávněná"])
def test_the_lexicon_hint_leaves_the_lcd_once_the_referee_has_ruled(tmp_path, ruling):
    """The hint is for the ruling: after it the LCD shows the game again (who is on move, the scores), not the
    challenged word for the rest of its minute; an upheld challenge shows the tiles to take back instead."""
    rig = Rig(tmp_path)
    rig.table.lexicon = small_lexicon("rozum")
    rig.start()
    first_move(rig)
    rig.menu("challenge_word", "ROZUM")
    assert rig.notice == ["ROZUM", "ve slovníku"]
    rig.menu("ruling", ruling)
    rig.advance(5.0)
    rows = render(rig.view, "cs", 16, 2, 1, 2)
    if ruling == "neoprávněná":
        assert rows == (">ty         1:55", "0:18       39:55"), rows
    else:
        assert rows[0].startswith("Vrať kameny"), rows
    rig.close()




def test_tiles_laid_show_the_player_is_present_so_a_slow_first_move_is_a_time_out(rig):
    rig.press(B)
    rig.lay("ROZ", "8D")
    rig.advance(121.0)
    game = rig.table.game
    assert game.ended is None and game.history[-1].kind is MoveKind.TIMEOUT


CHAIN = [(r, 7) for r in range(8, 15)] + [(r, 7) for r in range(6, -1, -1)] + [(14, c) for c in range(8, 15)]
"""Single tiles that each make a legal move after ROZUM at 8D: down and up column H, then along row 15."""


def play_until_game_left(rig: Rig, seconds: float) -> None:
    """Moves of 119 s each (one tile from CHAIN) until less than ``seconds`` of base time remain."""
    first_move(rig)
    for (row, col), letter in zip(CHAIN, "AEIONSTVKLPDJEIONSTVKLPDJ", strict=False):
        if rig.view["clock"]["game_left"] < seconds:
            return
        rig.advance(119.0)
        rig.grid[row][col] = letter
        rig.send([(row, col)])
        rig.press(rig.table.game.player_on_move)
    raise AssertionError("the chain ran out before the base time")


def test_the_base_time_expiry_survives_a_power_cut_before_the_clock_checkpoint(tmp_path, monkeypatch):
    first = Rig(tmp_path)
    first.start()
    play_until_game_left(first, 100.0)
    left = first.view["clock"]["game_left"]
    on_move = first.table.game.player_on_move

    second = cut_power_writing(monkeypatch, first, "clock.json", lambda: first.advance(left + 0.5))
    path = first.config.journal_path
    assert [r["type"] for r in read_journal(path)][-1] == "base_time_expired"
    assert second.view["clock"]["game_phase"] == "expired" and second.view["clock"]["game_left"] == 0.0
    assert second.table.clock.player_on_move == on_move
    second.advance(60.0)  # the restored clock does not reach the expiry a second time
    assert [r["type"] for r in read_journal(path)].count("base_time_expired") == 1
    assert second.view["clock"]["game_phase"] == "expired"
    second.close()


def test_a_power_cut_while_a_blank_is_named_comes_back_to_the_same_letter(tmp_path):
    """The issue's DOMoVINA: the player turns the letter menu to O; the power goes; after the restart the menu
    shows O again, and the next push picks O, not the first letter."""
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.lay("DOMoVINA", "E7")  # crosses ROZUM at E8; the blank is the second O
    first.press(B)
    menu = first.table.menu
    assert menu.chosen is not None and menu.chosen.kind == "blank"
    labels = [c.label for c in menu.chosen.choices]
    first.table.handle(inputs.EncoderTurned(labels.index("O") - menu.choice_index))
    assert first.view["menu"] == [text("blank"), "> O"]
    first.close()  # the power goes

    second = Rig(tmp_path, time=type(first.time)(7000.0))
    second.grid = first.grid
    second.start()
    assert second.view["menu"] == [text("blank"), "> O"]
    second.table.handle(inputs.EncoderPushed())  # picks O
    assert second.view["menu"][0].endswith(": O")
    second.menu_continue("hotovo")
    second.press(B)
    assert second.table.game.history[-1].words[0] == "DOMoVINA"
    second.close()


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        (("exchange", "4"), ["Výměna 4?", "> ne"]),  # a confirmation comes back on "no"
        (("challenge_word", "ROZUM"), None),  # a challenge target picked (recorded): nothing pending
        (("resign", "Bedřich"), ["Vzdává Bedřich?", "> ne"]),
    ],
)
def test_every_pending_choice_survives_a_restart_or_comes_back_neutral(tmp_path, path, shown):
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.menu(*path)
    if first.table.menu.in_confirmation:
        first.table.handle(inputs.EncoderTurned(1))  # the cursor on "yes" when the power goes
    before = first.view["menu"]
    first.close()
    second = Rig(tmp_path)
    second.grid = first.grid
    second.start()
    assert second.view["menu"] == (shown if shown is not None else before)
    for _ in range(3):
        second.table.handle(inputs.EncoderPushed())  # pushes alone never act
    assert len(second.table.game.history) == 1 and second.table.game.pending == first.table.game.pending


def test_tiles_left_picked_for_the_end_of_the_game_survive_a_restart(tmp_path):
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    while first.table.game.ended is None:  # scoreless turns end the game; then the racks are asked
        first.time.advance(1.0)
        first.press(first.table.game.player_on_move)
    assert first.table.game.racks_needed
    first.menu("racks", "K", "O")  # two letters picked, not yet "hotovo"
    before = first.view["menu"]
    assert before[0].endswith(": KO")
    first.close()
    second = Rig(tmp_path)
    second.grid = first.grid
    second.start()
    assert second.view["menu"] == before
    second.menu_continue("T", "E", "L", "A", "S", "hotovo", "ano")
    assert second.table.game.events[-1].rack == "KOTELAS"


def test_fifty_fast_pushes_of_the_encoder_record_nothing(rig):
    first_move(rig)
    before = list(read_journal(rig.config.journal_path))
    for _ in range(50):
        rig.table.handle(inputs.EncoderPushed())
    assert list(read_journal(rig.config.journal_path)) == before
    assert not rig.table.clock.paused


def test_both_buttons_together_are_one_move_not_a_move_and_a_pass(rig):
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.time.advance(0.08)  # B's palm lands 80 ms after A's: the same slap, not B's move
    rig.table.handle(inputs.ButtonPressed(B))
    assert rig.notice == [text("double_press"), text("not_counted")]
    assert len(rig.table.game.history) == 1 and rig.table.clock.player_on_move == B
    rig.time.advance(1.0)  # a deliberate press later is B's move (a pass: nothing new on the board)
    rig.press(B)
    assert rig.table.game.history[-1].kind is MoveKind.PASS


def test_a_clock_paused_for_an_unplugged_board_resumes_at_the_replug_after_a_restart(tmp_path):
    """The kill -9 failure "no menu entry 'Námitka slovo'": a heartbeat timeout under load paused the clock as
    for an unplug, the daemon was killed before the board's next snapshot, and the restarted table kept the clock
    paused for ever (its menu offering only "Pokračovat") because it forgot why it was paused."""
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.advance(10.0)
    first.unplug()
    assert first.table.clock.paused
    first.close()
    second = Rig(tmp_path)
    second.grid = first.grid
    second.start()  # the board's snapshot comes with the link
    assert not second.table.clock.paused
    assert "challenge_word" in [i.kind for i in second.table.menu.items]
    assert second.view["clock"]["move_left"] == pytest.approx(110.0, abs=2.0)
    second.press(B)
    assert len(second.table.game.history) == 2
    second.close()


def test_a_lost_pending_file_never_asks_back_tiles_a_later_move_laid_on_a_withdrawn_moves_squares(tmp_path):
    """Without pending.json a restart replays the game's take-backs from its start: an old upheld challenge's
    squares, filled since by a later move, were asked back ("Vrať kameny" standing, the move held)."""
    rig = Rig(tmp_path)
    rig.start()
    cells = first_move(rig)
    rig.menu("challenge_word", "ROZUM")
    rig.menu("ruling", "oprávněná")
    rig.lift(cells)
    rig.lay("ROZUM", "8D")  # B lays the same word on the same squares: B's move
    rig.press(B)
    assert rig.table.game.scores == [0, 18]
    rig.close()
    (tmp_path / "pending.json").unlink()
    again = rig.restarted()
    again.advance(10.0)
    assert again.view["take_back"] == [] and again.notice is None and not again.table.clock.paused
    again.close()


def test_a_power_cut_between_the_journal_and_the_pending_file_loses_no_tiles_to_take_back(tmp_path, monkeypatch):
    """The ruling is journaled; the power goes before the pending file says which tiles must come off the board.
    After the restart the table still asks for them: the withdrawn tiles are never read as the next move."""
    first = Rig(tmp_path)
    first.start()
    cells = first_move(first)
    first.menu("challenge_word", "ROZUM")
    first.menu("ruling")
    labels = [c.label for c in first.table.menu.chosen.choices]
    first.table.handle(inputs.EncoderTurned(labels.index("oprávněná") - first.table.menu.choice_index))
    second = cut_power_writing(monkeypatch, first, "pending.json", lambda: first.table.handle(inputs.EncoderPushed()))
    assert [r["type"] for r in read_journal(first.config.journal_path)][-1] == "ruling"
    assert sorted(map(tuple, second.view["take_back"])) == sorted(cells)
    second.press(B)  # the withdrawn ROZUM still lies there: not B's move
    assert len(second.table.game.history) == 1 and second.notice[0] == "Vrať kameny"
    second.close()


@pytest.mark.parametrize("how", ["before", "after"])
def test_a_power_cut_at_any_instant_of_a_new_game_keeps_the_match_order(tmp_path, monkeypatch, how):
    """004: in a match the players take turns to start. The power goes at each file operation on the journal's
    name while the next game starts (the archive, the new journal): after the restart the table shows the
    finished game (the players start the next one again) or the next one, and Bedřich starts it; never the
    configured order again from an empty journal."""
    cut_at = 0
    while True:
        folder = tmp_path / f"{how}-{cut_at}"
        first = Rig(folder)
        first.start()
        first.press(B)
        first.lay("ROZUM", "8D")
        first.press(A)
        first.menu("resign", "Bedřich", "ano")  # the match's first game is over
        first.menu("new_game")
        ops = cut_journal_op(monkeypatch, first.config.journal_path, cut_at, how)
        try:
            first.table.handle(inputs.EncoderTurned(1))
            first.table.handle(inputs.EncoderPushed())  # "ano"
            cut = False
        except PowerCut:
            cut = True
        monkeypatch.undo()
        first.close()
        if not cut:
            break
        first.grid = [[None] * 15 for _ in range(15)]  # the players clear the board
        second = first.restarted()
        if second.table.game.ended is not None:  # the finished game came back: the next one is started again
            second.menu("new_game", "ano")
        assert second.table.game.players == ("Bedřich", "Anna"), (ops, how)
        assert len(list(folder.glob("journal-*.jsonl"))) == 1
        second.close()
        cut_at += 1
    assert cut_at >= 2


def test_a_power_cut_just_after_a_new_game_starts_leaves_no_old_clock_or_menu(tmp_path, monkeypatch):
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.menu("new_game")
    first.table.handle(inputs.EncoderTurned(1))  # "ano"
    from shared.journal import write_atomic

    def cut(path, text):  # the new game's start is journaled; its clock and pending files never land
        raise PowerCut

    monkeypatch.setattr("device.table_recovery.write_atomic", cut)
    first.time.advance(1.0)
    with pytest.raises(PowerCut):
        first.table.handle(inputs.EncoderPushed())
    monkeypatch.undo()
    first.close()
    assert [r["type"] for r in read_journal(first.config.journal_path)] == ["start", "info"]
    first.grid = [[None] * 15 for _ in range(15)]  # the players clear the board for the new game

    second = Rig(tmp_path)
    second.start()
    assert second.table.clock.state == "idle" and not second.table.clock.started
    assert second.view["menu"] is None and second.view["take_back"] == []
    second.press(A)  # the second game of the match: Bedřich (button B) starts, Anna starts his clock
    second.lay("ROZUM", "8D")
    second.press(B)
    assert second.table.game.history[0].player == 0 and second.table.game.players[0] == "Bedřich"
    second.close()
    assert write_atomic  # the real writer is back


def test_a_time_out_journaled_before_the_clock_checkpoint_is_not_a_new_move_after_the_restart(tmp_path, monkeypatch):
    """The move time runs out, the time-out is journaled, the power goes before the clock's checkpoint: after the
    restart the clock waits for the timed-out player's press (004), as without the cut; it does not start the
    next player's move by itself."""
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.advance(110.0)  # B's move, 10 s left; the checkpoint has them
    second = cut_power_writing(monkeypatch, first, "clock.json", lambda: first.advance(12.0))
    assert [r["type"] for r in read_journal(first.config.journal_path)][-1] == "timeout"
    assert second.table.clock.state == "awaiting" and second.table.clock.awaiting_press == B
    second.press(B)
    assert second.table.clock.state == "running" and second.table.clock.player_on_move == A
    assert len(second.table.game.history) == 2


class ShowRecorder:
    """An LCD that notes, at each ``show``, what the journal and ``pending.json`` hold on disk then."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.seen: list[tuple[list[str], int, int | None]] = []

    def show(self, rows) -> int:
        path = self.rig.table.pending_path
        pending = json.loads(path.read_text()) if path.exists() else {}
        journal = [r["type"] for r in read_journal(self.rig.config.journal_path)]
        self.seen.append((journal, len(journal), pending.get(JOURNAL_EVENTS)))
        return 0


def test_the_score_shows_once_the_move_is_journaled_and_before_pending_state_that_changed_nothing(rig):
    """The press path: the move is in the journal before any screen shows it; ``pending.json``, when only the
    journal's length moved (nothing pending), is written after the screens, and at the end of the same input."""
    recorder = ShowRecorder(rig)
    rig.table.displays = [recorder]
    rig.table.render = lambda view, index: [""]
    rig.press(1)
    rig.lay("ROZUM", "8D")
    recorder.seen.clear()
    rig.press(0)
    journal, events, pending_events = recorder.seen[0]
    assert journal[-1] == "play" and rig.table.game.scores == [18, 0]  # journaled before it showed
    assert pending_events is not None and pending_events < events  # pending.json not yet rewritten
    assert json.loads(rig.table.pending_path.read_text())[JOURNAL_EVENTS] == len(rig.table.game.events)


def test_pending_state_the_players_see_is_written_before_the_screens(rig):
    """The menu opened (what a restart must come back to) is on disk before the screen shows it."""
    recorder = ShowRecorder(rig)
    rig.table.displays = [recorder]
    rig.table.render = lambda view, index: [""]
    rig.press(1)
    recorder.seen.clear()
    seen_menu: list[object] = []
    recorder.show = lambda rows: seen_menu.append(json.loads(rig.table.pending_path.read_text())["menu"]) or 0
    rig.table.handle(inputs.EncoderPushed())
    assert rig.table.menu.open
    assert seen_menu == [rig.table.menu.state()]


def test_a_wall_clock_set_forward_between_the_checkpoint_and_the_journal_never_eats_a_move_time():
    """``_ran_after``: the time a running clock surely ran after its checkpoint comes from the first event
    journaled after it, bounded by two checkpoint periods and by the move time left (no time-out the journal has
    not got); nothing for a clock that was not running, or with a time-out among the events."""
    from device.table import CHECKPOINT_PERIOD, _ran_after
    from engine import game as g

    running = {"state": "running", "mode": {"move_time": 120.0}, "move_elapsed": 100.0}
    assert _ran_after(running, 1000.0, [g.Pass(at=1001.5)]) == 1.5
    assert _ran_after(running, 1000.0, [g.Pass(at=1000.0 + 3600)]) == 2 * CHECKPOINT_PERIOD
    late = {**running, "move_elapsed": 119.0}
    assert _ran_after(late, 1000.0, [g.Pass(at=1010.0)]) == pytest.approx(0.999)
    assert _ran_after(running, 1000.0, [g.Pass(at=999.0)]) == 0.0  # set back: nothing
    assert _ran_after({**running, "state": "paused"}, 1000.0, [g.Pass(at=1001.0)]) == 0.0
    assert _ran_after(running, 1000.0, [g.TimeOut(at=1001.0)]) == 0.0
    assert _ran_after(running, None, [g.Pass(at=1001.0)]) == 0.0  # a checkpoint of an older version
    assert _ran_after(running, 1000.0, []) == 0.0


def test_a_card_that_refuses_the_journal_line_records_nothing_stops_the_clock_and_says_so(rig):
    """An SD card full (here the kernel's file size limit, a real EFBIG) refuses the line of A's move: nothing is
    recorded or shown as recorded, the table keeps running, A's time stops for the referee and both LCDs say why
    until a line is written again. Once the card takes lines, the referee resumes and A's press records the move.
    (main raised out of the loop, which ended the daemon; and its buffered append left the refused line's bytes to
    be written with the next one: a move the table had taken back came back in the journal.)"""
    rig.press(B)
    journal = rig.config.journal_path
    before = journal.read_bytes()
    rig.lay("ROZUM", "8D")
    rig.advance(5)
    with file_size_limit(len(before) + 5):
        rig.press(A)
        assert journal.read_bytes() == before
        assert rig.table.game.history == [] and rig.table.game.player_on_move == A
        assert rig.notice == ["Nezapsáno!", "volej rozhodčího"]
        assert rig.table.clock.paused
        left = rig.view["clock"]["move_left"]
        rig.advance(60)
        assert rig.view["clock"]["move_left"] == left  # A's move time waits (the game time is the hall's: it runs)
        rig.press(A)  # pressed again before the card is right: still nothing recorded, still said
        rig.advance(10)
        assert rig.table.game.history == [] and rig.notice == ["Nezapsáno!", "volej rozhodčího"]
    rig.menu("resume", "ano")
    rig.press(A)
    assert rig.table.game.history[-1].words == ("ROZUM",) and rig.table.game.scores == [18, 0]
    assert rig.notice != ["Nezapsáno!", "volej rozhodčího"]
    restarted = rig.restarted()
    assert restarted.table.game.scores == [18, 0] and len(restarted.table.game.history) == 1
