"""The game as GCG (read back by the engine's GCG reader and replay with identical scores) and the
``partiar sheet`` command on a journal."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from device.cli import main
from engine.game import Game, encode_event
from engine.game.export import game_gcg, nicks
from engine.game.sample import random_events
from engine.game.script import run_script
from engine.gcg import GcgEndRack, GcgPhonyWithdrawn, decode_gcg, read_gcg
from engine.replay import replay
from engine.ruleset import CAS, ENGLISH, preset

GAME = """
start cas Jan Novák:Eva
play H7V ROZUM
play G8S K.T
challenge 0
ruling upheld
play G11S P.
exchange 3
play I10V aŽ
resign 0
"""


def replayed_totals(game: Game) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    record = read_gcg(game_gcg(game), "game.gcg")
    steps = list(replay(record, game.tiles, game.ruleset.scoring))
    return [(e.score, e.total) for e in record.events], [(s.score, s.total) for s in steps]


def test_gcg_of_a_game_replays_with_identical_scores():
    game = run_script(GAME)
    text = game_gcg(game)
    assert "#player1 Jan Jan" in text and "#player2 Novák_Eva Novák:Eva" in text
    record = read_gcg(text, "game.gcg")
    assert isinstance(record.events[2], GcgPhonyWithdrawn) and record.events[2].score == -3
    recorded, engine = replayed_totals(game)
    assert recorded == engine
    assert record.events[-1].notes == ("game ended by resigned (Jan): 0 : 100",)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from([CAS, ENGLISH, preset("home")]))
@example(seed=1429341, rules=ENGLISH)  # went out while the opponent held only a blank: the line is +0, still there
@example(seed=22932, rules=CAS)  # the player left with tiles holds only a blank: a +0 end-rack line all the same
def test_gcg_of_random_games_replays_with_identical_scores(seed, rules):
    game = Game.replay(random_events(random.Random(seed), rules, max_events=120))
    recorded, engine = replayed_totals(game)
    assert recorded == engine
    result = game.result
    if result is not None:
        record = read_gcg(game_gcg(game))
        finals = {}
        for event in record.events:
            finals[event.nick] = event.total
        assert tuple(finals.get(n, 0) for n in nicks(game.players)) == result.final
        assert any(isinstance(e, GcgEndRack) for e in record.events) == (result.went_out is not None)


def test_nicks_are_gcg_safe_and_distinct():
    assert nicks(("Jan Novák", "Eva")) == ("Jan_Novák", "Eva")
    assert nicks(("A B", "A:B")) == ("p1_A_B", "p2_A_B")
    assert nicks(("", "x")) == ("p1", "x")


def write_journal(path, game: Game, cut: str = "") -> None:
    path.write_text("".join(encode_event(e) + "\n" for e in game.events) + cut, encoding="utf-8")


def test_sheet_command_prints_and_writes_html_and_gcg(tmp_path, capsys):
    game = run_script(GAME)
    journal = tmp_path / "game.jsonl"
    write_journal(journal, game)
    html, gcg = tmp_path / "game.html", tmp_path / "game.gcg"
    assert main(["sheet", str(journal), "--html", str(html), "--gcg", str(gcg)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Partiář: Jan : Novák:Eva") and "Výsledek 0 : 100" in out
    assert "<!DOCTYPE html>" in html.read_text(encoding="utf-8")
    assert read_gcg(decode_gcg(gcg.read_bytes())).players[0].nick == "Jan"
    assert main(["sheet", str(journal), "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("Score sheet:")


def test_sheet_command_reads_a_journal_cut_off_by_a_power_cut(tmp_path, capsys, caplog):
    game = run_script(GAME.replace("resign 0", ""))
    journal = tmp_path / "game.jsonl"
    write_journal(journal, game, cut='{"type":"pass","a')
    assert main(["sheet", str(journal)]) == 0
    assert "Partie pokračuje." in capsys.readouterr().out
    assert "cut off" in caplog.text


def test_sheet_command_refuses_a_journal_without_a_game(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    journal.write_text("not json\n", encoding="utf-8")
    assert main(["sheet", str(journal)]) == 2
    err = capsys.readouterr().err
    assert "game.jsonl:1: not a JSON record" in err and "v deníku není žádná partie" in err


def test_sheet_command_names_a_missing_file_as_missing_in_czech_or_english(tmp_path, capsys):
    """Issue 34: a mistyped path was reported as "empty journal: no game to show"."""
    missing = tmp_path / "missing.jsonl"
    assert main(["sheet", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"soubor {missing} neexistuje" in err and "empty journal" not in err
    assert main(["sheet", str(missing), "--lang", "en"]) == 2
    assert f"{missing} does not exist" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert main(["sheet", str(empty)]) == 2
    assert "empty journal" in capsys.readouterr().err  # an empty file is one


@pytest.mark.parametrize(
    ("tail", "reason"),
    [
        ('not json\n{"type":"pass","at":1}\n', "not a JSON record"),  # a complete line of garbage
        (b'{"type":"pass","at":1,"x":"\xc5'.decode("latin-1"), "last line cut off"),  # torn inside a letter
        ('{"type":"ruling","at":1,"upheld":true}\n', "no challenge"),  # an event the game refuses
    ],
)
def test_sheet_command_gives_the_valid_prefix_of_a_damaged_journal_with_a_warning(tmp_path, capsys, tail, reason):
    game = run_script(GAME.replace("resign 0", ""))
    journal = tmp_path / "game.jsonl"
    write_journal(journal, game)
    with journal.open("ab") as f:
        f.write(tail.encode("latin-1") if "\xc5" in tail else tail.encode("utf-8"))
    assert main(["sheet", str(journal), "--gcg", str(tmp_path / "g.gcg")]) == 0
    captured = capsys.readouterr()
    assert "Partie pokračuje." in captured.out
    assert f"game.jsonl:{len(game.events) + 1}: " in captured.err and reason in captured.err
    assert f"{len(game.events)} záznamů" in captured.err
    assert read_gcg(decode_gcg((tmp_path / "g.gcg").read_bytes())).players[0].nick == "Jan"


def test_the_referees_correction_and_dispute_forfeit_in_the_gcg():
    """004 E: a correction is a ``(time)`` line with its note (GCG has no other line for a signed amount); the
    dispute forfeit has no GCG form and ends the record with a note; the record still reads back."""
    game = run_script("start cas Jan Eva\nplay H7V ROZUM\ncorrection 1 12\nresign 1\ndispute_forfeit 1")
    text = game_gcg(game)
    assert ">Eva:  (time) +12 12\n#note correction\n#note game ended by dispute_forfeit: 0 : 100" in text
    assert read_gcg(text) is not None
