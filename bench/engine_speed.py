"""Benchmark: plays validated and scored per second, replaying real GCG games (parsing excluded).

    .venv/bin/python bench/engine_speed.py [GCG_FOLDER] [--runs N] [--repeat N]

GCG_FOLDER defaults to the repository's corpus ``tests/data/gcg`` (32 games, tile set per game from its
``SOURCES.tsv``); a folder without ``.gcg`` files is an error. Each run replays every game ``--repeat`` times
(``engine.replay.replay``: word to placements, validation, scoring, the board updated). Prints plays per wall
second (median run) and per CPU second. Target: >= 50,000 plays/s on one core (issue 18: the table's Raspberry Pi
Zero 2 W is about ten times slower than the machine of 24 Nov 2026, which leaves it 5,000 plays/s; some 25 times
slower than the faster machine of 27 Nov: ``stats.PI_ZERO_2W_FACTOR``).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from stats import measure, rate_line

from engine.gcg import GcgGame, decode_gcg, read_gcg
from engine.replay import infer_going_out, replay
from engine.rules import RuleOptions
from engine.tiles import TileSet, tile_set

DEFAULT_FOLDER = Path(__file__).resolve().parents[1] / "tests" / "data" / "gcg"
TARGET = 50_000


def load(folder: Path) -> list[tuple[GcgGame, TileSet, RuleOptions]]:
    """Every game in the folder with its tile set (from SOURCES.tsv's language column) and going-out rule.

    Raises SystemExit for a folder that is missing or holds no ``.gcg`` file."""
    if not folder.is_dir():
        raise SystemExit(f"bench/engine_speed.py: no folder {folder}")
    languages: dict[str, str] = {}
    sources = folder / "SOURCES.tsv"
    if sources.exists():
        with sources.open(encoding="utf-8") as fh:
            languages = {row["file"]: row["language"] for row in csv.DictReader(fh, delimiter="\t")}
    games = []
    for path in sorted(folder.glob("*.gcg")):
        game = read_gcg(decode_gcg(path.read_bytes(), path.name), path.name)
        tiles = tile_set("polish" if "polish" in languages.get(path.name, "").lower() else "english")
        games.append((game, tiles, RuleOptions(going_out=infer_going_out(game, tiles) or "2x")))
    if not games:
        raise SystemExit(f"bench/engine_speed.py: no .gcg game in {folder}: nothing to measure")
    return games


def run_once(games: list[tuple[GcgGame, TileSet, RuleOptions]]) -> int:
    """Replay every game once; the number of plays validated and scored."""
    plays = 0
    for game, tiles, rules in games:
        for step in replay(game, tiles, rules):
            if step.play is not None:
                plays += 1
    return plays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=5, help="passes over all games per run")
    args = parser.parse_args()
    games = load(args.folder)
    plays_per_pass = run_once(games)
    if plays_per_pass == 0:
        raise SystemExit(f"bench/engine_speed.py: the games in {args.folder} hold no play")

    def one_run() -> int:
        return sum(run_once(games) for _ in range(args.repeat))

    timing = measure(one_run, args.runs)
    print(f"{len(games)} games from {args.folder}, {plays_per_pass} plays per pass, {args.runs} runs x {args.repeat} passes")
    print(rate_line("plays validated and scored", timing, "plays", TARGET))
    return 0 if 1.0 / (timing.cpu or 1.0) >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
