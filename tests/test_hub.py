"""The hub against a real mosquitto: 50 tables play whole games through a broker restart, a table that loses its
network and a table that restarts with events queued on disk; nothing lost, nothing duplicated. The broker's ACL,
the referee's round control, standings and exports."""

from __future__ import annotations

import csv
import io
import json
import threading
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mosquitto_fixture import (  # noqa: F401 - broker is the fixture
    HUB_PASSWORD,
    REFEREE,
    TABLES,
    Hub,
    SseClient,
    TcpProxy,
    broker,
    finished_games,
    login,
    request,
    start_hub,
    table_state,
)

from device.publish import TablePublisher
from engine.game import Game
from engine.game.events import Event
from engine.game.export import game_gcg
from engine.gcg import encode_gcg
from hub.link import HubLink
from tablelink import rounds, topics

TABLE_IDS = [f"t{i}" for i in range(1, 51)]
LOST_NETWORK = "t7"
RESTARTED = "t3"


class Table:
    """One simulated table: a publisher fed with a whole game, and the round commands it received."""

    def __init__(self, table_id: str, events: list[Event], url: str, queue_dir: Path) -> None:
        self.id = table_id
        self.events = events
        self.url = url
        self.queue_dir = queue_dir
        self.game = Game()
        self.next = 0
        self.commands: list[dict[str, Any]] = []
        self.got_command = threading.Event()
        self.publisher = self._publisher()
        self.publisher.start()

    def _publisher(self) -> TablePublisher:
        return TablePublisher(self.id, self.url, username=self.id, password=TABLES[self.id],
                              queue_dir=self.queue_dir, on_command=self._on_command)  # fmt: skip

    def _on_command(self, command: dict[str, Any]) -> None:
        self.commands.append(command)
        self.got_command.set()

    def restart(self) -> None:
        """The table unit restarts: a new publisher on the same queue directory."""
        self.publisher.stop()
        self.publisher = self._publisher()
        self.publisher.start()

    def play_until(self, fraction: float) -> None:
        """Publish the game's events up to ``fraction`` of the game, each followed by the new state."""
        end = round(len(self.events) * fraction)
        while self.next < end:
            event = self.events[self.next]
            self.game.apply(event)
            self.publisher.publish_event(self.next, event.to_json() | {"round": 1})
            self.publisher.publish_state(table_state(self.id, self.game))
            self.next += 1


@pytest.fixture(scope="module")
def played(broker, tmp_path_factory):  # noqa: F811 - the fixture
    """50 tables through a whole round with the trouble described in the module docstring."""
    root = tmp_path_factory.mktemp("tables")
    hub = start_hub(broker.url)
    sse = SseClient(hub.port).start()
    proxy = TcpProxy(broker.port)
    games = finished_games(len(TABLE_IDS))
    tables = {
        tid: Table(tid, games[i], proxy.url if tid == LOST_NETWORK else broker.url, root / tid)
        for i, tid in enumerate(TABLE_IDS)
    }
    assert all(t.publisher.connected or t.publisher._connected.wait(10) for t in tables.values())
    hub.link.send_round_command("start_round", 1)
    assert all(t.got_command.wait(10) for t in tables.values()), "a table missed the start of the round"

    def play(fraction: float) -> None:
        for t in tables.values():
            t.play_until(fraction)

    play(0.3)
    proxy.cut()  # table 7 loses its network mid-game
    assert hub.wait_for(lambda: hub.store.tables[LOST_NETWORK].online is False, 20), "no last will for t7"
    play(0.5)
    broker.stop()  # the broker goes down mid-round: every table queues on disk
    play(0.6)
    tables[RESTARTED].restart()  # a table restarts with events not yet delivered
    play(0.7)
    broker.start()
    play(0.8)
    proxy.restore()
    play(1.0)

    def complete() -> bool:
        for t in tables.values():
            record = hub.store.games.get((t.id, t.publisher._game or ""))
            if record is None or record.applied != len(t.events):
                return False
        return True

    assert hub.wait_for(complete, 40), {
        t.id: (len(t.events), getattr(hub.store.current_game(t.id), "applied", None)) for t in tables.values()
    }
    assert all(t.publisher.wait_idle(10) for t in tables.values())
    print("received", hub.store.received, "duplicates", hub.store.duplicates, "rejected", hub.link.rejected)
    yield hub, tables, sse
    sse.close()
    for t in tables.values():
        t.publisher.stop()
    proxy.close()
    hub.stop()


def test_every_event_arrives_once_in_order(played) -> None:
    hub, tables, _ = played
    for t in tables.values():
        record = hub.store.current_game(t.id)
        assert record is not None and record.error is None
        published = [e.to_json() | {"round": 1} for e in t.events]
        assert [record.events[seq] for seq in sorted(record.events)] == published, t.id
        assert record.game.to_dict() == Game.replay(t.events).to_dict(), t.id
    # duplicates (QoS 1 redelivery, resends) were dropped, never stored twice
    assert sum(len(hub.store.games[k].events) for k in hub.store.games) == sum(len(t.events) for t in tables.values())
    assert len(hub.store.games) == len(tables)


def test_the_retained_state_and_status_are_current(played) -> None:
    hub, tables, _ = played
    assert hub.wait_for(lambda: all(hub.store.tables[tid].online for tid in tables), 20)
    for t in tables.values():
        view = hub.store.table_view(t.id)
        assert view is not None
        assert view["game"] == t.game.to_dict()
        assert view["state"]["clock"] == {k: v for k, v in table_state(t.id, t.game)["clock"].items() if v is not None}
        assert view["seq"] == len(t.events) - 1


def test_round_commands_reached_each_table_once(played) -> None:
    _, tables, _ = played
    for t in tables.values():
        assert [c["command"] for c in t.commands] == ["start_round"], t.id
        assert t.commands[0]["round"] == 1


def test_the_sse_feed_pushed_the_final_state_of_every_table(played) -> None:
    _, tables, sse = played

    def final(received: list[tuple[str, Any, float]]) -> bool:
        last: dict[str, int] = {}
        for name, data, _ in received:
            if name == "table":
                last[data["table"]] = data["seq"]
        return all(last.get(t.id) == len(t.events) - 1 for t in tables.values())

    assert sse.wait_for(final, 10), (len(sse.received), sse.received[-3:], sse.error)
    summaries = [d for n, d, _ in sse.received if n == "table"]
    assert all(d["game"] is None or "history" not in d["game"] for d in summaries)  # summaries leave the history out


def test_exports_and_standings_of_the_round(played) -> None:
    hub, tables, _ = played
    assert request(hub.port, "GET", "/export/round/1.csv")[0] == 401  # the audience cannot export
    headers = {"Cookie": login(hub.port)["Cookie"]}
    status, _, body = request(hub.port, "GET", "/export/round/1.csv", headers=headers)
    assert status == 200
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8"))))
    assert len(rows) == len(tables)
    for row in rows:
        final = Game.replay(tables[row["table"]].events)
        assert final.result is not None
        assert [row["player1"], row["player2"]] == list(final.players)
        assert [int(row["score1"]), int(row["score2"])] == list(final.result.final)
        assert row["round"] == "1" and row["end"] == final.ended.value
        assert row["player1_id"] and row["player2_id"] and row["player1_id"] != row["player2_id"]

    status, headers_out, body = request(hub.port, "GET", "/export/round/1.zip", headers=headers)
    assert status == 200 and headers_out["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(body))
    names = set(archive.namelist())
    for t in tables.values():
        stem = f"round1-table-{t.id}"
        assert {f"{stem}.gcg", f"{stem}.html", f"{stem}.txt"} <= names
        assert archive.read(f"{stem}.gcg") == encode_gcg(game_gcg(Game.replay(t.events)))
    assert archive.read("results.csv") == body_of(hub, "/export/round/1.csv", headers)

    standings = json.loads(request(hub.port, "GET", "/api/standings")[2])["rounds"]["1"]
    assert len(standings) == 2 * len(tables)
    wins = Counter()
    for t in tables.values():
        result = Game.replay(t.events).result
        assert result is not None
        for w in result.winners:
            wins[t.game.players[w]] += 1 / len(result.winners)
    assert {s["player"]: s["wins"] for s in standings} == {p: wins.get(p, 0.0) for p in (s["player"] for s in standings)}
    assert [s["wins"] for s in standings] == sorted((s["wins"] for s in standings), reverse=True)


def body_of(hub: Hub, path: str, headers: dict[str, str]) -> bytes:
    return request(hub.port, "GET", path, headers=headers)[2]


# ---------------------------------------------------------------------------------------------- security


def raw_client(broker_url: str, username: str | None, password: str | None) -> tuple[mqtt.Client, Any]:
    port = int(broker_url.rsplit(":", 1)[1])
    result: dict[str, Any] = {}
    done = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"raw-{username}-{id(result)}")
    if username is not None:
        client.username_pw_set(username, password)

    def on_connect(c, u, f, reason, p) -> None:
        result["reason"] = reason
        done.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", port)
    client.loop_start()
    assert done.wait(10)
    return client, result["reason"]


def test_the_broker_refuses_strangers(broker) -> None:  # noqa: F811 - the fixture
    for user, password in ((None, None), ("t1", "wrong"), ("nobody", "x")):
        client, reason = raw_client(broker.url, user, password)
        client.loop_stop()
        client.disconnect()
        assert reason.is_failure, (user, reason)


def test_a_table_cannot_write_another_tables_topics(broker) -> None:  # noqa: F811 - the fixture
    hub = start_hub(broker.url)
    try:
        client, reason = raw_client(broker.url, "t51", TABLES["t51"])
        assert not reason.is_failure
        forged = {"table": "t52", "game": "forged", "seq": 0, "event": {"type": "pass", "at": 1.0}}
        client.publish(topics.table_topic("t52", "event"), topics.encode(forged), qos=1).wait_for_publish(5)
        client.publish(topics.table_topic("t52", "state"), topics.encode(forged | {"state": {}}), qos=1,
                       retain=True).wait_for_publish(5)  # fmt: skip
        client.publish(topics.ROUND_COMMAND_TOPIC, topics.encode(rounds.round_command("start_round", 9, "x").payload()),
                       qos=1).wait_for_publish(5)  # fmt: skip
        own = {"table": "t51", "game": "own", "seq": 0, "event": {"type": "pass", "at": 1.0}}
        client.publish(topics.table_topic("t51", "event"), topics.encode(own), qos=1).wait_for_publish(5)
        # the broker keeps one client's messages in order: once the last one is in, the forged ones were dropped
        assert hub.wait_for(lambda: ("t51", "own") in hub.store.games, 10)
        assert ("t52", "forged") not in hub.store.games
        assert "t52" not in hub.store.tables or hub.store.tables["t52"].state != {}
        assert hub.store.round_view()["number"] != 9
        client.loop_stop()
        client.disconnect()
    finally:
        hub.stop()


def test_round_control_only_for_the_referee(broker, tmp_path) -> None:  # noqa: F811 - the fixture
    hub = start_hub(broker.url)
    got = threading.Event()
    commands: list[dict[str, Any]] = []

    def on_command(command: dict[str, Any]) -> None:
        commands.append(command)
        if command["command"] == "end_base_time":
            got.set()

    table = TablePublisher("t54", broker.url, username="t54", password=TABLES["t54"], queue_dir=tmp_path,
                           on_command=on_command)  # fmt: skip
    table.start()
    try:
        body = {"command": "end_base_time", "round": 5}
        assert request(hub.port, "POST", "/api/round", body)[0] == 401  # the audience
        assert request(hub.port, "POST", "/api/login", {"user": REFEREE, "password": "guess"})[0] == 401
        referee = login(hub.port)
        no_token = {"Cookie": referee["Cookie"]}
        assert request(hub.port, "POST", "/api/round", body, no_token)[0] == 403  # CSRF token missing
        forged = referee | {"X-CSRF-Token": "forged"}
        assert request(hub.port, "POST", "/api/round", body, forged)[0] == 403
        cross = referee | {"Origin": "http://evil.example"}
        assert request(hub.port, "POST", "/api/round", body, cross)[0] == 403
        status, _, answer = request(hub.port, "POST", "/api/round", {"command": "dance", "round": 5}, referee)
        assert status == 400 and b"command" in answer
        status, _, answer = request(hub.port, "POST", "/api/round", body, referee)
        assert status == 200, answer
        assert got.wait(10)
        assert [c["command"] for c in commands if c["round"] == 5] == ["end_base_time"]
        assert hub.store.round_view()["stage"] == "playout"
        request(hub.port, "POST", "/api/logout", None, referee)
        assert request(hub.port, "POST", "/api/round", body, referee)[0] == 401
    finally:
        table.stop()
        hub.stop()


def test_a_hub_started_mid_game_gets_the_events_it_missed(broker, tmp_path) -> None:  # noqa: F811
    game = finished_games(1, seed=7)[0]
    table = Table("t59", game, broker.url, tmp_path)
    try:
        table.play_until(0.5)
        assert table.publisher.wait_idle(10)
        hub = start_hub(broker.url)  # a new hub: it never saw the start of this game
        try:
            table.play_until(1.0)
            assert hub.wait_for(lambda: getattr(hub.store.current_game("t59"), "applied", 0) == len(game), 15)
            record = hub.store.current_game("t59")
            assert record is not None and record.error is None
            assert record.game.to_dict() == Game.replay(game).to_dict()
        finally:
            hub.stop()
    finally:
        table.publisher.stop()


def test_a_hub_started_after_the_game_gets_it_whole(broker, tmp_path) -> None:  # noqa: F811
    game = finished_games(1, seed=11)[0]
    table = Table("t60", game, broker.url, tmp_path)
    try:
        table.play_until(1.0)
        assert table.publisher.wait_idle(10)
        hub = start_hub(broker.url)  # only the retained state tells it about the game: it asks for the events
        try:
            assert hub.wait_for(lambda: getattr(hub.store.current_game("t60"), "applied", 0) == len(game), 15)
            record = hub.store.current_game("t60")
            assert record is not None and record.game.to_dict() == Game.replay(game).to_dict()
        finally:
            hub.stop()
    finally:
        table.publisher.stop()


def test_nothing_lost_when_the_broker_is_killed(broker, tmp_path) -> None:  # noqa: F811
    """kill -9 of the broker while it holds events for the hub (acknowledged to the tables, queued for the hub's
    session, not yet saved): they die with it. The tables' states, sent again on reconnection, show the hub the
    gap and it asks the tables to resend."""
    hub = start_hub(broker.url)
    ids = [f"t{i}" for i in range(51, 56)]
    tables = [Table(tid, g, broker.url, tmp_path / tid) for tid, g in zip(ids, finished_games(5, seed=21), strict=True)]
    try:
        for t in tables:
            t.play_until(0.4)
        assert hub.wait_for(lambda: all(hub.store.current_game(t.id) is not None for t in tables), 10)
        client_id = hub.link.client._client_id.decode()
        hub.link.stop()  # the hub is away: the broker queues for its session, in memory
        for t in tables:
            t.play_until(0.7)
        assert all(t.publisher.wait_idle(10) for t in tables)  # the broker has acknowledged them
        broker.kill()
        broker.start()
        hub.link = HubLink(hub.store, broker.url, password=HUB_PASSWORD, client_id=client_id)
        hub.link.start()
        for t in tables:
            t.play_until(1.0)

        def complete() -> bool:
            return all(getattr(hub.store.current_game(t.id), "applied", 0) == len(t.events) for t in tables)

        assert hub.wait_for(complete, 20)
        for t in tables:
            record = hub.store.current_game(t.id)
            assert record is not None and record.game.to_dict() == Game.replay(t.events).to_dict()
    finally:
        for t in tables:
            t.publisher.stop()
        hub.stop()
