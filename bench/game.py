"""Benchmark: game events applied per second, and the time to rebuild a finished 40-move game from its log.

Run: ``python bench/game.py [--runs N] [--games N]``. Prints medians. Target: rebuilding a finished 40-move game
from its journal (decoding the JSON lines included) in under 20 ms on a development PC.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from engine.game import Game, encode_event
from engine.game.events import decode_journal
from engine.game.sample import random_events

TARGET_MS = 20.0


def forty_move_logs(count: int, seed: int = 1) -> list[list]:
    """Finished random games of 40 or more turns (challenges, rulings, appeals included)."""
    rng = random.Random(seed)
    logs = []
    while len(logs) < count:
        events = random_events(rng, max_events=400)
        game = Game.replay(events)
        if game.ended is not None and len(game.history) >= 40:
            logs.append(events)
    return logs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    logs = forty_move_logs(args.games)
    journals = ["".join(encode_event(e) + "\n" for e in events) for events in logs]
    n_events = sum(len(e) for e in logs)
    turns = statistics.median(len(Game.replay(e).history) for e in logs)

    rates, rebuilds = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        for events in logs:
            Game.replay(events)
        rates.append(n_events / (time.perf_counter() - start))
        per_game = []
        for journal in journals:
            t0 = time.perf_counter()
            events, _ = decode_journal(journal)
            Game.replay(events)
            per_game.append((time.perf_counter() - t0) * 1000)
        rebuilds.append(statistics.median(per_game))
        worst = max(per_game)
    rebuild = statistics.median(rebuilds)
    print(f"games: {len(logs)}, events: {n_events}, median turns per game: {turns}")
    print(f"events applied per second (median of {args.runs} runs): {statistics.median(rates):,.0f}")
    print(
        f"rebuild a finished game from its JSON journal: median {rebuild:.2f} ms (worst game {worst:.2f} ms)"
    )
    print(f"target < {TARGET_MS} ms: {'met' if rebuild < TARGET_MS else 'NOT met'}")
    return 0 if rebuild < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
