"""Benchmark: table -> mosquitto -> hub -> server-sent events, with 50 tables.

Starts its own mosquitto on a free loopback port (the tests' tournament config), a hub, an SSE client on the
hub's ``/events`` (what a browser reads), and 50 ``TablePublisher``s playing whole random games.
- paced: every table publishes a move (event + state) every ``--interval`` seconds (default 0.5 s: 100 moves/s
  overall, far more than a tournament); latency = from ``publish_event`` on the table to the SSE message at the
  client that carries that event's seq. Prints median and p99 (target p99 < 500 ms).
- burst: every table publishes its whole game at once; events/s until the SSE client saw every table's last one.

    python bench/hub.py [--tables 50] [--interval 0.5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

# bench/engine.py would shadow the engine package; the tests' broker launcher and clients are reused
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from hub_rig import SseClient, finished_games, start_hub, table_state  # noqa: E402
from mosquitto_fixture import TABLES, Broker, free_port  # noqa: E402

from device.publish import TablePublisher  # noqa: E402
from engine.game import Game  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run(tables: int, interval: float, burst: bool, root: Path, broker: Broker, seed: int) -> tuple[list[float], float, int]:
    """Play one game per table; returns the latencies (s), the wall time until the SSE client saw everything,
    and the number of events."""
    hub = start_hub(broker.url)
    sse = SseClient(hub.port).start()
    games = finished_games(tables, seed=seed)
    ids = [f"t{i}" for i in range(1, tables + 1)]
    publishers = [TablePublisher(t, broker.url, username=t, password=TABLES[t], queue_dir=root / f"{seed}-{t}")
                  for t in ids]  # fmt: skip
    for p in publishers:
        p.start()
    for p in publishers:
        p._connected.wait(10)
    sent: dict[tuple[str, int], float] = {}
    start = time.time()

    def table_loop(p: TablePublisher, events: list) -> None:
        game = Game()
        tick = threading.Event()
        for seq, e in enumerate(events):
            game.apply(e)
            sent[(p.table_id, seq)] = time.time()
            p.publish_event(seq, e.to_json())
            p.publish_state(table_state(p.table_id, game))
            if not burst:
                tick.wait(interval)  # the pace of the table, not a synchronisation

    threads = [threading.Thread(target=table_loop, args=(p, g)) for p, g in zip(publishers, games, strict=True)]
    for t in threads:
        t.start()
    total = sum(len(g) for g in games)
    last = {t: len(g) - 1 for t, g in zip(ids, games, strict=True)}

    def done(received: list) -> bool:
        seen: dict[str, int] = {}
        for name, data, _ in received:
            if name == "table":
                seen[data["table"]] = data["seq"]
        return all(seen.get(t) == s for t, s in last.items())

    ok = sse.wait_for(done, 120)
    elapsed = time.time() - start
    for t in threads:
        t.join()
    latencies: list[float] = []
    covered: dict[str, int] = {}
    for name, data, arrived in sse.received:
        if name != "table" or data["seq"] < 0:
            continue
        table = data["table"]
        for seq in range(covered.get(table, -1) + 1, data["seq"] + 1):
            if (table, seq) in sent:
                latencies.append(arrived - sent[(table, seq)])
        covered[table] = max(covered.get(table, -1), data["seq"])
    sse.close()
    for p in publishers:
        p.stop()
    hub.stop()
    if not ok:
        raise SystemExit("the SSE client did not see every event within 120 s")
    return latencies, elapsed, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between a table's moves (paced)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        broker = Broker(root / "broker", free_port())
        broker.start()
        try:
            lat, elapsed, total = run(args.tables, args.interval, False, root, broker, seed=1)
            ms = [x * 1000 for x in lat]
            print(f"paced: {args.tables} tables, a move every {args.interval} s each, {total} events in "
                  f"{elapsed:.1f} s: latency table->SSE median {statistics.median(ms):.1f} ms, "
                  f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms (target p99 < 500 ms)")  # fmt: skip
            lat, elapsed, total = run(args.tables, 0.0, True, root, broker, seed=2)
            ms = [x * 1000 for x in lat]
            print(f"burst: {args.tables} tables publish whole games at once: {total} events in {elapsed:.2f} s = "
                  f"{total / elapsed:.0f} events/s to the SSE client; latency median {statistics.median(ms):.0f} ms, "
                  f"p99 {percentile(ms, 0.99):.0f} ms")  # fmt: skip
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
