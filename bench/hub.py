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

A tap (one more MQTT client, QoS 0, the hub's credentials) sees every table message as the broker hands it on:
it gives the bytes of the state and event messages on the wire and, per event, the time the broker forwarded it,
which splits the latency into table -> broker (the table's outbox fsync, its publisher thread, the broker),
broker -> hub (the message waiting for the hub: its acknowledgements, its MQTT thread) and hub -> SSE. The load
average is printed at the start and the end of each run. ``--no-burst`` skips the burst; ``--trace FILE`` writes
the paced run's times per event (published, forwarded by the broker, received by the hub, at the SSE client).

    .venv/bin/python bench/hub.py [--tables 50] [--interval 0.5] [--no-burst] [--trace FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

# this script's folder (first on the path) would shadow the ``hub`` package with this file: the project's root
# comes first, this folder (for ``stats``) last
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(sys.path.pop(0))
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import paho.mqtt.client as mqtt  # noqa: E402
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
from stats import Timing, line, process_figures  # noqa: E402

from device.publish import TablePublisher  # noqa: E402
from engine.game import Game  # noqa: E402


class WireTap:
    """A QoS 0 subscriber to every table topic: the bytes of each state and event message, and when the broker
    forwarded each event (``(table, seq)`` -> time). Only the events' JSON is parsed (a few hundred bytes)."""

    def __init__(self, port: int) -> None:
        self.sizes: dict[str, list[int]] = {"state": [], "event": []}
        self.forwarded: dict[tuple[str, int], float] = {}
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-tap")
        self.client.username_pw_set("hub", HUB_PASSWORD)
        self.client.on_message = self._on_message
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_connect = lambda c, *a: c.subscribe("partiar/v1/table/+/+", 0)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not subscribed.wait(30):
            raise SystemExit("the tap did not subscribe to the broker")

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        now = time.time()
        kind = msg.topic.rsplit("/", 1)[1]
        if kind in self.sizes and not msg.retain:
            self.sizes[kind].append(len(msg.payload))
        if kind == "event":
            data = json.loads(msg.payload)
            self.forwarded.setdefault((data["table"], data["seq"]), now)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


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


@dataclass
class Run:
    """One run's figures: the latencies (s); their parts table -> broker, broker -> hub, hub -> SSE client (s, one
    per table message that named the hub's receipt); the wall time from the first publish until the SSE client
    saw every table's last event; the number of events; the hub's figures (``hub_figures``) at the end; the
    bytes of the state and event messages on the wire; the load average at the start and at the end."""

    latencies: list[float]
    to_broker: list[float]
    to_hub: list[float]
    in_hub: list[float]
    elapsed: float
    events: int
    hub: tuple[float, float, float]
    sizes: dict[str, list[int]]
    load: tuple[str, str]
    trace: list[tuple[str, int, float, float | None, float | None, float]]
    """Per event: table, seq, published, forwarded by the broker, received by the hub, at the SSE client."""


def run(tables: int, interval: float, root: Path, broker: Broker, seed: int) -> Run:
    """The hub as a process, its SSE client and the tap here, the tables in a child process."""
    load_start = load()
    secret = root / "hub-password"
    secret.write_text(HUB_PASSWORD + "\n", encoding="utf-8")
    hub = HubProcess(root / f"hub-{seed}.sqlite", broker.url, secret)
    _, _, cpu_start = process_figures(hub.process.pid)
    sse = SseClient(hub.port).start()
    tap = WireTap(broker.port)
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

    seen: dict[str, int] = {}
    looked = 0

    def done(received: list) -> bool:
        """Every table's last event seen; looks at each message once (it runs on every message, holding the
        lock the SSE reader needs: a scan of the whole list each time grew to milliseconds, in the latency)."""
        nonlocal looked
        for name, data, _ in received[looked:]:
            if name == "table":
                seen[data["table"]] = data["seq"]
        looked = len(received)
        return all(seen.get(t) == s for t, s in last.items())

    ok = sse.wait_for(done, 300)
    child.wait(60)
    sse.close()
    tap.close()
    rss, peak, cpu = process_figures(hub.process.pid)
    hub.stop()
    if not ok:
        raise SystemExit("the SSE client did not see every event within 300 s")
    sent: dict[str, list[float]] = json.loads(out.read_text())
    latencies: list[float] = []
    to_broker: list[float] = []
    to_hub: list[float] = []
    in_hub: list[float] = []
    trace: list[tuple[str, int, float, float | None, float | None, float]] = []
    covered: dict[str, int] = {}
    finished = 0.0
    for name, data, arrived in sse.received:
        if name != "table" or data["seq"] < 0 or data["table"] not in sent:
            continue
        table, seq = data["table"], data["seq"]
        forwarded = tap.forwarded.get((table, seq))
        if data.get("received") is not None and seq > covered.get(table, -1):
            in_hub.append(arrived - data["received"])
            if forwarded is not None:
                to_broker.append(forwarded - sent[table][seq])
                to_hub.append(data["received"] - forwarded)
        for n in range(covered.get(table, -1) + 1, seq + 1):
            latencies.append(arrived - sent[table][n])
            received = data.get("received") if n == seq else None
            trace.append((table, n, sent[table][n], tap.forwarded.get((table, n)), received, arrived))
            finished = max(finished, arrived)
        covered[table] = max(covered.get(table, -1), seq)
    begin = min(times[0] for times in sent.values())
    return Run(latencies, to_broker, to_hub, in_hub, finished - begin, sum(len(t) for t in sent.values()),
               (rss, peak, cpu - cpu_start), tap.sizes, (load_start, load()), trace)  # fmt: skip


def report(result: Run, target: bool) -> None:
    """The latency (checked against the target if ``target``), its parts, the message sizes, the hub's memory."""
    timing = Timing(result.latencies, result.hub[2] / result.events)
    print(line("  table -> SSE latency", timing, "p99 < 250 ms" if target else None, timing.p99 < 0.25))
    print(line("  of it table -> broker (the tap)", Timing(result.to_broker, None), None, cpu=""))
    print(line("  of it broker -> hub's receipt", Timing(result.to_hub, None), None, cpu=""))
    print(line("  of it hub -> SSE (from the hub's receipt)", Timing(result.in_hub, None), None, cpu=""))
    for kind, sizes in result.sizes.items():
        if sizes:
            print(f"  {kind} messages on the wire: {len(sizes)}, median {statistics.median(sizes):.0f} bytes, "
                  f"max {max(sizes)} bytes")  # fmt: skip
    rss, peak, _ = result.hub
    print(f"  hub memory at the end {rss:.0f} MiB (peak {peak:.0f} MiB); load average {result.load[0]} at the start, "
          f"{result.load[1]} at the end")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between a table's moves (paced)")
    parser.add_argument("--trace", type=Path, help="write the paced run's per-event times (JSON) to this file")
    parser.add_argument("--no-burst", dest="burst", action="store_false", help="only the paced case")
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
                paced = run(args.tables, args.interval, root, broker, 1)
                print(f"paced: {args.tables} tables, a move every {args.interval} s each, {paced.events} events in "
                      f"{paced.elapsed:.1f} s (CPU per event: the hub process, the event and the state after it)")
                report(paced, target=True)
                if args.trace:
                    args.trace.write_text(json.dumps(paced.trace))
            if args.burst:
                burst = run(args.tables, 0.0, root, broker, seed=2)
                print(f"burst: {args.tables} tables publish whole games at once: {burst.events} events in "
                      f"{burst.elapsed:.2f} s = {burst.events / burst.elapsed:.0f} events/s to the SSE client")
                report(burst, target=False)
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
