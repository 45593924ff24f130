"""Benchmark: the hub publishes a round's pairing to 50 tables and waits for every table's acknowledgement.

Starts its own mosquitto on a free loopback port (the tests' tournament config), the hub's MQTT side in this
process (``HubLink`` on a ``HubStore`` with its SQLite file in a temporary folder: the acknowledgement is recorded
by ``record_pairing_ack`` as in ``partiar hub``), and 50 ``TablePublisher``s in a child process (on a tournament
every table is its own Raspberry Pi) that keep each pairing on disk (``device.table_pairing.save_pairing``: written
and fsynced, as the table does before it acknowledges) and acknowledge it (``TablePublisher.ack_pairing``). Per
round: the time from the hub's publishing of the 50 pairings to each table's acknowledgement recorded at the hub;
median and p99 over every table and round (target p99 < 2 s), and the time until the round's last one.

    .venv/bin/python bench/publish_ack.py [--tables 50] [--rounds 10]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(sys.path.pop(0))  # this folder (for ``stats``) last: it would shadow the ``hub`` package
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from mosquitto_fixture import HUB_PASSWORD, TABLES, Broker, free_port  # noqa: E402
from polling import wait_until  # noqa: E402
from stats import Timing, line  # noqa: E402

TARGET_P99_S = 2.0


def run_tables(url: str, count: int, folder: Path) -> None:
    """The child: ``count`` table publishers that keep and acknowledge every pairing they get, until stdin closes."""
    from device.publish import TablePublisher
    from device.table_pairing import save_pairing

    publishers = []
    for i in range(1, count + 1):
        unit = f"t{i}"
        queue_dir = folder / unit
        queue_dir.mkdir(parents=True, exist_ok=True)
        holder: list[TablePublisher] = []

        def keep(pairing, where=queue_dir / "pairing.json", holder=holder) -> None:
            save_pairing(where, pairing)  # on the card first, as the table does
            holder[0].ack_pairing(pairing)

        publisher = TablePublisher(unit, url, username=unit, password=TABLES[unit], queue_dir=queue_dir,
                                   on_pairing=keep)  # fmt: skip
        holder.append(publisher)
        publisher.start()
        publishers.append(publisher)
    if not wait_until(lambda: all(p.connected for p in publishers), 60):
        raise SystemExit("the tables did not connect")
    print("ready", flush=True)
    sys.stdin.read()
    for p in publishers:
        p.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--child", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_tables(args.child, args.tables, args.folder)
        return 0

    from hub.db import COMMIT_WINDOW, Database
    from hub.link import HubLink
    from hub.store import HubStore
    from tablelink.pairing import PairedPlayer, TablePairing

    arrived: dict[tuple[int, int], float] = {}
    changed = threading.Condition()

    class TimedStore(HubStore):
        def record_pairing_ack(self, round_no: int, table_no: int, unit: str) -> None:
            super().record_pairing_ack(round_no, table_no, unit)
            with changed:
                arrived.setdefault((round_no, table_no), time.perf_counter())
                changed.notify_all()

    with tempfile.TemporaryDirectory(prefix="bench-ack-") as tmp:
        folder = Path(tmp)
        broker = Broker(folder / "broker", free_port())
        broker.start()
        store = TimedStore(Database(str(folder / "hub.sqlite"), commit_window=COMMIT_WINDOW))
        link = HubLink(store, broker.url, password=HUB_PASSWORD, client_id="bench-hub-ack")
        link.start()
        child = subprocess.Popen([sys.executable, __file__, "--child", broker.url, "--tables", str(args.tables),
                                  "--folder", str(folder / "tables")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True)  # fmt: skip
        try:
            assert child.stdout is not None
            if child.stdout.readline().strip() != "ready" or not link.connected.wait(30):
                raise SystemExit("the tables or the hub did not connect")
            print(f"load average at the start: {os.getloadavg()[0]:.2f}")
            latencies: list[float] = []
            rounds: list[float] = []
            for r in range(1, args.rounds + 1):
                pairings = [TablePairing(f"r{r}-t{i}", r, f"t{i}", (PairedPlayer(f"{i}a", f"Hráč {i}a"),
                                         PairedPlayer(f"{i}b", f"Hráč {i}b")), "Bench", "Praha", "6.12.2026",
                                         time.time(), i) for i in range(1, args.tables + 1)]  # fmt: skip
                t0 = time.perf_counter()
                for pairing in pairings:
                    link.send_pairing(pairing)
                with changed:
                    done = changed.wait_for(lambda r=r: sum(1 for k in arrived if k[0] == r) == args.tables, 60)
                if not done:
                    raise SystemExit(f"round {r}: {sum(1 for k in arrived if k[0] == r)} of {args.tables} acks")
                times = [arrived[(r, i)] - t0 for i in range(1, args.tables + 1)]
                latencies += times
                rounds.append(max(times))
            timing = Timing(latencies, None)
            print(line(f"pairing -> acknowledgement at the hub, {args.tables} tables x {args.rounds} rounds", timing,
                       f"p99 < {TARGET_P99_S:.0f} s", timing.p99 < TARGET_P99_S))  # fmt: skip
            print(line("a round's last acknowledgement", Timing(rounds, None), None))
            print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        finally:
            if child.stdin is not None:
                child.stdin.close()
            child.wait(60)
            link.stop()
            store.db.close()
            broker.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
