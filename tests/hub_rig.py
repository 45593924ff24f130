"""Helpers for the hub tests: whole games to publish, a hub on the test broker, HTTP and SSE clients."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.hub.auth import RefereeAuth
from device.hub.link import HubLink
from device.hub.server import HubServer
from device.hub.store import HubStore
from engine.game import Game
from engine.game.events import Event
from engine.game.sample import random_events
from mosquitto_fixture import HUB_PASSWORD

REFEREE_PASSWORD = "hlavní rozhodčí"


def finished_games(count: int, seed: int = 0) -> list[list[Event]]:
    """``count`` random games (engine.game.sample) that end, players with Czech names, events with timestamps."""
    out: list[list[Event]] = []
    rng = random.Random(seed)
    while len(out) < count:
        n = len(out)
        events = random_events(random.Random(rng.random()), players=(f"Hráč {2 * n + 1}", f"Žák {2 * n + 2}"),
                               max_events=400)  # fmt: skip
        if Game.replay(events).ended is not None:
            out.append(events)
    return out


def table_state(table_id: str, game: Game) -> dict[str, Any]:
    """What the daemon publishes as its state: names, the game, a clock view."""
    last = game.events[-1].at if game.events else 0.0
    return {
        "name": table_id,
        "players": list(game.players),
        "game": game.to_dict(),
        "clock": {"remaining": [120.0 - (last % 120), 120.0], "game_remaining": max(0.0, 2400.0 - last)},
    }


@dataclass
class Hub:
    """A hub on the test broker: store, MQTT link, web server with the referee password."""

    store: HubStore
    link: HubLink
    server: HubServer

    @property
    def port(self) -> int:
        return self.server.port

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait on the store's change feed until ``predicate()`` holds (True) or ``timeout`` passes (False)."""
        deadline = time.monotonic() + timeout
        seen = self.store.feed.version
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            change = self.store.feed.wait(seen, None, min(left, 0.5))
            if change is None:
                return False
            seen = change[0]
        return True

    def stop(self) -> None:
        self.server.stop()
        self.link.stop()


def start_hub(broker_url: str, referee_password: str | None = REFEREE_PASSWORD) -> Hub:
    store = HubStore()
    link = HubLink(store, broker_url, password=HUB_PASSWORD, client_id=f"hub-{uuid.uuid4().hex[:8]}")
    server = HubServer(store, "127.0.0.1", 0, link=link, auth=RefereeAuth(referee_password))
    link.start()
    server.start()
    assert link.connected.wait(10), "the hub did not connect to the broker"
    return Hub(store, link, server)


def request(
    port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request to the hub: status, headers, body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    data = json.dumps(body).encode() if body is not None else None
    all_headers = {"Content-Type": "application/json"} if data is not None else {}
    conn.request(method, path, body=data, headers=all_headers | (headers or {}))
    response = conn.getresponse()
    result = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    conn.close()
    return result


def login(port: int, password: str = REFEREE_PASSWORD) -> dict[str, str]:
    """Log the referee in: the headers (cookie and CSRF token) a referee POST carries."""
    status, headers, body = request(port, "POST", "/api/login", {"password": password})
    assert status == 200, body
    cookie = headers["set-cookie"].split(";", 1)[0]
    return {"Cookie": cookie, "X-CSRF-Token": json.loads(body)["csrf"]}


@dataclass
class SseClient:
    """Reads an SSE stream of the hub in a thread, keeping every ``(event, data, arrival time)``."""

    port: int
    path: str = "/events"
    received: list[tuple[str, Any, float]] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> SseClient:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.conn.request("GET", self.path)
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self) -> None:
        name, data = "message", ""
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    data = line[6:]
                elif line == "" and data:
                    with self.changed:
                        self.received.append((name, json.loads(data), time.time()))
                        self.changed.notify_all()
                    name, data = "message", ""
        except (OSError, ValueError):
            return

    def wait_for(self, predicate: Callable[[list[tuple[str, Any, float]]], bool], timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self.received), timeout)

    def close(self) -> None:
        self.conn.close()


def queue_dirs(root: Path, table_id: str) -> Path:
    return root / f"queue-{table_id}"
