"""A hub nobody can poison: a table, a laptop on the hall's Wi-Fi or a browser attacking the hub, each attack
against the real pieces (a real mosquitto with the tournament's ACL, the hub's store and web server). What each
attack meets is listed in ``docs/hub.md`` ("Threats and what stops them")."""

from __future__ import annotations

import csv
import io
import socket
from typing import Any

from mosquitto_fixture import TABLES, broker, finished_games, raw_client, start_hub  # noqa: F401 - broker is the fixture

from hub import HubServer, web
from hub.link import HubLink
from hub.quarantine import ASIDE_GAMES, GAMES_PER_ROUND
from hub.results import results_csv
from hub.store import MAX_AHEAD, MAX_GAMES_PER_TABLE, GameResult, HubStore
from tablelink import topics


def start(seq: int = 0, game: str = "g1", table: str = "t1", kind: str = "start", **fields: Any) -> dict:
    e = {"type": "start", "at": 0.0, "players": ["Jan", "Eva"]} if kind == "start" else {"type": kind, "at": float(seq)}
    return {"v": 1, "table": table, "game": game, "seq": seq, "event": e | fields, "sent": 100.0 + seq}


def published(table: str, events: list, game: str = "g1") -> list[dict]:
    return [{"v": 1, "table": table, "game": game, "seq": i, "event": e.to_json() | {"round": 1}}
            for i, e in enumerate(events)]  # fmt: skip


def test_a_second_different_event_with_the_same_seq_is_refused_and_reported(tmp_path) -> None:
    store = HubStore()
    link = HubLink(store, "mqtt://127.0.0.1:1")  # never started: messages handed to its handler directly
    try:
        events = published("t1", finished_games(1, seed=3)[0])
        for payload in events:
            store.add_event(payload)
        final = store.results()[0]
        forged = dict(events[-1]) | {"event": events[-1]["event"] | {"at": 1.0}}  # rewrites the last event
        msg = type("M", (), {"topic": topics.table_topic("t1", "event"), "payload": topics.encode(forged),
                             "qos": 0, "mid": 1, "retain": False})()  # fmt: skip
        link._on_message(link.client, None, msg)
        assert store.rejected == 1 and "differs from the one recorded" in store.rejected_recent[0].error
        assert store.duplicates == 0  # not counted as a harmless duplicate
        assert store.results() == [final]
        store.add_event(events[-1])  # the same event again (QoS 1 redelivery) stays a duplicate
        assert store.duplicates == 1 and store.rejected == 1
    finally:
        store.db.close()


def test_an_event_of_an_unknown_game_without_its_start_hides_nothing() -> None:
    store = HubStore()
    for payload in published("t1", finished_games(1, seed=3)[0])[:6]:
        store.add_event(payload)
    assert store.add_event(start(5, game="hidden", kind="pass")) == ("hidden", 0)  # its start is asked for
    assert store.tables["t1"].game_id == "g1"
    store.set_state({"v": 1, "table": "t1", "game": "ghost", "seq": 40, "state": {"name": "t1"}})
    assert store.tables["t1"].game_id == "g1"  # a state naming an unknown game switches nothing
    view = store.table_view("t1")
    assert view is not None and view["game"] is not None and view["seq"] == 5
    store.add_event(start(0, game="hidden"))  # the new game's start: now the table plays it
    assert store.tables["t1"].game_id == "hidden"
    store.set_state({"v": 1, "table": "t1", "game": "g1", "seq": 5, "state": {"name": "t1"}})
    assert store.tables["t1"].game_id == "g1"  # a state may name a known game (the table went back to it)
    store.db.close()


def test_an_event_far_in_the_future_cannot_take_the_place_of_the_real_one() -> None:
    store = HubStore()
    store.add_event(start(0))
    try:
        store.add_event(start(1 + MAX_AHEAD + 1, kind="pass"))
        raise AssertionError("accepted")
    except ValueError as exc:
        assert "ahead" in str(exc)
    store.add_event(start(MAX_AHEAD, kind="pass"))  # within the window: kept, the gap asked for
    record = store.current_game("t1")
    assert record is not None and MAX_AHEAD in record.events and 1 + MAX_AHEAD + 1 not in record.events
    assert store.db.query("SELECT COUNT(*) AS n FROM events")[0]["n"] == 2
    store.db.close()


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text() -> None:
    game = GameResult(1, "-7", "g", ("=HYPERLINK(\"http://x\",\"win\")", "+420"), ("@1", "-2"), (300, -5),
                      "played_out")  # fmt: skip
    rows = list(csv.reader(io.StringIO(results_csv([game]))))
    assert rows[1] == ["1", "'-7", "'@1", "'=HYPERLINK(\"http://x\",\"win\")", "'-2", "'+420", "300", "-5",
                       "played_out"]  # fmt: skip


def test_a_table_reads_neither_other_tables_nor_the_hubs_requests_to_them(broker) -> None:  # noqa: F811
    """A table's credentials (or a laptop that learnt them) subscribing to everything gets only what the ACL
    gives a table: the round commands and its own command topic; a table cannot publish a resend request."""
    hub = start_hub(broker.url)
    spy = raw_client(broker.url, "t41", TABLES["t41"])
    seen: list[str] = []
    spy.on_message = lambda c, u, m: seen.append(m.topic)
    try:
        spy.subscribe([("partiar/#", 1), ("$SYS/#", 0)])
        other = raw_client(broker.url, "t42", TABLES["t42"])
        for payload in published("t42", finished_games(1, seed=5)[0])[:3]:
            other.publish(topics.table_topic("t42", "event"), topics.encode(payload), qos=1).wait_for_publish(5)
        own = published("t41", finished_games(1, seed=5)[0])[0]
        spy.publish(topics.table_topic("t42", "command"), topics.encode({"command": "resend", "game": "g1",
                                                                        "from": 0}), qos=1).wait_for_publish(5)  # fmt: skip
        spy.publish(topics.table_topic("t41", "event"), topics.encode(own), qos=1).wait_for_publish(5)
        assert hub.wait_for(lambda: ("t41", "g1") in hub.store.games and ("t42", "g1") in hub.store.games, 10)
        # the hub asked t41 for nothing; t42's events and t41's forged command never reached the spy
        assert all(t == topics.ROUND_COMMAND_TOPIC or t.startswith("partiar/v1/table/t41/") for t in seen), seen
        other.loop_stop()
        other.disconnect()
    finally:
        spy.loop_stop()
        spy.disconnect()
        hub.stop()


def test_a_connection_that_never_finishes_its_request_head_is_closed(monkeypatch) -> None:
    """Slowloris: a laptop opening connections and sending a request head byte by byte (or nothing) held each of
    them for good (uvicorn's keep-alive timer stops at the first byte), and MAX_CONNECTIONS of them made the hub
    answer 503 to every referee and player. Now a head must be complete within HEAD_SECONDS."""
    monkeypatch.setattr(web, "HEAD_SECONDS", 1.0, raising=False)
    server = HubServer(HubStore())
    server.start()
    try:
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        slow = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: hub\r\n")  # and never the blank line
        again = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        again.sendall(b"GET /api/overview HTTP/1.1\r\nHost: hub\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += again.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")
        again.sendall(b"GET / HTTP/1.1\r\n")  # a second head on the same connection, never finished
        for s in (silent, slow, again):
            rest = b""
            while chunk := s.recv(65536):  # the server closes it (else recv times out after 60 s: a failure)
                rest += chunk
            assert b"200" not in rest or s is again
            s.close()
        stream = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        stream.sendall(b"GET /events HTTP/1.1\r\nHost: hub\r\n\r\n")  # a live feed outlives HEAD_SECONDS
        got = b""
        while b"event: round" not in got:
            got += stream.recv(65536)
        stream.settimeout(3 * web.HEAD_SECONDS)
        for _ in range(3):
            try:
                assert stream.recv(65536) != b"", "the live feed was closed"  # keep-alive comments at most
            except TimeoutError:
                break
        stream.close()
    finally:
        server.stop()


def test_a_table_flooding_the_broker_never_costs_another_table_its_game(broker) -> None:  # noqa: F811
    """One table's credentials sending thousands of messages as fast as the broker takes them: new game ids, events
    far ahead, rewritten events, junk. The hub takes in at most GAMES_PER_ROUND games of it in the round, puts the
    rest aside or drops what is over the table's share (hub.share), and the honest table's game arrives whole and
    right."""
    hub = start_hub(broker.url)
    flood = raw_client(broker.url, "t45", TABLES["t45"])
    honest = raw_client(broker.url, "t46", TABLES["t46"])
    try:
        topic = topics.table_topic("t45", "event")
        for i in range(MAX_GAMES_PER_TABLE + 100):  # QoS 1: the broker drops none
            flood.publish(topic, topics.encode(start(0, game=f"x{i}", table="t45")), qos=1)
            flood.publish(topic, topics.encode(start(0, game="x0", table="t45", kind="pass")), qos=1)  # rewrite
            info = flood.publish(topic, b"{" * 5000, qos=1)
            if i % 50 == 0:
                info.wait_for_publish(30)  # as fast as the broker takes them, never more than paho keeps
        game = published("t46", finished_games(1, seed=9)[0])
        for payload in game:
            honest.publish(topics.table_topic("t46", "event"), topics.encode(payload), qos=1)
        flood.publish(topic, topics.encode(start(0, game="last", table="t45")), qos=1).wait_for_publish(30)
        flooded = 3 * (MAX_GAMES_PER_TABLE + 100) + 1
        handled = lambda: hub.store.received + hub.store.rejected + sum(hub.link.share.dropped.values())  # noqa: E731
        assert hub.wait_for(lambda: len(hub.store.results()) == 1 and handled() >= flooded + len(game), 120)
        assert hub.store.results()[0].table == "t46"
        record = hub.store.current_game("t46")
        assert record is not None and record.applied == len(game) and record.error is None
        assert sum(1 for (t, _) in hub.store.games if t == "t45") <= GAMES_PER_ROUND
        assert ("t45", "last") not in hub.store.games
        assert len(hub.store.aside.games) <= ASIDE_GAMES
    finally:
        for c in (flood, honest):
            c.loop_stop()
            c.disconnect()
        hub.stop()
