"""Issue 28 item 3: one laptop cannot take the pages away from everyone. Real uvicorn on loopback; the laptop and
the other visitors are different loopback addresses (127.0.0.x), as they are different machines in the hall."""

from __future__ import annotations

import http.client
import json
import socket

import pytest
from mosquitto_fixture import login, referee_hub, request

import hub.connections
import hub.web
from hub.connections import PER_ADDRESS, STREAMS_PER_ADDRESS


@pytest.fixture
def server():
    with referee_hub() as (server, _):
        yield server


def hold(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` idle connections from ``source`` (nothing sent)."""
    return [socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
            for _ in range(count)]  # fmt: skip


def stream(port: int, source: str, headers: dict[str, str] | None = None) -> tuple[http.client.HTTPConnection, int]:
    """A live feed from ``source``: the open connection and its status (its first message read when 200)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    conn.request("GET", "/events", headers=headers or {})
    answer = conn.getresponse()
    if answer.status == 200:
        assert b"event: " in answer.read1(65536)
    return conn, answer.status


def test_a_thousand_idle_connections_from_one_laptop_leave_the_pages_to_everyone_else(server) -> None:
    sockets = hold(server.port, "127.0.0.2", 1000)
    try:
        for path in ("/api/overview", "/referee", "/"):  # another visitor, the director's page
            assert request(server.port, "GET", path, source="127.0.0.3")[0] == 200
        refused = 0
        for s in sockets[PER_ADDRESS:]:  # beyond the laptop's share: a bare 503, closed
            data = s.recv(200)
            refused += data.startswith(b"HTTP/1.1 503")
        assert refused == 1000 - PER_ADDRESS
        status = json.loads(request(server.port, "GET", "/api/status", source="127.0.0.3")[2])
        assert status["connections"]["busiest"][0] == {"who": "127.0.0.2", "connections": PER_ADDRESS, "streams": 0}
        assert status["connections"]["refused"] == 1000 - PER_ADDRESS
    finally:
        for s in sockets:
            s.close()


def test_live_feeds_are_limited_per_laptop(server) -> None:
    feeds = [stream(server.port, "127.0.0.4") for _ in range(STREAMS_PER_ADDRESS)]
    try:
        assert all(status == 200 for _, status in feeds)
        extra, status = stream(server.port, "127.0.0.4")
        extra.close()
        assert status == 503
        other, status = stream(server.port, "127.0.0.5")  # a new viewer elsewhere gets the live page
        other.close()
        assert status == 200
    finally:
        for conn, _ in feeds:
            conn.close()


def test_the_referees_keep_a_reserve_when_the_hub_is_full(server, monkeypatch) -> None:
    """With every ordinary connection and live feed taken (by many addresses), the referee's requests and feed
    are still served, and a referee can load the login page; a viewer still gets the pages and their snapshots
    (issue 35: before, 503), only a new live feed and anything else are refused (503)."""
    monkeypatch.setattr(hub.connections, "MAX_CONNECTIONS", 8)
    monkeypatch.setattr(hub.web, "MAX_STREAMS", 2)
    headers = login(server.port, source="127.0.0.30")
    feeds = [stream(server.port, f"127.0.0.{40 + i}") for i in range(2)]
    sockets = [s for i in range(8) for s in hold(server.port, f"127.0.0.{50 + i}", 1)]
    try:
        for path in ("/", "/standings", "/api/overview", "/static/hub.js"):  # a viewer always gets the page
            assert request(server.port, "GET", path, source="127.0.0.31")[0] == 200, path
        assert request(server.port, "GET", "/api/audit", source="127.0.0.31")[0] == 503
        assert request(server.port, "GET", "/export/results.csv", source="127.0.0.31")[0] == 503
        assert request(server.port, "GET", "/referee", source="127.0.0.31")[0] == 200
        assert request(server.port, "GET", "/api/audit", headers={"Cookie": headers["Cookie"]},
                       source="127.0.0.30")[0] == 200  # fmt: skip
        refused, status = stream(server.port, "127.0.0.31")
        refused.close()
        assert status == 503
        mine, status = stream(server.port, "127.0.0.30", {"Cookie": headers["Cookie"]})
        mine.close()
        assert status == 200
    finally:
        for s in sockets:
            s.close()
        for conn, _ in feeds:
            conn.close()
