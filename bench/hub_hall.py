"""Benchmark: the hub against its own hall (issue 28). ``partiar hub`` runs as a real process (its own SQLite
file, its own mosquitto on loopback); every client is on loopback, the attacking laptops and the referee on
different addresses of 127.0.0.0/8.

- logins: bursts of 40 wrong logins sent at once, from one address (the referee's name) and from 40 addresses
  (unknown names, so every attempt is checked: 40 Argon2 checks asked for at once, three times). Prints the hub's peak resident memory (VmHWM, target
  < 300 MB) and the answer times of the burst.
- idle: 1,000 idle connections held, from one laptop and spread over 40 laptops (25 each); meanwhile the director
  (a referee logged in, another address) loads the referee page, its session and the audit log: median and p99
  of those answers (target < 1 s).

    .venv/bin/python bench/hub_hall.py
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(sys.path.pop(0))  # this folder would shadow the ``hub`` package: the project's root first
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from mosquitto_fixture import HUB_PASSWORD, REFEREE, REFEREE_PASSWORD, Broker, HubProcess, free_port  # noqa: E402
from stats import Timing, line, process_figures  # noqa: E402

from hub import Database, RefereeAuth  # noqa: E402

MEMORY_TARGET_MB = 300
ANSWER_TARGET_S = 1.0


def ask(port: int, method: str, path: str, source: str, body: dict | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes, float]:  # fmt: skip
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers=({"Content-Type": "application/json"} if data else {}) | (headers or {}))
    answer = conn.getresponse()
    result = answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    conn.close()
    return (*result, time.perf_counter() - started)


def burst(port: int, sources: list[str], user: str = REFEREE) -> list[float]:
    """Wrong logins at once (one per source given) as ``user`` ("" : a different unknown name each, so the
    account limit never spares the hashing: every one is checked); their answer times."""
    gate = threading.Barrier(len(sources))

    def wrong(source: str) -> float:
        gate.wait()
        name = user or f"nobody-{source}"
        status, _, _, took = ask(port, "POST", "/api/login", source, {"user": name, "password": "not the one"})
        assert status in (401, 429, 503), status  # 503: beyond the address's 32 connections
        return took

    with ThreadPoolExecutor(len(sources)) as pool:
        return list(pool.map(wrong, sources))


def hold(port: int, sources: list[str], count: int) -> list[socket.socket]:
    return [socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(sources[i % len(sources)], 0))
            for i in range(count)]  # fmt: skip


def director(port: int, cookie: str, samples: int = 20) -> list[float]:
    """The director's page and what it loads, from the referee's laptop: one sample = the three answers."""
    times = []
    for _ in range(samples):
        took = 0.0
        for path in ("/referee", "/api/session", "/api/audit"):
            status, _, _, t = ask(port, "GET", path, "127.0.0.200", headers={"Cookie": cookie})
            assert status == 200, (path, status)
            took += t
        times.append(took)
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        db_path = root / "hub.sqlite"
        db = Database(db_path)
        RefereeAuth(db).add_referee(REFEREE, REFEREE_PASSWORD)
        db.close()
        (root / "broker.pw").write_text(HUB_PASSWORD)
        broker = Broker(root / "broker", free_port())
        broker.start()
        hub = HubProcess(db_path, broker.url, root / "broker.pw")
        try:
            pid = hub.process.pid
            print(f"hub process at start: resident {process_figures(pid)[0]:.0f} MiB")
            # the director logs in from the referee laptop before the attack: its usual address
            _, headers, _, _ = ask(hub.port, "POST", "/api/login", "127.0.0.200",
                                   {"user": REFEREE, "password": REFEREE_PASSWORD})  # fmt: skip
            cookie = headers["set-cookie"].split(";", 1)[0]
            one = burst(hub.port, ["127.0.0.7"] * 40)
            print(line("40 wrong logins at once from one address, answer", Timing(one, None), None))
            many = []
            for round_ in range(3):
                many += burst(hub.port, [f"127.0.{10 + round_}.{i + 1}" for i in range(40)], user="")
            rss, peak, _ = process_figures(pid)
            print(line("40 wrong logins at once from 40 addresses, each checked (x3), answer", Timing(many, None), None))
            print(f"hub memory under the login bursts: resident {rss:.0f} MiB, peak {peak:.0f} MiB"
                  f"  | target peak < {MEMORY_TARGET_MB} MB: {'met' if peak * 1.048576 < MEMORY_TARGET_MB else 'NOT met'}")
            status, _, _, took = ask(hub.port, "POST", "/api/login", "127.0.0.200",
                                     {"user": REFEREE, "password": REFEREE_PASSWORD})  # fmt: skip
            print(f"the director logs in again from the usual address after the bursts: {status} in {took * 1000:.0f} ms")
            for label, sources in (("one laptop", ["127.0.0.2"]), ("40 laptops", [f"127.0.3.{i + 1}" for i in range(40)])):
                sockets = hold(hub.port, sources, 1000)
                try:
                    times = director(hub.port, cookie)
                    status = json.loads(ask(hub.port, "GET", "/api/status", "127.0.0.200",
                                            headers={"Cookie": cookie})[2])["connections"]  # fmt: skip
                finally:
                    for s in sockets:
                        s.close()
                met = Timing(times, None).p99 < ANSWER_TARGET_S
                print(line(f"director's page with 1000 idle connections from {label}", Timing(times, None),
                           f"< {ANSWER_TARGET_S:.0f} s", met))
                print(f"  hub: {status['open']} connections open, {status['refused']} refused so far")
        finally:
            hub.stop()
            broker.stop()


if __name__ == "__main__":
    main()
