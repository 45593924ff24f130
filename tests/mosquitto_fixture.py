"""A real Mosquitto on a free loopback port for the hub tests (Debian's ``mosquitto``), started by the test
itself (never the system service), with the tournament config of ``hub.brokerconf``: per-table users
and the ACL. ``TcpProxy`` sits between one table and the broker so a test can cut that table's network. Then
the helpers the hub tests and ``bench/hub.py`` share: whole games to publish, a hub on the broker, HTTP and SSE
clients.

Import the fixture into a test module: ``from mosquitto_fixture import broker  # noqa: F401``.
"""

from __future__ import annotations

import contextlib
import getpass
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from engine.game import Game
from engine.game.events import Event
from engine.game.sample import random_events
from hub.auth import RefereeAuth
from hub.brokerconf import write_broker_files
from hub.db import COMMIT_WINDOW, Database
from hub.link import HubLink
from hub.store import HubStore
from hub.web import HubServer

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
TABLES = {f"t{i}": f"pw-t{i}" for i in range(1, 61)}
"""t1-t50 play the 50-table round; t51-t60 are for tests that run beside it."""
HUB_PASSWORD = "pw-hub"
REFEREE = "Hlavní"
REFEREE_PASSWORD = "hlavní rozhodčí"
START_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_mosquitto(conf: Path, log: list[str]) -> subprocess.Popen[str]:
    """mosquitto on ``conf``, once it says it is running (its log lines go to ``log``); raises if it exits."""
    ready = threading.Event()
    process = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            log.append(line.rstrip())
            if " running" in line:
                ready.set()
        ready.set()

    threading.Thread(target=drain, name="mosquitto-log", daemon=True).start()
    if not ready.wait(START_TIMEOUT) or process.poll() is not None:
        process.kill()
        raise RuntimeError("mosquitto did not start:\n" + "\n".join(log[-20:]))
    return process


class Broker:
    """One mosquitto process; ``stop`` (SIGTERM: it saves its persistence), ``start`` again on the same port."""

    def __init__(
        self, directory: Path, port: int, tls_port: int | None = None, tls_files: tuple[Path, Path] | None = None
    ) -> None:
        self.directory = directory
        self.port = port
        self.url = f"mqtt://127.0.0.1:{port}"
        self.tls_url = f"mqtts://127.0.0.1:{tls_port}" if tls_port else None
        self.conf = write_broker_files(directory, port, TABLES, HUB_PASSWORD, run_as=getpass.getuser(),
                                       tls_port=tls_port, tls_files=tls_files, tls_bind="127.0.0.1")  # fmt: skip
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []

    def start(self) -> None:
        """Start mosquitto and return once it says it is running (its log on stderr); raises if it exits."""
        self.process = start_mosquitto(self.conf, self.log)

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
            self.process = None

    def kill(self) -> None:
        """SIGKILL: the broker dies without saving (what it had in memory since its last autosave is gone)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


class TcpProxy:
    """A loopback TCP forwarder to ``target_port``; ``cut()`` drops every connection and refuses new ones (the
    table's network is down) until ``restore()``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self._up = threading.Event()
        self._up.set()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, name="proxy-accept", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self._up.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        self._up.clear()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def restore(self) -> None:
        self._up.set()

    def close(self) -> None:
        self.cut()
        self.listener.close()


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    """A running mosquitto with the 50 tables' users (``TABLES``) and the hub (``HUB_PASSWORD``)."""
    if not os.path.exists(MOSQUITTO):
        pytest.skip("needs Debian's mosquitto (apt-get install -y mosquitto)")
    b = Broker(tmp_path_factory.mktemp("mosquitto"), free_port())
    b.start()
    yield b
    b.stop()


# ------------------------------------------------------------------------------------------ hub helpers


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
    """What the daemon publishes as its state: names, the game, the clock view (``MoveClock.view``'s fields)."""
    last = game.events[-1].at if game.events else 0.0
    running = game.ended is None
    return {
        "name": table_id,
        "players": list(game.players),
        "game": game.to_dict(),
        "clock": {
            "state": "running" if running else "stopped",
            "paused": False,
            "player_on_move": game.player_on_move if running else None,
            "move_left": 120.0 - (last % 120) if running else None,
            "budgets": None,
            "game_left": max(0.0, 2400.0 - last),
            "game_phase": "base" if last < 2400.0 else "expired",
        },
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
        self.store.db.close()


def start_hub(broker_url: str, referee_password: str | None = REFEREE_PASSWORD, db: Path | None = None,
              client_id: str | None = None, **server_options: Any) -> Hub:
    """A hub on the broker with the referee ``REFEREE`` (unless ``referee_password`` is None), its database in
    ``db`` (default: in memory) with the group commit of ``partiar hub`` (acknowledgements after the commit)."""
    database = Database(db or ":memory:", commit_window=COMMIT_WINDOW)
    store = HubStore(database)
    link = HubLink(store, broker_url, password=HUB_PASSWORD, client_id=client_id or f"hub-{uuid.uuid4().hex[:8]}")
    auth = RefereeAuth(database)
    if referee_password is not None and REFEREE not in auth.referees():
        auth.add_referee(REFEREE, referee_password)
    server = HubServer(store, "127.0.0.1", 0, link=link, auth=auth, **server_options)
    link.start()
    server.start()
    assert link.connected.wait(10), "the hub did not connect to the broker"
    return Hub(store, link, server)


def request(
    port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
    source: str | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request to the hub: status, headers, body. ``source``: the loopback address it comes from
    (127.0.0.2, ...: another client of the hall), else the system's choice."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                      source_address=(source, 0) if source else None)  # fmt: skip
    data = json.dumps(body).encode() if body is not None else None
    all_headers = {"Content-Type": "application/json"} if data is not None else {}
    conn.request(method, path, body=data, headers=all_headers | (headers or {}))
    response = conn.getresponse()
    result = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    conn.close()
    return result


def raw_client(url: str, user: str | None, password: str | None) -> mqtt.Client:
    """A connected MQTT client of ``user`` on the loopback broker at ``url``, its network loop running."""
    port = int(url.rsplit(":", 1)[1])
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"raw-{user}-{threading.get_ident()}")
    if user is not None:
        client.username_pw_set(user, password)
    connected = threading.Event()
    client.on_connect = lambda *a: connected.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    assert connected.wait(10)
    return client


@contextlib.contextmanager
def referee_hub() -> Iterator[tuple[HubServer, RefereeAuth]]:
    """A hub web server on loopback (no broker) with the referee's account: ``(server, auth)``."""
    db = Database()
    auth = RefereeAuth(db)
    auth.add_referee(REFEREE, REFEREE_PASSWORD)
    server = HubServer(HubStore(db), auth=auth)
    server.start()
    try:
        yield server, auth
    finally:
        server.stop()


def login(port: int, password: str = REFEREE_PASSWORD, user: str = REFEREE, source: str | None = None) -> dict[str, str]:
    """Log the referee in: the headers (cookie and CSRF token) a referee POST carries."""
    status, headers, body = request(port, "POST", "/api/login", {"user": user, "password": password}, source=source)
    assert status == 200, body
    cookie = headers["set-cookie"].split(";", 1)[0]
    return {"Cookie": cookie, "X-CSRF-Token": json.loads(body)["csrf"]}


class HubProcess:
    """``python -m device.cli hub`` (a real process) on a free loopback port; ``port`` from the line it prints."""

    def __init__(self, db: Path, broker_url: str, password_file: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "device.cli", "hub", "--db", str(db), "--broker", broker_url,
             "--broker-password-file", str(password_file), "--listen", "127.0.0.1:0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("partiar hub: http://127.0.0.1:"), line
        self.port = int(line.rsplit(":", 1)[1].strip(" /\n"))

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)


def hub_process_with_referee(root: Path, *extra: str) -> tuple[Broker, HubProcess]:
    """A broker and a ``partiar hub`` process on it (both started; stop both) with the test referee's account, its
    database and the broker's password file under ``root``: what the hub benches measure."""
    db_path = root / "hub.sqlite"
    db = Database(db_path)
    RefereeAuth(db).add_referee(REFEREE, REFEREE_PASSWORD)
    db.close()
    (root / "broker.pw").write_text(HUB_PASSWORD)
    broker = Broker(root / "broker", free_port())
    broker.start()
    return broker, HubProcess(db_path, broker.url, root / "broker.pw", *extra)


@dataclass
class SseClient:
    """Reads an SSE stream of the hub in a thread, keeping every ``(event, data, arrival time)``. A raw socket
    with its own chunked-transfer decoder: ``http.client`` waits for the next chunk's header before it hands
    over the end of the last one, which would delay every message until the next (a browser does not)."""

    port: int
    path: str = "/events"
    received: list[tuple[str, Any, float]] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)
    error: str | None = None

    def start(self) -> SseClient:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        self.sock.sendall(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())  # fmt: skip
        buf = b""
        while b"\r\n\r\n" not in buf:
            data = self.sock.recv(65536)
            assert data, "the hub closed the event stream before its headers"
            buf += data
        head, rest = buf.split(b"\r\n\r\n", 1)
        assert head.split()[1] == b"200", head
        chunked = b"transfer-encoding: chunked" in head.lower()
        threading.Thread(target=self._read, args=(rest, chunked), daemon=True).start()
        return self

    def _read(self, buf: bytes, chunked: bool) -> None:
        """Each message is stamped with the time its last bytes came (the ``recv`` that returned them), never
        later: a waiter's predicate holding ``changed`` or the JSON parse must not count as the hub's time."""
        text, name, data = b"", "message", ""
        arrived = time.time()
        try:
            while True:
                if chunked:
                    while (end := buf.find(b"\r\n")) >= 0:
                        size = int(buf[:end].split(b";")[0], 16)
                        if size == 0:
                            self.error = "the stream ended"
                            return
                        if len(buf) < end + 2 + size + 2:
                            break
                        text += buf[end + 2 : end + 2 + size]
                        buf = buf[end + 2 + size + 2 :]
                else:
                    text, buf = text + buf, b""
                *lines, text = text.split(b"\n")
                for raw in lines:
                    line = raw.decode().rstrip("\r")
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif line == "" and data:
                        message = (name, json.loads(data), arrived)
                        with self.changed:
                            self.received.append(message)
                            self.changed.notify_all()
                        name, data = "message", ""
                more = self.sock.recv(65536)
                arrived = time.time()
                if not more:
                    self.error = "the stream ended"
                    return
                buf += more
        except (OSError, ValueError) as exc:
            self.error = f"{type(exc).__name__}: {exc}"

    def wait_for(self, predicate: Callable[[list[tuple[str, Any, float]]], bool], timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self.received), timeout)

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
