"""The hub's MQTT side: subscribes to every table's topics, feeds the ``HubStore``, asks tables to resend a gap,
publishes the chief referee's round commands (QoS 1, retained, with the round's state: ``tablelink.rounds``, so a
table that connects late gets the round's real start) and each table's pairing, and records the tables'
acknowledgements of their pairings. ``broker`` (``tablelink.broker.BrokerLink``) says whether the hub's own broker
connection is up and, if not, why: the log, ``/status`` and the desk show it.

The hub keeps a persistent session (clean session off), so QoS 1 events published while the hub was
disconnected from a running broker wait for it there; with the broker's persistence on they survive a restart
of the broker too. A gap it still sees (a game whose start it never got) is filled by a ``resend`` command.

Acknowledgements are manual: a message is acknowledged to the broker (PUBACK) only once everything the hub wrote
for it is committed to the database (``Database.after_commit``: the group commit), in the order the messages
came. A hub killed before that commit gets the message again from the broker when it is back. An
acknowledgement still waiting when the connection drops is never sent on the next connection (the broker
sends those messages again, with the same ids).
"""

from __future__ import annotations

import functools
import logging
import threading
import uuid
from typing import Any

import paho.mqtt.client as mqtt

from hub.director_texts import t
from hub.errors import MessageError
from hub.schema import MAX_SMALL_BYTES, RoundBody, parse_json, table_message, validate
from hub.share import TableShare
from hub.store import STATUS_KEY, HubStore
from tablelink import rounds, topics
from tablelink.broker import KEEPALIVE, BrokerLink, make_client, parse_broker_url
from tablelink.pairing import TablePairing, parse_pairing, parse_pairing_ack
from tablelink.topics import SchemaError

log = logging.getLogger(__name__)


def broker_says(view: dict[str, Any], lang: str) -> str:
    """The hub's broker link (``BrokerLink.view()``) in words for the status and desk pages."""
    if view["connected"]:
        return t("broker_up", lang)
    if view["problem"] is None:
        return t("broker_waiting", lang)
    return t("broker_down", lang).format(why=t(f"broker_{view['problem']}", lang))


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
        ca_file: str | None = None,
    ) -> None:
        self.store = store
        self.address = parse_broker_url(broker_url)
        self.client = make_client(client_id, self.address, username, password, clean=False, ca_file=ca_file)
        self.client.manual_ack_set(True)
        self.share = TableShare()
        """Every table's fair share of the hub's time (``hub.share``)."""
        self._connection = 0
        """Counts the connections: an acknowledgement belongs to the connection its message came on."""
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self.connected = threading.Event()
        self.broker = BrokerLink()
        """The hub's own broker connection: up, or down and why."""
        self._stopping = False

    def start(self) -> None:
        """Connect in the background (retrying until the broker answers)."""
        self.client.connect_async(self.address.host, self.address.port, KEEPALIVE)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect (the broker keeps the hub's session and queues QoS 1 events for it)."""
        self._stopping = True
        self.client.disconnect()
        self.client.loop_stop()

    @property
    def rejected(self) -> int:
        return self.store.rejected

    def send_round_command(self, command: str, round_number: int, referee: str | None = None) -> dict[str, Any]:
        """Publish a round command to every table (raises MessageError for a bad command or a round outside
        1..MAX_ROUND) and record it."""
        body = validate(RoundBody, {"command": command, "round": round_number}, "round command")
        last = self.store.round_view()["last"]
        try:
            previous = rounds.parse_round_command(last) if last else None
        except SchemaError:  # a round recorded by an earlier version: this command starts its state afresh
            previous = None
        payload = rounds.round_command(body.command, body.round, uuid.uuid4().hex, previous).payload()
        self.client.publish(topics.ROUND_COMMAND_TOPIC, topics.encode(payload), qos=1, retain=True)
        self.store.round_command(payload, referee)
        return payload

    def send_pairing(self, pairing: TablePairing) -> None:
        """Publish a table's pairing (QoS 1, retained: a table that connects later, or restarts, gets it)."""
        payload = parse_pairing(pairing.payload(), pairing.table).payload()  # checked as the table will
        self.client.publish(topics.table_topic(pairing.table, "pairing"), topics.encode(payload), qos=1, retain=True)

    def clear_pairing(self, table_id: str) -> None:
        """Remove a table's retained pairing (a table not used in the round keeps today's menu)."""
        self.client.publish(topics.table_topic(table_id, "pairing"), b"", qos=1, retain=True)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self._broker_down(reason)
            return
        self._connection += 1
        client.subscribe([(topics.ALL_TABLES, 1), (topics.ROUND_COMMAND_TOPIC, 1)])
        self.connected.set()
        self.broker.up()
        log.info("hub: connected to the broker %s:%d", self.address.host, self.address.port)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        self._broker_down(getattr(client, "last_error", None) or "connection failed")

    def _broker_down(self, error: Any) -> None:
        """The hub cannot reach its broker: logged (once per reason) with what to check; ``/status`` shows it."""
        if self.broker.down(error):
            log.error("hub: cannot connect to the broker %s:%d: %s (%s); no table reaches the hub until this is "
                      "fixed (--broker, --broker-ca, --broker-user, --broker-password-file)", self.address.host,
                      self.address.port, self.broker.problem, error)  # fmt: skip
        self.store.feed.bump(STATUS_KEY)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connection += 1  # acknowledgements still waiting belong to the lost connection
        self.connected.clear()
        if not self._stopping and self.broker.lost(reason):
            log.warning("hub: lost the broker (%s), reconnecting", reason)
            self.store.feed.bump(STATUS_KEY)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        """One message: validated, stored, acknowledged once what it wrote is committed. Nothing a message holds
        may stop this thread (paho's network loop): a refused one is counted and logged with its table and
        topic, an unexpected error too (and acknowledged: the broker would only send it again)."""
        try:
            self._handle(msg)
        finally:
            if msg.qos > 0:
                self.store.db.after_commit(functools.partial(self._ack, msg.mid, msg.qos, self._connection))

    def _ack(self, mid: int, qos: int, connection: int) -> None:
        """Acknowledge a message (on the committer thread), unless its connection has gone since."""
        if connection == self._connection:
            self.client.ack(mid, qos)

    def _handle(self, msg: mqtt.MQTTMessage) -> None:
        table_id: str | None = None
        try:
            if msg.topic == topics.ROUND_COMMAND_TOPIC:
                self._on_round(msg.payload)
                return
            table_id, kind = topics.parse_table_topic(msg.topic)
            if kind in topics.TABLE_READS:
                return  # the hub's own messages to the tables
            if not self.share.take(table_id):
                return  # over the table's share: dropped unread (an event comes again when the hub asks)
            if kind == "ack":
                self._on_ack(table_id, msg.payload)
                return
            payload = table_message(kind, msg.payload, msg.topic)
            if payload.table != table_id:
                raise MessageError(f"{msg.topic}: payload names table {payload.table!r}")
            if kind == "event":
                gap = self.store.add_event(payload)
            elif kind == "state":
                gap = self.store.set_state(payload)
            else:
                self.store.set_status(payload)
                gap = None
            if gap is not None:
                self._ask_resend(table_id, *gap)
        except (MessageError, SchemaError) as exc:
            self.store.reject(table_id, msg.topic, str(exc))
        except Exception as exc:  # a bug must cost one message, never the hub's MQTT thread
            log.exception("hub: message on %s failed", msg.topic)
            self.store.reject(table_id, msg.topic, f"{type(exc).__name__}: {exc}")

    def _on_round(self, data: bytes | bytearray) -> None:
        """A retained round command from an earlier run of the hub: take over its round if the hub has none."""
        command = rounds.parse_round_command(parse_json(data, MAX_SMALL_BYTES, topics.ROUND_COMMAND_TOPIC))
        round_view = self.store.round_view()
        last = round_view["last"]
        if last is not None and last.get("id") == command.id:
            return
        if round_view["number"] == 0:
            self.store.round_command(command.payload())

    def _on_ack(self, table_id: str, data: bytes | bytearray) -> None:
        """A table kept its pairing: recorded by round and table number (``HubStore.record_pairing_ack``)."""
        what = topics.table_topic(table_id, "ack")
        payload = parse_json(data, MAX_SMALL_BYTES, what)
        if not isinstance(payload, dict) or payload.get("v") != topics.SCHEMA_VERSION:
            raise MessageError(f"{what}: not a version {topics.SCHEMA_VERSION} JSON object")
        ack = parse_pairing_ack(payload, table_id)
        if not ack.number:  # a pairing without the tournament's table number (not the desk's): nothing to count
            log.info("hub: table %s kept pairing %s of round %d (no table number)", table_id, ack.pairing, ack.round)
            return
        self.store.record_pairing_ack(ack.round, ack.number, table_id)

    def _ask_resend(self, table_id: str, game_id: str, start: int) -> None:
        log.info("hub: asking table %s to resend game %s from event %d", table_id, game_id, start)
        payload = {"command": "resend", "game": game_id, "from": start}
        self.client.publish(topics.table_topic(table_id, "command"), topics.encode(payload), qos=1)
