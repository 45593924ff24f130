"""Benchmark: a tournament day at one table - many games back to back through the daemon, watching what it holds.

The simulator (`partiar sim`'s own parts: the web server, the board device, the daemon as its own process on the
panel's mock pins, manual time) plays ``--games`` short games in a row, each as the referee and players would: the
first player's word, the opponent's reply, a resignation on the menu, "Nová hra" (the other player starts the next
game, as in a match), the board cleared. After each game it reads the daemon process's resident memory, open file
descriptors and threads (``/proc``), and the size of its state folder; anything that grows game after game (beyond
the journals the table keeps on purpose: one archive per game) would be a leak that a day of 10-15 games on a
Pi with 512 MB turns into a failure.

    .venv/bin/python bench/day.py [--games 12]

Target: no growth of file descriptors or threads from the second game on; resident memory growing by less than
1 MB over the games after the first (CPython's allocator keeps some of what a game used).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hw_sim.scenario import Scenario, run_scenario  # noqa: E402
from hw_sim.sim import Sim  # noqa: E402
from hw_sim.sim_client import SimClient  # noqa: E402

FIRST_PLAYER, SECOND_PLAYER = "Hráč A", "Hráč B"
RSS_GROWTH_KB = 1024


def game_script(n: int) -> str:
    """Game ``n`` (0-based): the first mover (A in even games, B in odd ones: the other one starts the next game
    of a match) lays ROZUM through the centre, the other replies through its O, the first resigns on the menu."""
    first, second = ("A", "B") if n % 2 == 0 else ("B", "A")
    resigner = FIRST_PLAYER if first == "A" else SECOND_PLAYER  # on move again: the game ends at once
    return f"""
press {second}
place ROZUM at 8D
advance 20
press {first}
expect score 18 0             # in playing order: the first mover's first
place DOMY at E7
advance 20
press {second}
choose "Vzdát hru"
choose "{resigner}"
choose "ano"
wait lcd "Konec"
clear board
choose "Nová hra"
choose "ano"
"""


def sample(pid: int, state: Path) -> dict[str, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    field = {line.split(":")[0]: line.split(":")[1].split() for line in status.splitlines() if ":" in line}
    size = sum(f.stat().st_size for f in state.rglob("*") if f.is_file())
    return {
        "rss_kb": int(field["VmRSS"][0]),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
        "threads": int(field["Threads"][0]),
        "state_kb": size // 1024,
        "journals": len(list(state.rglob("journal*.jsonl"))),
    }


def play_day(games: int, state: Path, report=print) -> list[dict[str, int]]:
    """Play ``games`` games in a row on a simulator whose state folder is ``state``; one sample after each game."""
    rows = []
    with Sim(state, port=0, time_mode="manual") as sim, SimClient(sim.url) as client:
        if not client.wait_daemon(120.0):
            raise RuntimeError("the daemon did not come up")
        for n in range(games):
            run_scenario(client, Scenario.parse(game_script(n), f"<game {n + 1}>"))
            pid = sim.daemon.pid if sim.daemon else None
            if pid is None:
                raise RuntimeError(f"game {n + 1}: no daemon process")
            rows.append(sample(pid, state))
            r = rows[-1]
            report(f"game {n + 1:>2}: resident {r['rss_kb'] / 1024:6.1f} MB  fds {r['fds']:>3}  threads "
                   f"{r['threads']:>2}  state folder {r['state_kb']:>5} KB  journals {r['journals']:>2}")  # fmt: skip
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games in a row (default 12)")
    args = parser.parse_args()
    if args.games < 3:
        parser.error("--games must be at least 3 (growth is read from the second game on)")
    print("load average at the start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="partiar-bench-day-") as tmp:
        rows = play_day(args.games, Path(tmp))
    wall = time.perf_counter() - start
    second, last = rows[1], rows[-1]
    growth = last["rss_kb"] - second["rss_kb"]
    fds_ok = last["fds"] <= second["fds"]
    threads_ok = last["threads"] <= second["threads"]
    print(f"{args.games} games in {wall:.0f} s; from game 2 to game {args.games}: resident {growth:+d} KB, "
          f"fds {last['fds'] - second['fds']:+d}, threads {last['threads'] - second['threads']:+d}, state folder "
          f"{last['state_kb'] - second['state_kb']:+d} KB ({(last['state_kb'] - second['state_kb']) / (args.games - 2):.0f} "
          f"KB a game: its journal archive)")  # fmt: skip
    met = fds_ok and threads_ok and growth < RSS_GROWTH_KB
    print(f"  | target: fds and threads flat, resident < {RSS_GROWTH_KB // 1024} MB growth: {'met' if met else 'NOT MET'}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
