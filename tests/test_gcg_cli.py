"""``partiar gcg verify`` and ``partiar gcg rescore``: exit statuses, output, and rescoring from placements."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from device.cli import gcg as gcg_cli
from device.cli import main as partiar
from engine.gcg import GcgPlay, decode_gcg, read_gcg

GAME = """#player1 ann Ann
#player2 bob Bob
>ann: ACOPRSTV 8G COP +8 8
#note the O of COP on the centre
>bob: ALORSTV G8 .LO +5 5
>ann: AESTVX 10G .VES +6 14
>bob: ANORST G8 ...NA +6 11
>ann: EPSŘ I8 .ŘES +11 25
>bob: ORST -ORT +0 11
>ann: ABC (time) -10 15
"""
"""Seed 001's first moves (Czech tiles), then an exchange and a time penalty."""


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="partiar")
    gcg_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return int(args.func(args))


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "seed.gcg"
    path.write_bytes(("#character-encoding UTF-8\n" + GAME).encode("utf-8"))
    return path


def test_verify_exit_0_when_everything_matches(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("gcg", "verify", str(game_file), "--lang", "en") == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "no differences" in err and "tiles czech" in err


def test_verify_exit_1_and_prints_each_difference(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("+11 25", "+12 26"), encoding="utf-8")
    assert run("gcg", "verify", str(game_file), "--tiles", "czech", "--lang", "en") == 1
    out, _ = capsys.readouterr()
    # later totals are the engine's own sums, so only the changed line differs
    assert out.splitlines() == [
        f"{game_file}:9: score, running total differ: recorded +12 (total 26), engine +11 (total 25)"
    ]


def test_verify_exit_2_on_a_malformed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: AB 8H AB 8 8\n", encoding="latin-1")
    assert run("gcg", "verify", str(bad), "--lang", "en") == 2
    err = capsys.readouterr().err
    assert f"{bad}:3: expected a signed score" in err


def test_verify_exit_2_on_a_letter_outside_the_tile_set(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("gcg", "verify", str(game_file), "--tiles", "english", "--lang", "en") == 2
    assert "'Ř' is not in the english tile set" in capsys.readouterr().err


def test_rescore_ignores_recorded_scores(game_file: Path, tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.gcg"
    text = game_file.read_text(encoding="utf-8")
    corrupt.write_text(re.sub(r"\+(\d+) (-?\d+)$", r"+999 \2", text, flags=re.M), encoding="utf-8")
    corrupt.write_text(re.sub(r" (-?\d+)\n", " 7\n", corrupt.read_text(encoding="utf-8")), encoding="utf-8")
    out = tmp_path / "out.gcg"
    assert run("gcg", "rescore", str(corrupt), "-o", str(out)) == 0
    rescored = read_gcg(decode_gcg(out.read_bytes()))
    original = read_gcg(text)
    # plays, exchange: engine scores and totals; time penalty: its recorded amount is kept
    assert [(e.score, e.total) for e in rescored.events] == [
        (8, 8),
        (5, 5),
        (6, 14),
        (6, 11),
        (11, 25),
        (0, 11),
        (-10, 15),
    ]
    assert [e.notes for e in rescored.events] == [e.notes for e in original.events]
    assert all(isinstance(e, GcgPlay) for e in rescored.events[:5])
    assert out.read_bytes().startswith(b"#character-encoding UTF-8\n")


def test_rescore_to_stdout_of_a_correct_file_reproduces_it(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("gcg", "rescore", str(game_file)) == 0
    assert read_gcg(capsys.readouterr().out) == read_gcg(decode_gcg(game_file.read_bytes()))


def test_going_out_inferred_from_the_file_else_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "end.gcg"

    def verify(end_lines: str, *options: str) -> tuple[int, str, str]:
        text = "#character-encoding UTF-8\n" + GAME.replace(">ann: ABC (time) -10 15\n", end_lines)
        path.write_bytes(text.encode("utf-8"))
        status = run("gcg", "verify", str(path), "--lang", "en", *options)
        out, err = capsys.readouterr()
        return status, out, err

    # the opponent's own-rack line shows 1x; --going-out cannot override what the record shows. The racks are
    # not the tiles left off the board (this is no finished game), and verify says so.
    status, out, err = verify(">bob: AX (AX) -11 0\n>ann:  (AX) +11 36\n", "--going-out", "2x")
    assert "going out 1x" in err
    assert status == 1 and "rack 'AX' (engine: " in out
    # a went-out line alone whose amount fits neither 1x nor 2x: the option decides
    assert "going out 2x" in verify(">ann:  (AX) +5 30\n", "--going-out", "2x")[2]
    assert "going out 1x" in verify(">ann:  (AX) +5 30\n")[2]


def test_partiar_command_has_the_gcg_subcommand(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert partiar(["gcg", "verify", str(game_file)]) == 0
    with pytest.raises(SystemExit):
        partiar(["gcg", "verify", str(game_file), "--tiles", "klingon"])


# ------------------------------------------------------------------------------------------ Czech, the default
MALFORMED = [
    # (what is wrong, the record's lines after the players, the line number, Czech words, English words)
    ("no signed score", ">a: AB 8H AB 8 8\n", 3,
     "očekává se body se znaménkem, např. +24, před průběžným součtem; na řádku stojí '>a: AB 8H AB 8 8'",
     "expected a signed score like +24 before the running total: '>a: AB 8H AB 8 8'"),
    ("unknown nick", ">c: AB 8H AB +4 4\n", 3,
     "očekává se přezdívka hráče z řádku #player (a, b)", "expected a nick declared by a #player line (a, b)"),
    ("bad position", ">a: AB 8Z AB +4 4\n", 3,
     "očekává se pozice jako 8D (vodorovně) nebo D8 (svisle) na desce 15x15",
     "expected a position like 8D (across) or D8 (down) on a 15x15 board"),
    ("first move off centre", ">a: AB 1A AB +4 4\n", 3,
     "nepovolené položení: první tah nevede přes střed (pole A1, B1), slovo 'AB'",
     "illegal placement: first move does not cover the centre square"),
    ("take back with nothing to take back", ">a: AB -- -4 -4\n", 3,
     "'--', ale a nemá tah, který by vzal zpět", "'--' but a has no play to take back"),
    ("stray text", "some words\n", 3,
     "očekává se řádek '#pragma' nebo záznam tahu '>přezdívka:' (text mimo #note)",
     "expected a '#pragma' or a '>nick:' event line (text outside a #note)"),
]


@pytest.mark.parametrize(("what", "lines", "line", "czech", "english"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_record_is_named_in_czech_by_default_and_in_english_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, lines: str, line: int, czech: str, english: str
) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_bytes(("#character-encoding UTF-8\n#player1 a A\n#player2 b B\n" + lines).encode("utf-8"))
    bad.write_bytes(bad.read_bytes().replace(b"#character-encoding UTF-8\n", b""))  # line numbers as listed
    for command in ("verify", "rescore"):
        assert run("gcg", command, str(bad)) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"partiar gcg {command}: {bad}:{line}: "), err
        assert czech in err, err
        assert run("gcg", command, str(bad), "--lang", "en") == 2
        err = capsys.readouterr().err
        assert err.startswith(f"partiar gcg {command}: {bad}:{line}: "), err
        assert english in err, err


def test_differences_and_the_summary_in_czech(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("+11 25", "+12 26"), encoding="utf-8")
    assert run("gcg", "verify", str(game_file)) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{game_file}:9: liší se body, průběžný součet: zapsáno +12 (součet 26), správně +11 (součet 25)"
    ]
    assert err.strip() == f"{game_file}: 7 záznamů, rozdílů: 1 (sada czech, body za ukončení 1x)"


def test_an_end_rack_that_is_not_the_tiles_left_in_czech(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = game_file.read_text(encoding="utf-8").replace(
        ">ann: ABC (time) -10 15\n", ">bob: AX (AX) -11 0\n>ann:  (AX) +11 36\n"
    )
    game_file.write_text(text, encoding="utf-8")
    assert run("gcg", "verify", str(game_file)) == 1
    out = capsys.readouterr().out
    # bob's own-rack line: the tiles off the board are not AX (this is no finished game)
    assert f"{game_file}:11: liší se body, průběžný součet, zásobník 'AX' (správně '" in out


def test_a_letter_outside_the_tile_set_in_czech(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("gcg", "verify", str(game_file), "--tiles", "english") == 2
    err = capsys.readouterr().err
    assert f"{game_file}:9: písmeno 'Ř' není v sadě kamenů english; zvolte sadu záznamu (--tiles)" in err


def test_a_missing_file_and_an_unwritable_output_in_both_languages(
    tmp_path: Path, game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.gcg"
    assert run("gcg", "verify", str(missing)) == 2
    assert capsys.readouterr().err.strip() == (
        f"partiar gcg verify: {missing}: soubor nelze přečíst: soubor ani složka neexistuje"
    )
    assert run("gcg", "verify", str(missing), "--lang", "en") == 2
    assert capsys.readouterr().err.strip() == (
        f"partiar gcg verify: {missing}: cannot read the file: no such file or directory"
    )
    assert run("gcg", "rescore", str(game_file), "-o", str(tmp_path)) == 2
    assert capsys.readouterr().err.strip() == f"partiar gcg rescore: nelze zapsat {tmp_path}: je to složka, ne soubor"


def test_every_engine_code_has_its_czech_words() -> None:
    from engine.gcg import EXPECTED
    from engine.placement import Reason
    from engine.replay import PROBLEMS
    from shared.texts import GCG_EXPECTED_CS, REPLAY_PROBLEMS_CS

    assert set(GCG_EXPECTED_CS) == set(EXPECTED)
    assert set(REPLAY_PROBLEMS_CS) == set(PROBLEMS)
    from shared.texts import cli

    for reason in Reason:
        assert cli(f"reason_{reason.name.lower()}", "cs")
