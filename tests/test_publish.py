"""The table-side publisher: the outbox on disk, the topic schema, and the publisher against a real broker
(a backlog queued while the broker was unreachable survives a restart of the table and arrives in order; a round
command is handed to the table once)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mosquitto_fixture import TABLES, TcpProxy, broker, start_hub  # noqa: F401 - broker is the fixture

from device.publish import SchemaError, TablePublisher, game_id_of
from device.publish.outbox import Outbox
from tablelink import rounds, topics
from tablelink.broker import parse_broker_url

# ------------------------------------------------------------------------------------------------- outbox


def test_outbox_keeps_unacknowledged_records_across_a_restart(tmp_path: Path) -> None:
    box = Outbox(tmp_path)
    for i in range(5):
        box.append("a/b", f"payload {i}")
    box.ack(2)  # out of order: the mark waits for 1
    assert box.acked == 0
    box.ack(1)
    assert box.acked == 2
    box.close()
    again = Outbox(tmp_path)
    assert [(r.n, r.payload) for r in again.pending()] == [(3, "payload 2"), (4, "payload 3"), (5, "payload 4")]
    assert again.append("a/b", "next").n == 6
    again.close()


def test_outbox_reads_up_to_a_line_cut_off_by_a_power_cut(tmp_path: Path) -> None:
    box = Outbox(tmp_path)
    box.append("t", "one")
    box.close()
    with open(tmp_path / "outbox.jsonl", "a", encoding="utf-8") as f:
        f.write('{"n": 2, "topic": "t", "pay')
    again = Outbox(tmp_path)
    assert [r.payload for r in again.pending()] == ["one"]
    record = again.append("t", "two")
    again.close()
    assert [r.payload for r in Outbox(tmp_path).pending()] == ["one", "two"]
    assert record.n == 2


def test_outbox_is_emptied_only_when_everything_is_acknowledged(tmp_path: Path) -> None:
    box = Outbox(tmp_path)
    for _ in range(3):
        box.append("t", "x")
    box.ack(1)
    assert box.compact() is False
    box.ack(2)
    box.ack(3)
    assert [r.n for r in Outbox(tmp_path).records_at_start] == [1, 2, 3]  # kept for resends until compacted
    assert box.compact() is True
    assert (tmp_path / "outbox.jsonl").stat().st_size == 0
    assert box.append("t", "after").n == 4
    box.close()
    assert [r.n for r in Outbox(tmp_path).pending()] == [4]


def test_a_restarted_table_can_resend_its_whole_game(tmp_path: Path) -> None:
    first = TablePublisher("t1", "mqtt://127.0.0.1:1", queue_dir=tmp_path)  # never started: nothing is sent
    log = events(4)
    for seq, e in enumerate(log):
        first.publish_event(seq, e)
    for n in range(1, 5):
        first.outbox.ack(n)  # as if the broker had acknowledged them all
    first.stop()
    again = TablePublisher("t1", "mqtt://127.0.0.1:1", queue_dir=tmp_path)
    again._on_table_command({"command": "resend", "game": game_id_of("t1", log[0]), "from": 1})
    assert [json.loads(p)["seq"] for p in again._resend] == [1, 2, 3]
    again.publish_event(0, {"type": "start", "at": 9.0, "players": ["C", "D"]})  # a new game empties the outbox
    assert [json.loads(r.payload)["seq"] for r in again.outbox.pending()] == [0]
    assert len((tmp_path / "outbox.jsonl").read_text().splitlines()) == 1
    again.stop()


# ------------------------------------------------------------------------------------------------- schema


def test_topics_and_payloads() -> None:
    assert topics.table_topic("t1", "event") == "partiar/v1/table/t1/event"
    assert topics.parse_table_topic("partiar/v1/table/t1/state") == ("t1", "state")
    for bad in ("a/b", "", "hub", "x" * 33, "t+1", "t#"):
        with pytest.raises(SchemaError, match="table id"):
            topics.check_table_id(bad)
    with pytest.raises(SchemaError, match="not a table topic"):
        topics.parse_table_topic("partiar/v2/table/t1/state")
    data = topics.encode({"table": "t1", "word": "ŽÁBA"})
    assert topics.decode(data, "x") == {"v": 1, "table": "t1", "word": "ŽÁBA"}
    with pytest.raises(SchemaError, match="schema version 2"):
        topics.decode(b'{"v": 2}', "x")
    with pytest.raises(SchemaError, match="not UTF-8 JSON"):
        topics.decode(b"{", "x")
    with pytest.raises(SchemaError, match="unknown round command"):
        rounds.round_command("stop", 1, "id")
    with pytest.raises(SchemaError, match="round must be"):
        rounds.round_command("warning", 0, "id")
    assert parse_broker_url("mqtt://h").port == 1883 and parse_broker_url("mqtts://h").port == 8883
    with pytest.raises(SchemaError, match="broker URL"):
        parse_broker_url("http://h:1")


def test_game_id_is_stable_and_differs_between_games() -> None:
    start = {"type": "start", "at": 0.0, "players": ["A", "B"]}
    assert game_id_of("t1", start) == game_id_of("t1", dict(start))
    assert game_id_of("t1", start) != game_id_of("t2", start)
    assert game_id_of("t1", start) != game_id_of("t1", start | {"at": 5.0})


def test_without_a_broker_only_the_state_is_kept(tmp_path: Path) -> None:
    p = TablePublisher("t1", None, queue_dir=tmp_path)
    p.start()
    p.publish_event(0, {"type": "start", "at": 0.0})
    p.publish_state({"game": {"scores": [1, 2]}})
    assert p.latest_state() == {"game": {"scores": [1, 2]}}
    assert p.backlog() == 0 and not (tmp_path / "outbox.jsonl").exists()
    with pytest.raises(SchemaError, match="seq"):
        p.publish_event(-1, {"type": "pass"})
    with pytest.raises(SchemaError, match="type"):
        p.publish_event(1, {"at": 1.0})
    p.stop()


# ------------------------------------------------------------------------------------ against the broker


def events(n: int) -> list[dict[str, Any]]:
    return [{"type": "start", "at": 0.0, "players": ["A", "B"]}] + [
        {"type": "pass", "at": float(i)} for i in range(1, n)
    ]


def test_a_backlog_survives_a_table_restart_and_arrives_in_order(broker, tmp_path: Path) -> None:  # noqa: F811
    hub = start_hub(broker.url)
    proxy = TcpProxy(broker.port)
    proxy.cut()  # the table's network is down from the start
    try:
        first = TablePublisher("t55", proxy.url, username="t55", password=TABLES["t55"], queue_dir=tmp_path)
        first.start()
        log = events(12)
        for seq, e in enumerate(log[:8]):
            first.publish_event(seq, e)
        assert first.backlog() == 8
        first.stop()  # power cut: nothing was delivered
        assert "t55" not in hub.store.tables
        second = TablePublisher("t55", proxy.url, username="t55", password=TABLES["t55"], queue_dir=tmp_path)
        second.start()
        for seq, e in enumerate(log[8:], 8):
            second.publish_event(seq, e)
        proxy.restore()
        assert second.wait_idle(10)
        record = hub.store.current_game("t55")
        assert record is not None
        assert hub.wait_for(lambda: record.applied == 12, 10)
        assert [record.events[i] for i in range(12)] == log
        assert record.game_id == game_id_of("t55", log[0])
        second.stop()
    finally:
        proxy.close()
        hub.stop()


def test_a_round_command_is_handed_over_once_even_after_a_restart(broker, tmp_path: Path) -> None:  # noqa: F811
    hub = start_hub(broker.url)
    got: list[dict[str, Any]] = []
    arrived = threading.Event()

    def on_command(c: dict[str, Any]) -> None:
        got.append(c)
        arrived.set()

    try:
        p = TablePublisher("t56", broker.url, username="t56", password=TABLES["t56"], queue_dir=tmp_path,
                           on_command=on_command)  # fmt: skip
        p.start()
        assert p._connected.wait(10)
        sent = hub.link.send_round_command("warning", 3)
        assert arrived.wait(10)
        p.stop()
        arrived.clear()
        # the retained command comes again on reconnection: the table does not act on it twice
        q = TablePublisher("t56", broker.url, username="t56", password=TABLES["t56"], queue_dir=tmp_path,
                           on_command=on_command)  # fmt: skip
        q.start()
        assert q._connected.wait(10)
        again = hub.link.send_round_command("end_base_time", 3)
        assert arrived.wait(10)
        q.stop()
        ids = [c["id"] for c in got]
        assert len(ids) == len(set(ids))  # none twice (an older retained command of another test may come first)
        ours = [(c["id"], c["command"]) for c in got if c["id"] in (sent["id"], again["id"])]
        assert ours == [(sent["id"], "warning"), (again["id"], "end_base_time")]
    finally:
        hub.stop()


def test_the_last_will_says_offline(broker, tmp_path: Path) -> None:  # noqa: F811
    hub = start_hub(broker.url)
    proxy = TcpProxy(broker.port)
    try:
        p = TablePublisher("t57", proxy.url, username="t57", password=TABLES["t57"], queue_dir=tmp_path)
        p.start()
        assert hub.wait_for(lambda: "t57" in hub.store.tables and hub.store.tables["t57"].online is True, 10)
        proxy.cut()
        assert hub.wait_for(lambda: hub.store.tables["t57"].online is False, 20)
        proxy.restore()
        assert hub.wait_for(lambda: hub.store.tables["t57"].online is True, 20)
        p.stop()  # a clean stop says offline too
        assert hub.wait_for(lambda: hub.store.tables["t57"].online is False, 10)
    finally:
        proxy.close()
        hub.stop()


def test_a_state_payload_is_retained_for_a_hub_that_comes_later(broker, tmp_path: Path) -> None:  # noqa: F811
    p = TablePublisher("t58", broker.url, username="t58", password=TABLES["t58"], queue_dir=tmp_path)
    p.start()
    try:
        p.publish_event(0, events(1)[0])
        p.publish_state({"name": "Stůl 58", "game": {"scores": [0, 0]}})
        assert p.wait_idle(10)
        seen = threading.Event()
        retained: dict[str, Any] = {}
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="late-hub")
        client.username_pw_set("hub", "pw-hub")

        def on_message(c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
            if msg.retain and json.loads(msg.payload)["state"].get("name") == "Stůl 58":
                retained.update(json.loads(msg.payload))
                seen.set()

        client.on_message = on_message
        client.on_connect = lambda c, *a: c.subscribe(topics.table_topic("t58", "state"), 1)
        client.connect("127.0.0.1", broker.port)
        client.loop_start()
        assert seen.wait(10)
        client.loop_stop()
        client.disconnect()
        assert retained["table"] == "t58" and retained["seq"] == 0
        assert retained["state"] == {"name": "Stůl 58", "game": {"scores": [0, 0]}}  # what a view lacks stays out
    finally:
        p.stop()


def test_a_failing_disk_keeps_the_message_in_memory(tmp_path: Path) -> None:
    box = Outbox(tmp_path)
    box._file.close()  # the file cannot be written any more (as on a failed SD card)
    record = box.append("t", "kept")
    assert [r.payload for r in box.pending()] == ["kept"] and record.n == 1
