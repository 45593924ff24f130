"""``partiar best`` on a small English index and a GCG position, and on the Czech index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from small_lexicon import word_list, write_index

from device.cli import main
from desk.best import board_of_record
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
    rc = main(
        ["best", str(RECORD), "AEIRST?", "--tiles", "english", "--lexicon", str(english_index), "-n", "4"]
    )
    out = capsys.readouterr().out.splitlines()
    tiles = tile_set("english")
    board = board_of_record(read_gcg(decode_gcg(RECORD.read_bytes()), str(RECORD)), tiles)
    assert board.tile_count() > 10
    expected = MoveGenerator(WordGraph.load(english_index), tiles).plays(board, "AEIRST?")[:4]
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
        ([str(DATA / "movegen_words_en.txt"), "CAT"], "chybný záznam GCG: "),
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
