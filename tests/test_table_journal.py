"""The table through a full card and a damaged journal (issue 26, items 6-9): a restart on a full card, time
never given back by a checkpoint the card refused, the records after a bad line kept, and a journal whose game is
not the config's asked of the referee. The full card is a real one (``tests/full_card.py``: a small tmpfs filled
to its last page, the file system's own ENOSPC)."""

from __future__ import annotations

import json
import queue
from pathlib import Path

import pytest
from full_card import full_card
from table_rig import Rig, first_move

from device import inputs
from device.checkpoint_writer import CheckpointWriter
from device.config import check_state_dir
from device.journal_referee import ANSWERS
from device.table import CHECKPOINT_PERIOD
from shared.journal import read_journal, write_atomic
from shared.texts import text

A, B = 0, 1
CARD_FULL = ["Karta plná!", "volej rozhodčího"]


def moves(rig: Rig) -> list[str]:
    return [m.kind.value for m in rig.table.game.history]


def rozum_played(folder: Path) -> Rig:
    """A table in ``folder`` after A's ROZUM (18 points, B on move), closed."""
    rig = Rig(folder)
    rig.start()
    first_move(rig)
    rig.close()
    return rig


# ---- item 6: a restart on a full card --------------------------------------------------------------------------


def test_a_restart_on_a_full_card_resumes_the_game_says_the_card_is_full_and_records_again_once_there_is_space(
    tmp_path,
):
    """main: ``partiar run`` exited 2 ("nemůže držet záznam hry") at every start on a full card: the LCD stayed
    blank. Now the state folder's check lets a full card through, the table resumes the game from its journal,
    the LCDs say the card is full, the move time waits, and once there is space again the table writes its
    checkpoint, the notice goes, and the next move is recorded."""
    with full_card(tmp_path / "card") as card:
        first = Rig(card.path)
        first.start()
        first_move(first)
        first.advance(10.0)
        first.close()
        card.fill()
        check_state_dir(first.config)  # no ConfigError: a full card is not a broken config
        second = first.restarted()
        assert second.table.game.scores == [18, 0] and second.table.game.player_on_move == B
        assert second.notice == CARD_FULL
        assert second.table.clock.paused  # nothing can be recorded: B's time waits for the referee
        left = second.view["clock"]["move_left"]
        second.advance(60.0)
        assert second.view["clock"]["move_left"] == left and second.notice == CARD_FULL
        card.free()
        second.advance(CHECKPOINT_PERIOD + 0.5)  # the checkpoint is tried again and lands
        assert second.notice != CARD_FULL
        second.menu("resume", "ano")
        second.press(B)  # B passes: recorded
        assert moves(second) == ["play", "pass"]
        second.close()
        third = second.restarted()
        assert moves(third) == ["play", "pass"]
        third.close()


def test_a_new_journal_on_a_full_card_is_started_once_the_card_takes_a_line(tmp_path):
    with full_card(tmp_path / "card") as card:
        card.fill()
        rig = Rig(card.path)
        assert rig.start() is False
        assert rig.table.game.events == [] and rig.notice == [text("journal_failed"), text("call_referee")]
        assert rig.table._next_deadline() == pytest.approx(rig.time.now() + CHECKPOINT_PERIOD)  # the loop wakes
        rig.advance(CHECKPOINT_PERIOD + 0.5)
        assert rig.table.game.events == []  # still full: tried again, nothing half written
        card.free()
        rig.advance(CHECKPOINT_PERIOD + 0.5)
        assert [r["type"] for r in read_journal(rig.config.journal_path)] == ["start", "info"]
        assert rig.notice is None or rig.notice[0] != text("journal_failed")
        first_move(rig)
        assert rig.table.game.scores == [18, 0]
        rig.close()


def test_a_torn_last_line_on_a_full_card_waits_for_space_to_be_cut_and_kept_aside(tmp_path):
    """The torn line is kept aside before it is cut: on a full card the copy cannot be made, so the journal opens
    as it is (read skips the torn line) and the cut, with its copy, comes before the next record."""
    with full_card(tmp_path / "card") as card:
        first = rozum_played(card.path)
        path = first.config.journal_path
        with path.open("ab") as f:
            f.write(b'{"type":"pass","at":17')
        torn = path.read_bytes()
        card.fill()
        second = first.restarted()  # main: keep_aside raised ENOSPC out of Journal(): no table at all
        assert moves(second) == ["play"]
        assert path.read_bytes() == torn and not list(card.path.glob("journal.jsonl.damaged-*"))
        card.free()
        second.advance(CHECKPOINT_PERIOD + 0.5)
        second.menu("resume", "ano")
        second.press(B)
        (aside,) = card.path.glob("journal.jsonl.damaged-*")
        assert aside.read_bytes() == torn
        assert [r["type"] for r in read_journal(path)] == ["start", "info", "play", "pass"]
        second.close()


# ---- item 7: time used while the card is full ------------------------------------------------------------------


def test_time_used_while_the_card_refuses_the_checkpoint_is_never_given_back_by_a_restart(tmp_path):
    """main: the refused checkpoint was only logged, the clock ran on, and a restart 30 s later gave the player
    the 30 s of move time and game time back. Now the first refused checkpoint stops the move time and says so,
    so a restart gives back at most the time since the last checkpoint that landed (as a power cut would), and it
    comes back paused while the card is still full (the pause is not lost)."""
    with full_card(tmp_path / "card") as card:
        rig = Rig(card.path)
        rig.start()
        first_move(rig)  # B's move runs; its checkpoint lands
        card.fill()
        rig.advance(CHECKPOINT_PERIOD)  # the next one, due now, is refused
        assert rig.notice == CARD_FULL and rig.table.clock.paused
        clock = rig.view["clock"]
        rig.advance(30.0)
        rig.close()
        again = rig.restarted()
        restored = again.view["clock"]
        assert again.table.clock.paused and again.notice == CARD_FULL
        assert 0 <= restored["move_left"] - clock["move_left"] <= CHECKPOINT_PERIOD + 0.01
        # the game time ran on for the 30 s (issue 34: they came back, the checkpoint could not land)
        assert 0 <= restored["game_left"] - (clock["game_left"] - 30.0) <= CHECKPOINT_PERIOD + 0.01
        again.close()


def test_the_game_time_is_not_given_back_after_the_card_fills_while_the_move_is_paused(tmp_path):
    """Issue 34: the checkpoints of a move paused on a full card did not land, so a restart gave back the game time
    since the last one that did (29-60 s). They land from the card's reserve (``device.card_reserve``): the
    restart gives back at most one checkpoint period, and the LCD still says the card is full."""
    with full_card(tmp_path / "card") as card:
        rig = Rig(card.path)
        rig.start()
        first_move(rig)
        card.fill()
        rig.advance(CHECKPOINT_PERIOD)
        assert rig.notice == CARD_FULL and rig.table.clock.paused
        for _ in range(30):
            rig.advance(2.0)
        clock = rig.view["clock"]
        rig.close()
        again = rig.restarted()
        restored = again.view["clock"]
        assert card.full and again.notice == CARD_FULL and again.table.clock.paused
        assert restored["move_left"] == pytest.approx(clock["move_left"], abs=0.01)
        assert 0 <= restored["game_left"] - clock["game_left"] <= CHECKPOINT_PERIOD + 0.01
        again.close()


def test_a_blank_named_on_a_full_card_after_a_restart_keeps_the_move_time_stopped(tmp_path):
    """Issue 34: the card full while a blank waited for its letter, a restart: the letter menu came back without the
    pause (pending.json had not landed), the clock ran, and naming the letter recorded nothing. Now the wait comes
    back with its pause; the letter named, the move the card cannot take is not recorded, the clock stays stopped
    and the LCD says why; with space again the press records it with the letter."""
    with full_card(tmp_path / "card") as card:
        rig = Rig(card.path)
        rig.start()
        first_move(rig)
        path = rig.config.journal_path
        with path.open("ab") as f:  # blank lines are no records: the journal's last page is full to its end
            f.write(b"\n" * (-path.stat().st_size % 4096))
        card.fill()
        rig.lay("DOMoVINA", "E7")
        rig.press(B)  # the blank has no letter: the move time stops while it is named
        assert rig.table.state.blank_wait == B and rig.table.clock.paused
        rig.advance(10.0)
        rig.close()
        again = rig.restarted()
        table = again.table
        assert table.state.blank_wait == B and table.clock.paused
        assert table.menu.open and table.menu.chosen is not None and table.menu.chosen.kind == "blank"
        left = again.view["clock"]["move_left"]
        again.menu("blank", "O", "hotovo")
        assert moves(again) == ["play"] and again.notice == [text("journal_failed"), text("call_referee")]
        again.advance(30.0)
        assert table.clock.paused and again.view["clock"]["move_left"] == left
        card.free()
        again.advance(CHECKPOINT_PERIOD + 0.5)
        again.menu("resume", "ano")
        again.press(B)
        assert moves(again) == ["play", "play"] and table.game.history[-1].words[0] == "DOMoVINA"
        again.close()


def test_a_restart_between_the_round_start_and_the_first_press_keeps_the_game_time_that_ran(tmp_path):
    """Issue 34: "Start kola", 30 s of waiting for the first press, a restart: the 30 s came back (no checkpoint
    was written while no move ran). The game time's checkpoints go on while it runs."""
    rig = Rig(tmp_path, extra='base_time = "referee"')
    rig.start()
    rig.menu("round_start", "ano")
    game_time = rig.view["clock"]["game_left"]
    for _ in range(15):
        rig.advance(2.0)
    rig.close()
    again = rig.restarted()
    left = again.view["clock"]["game_left"]
    assert 0 <= left - (game_time - 30.0) <= CHECKPOINT_PERIOD + 0.01, (game_time, left)
    again.close()


def test_a_restart_while_a_refused_journal_line_is_shown_keeps_the_clock_stopped(tmp_path):
    """main: the pause the refused line made could not be written either, and the restart ran the clock on from
    the last checkpoint (the referee's pause lost)."""
    with full_card(tmp_path / "card") as card:
        first = rozum_played(card.path)
        path = first.config.journal_path
        with path.open("ab") as f:  # blank lines are no records: the journal's last page is full to its end
            f.write(b"\n" * (-path.stat().st_size % 4096))
        second = first.restarted()
        assert second.table.clock.state == "running" and not second.table.clock.paused
        card.fill()
        second.press(B)  # B's pass: its line needs a new page
        assert moves(second) == ["play"] and second.notice == [text("journal_failed"), text("call_referee")]
        assert second.table.clock.paused
        clock = second.view["clock"]
        second.advance(30.0)
        second.close()
        third = second.restarted()
        assert third.table.clock.paused and third.notice == CARD_FULL
        assert 0 <= third.view["clock"]["move_left"] - clock["move_left"] <= CHECKPOINT_PERIOD + 0.01
        third.close()


def test_a_resumed_clock_is_stopped_again_while_the_card_still_refuses_the_checkpoint(tmp_path):
    with full_card(tmp_path / "card") as card:
        rig = Rig(card.path)
        rig.start()
        first_move(rig)
        card.fill()
        rig.advance(CHECKPOINT_PERIOD + 0.1)
        assert rig.table.clock.paused
        rig.menu("resume", "ano")
        rig.advance(CHECKPOINT_PERIOD + 0.1)  # its checkpoint is refused too
        assert rig.table.clock.paused and rig.notice == CARD_FULL
        rig.close()


def test_the_checkpoint_writer_reports_every_refusal_and_the_first_write_after(tmp_path):
    outcomes: list[object] = []
    refuse = [True]

    def write(path, text):
        if refuse[0]:
            raise OSError(28, "No space left on device")
        path.write_text(text)

    writer = CheckpointWriter(write, on_outcome=outcomes.append)
    for n in range(2):
        writer.submit(tmp_path / "clock.json", f"{n}")
        assert writer.wait(timeout=30.0)
    refuse[0] = False
    for n in range(2):
        writer.submit(tmp_path / "clock.json", f"ok{n}")
        assert writer.wait(timeout=30.0)
    writer.close(timeout=30.0)
    assert [None if o is None else o.errno for o in outcomes] == [28, 28, None]
    assert (tmp_path / "clock.json").read_text() == "ok1"


def test_the_clock_checkpoint_refused_on_the_writer_thread_stops_the_move_time(tmp_path):
    """The daemon's loop hands checkpoints to the writer thread (``Table.run``); its refusal reaches the loop as an
    input: the move time stops and the LCDs say so; the first checkpoint that lands again takes the notice away."""
    rig = Rig(tmp_path)
    rig.start()
    first_move(rig)
    table = rig.table
    error: list[OSError | None] = [OSError(28, "No space left on device")]

    def write(path, text):
        if error[0] is not None:
            raise error[0]
        write_atomic(path, text)

    table.checkpoints = CheckpointWriter(write, on_outcome=lambda e: table.inputs.put(inputs.CheckpointOutcome(e)))

    def next_outcome() -> None:
        """What the writer told the loop, handled until the writer has nothing more to write."""
        writer = table.checkpoints
        while True:
            assert writer is not None and writer.wait(timeout=60.0)
            try:
                item = table.inputs.get(block=False)
            except queue.Empty:
                return
            table.handle(item)

    rig.advance(CHECKPOINT_PERIOD)
    next_outcome()
    assert table.clock.paused and rig.notice == CARD_FULL
    error[0] = OSError(5, "Input/output error")
    rig.advance(CHECKPOINT_PERIOD)  # retried while the card refuses
    next_outcome()
    assert rig.notice == [text("card_error"), text("call_referee")]
    error[0] = None
    rig.advance(CHECKPOINT_PERIOD)
    next_outcome()
    assert rig.notice is None and table.clock.paused  # the referee resumes
    writer, table.checkpoints = table.checkpoints, None
    writer.close(timeout=60.0)
    rig.close()


# ---- item 8: one bad line in the middle of the journal ---------------------------------------------------------


def damaged_game(tmp_path, bad: bytes, *, after: list[bytes] | None = None) -> tuple[Rig, int]:
    """A game with ROZUM, B's pass and A's pass journaled, ``bad`` put in before B's pass; returns the rig
    (closed) and the bad line's number."""
    rig = Rig(tmp_path)
    rig.start()
    first_move(rig)
    rig.press(B)
    rig.press(A)
    rig.close()
    path = rig.config.journal_path
    lines = path.read_bytes().splitlines(keepends=True)
    at = len(lines) - 2
    lines[at:at] = [bad]
    path.write_bytes(b"".join(lines + (after or [])))
    return rig, at + 1


@pytest.mark.parametrize("bad", [b"this is not json\n", b"\xff\xfe\x00 binary\n", b"[1, 2]\n"])
def test_a_bad_line_in_the_middle_costs_that_line_only_and_is_shown_until_the_referee_acknowledges_it(
    tmp_path, caplog, bad
):
    """main: the game went back to before the bad line (the two passes after it lost), the LCD said so for 60 s.
    Now every later record that still applies is kept, the file as it was is kept aside, and the LCD says
    "Vadný záznam / řádek N" until the referee's "Vadný záznam OK", which is recorded (a restart does not ask
    again)."""
    first, line = damaged_game(tmp_path, bad)
    damaged = first.config.journal_path.read_bytes()
    second = first.restarted()
    assert moves(second) == ["play", "pass", "pass"]
    (aside,) = tmp_path.glob("journal.jsonl.damaged-*")
    assert aside.read_bytes() == damaged
    assert [r["type"] for r in read_journal(first.config.journal_path)] == ["start", "info", "play", "pass", "pass"]
    shown = ["Vadný záznam", f"řádek {line}"]
    assert second.notice == shown and f"journal.jsonl:{line}: set aside" in caplog.text
    second.advance(100.0)
    assert second.notice == shown  # not for 60 s: until the referee has seen it
    second.close()
    third = second.restarted()
    assert third.notice == shown
    third.menu("bad_record_ok", "ano")
    assert third.notice != shown
    assert [a["type"] for a in read_journal(tmp_path / ANSWERS)] == ["set_aside_seen"]
    third.close()
    fourth = third.restarted()
    assert fourth.notice != shown and "bad_record_ok" not in [i.kind for i in fourth.table.menu.items]
    fourth.close()


def test_a_refused_record_in_the_middle_is_named_and_later_ones_that_no_longer_apply_are_set_aside_too(tmp_path):
    refused = json.dumps({"type": "play", "at": 1.0, "placements": [[7, 7, "K", False], [0, 0, "O", False]]})
    ruling = json.dumps({"type": "ruling", "at": 2.0, "upheld": True})  # no challenge open: does not apply
    first, line = damaged_game(tmp_path, refused.encode() + b"\n", after=[ruling.encode() + b"\n"])
    second = first.restarted()
    assert moves(second) == ["play", "pass", "pass"]
    assert second.notice == ["Vadný záznam", f"ř.{line} +1"]
    (report,) = tmp_path.glob("set-aside-journal.jsonl.damaged-1.json")
    data = json.loads(report.read_text(encoding="utf-8"))
    assert [(x["line"], x["kind"]) for x in data["lines"]] == [(line, "play"), (line + 3, "ruling")]
    second.close()
    only_play, line = damaged_game(tmp_path / "one", refused.encode() + b"\n")
    again = only_play.restarted()
    assert again.notice == ["Vadný záznam", f"tah ř.{line}"]
    again.close()


def lost_move_journal(tmp_path) -> tuple[Rig, list[bytes]]:
    """A tournament game: A's ROZUM (line 3), B's DOMoVINA (line 4, 66), A challenges it, rejected (A's cross),
    A plays NA, B passes; closed. Returns the rig and the journal's lines."""
    rig = Rig(tmp_path)
    rig.start()
    first_move(rig)
    rig.lay("DOMoVINA", "E7")
    rig.menu("blank", "O", "hotovo")
    rig.press(B)
    rig.menu("challenge_word", "DOMoVINA")
    rig.menu("ruling", "neoprávněná")
    rig.lay("N.", "14D")  # NA: N before DOMoVINA's last A
    rig.press(A)
    rig.press(B)
    game = rig.table.game
    assert game.crosses == [1, 0] and [m.player for m in game.history] == [A, B, A, B]
    rig.close()
    lines = rig.config.journal_path.read_bytes().splitlines(keepends=True)
    assert json.loads(lines[3])["type"] == "play" and json.loads(lines[3])["turn"] == 1
    return rig, lines


def test_after_a_lost_move_no_later_move_changes_hands_nor_a_challenge_its_move(tmp_path):
    """Issue 34: line 4 (B's DOMoVINA) replaced by garbage: main kept the later records, credited A's moves to B
    and B's to A, and applied A's challenge of DOMoVINA to ROZUM. Each record names its turn; what cannot be
    placed at its turn is set aside and shown: no move given to the other player, no challenge to another move."""
    first, lines = lost_move_journal(tmp_path)
    lines[3] = b"garbage where DOMoVINA was\n"
    first.config.journal_path.write_bytes(b"".join(lines))
    second = first.restarted()
    game = second.table.game
    assert [m.player for m in game.history] == [A]  # ROZUM, and nothing of anyone else's
    assert game.scores == [18, 0] and game.crosses == [0, 0] and game.player_on_move == B
    assert second.notice[0] == "Vadný záznam"
    (report,) = tmp_path.glob("set-aside-journal.jsonl.damaged-1.json")
    aside = json.loads(report.read_text(encoding="utf-8"))["lines"]
    assert [x["line"] for x in aside] == list(range(4, len(lines) + 1))
    assert all("turn" in x["reason"] for x in aside[1:]), aside
    second.close()


def test_a_journal_written_before_records_named_their_turn_still_loads(tmp_path):
    first, lines = lost_move_journal(tmp_path)
    old = [json.dumps({k: v for k, v in json.loads(line).items() if k != "turn"}).encode() + b"\n" for line in lines]
    first.config.journal_path.write_bytes(b"".join(old))
    second = first.restarted()
    game = second.table.game
    assert [m.player for m in game.history] == [A, B, A, B] and game.crosses == [1, 0]
    assert second.notice is None or second.notice[0] != "Vadný záznam"
    second.close()


# ---- item 9: a journal whose game is not the config's ----------------------------------------------------------

POLISH = ("Jan", "Petr", "Eva", "Ivo")


def polish_journal(tmp_path) -> Rig:
    rig = Rig(tmp_path, clock="polish", players=POLISH, extra='ruleset = "polish"')
    rig.start()
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.close()
    return rig


def test_a_doubles_journal_under_a_two_player_config_is_asked_and_the_journals_game_goes_on(tmp_path):
    """main: a Polish doubles journal resumed under a two-player ČAS config without a word."""
    polish = polish_journal(tmp_path)
    two = Rig(tmp_path)
    two.grid = polish.grid
    two.start()
    assert two.notice == ["Jiná hra!", "volej rozhodčího"]
    assert two.table.clock.paused or not two.table.clock.started
    assert [i.kind for i in two.table.menu.items] == ["journal_game"]
    two.press(B)
    assert len(two.table.game.history) == 1  # nothing recorded while the referee is asked
    two.menu("journal_game", "pokračovat", "ano")
    assert two.table.config.players == POLISH and two.table.clock_mode.move_time == 180.0
    assert two.table.clock.mode.sides == 2
    (answer,) = read_journal(tmp_path / ANSWERS)
    assert answer["answer"] == "continue" and answer["journal"]["ruleset"] == "polish"
    two.close()
    again = Rig(tmp_path)
    again.grid = polish.grid
    again.start()
    assert again.notice != ["Jiná hra!", "volej rozhodčího"]  # answered: not asked again
    assert "journal_game" not in [i.kind for i in again.table.menu.items]
    again.close()


def test_the_referee_may_archive_the_journals_game_and_start_the_configs(tmp_path):
    polish = polish_journal(tmp_path)
    journal = polish.config.journal_path.read_bytes()
    two = Rig(tmp_path)
    two.start()
    two.menu("journal_game", "nová (archiv)", "ano")
    (archived,) = tmp_path.glob("journal-*.jsonl")
    assert archived.read_bytes() == journal  # nothing lost
    assert two.table.game.players == ("Anna", "Bedřich") and two.table.game.ruleset.name == "cas"
    assert two.notice != ["Jiná hra!", "volej rozhodčího"]
    assert [a["answer"] for a in read_journal(tmp_path / ANSWERS)] == ["new"]
    first_move(two)
    assert two.table.game.scores == [18, 0]
    two.close()


def test_a_journal_under_other_rules_keeps_the_configs_seats_when_the_referee_goes_on_with_it(tmp_path):
    """Game 2 of a match (Bedřich starts, Anna still on seat A) resumed under a config with another rule set: the
    referee goes on with the journal's game under its own rules; the seats stay the config's (buttons, LCDs)."""
    first = Rig(tmp_path)
    first.start()
    first_move(first)
    first.menu("new_game", "ano")
    assert first.table.game.players == ("Bedřich", "Anna")
    first.close()
    other = Rig(tmp_path, extra="rules = { blank_swap = true }")
    other.start()
    assert other.notice == ["Jiná hra!", "volej rozhodčího"]
    other.menu("journal_game", "pokračovat", "ano")
    assert other.table.config.players == ("Anna", "Bedřich") and other.table.config.rules == {}
    assert other.table.game.ruleset.blank_swap is False
    assert [other.table._player_at(seat) for seat in (0, 1)] == [1, 0]  # seat A is Anna, the game's second player
    other.close()
