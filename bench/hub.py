"""Benchmark: table -> mosquitto -> hub -> server-sent events, with 50 tables.

Starts its own mosquitto on a free loopback port (the tests' tournament config), ``partiar hub`` as a real
process (its SQLite file in a temporary folder), an SSE client on the hub's ``/events`` (what a browser reads) in
this process, and 50 ``TablePublisher``s (the table side's publisher code, not the whole simulator) playing whole
random games in a child process (on a tournament every table is its own Raspberry Pi).
- paced: every table publishes a move (event + state) every ``--interval`` seconds (default 0.5 s: 100 moves/s
  overall, far more than a tournament); latency = from ``publish_event`` on the table to the SSE message at the
  client that carries that event's seq. Prints median and p99 (target p99 < 250 ms), the part of it from the
  hub's receipt of the event (the ``received`` time in the table's view) to the client, the hub's CPU time per
  event, and its memory (resident now and at its peak) at the end.
- burst: every table publishes its whole game at once; events/s until the SSE client saw every table's last one.

    .venv/bin/python bench/hub.py [--tables 50] [--interval 0.5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# this script's folder (first on the path) would shadow the ``hub`` package with this file: the project's root
# comes first, this folder (for ``stats``) last
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(sys.path.pop(0))
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from mosquitto_fixture import (  # noqa: E402
    HUB_PASSWORD,
    TABLES,
    Broker,
    HubProcess,
    SseClient,
    finished_games,
    free_port,
    table_state,
)
from stats import Timing, line  # noqa: E402

from device.publish import TablePublisher  # noqa: E402
from engine.game import Game  # noqa: E402


def hub_figures(pid: int) -> tuple[float, float, float]:
    """The hub process's resident memory now and at its peak (MiB), and its CPU time so far (s)."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024, cpu


def precompute(table_id: str, events: list) -> list[tuple[dict, dict]]:
    """Each event's JSON and the table's state after it."""
    game = Game()
    out = []
    for e in events:
        game.apply(e)
        out.append((e.to_json(), table_state(table_id, game)))
    return out


def tables_process(args: argparse.Namespace) -> None:
    """The child process: 50 tables publishing their games; writes each event's publish time to ``--out``."""
    ids = [f"t{i}" for i in range(1, args.tables + 1)]
    games = finished_games(args.tables, seed=args.seed)
    # the tables' own work (the rules engine, Game.to_dict) is done before the clock starts: on a tournament
    # every table has its own Raspberry Pi, here they share one interpreter
    moves = [precompute(t, g) for t, g in zip(ids, games, strict=True)]
    publishers = [TablePublisher(t, args.broker, username=t, password=TABLES[t], queue_dir=args.queue / t)
                  for t in ids]  # fmt: skip
    for p in publishers:
        p.start()
    for p in publishers:
        p._connected.wait(10)
    print(json.dumps({t: len(m) - 1 for t, m in zip(ids, moves, strict=True)}), flush=True)
    sys.stdin.readline()  # go
    sent: dict[str, list[float]] = {t: [] for t in ids}

    def table_loop(p: TablePublisher, moves: list[tuple[dict, dict]]) -> None:
        tick = threading.Event()
        for event, state in moves:
            sent[p.table_id].append(time.time())
            p.publish_event(len(sent[p.table_id]) - 1, event)
            p.publish_state(state)
            if args.interval:
                tick.wait(args.interval)  # the pace of the table, not a synchronisation

    threads = [threading.Thread(target=table_loop, args=(p, m)) for p, m in zip(publishers, moves, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for p in publishers:
        p.wait_idle(60)
        p.stop()
    args.out.write_text(json.dumps(sent))


def run(tables: int, interval: float, root: Path, broker: Broker, seed: int) -> tuple[list, list, float, int, tuple]:
    """The hub as a process, its SSE client here, the tables in a child process; returns the latencies (s), the
    part of them from the hub's receipt of the event to the SSE client (s, one per table message), the wall time
    from the first publish until the SSE client saw every table's last event, the number of events and the hub's
    figures (``hub_figures``) at the end."""
    secret = root / "hub-password"
    secret.write_text(HUB_PASSWORD + "\n", encoding="utf-8")
    hub = HubProcess(root / f"hub-{seed}.sqlite", broker.url, secret)
    _, _, cpu_start = hub_figures(hub.process.pid)
    sse = SseClient(hub.port).start()
    out = root / f"sent-{seed}.json"
    child = subprocess.Popen(
        [sys.executable, __file__, "--role", "tables", "--broker", broker.url, "--tables", str(tables),
         "--interval", str(interval), "--seed", str(seed), "--out", str(out), "--queue", str(root / f"q{seed}")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    last: dict[str, int] = json.loads(child.stdout.readline())
    child.stdin.write("go\n")
    child.stdin.flush()

    def done(received: list) -> bool:
        seen: dict[str, int] = {}
        for name, data, _ in received:
            if name == "table":
                seen[data["table"]] = data["seq"]
        return all(seen.get(t) == s for t, s in last.items())

    ok = sse.wait_for(done, 300)
    child.wait(60)
    sse.close()
    rss, peak, cpu = hub_figures(hub.process.pid)
    hub.stop()
    if not ok:
        raise SystemExit("the SSE client did not see every event within 300 s")
    sent: dict[str, list[float]] = json.loads(out.read_text())
    latencies: list[float] = []
    in_hub: list[float] = []
    covered: dict[str, int] = {}
    finished = 0.0
    for name, data, arrived in sse.received:
        if name != "table" or data["seq"] < 0 or data["table"] not in sent:
            continue
        table = data["table"]
        if data.get("received") is not None and data["seq"] > covered.get(table, -1):
            in_hub.append(arrived - data["received"])
        for seq in range(covered.get(table, -1) + 1, data["seq"] + 1):
            latencies.append(arrived - sent[table][seq])
            finished = max(finished, arrived)
        covered[table] = max(covered.get(table, -1), data["seq"])
    begin = min(times[0] for times in sent.values())
    return latencies, in_hub, finished - begin, sum(len(t) for t in sent.values()), (rss, peak, cpu - cpu_start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between a table's moves (paced)")
    parser.add_argument("--role", choices=("hub", "tables"), default="hub", help=argparse.SUPPRESS)
    parser.add_argument("--broker", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--queue", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "tables":
        tables_process(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        broker = Broker(root / "broker", free_port())
        broker.start()
        try:
            if args.interval:
                lat, in_hub, elapsed, total, (rss, peak, cpu) = run(args.tables, args.interval, root, broker, 1)
                paced = Timing(lat, cpu / total)
                print(f"paced: {args.tables} tables, a move every {args.interval} s each, {total} events in "
                      f"{elapsed:.1f} s (CPU per event: the hub process, the event and the state after it)")
                print(line("  table -> SSE latency", paced, "p99 < 250 ms", paced.p99 < 0.25))
                print(line("  of it hub -> SSE (from the hub's receipt)", Timing(in_hub, None), None,
                           cpu="(the rest: the table's outbox fsync, its publisher thread, the broker)"))
                print(f"  hub memory at the end {rss:.0f} MiB (peak {peak:.0f} MiB)")
            lat, in_hub, elapsed, total, (rss, peak, cpu) = run(args.tables, 0.0, root, broker, seed=2)
            burst = Timing(lat, cpu / total)
            print(f"burst: {args.tables} tables publish whole games at once: {total} events in {elapsed:.2f} s = "
                  f"{total / elapsed:.0f} events/s to the SSE client")
            print(line("  table -> SSE latency", burst, None))
            print(line("  of it hub -> SSE (from the hub's receipt)", Timing(in_hub, None), None, cpu=""))
            print(f"  hub memory at the end {rss:.0f} MiB (peak {peak:.0f} MiB)")
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
