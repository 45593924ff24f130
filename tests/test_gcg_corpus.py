"""The 32 real games in tests/data/gcg (from ../shared/gcg): every recorded score and running total matches the engine.

Known recording conventions (not errors) that the engine handles, see docs/gcg.md:
- capp.gcg writes its withdrawn phony as ``-- +0`` and still lowers the total: judged by the total only;
- fivepoint.gcg (WSC 2005) uses the 1x going-out rule with the opponent's ``-N`` line; all others use 2x.
No recording errors were found in these 32 files, so the exception list below is empty.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from engine.board import Board
from engine.gcg import GcgEndRack, GcgPhonyWithdrawn, GcgPlay, decode_gcg, read_gcg, write_gcg
from engine.placement import Play, apply, placements_from_word, validate, validate_word
from engine.replay import differences, infer_going_out, replay, rescore
from engine.rules import RuleOptions
from engine.tiles import TileSet, tile_set

FOLDER = Path(__file__).with_name("data") / "gcg"
"""The 32 records, copied with ``SOURCES.tsv`` (repository, path and commit of each file) so CI has them."""
KNOWN_RECORDING_ERRORS: dict[str, str] = {}
"""File name -> why its recorded scores differ from the board (none in the shared set)."""


def _files() -> list[Path]:
    return sorted(FOLDER.glob("*.gcg"))


def _tile_sets() -> dict[str, str]:
    with (FOLDER / "SOURCES.tsv").open(encoding="utf-8") as fh:
        rows = csv.DictReader(fh, delimiter="\t")
        return {row["file"]: "polish" if "polish" in row["language"].lower() else "english" for row in rows}


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, str, TileSet]]:
    names = _tile_sets()
    return [
        (path.name, decode_gcg(path.read_bytes(), path.name), tile_set(names[path.name])) for path in _files()
    ]


def test_there_are_32_games(corpus: list[tuple[str, str, TileSet]]) -> None:
    assert len(corpus) == 32
    assert sum(1 for _, _, tiles in corpus if tiles.name == "polish") == 1


def test_every_game_verifies_with_zero_differences(corpus: list[tuple[str, str, TileSet]]) -> None:
    report = []
    plays = 0
    for name, text, tiles in corpus:
        game = read_gcg(text, name)
        going_out = infer_going_out(game, tiles)
        diffs = differences(game, tiles, RuleOptions(going_out=going_out or "2x"))
        plays += sum(1 for e in game.events if isinstance(e, GcgPlay))
        if diffs and name not in KNOWN_RECORDING_ERRORS:
            report += [d.describe(name) for d in diffs]
    assert report == []
    assert plays == 778  # every play line was scored


def test_going_out_conventions_are_inferred(corpus: list[tuple[str, str, TileSet]]) -> None:
    found = {name: infer_going_out(read_gcg(text, name), tiles) for name, text, tiles in corpus}
    assert found.pop("quackle__quackle__test__positions__fivepoint.gcg") == "1x"
    assert found.pop("jvc56__MAGPIE__test__testdata__success_six_pass.gcg") is None  # nobody went out
    assert set(found.values()) == {"2x"}


def test_a_wrong_recorded_score_is_found(corpus: list[tuple[str, str, TileSet]]) -> None:
    name, text, tiles = corpus[0]
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(">") and " 8D WINDY +32 32" in line)
    lines[k] = lines[k].replace("+32 32", "+33 33")
    diffs = differences(read_gcg("\n".join(lines), name), tiles, RuleOptions(going_out="2x"))
    assert [d.event.line for d in diffs] == [k + 1]  # later totals are the engine's own, so they still match
    assert (diffs[0].recorded_score, diffs[0].engine_score) == (33, 32)
    assert "score, running total differ" in diffs[0].describe(name)


def test_each_game_reads_back_the_same_after_writing(corpus: list[tuple[str, str, TileSet]]) -> None:
    for name, text, _ in corpus:
        game = read_gcg(text, name)
        assert read_gcg(write_gcg(game), name) == game, name


def test_rescore_keeps_every_recorded_score_but_the_quackle_zero(
    corpus: list[tuple[str, str, TileSet]],
) -> None:
    changed = []
    for name, text, tiles in corpus:
        game = read_gcg(text, name)
        rules = RuleOptions(going_out=infer_going_out(game, tiles) or "2x")
        again = rescore(game, tiles, rules)
        for old, new in zip(game.events, again.events, strict=True):
            if old != new:
                changed.append((name, type(old).__name__, old.score, new.score))
    assert changed == [("quackle__quackle__quackleio__iotest__capp.gcg", "GcgPhonyWithdrawn", 0, -45)]


def test_end_racks_are_the_tiles_off_the_board(corpus: list[tuple[str, str, TileSet]]) -> None:
    for name, text, tiles in corpus:
        game = read_gcg(text, name)
        rules = RuleOptions(going_out=infer_going_out(game, tiles) or "2x")
        for step in replay(game, tiles, rules):
            if isinstance(step.event, GcgEndRack):
                assert sorted(step.left or "") == sorted(step.event.left), name
            if isinstance(step.event, GcgPhonyWithdrawn):
                assert step.score < 0


def test_validate_word_gives_every_play_the_two_steps_give(corpus: list[tuple[str, str, TileSet]]) -> None:
    """The replay's one walk over a written word against placements_from_word then validate, at every play of
    every game, on the board as it stands before the play."""
    checked = 0
    for name, text, tiles in corpus:
        game = read_gcg(text, name)
        going_out = infer_going_out(game, tiles) or "2x"
        board = Board()
        last: dict[str, Play] = {}
        for step in replay(game, tiles, RuleOptions(going_out=going_out)):
            event = step.event
            if isinstance(event, GcgPlay):
                placements = placements_from_word(board, event.position, event.word)
                two_steps = validate(board, placements, event.position.direction)
                assert validate_word(board, event.position, event.word) == two_steps == step.play
                apply(board, two_steps)
                last[event.nick] = two_steps
                checked += 1
            elif isinstance(event, GcgPhonyWithdrawn):
                for p in last.pop(event.nick).placements:
                    board.clear(p.square)
    assert checked > 700
