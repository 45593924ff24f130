"""``partiar hub`` as a real process on a real mosquitto, killed with SIGKILL in the middle of round 2 and started
again on the same database: the rounds, the live game's round, the standings and the exports are the same."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from mosquitto_fixture import (  # noqa: F401 - broker is the fixture
    HUB_PASSWORD,
    REFEREE,
    REFEREE_PASSWORD,
    TABLES,
    Broker,
    HubProcess,
    SseClient,
    broker,
    finished_games,
    free_port,
    login,
    request,
)

from device.publish import TablePublisher
from hub import Database, RefereeAuth

START_TIMEOUT = 60


def wait_seq(port: int, table: str, seq: int) -> bool:
    sse = SseClient(port, f"/events/table/{table}").start()
    try:
        return sse.wait_for(lambda got: any(n == "table" and d["seq"] >= seq for n, d, _ in got), START_TIMEOUT)
    finally:
        sse.close()


def snapshot(port: int) -> dict:
    headers = {"Cookie": login(port)["Cookie"]}
    out = {}
    for path in ("/api/standings", "/api/table/t56"):
        status, _, body = request(port, "GET", path)
        assert status == 200, (path, body)
        out[path] = json.loads(body)
    for path in ("/export/results.csv", "/export/round/1.csv", "/export/round/2.csv"):
        status, _, body = request(port, "GET", path, headers=headers)
        assert status == 200
        out[path] = body.decode()
    status, _, body = request(port, "GET", "/export/round/1.zip", headers=headers)
    assert status == 200
    out["/export/round/1.zip"] = sorted(zipfile.ZipFile(io.BytesIO(body)).namelist())
    out["/api/table/t56"].pop("online")  # the table's status may arrive later after the restart
    out["/api/table/t56"].pop("state")
    out["/api/table/t56"].pop("received")  # this run's clock: none for the events read back at start-up
    return out


def test_a_hub_killed_mid_round_comes_back_with_the_same_tournament(broker, tmp_path) -> None:  # noqa: F811
    db = tmp_path / "hub.sqlite"
    RefereeAuth(Database(db)).add_referee(REFEREE, REFEREE_PASSWORD)
    secret = tmp_path / "hub-password"
    secret.write_text(HUB_PASSWORD + "\n", encoding="utf-8")
    games = finished_games(3, seed=31)
    tables = {t: TablePublisher(t, broker.url, username=t, password=TABLES[t], queue_dir=tmp_path / t)
              for t in ("t55", "t56")}  # fmt: skip
    hub = HubProcess(db, broker.url, secret)
    try:
        for t in tables.values():
            t.start()
        referee = login(hub.port)
        assert request(hub.port, "POST", "/api/round", {"command": "start_round", "round": 1}, referee)[0] == 200
        for (tid, table), game in zip(tables.items(), games[:2], strict=True):
            for seq, event in enumerate(game):
                table.publish_event(seq, event.to_json() | {"round": 1})
            assert wait_seq(hub.port, tid, len(game) - 1)
        assert request(hub.port, "POST", "/api/round", {"command": "start_round", "round": 2}, referee)[0] == 200
        live = games[2][:12]
        for seq, event in enumerate(live):  # the daemon's events carry no round: the hub files them
            tables["t56"].publish_event(seq, event.to_json())
        assert wait_seq(hub.port, "t56", len(live) - 1)
        before = snapshot(hub.port)
        assert before["/api/table/t56"]["round"] == 2
        assert before["/api/standings"]["round"]["number"] == 2
        # the desk's deník is the one record of results (issue 32): no tournament at the desk, no results; the
        # round's zip still holds every game of the round
        assert before["/api/standings"]["kind"] == "turcas" and before["/export/results.csv"].count("\r\n") == 1
        assert before["/export/round/1.zip"] == ["results.csv", "round1-table-t55.gcg", "round1-table-t55.html",
                                                 "round1-table-t55.txt", "round1-table-t56.gcg",
                                                 "round1-table-t56.html", "round1-table-t56.txt"]  # fmt: skip

        hub.kill()
        hub = HubProcess(db, broker.url, secret)
        assert wait_seq(hub.port, "t56", len(live) - 1)  # events not yet committed come again from the broker
        after = snapshot(hub.port)
        assert after == before
        audit = json.loads(request(hub.port, "GET", "/api/audit", headers={"Cookie": login(hub.port)["Cookie"]})[2])
        assert [a["detail"]["round"] for a in audit if a["action"] == "round"] == [2, 1]
    finally:
        for t in tables.values():
            t.stop()
        hub.stop()


def stored_events(db: Path) -> list[tuple[str, int]]:
    """The events in the hub's file as another process sees it."""
    conn = sqlite3.connect(db)
    try:
        return [(row[0], row[1]) for row in conn.execute("SELECT tbl, seq FROM events ORDER BY tbl, seq")]
    finally:
        conn.close()


@pytest.fixture
def own_broker(broker, tmp_path) -> Iterator[Broker]:  # noqa: F811 - the session's broker: mosquitto is there
    """A mosquitto of the test's own: the session's broker holds what earlier tests left for the hub's client (its
    persistent session's queued messages, retained states), and 16 of those waiting would trigger a commit early."""
    own = Broker(tmp_path / "mosquitto", free_port())
    own.start()
    yield own
    own.stop()


def test_the_broker_keeps_an_event_until_the_hub_committed_it(own_broker, tmp_path) -> None:
    """The hub acknowledges a message only after its group commit: a hub killed before the commit (here a window
    of an hour) gets the events again from the broker when it is back, and then has them in its file."""
    db = tmp_path / "hub.sqlite"
    secret = tmp_path / "hub-password"
    secret.write_text(HUB_PASSWORD + "\n", encoding="utf-8")
    game = finished_games(1, seed=32)[0][:6]
    table = TablePublisher("t57", own_broker.url, username="t57", password=TABLES["t57"], queue_dir=tmp_path / "t57")
    hub = HubProcess(db, own_broker.url, secret, "--commit-window", "3600")
    try:
        table.start()
        for seq, event in enumerate(game):
            table.publish_event(seq, event.to_json() | {"round": 1})
        assert wait_seq(hub.port, "t57", len(game) - 1)  # shown on the pages...
        assert stored_events(db) == []  # ...not committed yet, so not acknowledged either
        hub.kill()
        hub = HubProcess(db, own_broker.url, secret)
        assert wait_seq(hub.port, "t57", len(game) - 1)
        status, _, body = request(hub.port, "GET", "/api/table/t57")
        assert status == 200 and json.loads(body)["game"]["players"] == list(game[0].players)
        hub.stop()  # SIGTERM: the hub commits what is queued before it exits
        assert stored_events(db) == [("t57", seq) for seq in range(len(game))]
    finally:
        table.stop()
        hub.stop()


def test_a_referee_stays_logged_in_across_a_restart_of_the_hub(broker, tmp_path) -> None:  # noqa: F811
    """Sessions are in the database: the hub killed and started again knows the cookie and its CSRF token; a
    logout is for good, restart or not."""
    db = tmp_path / "hub.sqlite"
    RefereeAuth(Database(db)).add_referee(REFEREE, REFEREE_PASSWORD)
    secret = tmp_path / "hub-password"
    secret.write_text(HUB_PASSWORD + "\n", encoding="utf-8")
    hub = HubProcess(db, broker.url, secret)
    try:
        referee = login(hub.port)
        players = {"players": [{"id": "101", "name": "Jana Nováková"}]}
        assert request(hub.port, "POST", "/api/players", players, referee)[0] == 200
        hub.kill()
        hub = HubProcess(db, broker.url, secret)
        status, _, body = request(hub.port, "GET", "/api/session", headers={"Cookie": referee["Cookie"]})
        assert status == 200 and json.loads(body)["referee"] == REFEREE
        assert json.loads(body)["csrf"] == referee["X-CSRF-Token"]
        players = {"players": [{"id": "102", "name": "Petr Novák"}]}
        assert request(hub.port, "POST", "/api/players", players, referee)[0] == 200  # no new login needed
        assert request(hub.port, "POST", "/api/logout", {}, referee)[0] == 200
        hub.stop()
        hub = HubProcess(db, broker.url, secret)
        status, _, body = request(hub.port, "GET", "/api/session", headers={"Cookie": referee["Cookie"]})
        assert status == 200 and json.loads(body)["referee"] is None
        assert request(hub.port, "POST", "/api/players", players, referee)[0] == 401
    finally:
        hub.stop()


@pytest.mark.parametrize("argv", [["hub", "--listen", "127.0.0.1:99999"]])
def test_the_hub_process_refuses_a_bad_address(argv, tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "device.cli", *argv, "--db", str(tmp_path / "x.sqlite")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "--listen" in done.stderr
