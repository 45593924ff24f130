"""The table publishes its game to the hub through a real mosquitto, and takes the chief referee's round
commands from it (the daemon's wiring: ``device.hardware.round_command_input``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mosquitto_fixture import HUB_PASSWORD, TABLES, broker, start_hub  # noqa: F401 - broker is the fixture
from table_rig import Rig

from device.hardware import round_command_input
from device.publish import TablePublisher
from tablelink import topics
from tablelink.topics import STATE_CLOCK_FIELDS

TABLE = "t59"


class StateTap:
    """A second subscriber (with the hub's credentials) keeping the raw state payloads of one table as the
    broker delivers them: what goes over the network."""

    def __init__(self, port: int, table: str) -> None:
        self.payloads: list[bytes] = []
        self.changed = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"tap-{table}")
        self.client.username_pw_set(topics.HUB_USER, HUB_PASSWORD)
        self.client.on_message = self._on_message
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_connect = lambda c, *a: c.subscribe(topics.table_topic(table, "state"), 1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(15), "the tap did not subscribe"

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self.changed:
            self.payloads.append(bytes(msg.payload))
            self.changed.notify_all()

    def wait_for(self, predicate, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate([json.loads(p) for p in self.payloads]), timeout)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def tap(broker) -> Iterator[StateTap]:  # noqa: F811 - the fixture
    tap = StateTap(broker.port, TABLE)
    yield tap
    tap.close()


@pytest.fixture
def published(broker, tmp_path):  # noqa: F811 - the fixture
    hub = start_hub(broker.url)
    rig = Rig(tmp_path / "table")
    publisher = TablePublisher(
        TABLE, broker.url, username=TABLE, password=TABLES[TABLE], queue_dir=tmp_path / "queue",
        on_command=lambda command: rig.table.inputs.put(round_command_input(command)),
    )  # fmt: skip
    rig.table.publisher = publisher
    publisher.start()
    yield rig, hub
    publisher.stop()
    hub.stop()
    rig.close()


def test_every_game_event_and_the_state_reach_the_hub(published):
    rig, hub = published
    rig.start()
    rig.press(1)
    rig.lay("ROZUM", "8D")
    rig.press(0)

    def arrived() -> bool:
        game = hub.store.current_game(TABLE)
        view = hub.store.table_view(TABLE) or {}
        state = view.get("game") or {}
        return game is not None and len(game.events) == 3 and state.get("scores") == [18, 0]

    assert hub.wait_for(arrived, 15.0), hub.store.table_view(TABLE)
    record = hub.store.current_game(TABLE)
    assert [record.events[seq]["type"] for seq in sorted(record.events)] == ["start", "info", "play"]
    assert record.game.scores == rig.table.game.scores  # the hub rebuilt the same game from the events




def test_the_referees_round_commands_reach_the_table(published):
    rig, hub = published
    rig.start()
    hub.link.send_round_command("start_round", 1)
    assert rig.handle_until(lambda: rig.table.view()["clock"]["game_phase"] == "base")
    hub.link.send_round_command("warning", 1)
    assert rig.handle_until(lambda: rig.notice == ["Zbývá 10 minut", "hry"]), rig.notice
    hub.link.send_round_command("end_base_time", 1)
    assert rig.handle_until(lambda: rig.table.game.abc_start is not None)


def claim(hub) -> tuple:
    """``(game, seq, scores, moves)`` the table's last state claimed at the hub (Nones before one arrived)."""
    record = hub.store.tables.get(TABLE)
    return (record.claimed if record is not None else None) or (None,) * 4


def test_the_table_publishes_a_compact_state_the_hub_keeps(published, tap) -> None:
    rig, hub = published
    rig.start()
    rig.press(1)
    rig.lay("ROZUM", "8D")
    rig.press(0)
    table = rig.table
    moves = len(table.game.history)

    def claimed(states: list[dict]) -> bool:
        return any(s["state"].get("game", {}).get("moves") == moves and s["seq"] == 2 for s in states)

    assert tap.wait_for(claimed, 15), tap.payloads
    assert hub.wait_for(lambda: claim(hub)[1:] == (2, [18, 0], moves), 15)
    for payload in tap.payloads:  # every state on the wire: names, clock, claim; no history, no board
        assert len(payload) < 800, payload
        state = json.loads(payload)["state"]
        assert set(state) == {"name", "players", "clock", "game"}, state
        assert set(state["clock"]) == set(STATE_CLOCK_FIELDS) and set(state["game"]) == {"scores", "ended", "moves"}
    assert len(topics.encode({"state": table.view()})) > 3 * len(tap.payloads[-1])  # what it was before
    record = hub.store.tables[TABLE]
    assert record.state["players"] == ["Anna", "Bedřich"] and record.state["name"] == table.config.name
    assert record.state["clock"]["player_on_move"] == 1 and record.state["clock"]["state"] == "running"
    assert record.disagreement is None
    view = hub.store.table_view(TABLE)
    assert view["game"]["scores"] == [18, 0] and view["state"]["clock"]["move_left"] == pytest.approx(120.0)


def test_a_table_whose_claimed_scores_differ_from_its_events_is_flagged(published) -> None:
    rig, hub = published
    rig.start()
    rig.press(1)
    rig.lay("ROZUM", "8D")
    rig.press(0)
    assert hub.wait_for(lambda: claim(hub)[1:3] == (2, [18, 0]), 15)
    assert hub.store.tables[TABLE].disagreement is None
    view = rig.table.view()
    rig.table.publisher.publish_state(view | {"game": view["game"] | {"scores": [81, 0]}})  # a table that lies
    assert hub.wait_for(lambda: hub.store.tables[TABLE].disagreement is not None, 15)
    assert "claims scores 81:0, its events give 18:0 (event 2)" in hub.store.tables[TABLE].disagreement
    assert hub.store.table_view(TABLE)["game"]["scores"] == [18, 0]  # the pages show what the events give
    rig.press(1)  # the next move: the honest state of the table clears the flag
    assert hub.wait_for(lambda: hub.store.tables[TABLE].disagreement is None, 15)
