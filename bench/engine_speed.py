"""Benchmark: validated and scored plays per second over all shared GCG games (parsing excluded).

Run: ``python bench/engine_speed.py [GCG_FOLDER] [--runs N]``. Prints the median of several runs. Target: at least
20,000 plays/s on one core of a development PC (the table's Raspberry Pi Zero 2 W is about ten times slower).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from pathlib import Path

from engine.gcg import GcgGame, GcgPlay, decode_gcg, read_gcg
from engine.replay import infer_going_out, replay
from engine.rules import RuleOptions
from engine.tiles import TileSet, tile_set

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "gcg"
TARGET = 20_000


def load(folder: Path) -> list[tuple[GcgGame, TileSet, RuleOptions]]:
    """Every game in the folder with its tile set (from SOURCES.tsv's language column) and going-out rule."""
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
    return games


def run_once(games: list[tuple[GcgGame, TileSet, RuleOptions]]) -> tuple[int, float]:
    """Replay every game once; the number of plays and the seconds it took."""
    plays = 0
    start = time.perf_counter()
    for game, tiles, rules in games:
        for step in replay(game, tiles, rules):
            if step.play is not None:
                plays += 1
    return plays, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=5, help="passes over all games per run")
    args = parser.parse_args()
    games = load(args.folder)
    plays_per_game = sum(1 for g, _, _ in games for e in g.events if isinstance(e, GcgPlay))
    rates = []
    for _ in range(args.runs):
        total_plays, seconds = 0, 0.0
        for _ in range(args.repeat):
            n, s = run_once(games)
            total_plays += n
            seconds += s
        rates.append(total_plays / seconds)
    median = statistics.median(rates)
    print(f"games: {len(games)}, play lines: {plays_per_game}, runs: {args.runs} x {args.repeat} passes")
    print(
        f"validated and scored plays/s (median): {median:,.0f}  (min {min(rates):,.0f}, max {max(rates):,.0f})"
    )
    print(f"target {TARGET:,} plays/s: {'met' if median >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
