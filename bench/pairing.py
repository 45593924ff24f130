"""Benchmark: CPU time to pair one round of a 150-player Swiss (ČAS Dubov-style, networkx's matching).

    .venv/bin/python bench/pairing.py [--players 150] [--rounds 11] [--repeat 3] [--seed 1]

Simulates a whole event (``tournament.simulate``: random strengths and results, two withdrawals, 2 % forfeits)
and times the pairing of each round 2..N again from the state just before it (``--repeat`` times each): the
median over every round and repeat, p99 and max, and the CPU per pairing. Target: < 1 s CPU per pairing
(issue 27).
"""

from __future__ import annotations

import argparse
import statistics
import time

from stats import Timing, cpu_now, duration, line

from tournament.pairing import swiss_later_round
from tournament.settings import TournamentSettings
from tournament.simulate import before_round, simulate

TARGET_CPU = 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sim = simulate(args.players, args.rounds, args.seed, withdrawals=2, forfeits=0.02,
                   settings=TournamentSettings(rounds=args.rounds))
    wall: list[float] = []
    cpu: list[float] = []
    for number in range(2, args.rounds + 1):
        before = before_round(sim.events, number)
        for _ in range(args.repeat):
            c0, t0 = cpu_now(), time.perf_counter()
            swiss_later_round(before, number)
            wall.append(time.perf_counter() - t0)
            cpu.append(cpu_now() - c0)
    timing = Timing(wall, statistics.median(cpu))
    print(f"{args.players} players, rounds 2-{args.rounds}, {args.repeat} pairings each "
          f"(max CPU {duration(max(cpu))})")
    print(line(f"pairing a {args.players}-player Swiss round", timing, f"< {duration(TARGET_CPU)} CPU",
               timing.cpu is not None and timing.cpu < TARGET_CPU))


if __name__ == "__main__":
    main()
