"""Power-cut sweep of random short games: the CI test ``tests/test_power_sweep.py`` on many random games.

    python bench/sweep.py [--games 20] [--seed 1]

Each game (``tests/power_sweep.py``: the real Table on the rig, a 5-minute base time) goes through plays, random
passes, exchanges and challenges (upheld or rejected), the base time's end, the A-B-C playout with a time-out, and
the end-of-game racks, with random tick lengths; then the referee's game (``play_referee``: a no-show, warnings
and the exclusion asked, each question cut while on the LCD). The state folder is copied at every durable write (and with the
journal line being written cut in half) and after every input; each copy is restarted and must show exactly the
table before or after that input (game, clock, LCDs, tiles to move, menu). Prints games, cuts, problems, and the
CPU time per cut (median and p99 over the games), with the load average.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from power_sweep import play_referee, sweep_game  # noqa: E402 - the tests folder is on the path from here


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # every restart after a cut says so
    cuts = late = lagging = 0
    problems: list[str] = []
    per_cut: list[float] = []
    t0 = time.perf_counter()
    for n in range(args.games):
        rng = random.Random(args.seed * 100_003 + n)
        c0 = time.process_time()
        with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as mp:
            sweep, found = sweep_game(Path(folder), mp, rng)
        cpu = time.process_time() - c0
        cuts += len(sweep.copies)
        late += sweep.late
        lagging += sum(c.first < c.inputs for c in sweep.copies)
        per_cut.append(1000 * cpu / max(1, len(sweep.copies)))
        problems += [f"game {n} (seed {args.seed}): {p}" for p in found]
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as mp:
        sweep, found = sweep_game(Path(folder), mp, script=play_referee)  # the referee's questions, once
    cuts += len(sweep.copies)
    problems += [f"referee game: {p}" for p in found]
    wall = time.perf_counter() - t0
    p99 = statistics.quantiles(per_cut, n=100)[98] if len(per_cut) > 1 else per_cut[0]
    print(f"games {args.games}  cuts {cuts}  problems {len(problems)}  (cuts with a clock checkpoint still to be "
          f"written: {lagging}; checkpoints written after a newer journal line: {late})")
    for line in problems[:10]:
        print("  " + line[:400])
    print(
        f"  CPU per cut: median {statistics.median(per_cut):.1f} ms, p99 {p99:.1f} ms; {wall:.1f} s wall, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
