"""The hub's MQTT side: subscribes to every table's topics, feeds the ``HubStore``, asks tables to resend a gap,
and publishes the chief referee's round commands (QoS 1, retained, so a table that connects late gets the last).

The hub keeps a persistent session (clean session off), so QoS 1 events published while the hub was
disconnected from a running broker wait for it there; with the broker's persistence on they survive a restart
of the broker too. A gap it still sees (a game whose start it never got) is filled by a ``resend`` command.
"""

from __future__ import annotations

import logging
import threading
import uuid
from typing import Any

import paho.mqtt.client as mqtt

from device.hub.store import HubStore
from device.publish import topics
from device.publish.connection import KEEPALIVE, make_client, parse_broker_url
from device.publish.topics import SchemaError

log = logging.getLogger(__name__)


class HubLink:
    """Connects the store to the broker (``start``/``stop``); ``send_round_command`` for the referee."""

    def __init__(
        self,
        store: HubStore,
        broker_url: str,
        *,
        username: str | None = topics.HUB_USER,
        password: str | None = None,
        client_id: str = "partiar-hub",
    ) -> None:
        self.store = store
        self.address = parse_broker_url(broker_url)
        self.client = make_client(client_id, self.address, username, password, clean=False)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect
        self.connected = threading.Event()
        self._stopping = False
        self.rejected = 0

    def start(self) -> None:
        """Connect in the background (retrying until the broker answers)."""
        self.client.connect_async(self.address.host, self.address.port, KEEPALIVE)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect (the broker keeps the hub's session and queues QoS 1 events for it)."""
        self._stopping = True
        self.client.disconnect()
        self.client.loop_stop()

    def send_round_command(self, command: str, round_number: int, **extra: Any) -> dict[str, Any]:
        """Publish a round command to every table (raises SchemaError for a bad one) and record it."""
        payload = topics.round_command(command, round_number, uuid.uuid4().hex, **extra)
        self.client.publish(topics.ROUND_COMMAND_TOPIC, topics.encode(payload), qos=1, retain=True)
        self.store.round_command(payload)
        return payload

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("hub: broker refused the connection: %s", reason)
            return
        client.subscribe([(topics.ALL_TABLES, 1), (topics.ROUND_COMMAND_TOPIC, 1)])
        self.connected.set()
        log.info("hub: connected to %s:%d", self.address.host, self.address.port)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.connected.clear()
        if not self._stopping:
            log.warning("hub: lost the broker (%s), reconnecting", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            payload = topics.decode(msg.payload, msg.topic)
            if msg.topic == topics.ROUND_COMMAND_TOPIC:
                self._on_round(payload)
                return
            table_id, kind = topics.parse_table_topic(msg.topic)
            if kind == "command":
                return  # the hub's own requests to the tables
            if payload.get("table") != table_id:
                raise SchemaError(f"{msg.topic}: payload names table {payload.get('table')!r}")
            if kind == "event":
                gap = self.store.add_event(payload)
                if gap is not None:
                    self._ask_resend(table_id, *gap)
            elif kind == "state":
                gap = self.store.set_state(payload)
                if gap is not None:
                    self._ask_resend(table_id, *gap)
            elif kind == "status":
                self.store.set_status(payload)
        except SchemaError as exc:
            self.rejected += 1
            log.warning("hub: ignored: %s", exc)

    def _on_round(self, payload: dict[str, Any]) -> None:
        """A retained round command from an earlier run of the hub: take over its round number and stage."""
        round_view = self.store.round_view()
        last = round_view["last"]
        if last is not None and last.get("id") == payload.get("id"):
            return
        if payload.get("command") in topics.ROUND_COMMANDS and isinstance(payload.get("round"), int):
            if round_view["number"] == 0:
                self.store.round_command({k: v for k, v in payload.items() if k != "v"})

    def _ask_resend(self, table_id: str, game_id: str, start: int) -> None:
        log.info("hub: asking table %s to resend game %s from event %d", table_id, game_id, start)
        payload = {"command": "resend", "game": game_id, "from": start}
        self.client.publish(topics.table_topic(table_id, "command"), topics.encode(payload), qos=1)
