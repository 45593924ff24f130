"""Benchmark: game events applied per second, and the time to rebuild a finished game from its journal.

    .venv/bin/python bench/game.py [--runs N] [--games N]

Random finished games of 40 or more turns (challenges, rulings, appeals included, ``engine.game.sample``), each
rebuilt from its JSON-lines journal (decoding included) by ``Game.replay``, as the daemon does at start-up and the
score sheet does. Prints the rebuild time per game (wall median and p99 over every game of every run, CPU time per
game) and events applied per second. Target: a finished game rebuilt in under 5 ms (issue 18; the table's
Raspberry Pi Zero 2 W is about ten times slower than the machine of 24 Nov 2026: 50 ms there;
``stats.PI_ZERO_2W_FACTOR`` against a faster one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from stats import Timing, cpu_now, line, measure, rate_line

from engine.game import Game, encode_event
from engine.game.events import decode_journal
from engine.game.sample import random_events

TARGET_S = 0.005
EVENTS_TARGET = 10_000
"""Events applied per second: a floor well under what the rebuild target implies (about 70 events per game)."""


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

    def apply_all() -> int:
        for events in logs:
            Game.replay(events)
        return n_events

    events = measure(apply_all, args.runs)
    walls, cpu0 = [], cpu_now()
    for _ in range(args.runs):
        for journal in journals:
            t0 = time.perf_counter()
            decoded, _ = decode_journal(journal)
            Game.replay(decoded)
            walls.append(time.perf_counter() - t0)
    rebuild = Timing(walls, (cpu_now() - cpu0) / len(walls))
    print(f"{len(logs)} games, {n_events} events, median {turns} turns per game, {args.runs} runs")
    print(rate_line("events applied (Game.replay)", events, "events", EVENTS_TARGET))
    print(line("finished game rebuilt from its JSON journal", rebuild, "< 5 ms (CPU per game)",
               (rebuild.cpu or 0.0) < TARGET_S))
    return 0 if (rebuild.cpu or 0.0) < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
