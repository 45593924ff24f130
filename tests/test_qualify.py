"""Qualification tasks: the beam against exhaustive search, a player's sequence scored move by move, the CLI."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from small_lexicon import CAT_WORDS, generator, write_index

from device.cli import main
from engine.board import Notation
from engine.duplicate import Verdict
from engine.movegen import MoveGenerator
from engine.qualify import best_sequence, exhaustive, score_sequence

WORDS = CAT_WORDS + [
    "ax",
    "ex",
    "tax",
    "taxes",
    "sea",
    "tease",
    "eats",
    "teas",
    "to",
    "toe",
    "toes",
    "dot",
    "dote",
]


@pytest.fixture(scope="module")
def gen() -> MoveGenerator:
    return generator(WORDS)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_index(tmp_path_factory.mktemp("q") / "english.dawg", WORDS)


@pytest.mark.parametrize("seed", range(2))
def test_wide_beam_finds_the_exhaustive_optimum_on_small_tasks(gen: MoveGenerator, seed: int) -> None:
    rng = random.Random(seed)
    letters = "CATSEXODTAESAETX"
    racks = ["".join(rng.sample(letters, 5)) for _ in range(3)]
    optimum = exhaustive(gen, racks)
    beam = best_sequence(gen, racks, width=40, per_move=40)
    greedy = best_sequence(gen, racks, width=1, per_move=1)
    assert beam.total == optimum.total
    assert greedy.total <= optimum.total
    assert sum(beam.scores) == beam.total


def test_a_players_sequence_is_scored_move_by_move(gen: MoveGenerator) -> None:
    racks = ["CATSEXO", "TEASDOX", "CATSEXO"]
    answers = [("8H", "CAT"), ("J7", "EAT"), None]  # EAT down from J7 would need an A where T lies: refused
    checks = score_sequence(gen, racks, answers, Notation.CLASSIC)
    assert checks[0].score == 10 and checks[0].check is not None
    assert checks[0].check.verdict is Verdict.CREDITED
    assert checks[1].score == 0 and checks[1].check is not None
    assert checks[1].check.verdict is Verdict.WRONG_POSITION
    assert checks[2].check is None and checks[2].score == 0
    # each move builds on the ones before; a move needing tiles its rack lacks is refused
    checks = score_sequence(gen, racks, [("8H", "CAT"), ("8H", "CATS"), ("I7", "TAX")], Notation.CLASSIC)
    assert [c.score for c in checks][0] == 10
    assert checks[1].score > 0  # S from TEASDOX hooks CATS
    assert checks[2].check is not None and checks[2].check.verdict is Verdict.CREDITED
    lacking = score_sequence(gen, ["CATSEXO"], [("8H", "DOT")], Notation.CLASSIC)[0]
    assert lacking.check is not None and lacking.check.verdict is Verdict.NOT_ON_RACK and lacking.score == 0


def test_cli_generate_solve_check(tmp_path: Path, index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = tmp_path / "task.txt"
    assert main(["qualify", "generate", "-n", "4", "--seed", "3", "--tiles", "english", "-o", str(task)]) == 0
    racks = task.read_text().split()
    assert len(racks) == 4 and all(len(r) == 7 for r in racks)
    task.write_text("# four racks\nCATSEXO\nTEASDOX\nCATSEXO\nAEIOUST\n", encoding="utf-8")
    assert (
        main(["qualify", "solve", str(task), "--tiles", "english", "--lexicon", str(index), "--lang", "en"])
        == 0
    )
    out = capsys.readouterr().out
    assert "Total:" in out and out.count("\n") >= 5
    answer = tmp_path / "answer.txt"
    answer.write_text("8H CAT\n-\n-\n-\n", encoding="utf-8")
    rc = main(
        [
            "qualify",
            "check",
            str(task),
            str(answer),
            "--tiles",
            "english",
            "--lexicon",
            str(index),
            "--lang",
            "en",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0 and "Total: 10 points." in out and "The program found" in out
    answer.write_text("8H CAT\n", encoding="utf-8")
    assert (
        main(["qualify", "check", str(task), str(answer), "--tiles", "english", "--lexicon", str(index)]) == 2
    )


@pytest.mark.parametrize(
    ("racks", "message"),
    [
        ("CATSEXO\nCATSEXOA\n", "task.txt: 2: zásobník CATSEXOA má 8 kamenů, nejvýš 7"),
        ("CATS\n", "zásobník CATS má jen 4 z 7 kamenů"),
        ("XXCATSE\n", "zásobník XXCATSE má X 2krát, celá sada jen 1krát"),
        ("CATSE1O\n", "písmeno 1 není v sadě english"),
        ("# nothing\n", "task.txt: žádný zásobník"),
    ],
)
def test_cli_refuses_a_malformed_task(
    tmp_path: Path, index: Path, capsys: pytest.CaptureFixture[str], racks: str, message: str
) -> None:
    """Each rack of a task is drawn fresh (seed 001, item 13): seven tiles a full bag can give, else exit 2."""
    task = tmp_path / "task.txt"
    task.write_text(racks, encoding="utf-8")
    assert main(["qualify", "solve", str(task), "--tiles", "english", "--lexicon", str(index)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


def test_cli_refuses_a_malformed_answer(tmp_path: Path, index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task, answer = tmp_path / "task.txt", tmp_path / "answer.txt"
    task.write_text("CATSEXO\nTEASDOX\n", encoding="utf-8")
    answer.write_text("8H CAT\nH8\n", encoding="utf-8")
    args = ["qualify", "check", str(task), str(answer), "--tiles", "english", "--lexicon", str(index)]
    assert main(args) == 2
    assert "answer.txt: tah 2: čekám „POZICE SLOVO“ nebo „-“, ne 'H8'" in capsys.readouterr().err
    assert main([*args[:3], str(tmp_path / "none.txt"), *args[4:]]) == 2
    assert "soubor " in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["generate", "-n", "0"], "-n musí být aspoň 1, ne 0"),
        (["solve", "TASK", "--width", "0"], "--width musí být aspoň 1, ne 0"),
        (["solve", "TASK", "--per-move", "-1"], "--per-move musí být aspoň 1, ne -1"),
        (["check", "TASK", "TASK", "--width", "0"], "--width musí být aspoň 1"),
    ],
)
def test_cli_refuses_a_beam_or_a_task_of_nothing(
    tmp_path: Path, index: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    task = tmp_path / "task.txt"
    task.write_text("CATSEXO\n", encoding="utf-8")
    argv = ["qualify", *[str(task) if a == "TASK" else a for a in args], "--tiles", "english"]
    if args[0] != "generate":
        argv += ["--lexicon", str(index)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err
