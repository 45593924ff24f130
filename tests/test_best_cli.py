"""``partiar best`` on a small English index and a GCG position, and on the Czech index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from small_lexicon import word_list, write_index

from desk.best import board_of_record
from device.cli import main
from engine.board import Notation
from engine.gcg import decode_gcg, read_gcg
from engine.lexicon import default_path
from engine.movegen import MoveGenerator, WordGraph
from engine.tiles import tile_set

DATA = Path(__file__).parent / "data"
RECORD = DATA / "gcg" / "quackle__quackle__test__positions__boys1.gcg"


@pytest.fixture(scope="module")
def english_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_index(tmp_path_factory.mktemp("lexicon") / "english.dawg", word_list("movegen_words_en.txt"))


def test_best_on_a_gcg_position_prints_the_generators_top_plays(
    english_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the game ended with DATSXK on a rack: every other tile is on the board (another rack is refused: below)
    rc = main(
        ["best", str(RECORD), "DATSXK", "--tiles", "english", "--lexicon", str(english_index), "-n", "4"]
    )
    out = capsys.readouterr().out.splitlines()
    tiles = tile_set("english")
    board = board_of_record(read_gcg(decode_gcg(RECORD.read_bytes()), str(RECORD)), tiles)
    assert board.tile_count() > 10
    expected = MoveGenerator(WordGraph.load(english_index), tiles).plays(board, "DATSXK")[:4]
    assert rc == 0 and len(out) == 4
    for line, move in zip(out, expected, strict=True):
        assert line.split() == [move.notation(Notation.CLASSIC), move.word, str(move.score)]


def test_best_json_has_position_word_score(english_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["best", "QUIZERS", "--tiles", "english", "--lexicon", str(english_index), "-n", "3", "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rc == 0 and len(rows) == 3
    assert {"position", "word", "score", "tiles", "leave", "words"} <= set(rows[0])
    assert rows[0]["score"] >= rows[1]["score"] >= rows[2]["score"]
    assert all(r["position"].startswith("8") or r["position"].startswith("H") for r in rows)


def test_best_bad_input_exits_2(english_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["best", "AB1", "--tiles", "english", "--lexicon", str(english_index), "--lang", "en"]) == 2
    assert "letter 1 is not in the english set" in capsys.readouterr().err
    assert main(["best", "AB", "--lexicon", str(english_index.parent / "missing.dawg")]) == 2
    assert "missing.dawg neexistuje (postaví ho partiar lexicon build" in capsys.readouterr().err
    assert main(["best", "a.gcg", "b", "AB", "--lexicon", str(english_index)]) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["CATSEAXE"], "zásobník CATSEAXE má 8 kamenů, nejvýš 7"),
        (["ZZCAT"], "zásobník ZZCAT má Z 2krát, celá sada jen 1krát"),
        (["CAT???"], "zásobník CAT??? má ? 3krát, celá sada jen 2krát"),
        ([""], "prázdný zásobník"),
        (["CAT", "-n", "0"], "-n musí být aspoň 1"),
        (["CAT1"], "písmeno 1 není v sadě english"),
        ([str(DATA / "movegen_words_en.txt"), "CAT"], "movegen_words_en.txt:1: očekává se název pragmy za '#'"),
    ],
)
def test_best_refuses_a_rack_no_bag_can_give_and_a_malformed_record(
    english_index: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """More than 7 tiles, more of a letter than the set has, nothing, a malformed GCG: a Czech message, exit 2."""
    assert main(["best", *args, "--tiles", "english", "--lexicon", str(english_index)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


def test_best_no_play_exits_1(english_index: Path) -> None:
    assert main(["best", "QZ", "--tiles", "english", "--lexicon", str(english_index)]) == 1


def test_best_czech_uses_cas_notation(capsys: pytest.CaptureFixture[str]) -> None:
    if not default_path().exists():
        pytest.skip("no Czech index")
    assert main(["best", "KOČKA?E", "-n", "2"]) == 0
    first = capsys.readouterr().out.splitlines()[0].split()
    assert first[0][-1] in "VS" and first[2] == "76" and any(ch.islower() for ch in first[1])


def test_a_lexicon_of_another_language_than_the_tiles_is_warned_of(
    english_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An English index with the Czech tiles (the default): its Q and W have no tile, so the referee is warned that
    the lexicon is most likely for another set; the plays are still listed. The right pair gives no warning."""
    main(["best", "KOČKA", "--lexicon", str(english_index)])
    err = capsys.readouterr().err
    assert "pozor: slovník má písmena, pro která sada czech nemá kámen (Q, W)" in err
    assert main(["best", "QUIZERS", "--tiles", "english", "--lexicon", str(english_index), "--lang", "en"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["qualify", "generate", "-n", "2", "--seed", "1"]) == 0  # no generator, no warning
    assert capsys.readouterr().err == ""
    if default_path().exists():  # the referee's Czech index with the English tiles
        assert main(["best", "QUIZERS", "--tiles", "english", "--lang", "en"]) in (0, 1)
        assert "warning: the lexicon has letters the english tile set has no tile for (Á, Č," in capsys.readouterr().err


POSITION_CS = (
    "#player1 eva Eva\n#player2 jan Jan\n>eva: DĚĎ 8G DĚĎ +24 24\n>jan: ??K I8 .ťaK +9 9\n"
)
"""A Czech position: the set's only Ď and both blanks are on the board (scores as the engine counts them)."""


@pytest.fixture(scope="module")
def czech_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from engine.lexicon.alphabet import czech_alphabet

    return write_index(tmp_path_factory.mktemp("lexicon") / "czech.dawg", ["děď", "ďas", "sad", "ad", "kas"],
                       czech_alphabet())  # fmt: skip


def record(tmp_path: Path, text: str, header: bool = True) -> Path:
    path = tmp_path / "hra.gcg"
    path.write_bytes((("#character-encoding UTF-8\n" if header else "") + text).encode("utf-8"))
    return path


def best(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(["best", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_rack_is_checked_against_the_tiles_already_on_the_board(
    tmp_path: Path, czech_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29, item 4: no third blank, no second Ď when the only Ď is down; the rest of the bag is fine."""
    path = record(tmp_path, POSITION_CS)
    rc, out, err = best(capsys, str(path), "AĎS", "--lexicon", str(czech_index))
    assert rc == 2 and out == ""
    assert "zásobník AĎS má Ď 1krát, ale na desce už leží zbylé: mimo desku je Ď jen 0krát" in err
    rc, out, err = best(capsys, str(path), "AS?", "--lexicon", str(czech_index))
    assert rc == 2 and "mimo desku je ? jen 0krát (? = žolík)" in err
    rc, out, err = best(capsys, str(RECORD), "AEIRST?", "--tiles", "english", "--lexicon", str(czech_index))
    assert rc == 2 and "zásobník AEIRST? má ? 1krát" in err
    rc, out, err = best(capsys, str(path), "AS?", "--lexicon", str(czech_index), "--lang", "en")
    assert rc == 2 and "rack AS? has 1 x ?, but the others are on the board: only 0 x ? off the board" in err
    rc, out, err = best(capsys, str(path), "ASD", "--lexicon", str(czech_index))
    assert rc == 0 and err == "" and out


def test_a_utf8_record_without_its_encoding_line_is_read_as_utf8_with_a_warning(
    tmp_path: Path, czech_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = record(tmp_path, POSITION_CS, header=False)
    rc, out, err = best(capsys, str(path), "ASD", "--lexicon", str(czech_index))
    assert rc == 0 and out
    assert f"pozor: {path} je v UTF-8, ale nemá první řádek '#character-encoding UTF-8'" in err
    with_header = best(capsys, str(record(tmp_path, POSITION_CS)), "ASD", "--lexicon", str(czech_index))
    assert with_header == (0, out, "")


def test_no_legal_play_says_so_and_exits_1(czech_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = best(capsys, "XŽ", "--lexicon", str(czech_index))
    assert (rc, out) == (1, "")
    assert err == "partiar best: se zásobníkem XŽ nelze na této pozici položit žádné slovo (návratový kód 1)\n"


def test_a_malformed_record_is_named_with_its_line_in_czech(
    tmp_path: Path, czech_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = record(tmp_path, POSITION_CS + ">jan: AB 8H\n")
    rc, out, err = best(capsys, str(path), "ASD", "--lexicon", str(czech_index))
    assert rc == 2 and out == ""
    assert err.startswith(f"partiar best: {path}:6: očekává se ")
    assert "expected" not in err


def test_a_record_whose_scores_disagree_with_the_engine_is_warned_with_both(
    tmp_path: Path, czech_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = record(tmp_path, POSITION_CS.replace("+9 9", "+12 12"))
    rc, out, err = best(capsys, str(path), "ASD", "--lexicon", str(czech_index))
    assert rc == 0 and out
    assert f"pozor: záznam nesouhlasí s pravidly: {path}:5: liší se body, průběžný součet: zapsáno +12 (součet " \
           "12), správně +9 (součet 9)" in err
