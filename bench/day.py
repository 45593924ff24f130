"""Benchmark: a tournament day at one table - real games back to back through the daemon, each checked against its
game record, watching what the daemon holds.

The simulator (`partiar sim`'s own parts: the web server, the board device behind a pty, the daemon as its own
process on the panel's mock pins and emulated LCDs, manual time) plays ``--games`` full tournament games in a row
from the GCG records in ``--records`` (``hw_sim.record_play``: each play's tiles laid on the board and the button
pressed, blanks named, passes, exchanges and challenges on the menu, phonies taken back, racks entered; the
records the table cannot play as players would are skipped with the reason), cycling over them. The table is an
English one (the records' tiles and rules), two 16x2 LCDs, the other player starting each next game as in a match.

After each game: the final result on both LCDs, the GCG export of the game's journal (``partiar sheet --gcg``)
event for event and score for score, and the score sheet's totals are compared with the record; then the daemon
process's resident memory, open file descriptors and threads (``/proc``) and its state folder are read. Anything
that grows game after game (beyond the journal archive the table keeps on purpose) would be a leak that a day of
10-15 games on a Pi with 512 MB turns into a failure. Each press that ends a play is timed until every LCD shows
the new scores in a state pushed to the bench (press -> panel -> table loop -> emulated LCD -> two event streams).

    .venv/bin/python bench/day.py [--games 12] [--records tests/data/gcg] [--heap FRAMES]

Targets: every game's result equal to its record; no growth of file descriptors or threads from the second game
on; resident memory growing by less than 1 MB over the games after the first (CPython's allocator keeps some of
what a game used). After the last game the daemon collects its garbage and hands its allocator's free memory back
(``malloc_trim``): the resident size then shows how much of the growth the program still uses. ``--heap FRAMES``
has the daemon trace its allocations (tracemalloc, ``hw_sim.heap``) and reports after each game what Python's
objects hold and the allocation sites that grew (docs/daemon.md, "A tournament day").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hw_sim.heap import TRACEMALLOC_ENV  # noqa: E402
from hw_sim.record_play import (  # noqa: E402
    NEW_GAME,
    plan_record,
    playable_records,
    run_record,
    table_config,
)
from hw_sim.record_play import check_result as check_game  # noqa: E402
from hw_sim.scenario import Scenario, run_scenario  # noqa: E402
from hw_sim.sim import Sim  # noqa: E402
from hw_sim.sim_client import SimClient  # noqa: E402

SEATS = ("Hráč A", "Hráč B")
RSS_GROWTH_KB = 1024
RECORDS = ROOT / "tests" / "data" / "gcg"


@dataclass
class GameRow:
    """One game of the day: its record, what differed from it, the daemon's sample after it, its press times."""

    record: str
    final: tuple[int, ...]
    problems: list[str]
    sample: dict[str, int]
    latencies: list[float] = field(default_factory=list)
    heap: dict[str, Any] = field(default_factory=dict)


def sample(pid: int, state: Path) -> dict[str, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    fields = {line.split(":")[0]: line.split(":")[1].split() for line in status.splitlines() if ":" in line}
    size = sum(f.stat().st_size for f in state.rglob("*") if f.is_file())
    return {
        "rss_kb": int(fields["VmRSS"][0]),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
        "threads": int(fields["Threads"][0]),
        "state_kb": size // 1024,
        "journals": len(list(state.rglob("journal*.jsonl"))),
    }


def _first_seat(client: SimClient) -> int:
    """The seat of the player who starts the game now on the table (the match alternates)."""
    game = ((client.latest() or {}).get("panel") or {}).get("table", {}).get("game") or {}
    players = game.get("players") or list(SEATS)
    return SEATS.index(players[0])


def panel_heap(sim: Sim, trim: bool = False) -> dict[str, Any]:
    """The daemon's heap report (``hw_sim.heap``) from its panel."""
    port = sim.daemon.panel_port if sim.daemon else None
    if port is None:
        raise RuntimeError("the daemon's panel is not up")
    url = f"http://127.0.0.1:{port}/debug/heap" + ("?trim=1" if trim else "")
    with urllib.request.urlopen(url, timeout=120) as answer:
        return dict(json.loads(answer.read()))


def _heap_line(heap: dict[str, Any]) -> str:
    head = (f"    heap: traced {heap.get('traced_kb', '-')} KB, {heap['gc_objects']} objects, "
            f"gc collections {heap['gc_collections']}")  # fmt: skip
    sites = [f"{g['size_diff_kb']:+.1f} KB {g['count_diff']:+d} {g['site']}" for g in heap.get("growth", [])[:5]]
    return "\n".join([head, *(f"      {site}" for site in sites)])


def play_day(
    games: int, state: Path, records: Sequence[Path], report: Any = print, *, heap: int = 0, trim: bool = False
) -> list[GameRow]:
    """Play ``games`` games in a row from ``records`` (GCG files; the playable ones, cycled) on a simulator whose
    state folder is ``state``; a row after each. ``heap``: the daemon traces its allocations with that many frames
    and each row gets its heap report (``hw_sim.heap``); ``trim``: the last row gets the resident size before and
    after the daemon's allocator returns its free memory."""
    env = {TRACEMALLOC_ENV: str(heap)} if heap else {}
    playable = playable_records(list(records), report=report)
    if not playable:
        raise RuntimeError("no record the table can play")
    config = state / "table.toml"
    state.mkdir(parents=True, exist_ok=True)
    config.write_text(table_config(SEATS), encoding="utf-8")
    rows: list[GameRow] = []
    old_env = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the daemon is a child of the sim: it inherits the variable
    try:
        with Sim(state, port=0, time_mode="manual", config_file=config) as sim, SimClient(sim.url) as client:
            if not client.wait_daemon(120.0):
                raise RuntimeError("the daemon did not come up")
            for n in range(games):
                record = playable[n % len(playable)]
                planned = plan_record(record, first_seat=_first_seat(client))
                latencies: list[float] = []
                run_record(client, planned, on_latency=latencies.append)
                problems = check_game(client, planned, state / "journal.jsonl", SEATS)
                run_scenario(client, Scenario.parse(NEW_GAME, "<new game>"))
                pid = sim.daemon.pid if sim.daemon else None
                if pid is None:
                    raise RuntimeError(f"game {n + 1}: no daemon process")
                row = GameRow(planned.source, planned.final, problems, sample(pid, state), latencies)
                if heap:
                    row.heap = panel_heap(sim)
                rows.append(row)
                s = row.sample
                verdict = "= record" if not problems else "DIFFERS: " + "; ".join(problems)
                report(f"game {n + 1:>2}: {_short(planned.source):<34} {len(latencies):>2} plays timed, "
                       f"{row.final[0]:>3}:{row.final[1]:<3} {verdict} | resident {s['rss_kb'] / 1024:5.1f} MB  "
                       f"fds {s['fds']:>3}  threads {s['threads']:>2}  state {s['state_kb']:>4} KB")  # fmt: skip
                if row.heap:
                    report(_heap_line(row.heap))
            if trim:  # after the last sample: what the allocators keep that the program no longer uses
                rows[-1].heap = {**rows[-1].heap, "trim": panel_heap(sim, trim=True)}
    finally:
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return rows


def _short(source: str) -> str:
    return source.rsplit("__", 1)[-1].removesuffix(".gcg")


def main() -> int:
    from stats import percentile  # bench/'s own (the script's folder; tests load this module without it)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games in a row (default 12)")
    parser.add_argument("--records", type=Path, default=RECORDS, help="folder of GCG records (default tests/data/gcg)")
    parser.add_argument("--heap", type=int, default=0, metavar="FRAMES",
                        help="trace the daemon's allocations (tracemalloc, FRAMES deep) and report after each game: "
                             "the resident figures then include the tracing")  # fmt: skip
    args = parser.parse_args()
    if args.games < 3:
        parser.error("--games must be at least 3 (growth is read from the second game on)")
    print(f"start {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, load average "
          "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))  # fmt: skip
    start, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="partiar-bench-day-") as tmp:
        rows = play_day(args.games, Path(tmp), sorted(args.records.glob("*.gcg")), heap=args.heap, trim=True)
    wall = time.perf_counter() - start
    second, last = rows[1].sample, rows[-1].sample
    growth = last["rss_kb"] - second["rss_kb"]
    flat = all(r.sample["fds"] == second["fds"] and r.sample["threads"] == second["threads"] for r in rows[1:])
    agree = sum(1 for r in rows if not r.problems)
    latencies = [x for r in rows for x in r.latencies]
    print(f"{args.games} games in {wall:.0f} s (bench process CPU {time.process_time() - cpu:.0f} s); "
          f"{agree} of {args.games} equal to their records")  # fmt: skip
    print(f"from game 2 to game {args.games}: resident {growth:+d} KB, fds {last['fds'] - second['fds']:+d}, "
          f"threads {last['threads'] - second['threads']:+d}, state folder {last['state_kb'] - second['state_kb']:+d} KB "
          f"({(last['state_kb'] - second['state_kb']) / (args.games - 2):.0f} KB a game: its journal archive)")  # fmt: skip
    if latencies:
        print(f"press -> new scores on both LCDs, as the sim's client sees them ({len(latencies)} plays): median "
              f"{statistics.median(latencies) * 1000:.0f} ms, p99 {percentile(latencies, 99) * 1000:.0f} ms, "
              f"max {max(latencies) * 1000:.0f} ms")  # fmt: skip
    trimmed = rows[-1].heap.get("trim") or {}
    if trimmed.get("trimmed"):
        print(f"after game {args.games}, a full collection and malloc_trim(0): resident {trimmed['rss_kb']} -> "
              f"{trimmed['rss_after_trim_kb']} KB ({trimmed['rss_after_trim_kb'] - second['rss_kb']:+d} KB from game 2), "
              f"{trimmed['gc_objects']} objects")  # fmt: skip
    met = flat and growth < RSS_GROWTH_KB and agree == args.games
    print(f"  | target: every game equal to its record, fds and threads flat, resident < {RSS_GROWTH_KB // 1024} MB "
          f"growth: {'met' if met else 'NOT MET'}")  # fmt: skip
    print(f"end {time.strftime('%H:%M:%S', time.gmtime())} UTC, load average {os.getloadavg()[0]:.1f}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
