"""``TablePublisher``: the table unit's live feed to the tournament hub over MQTT (schema in ``topics``).

The daemon's loop thread calls ``publish_event`` and ``publish_state``; they never touch the network. An event
is appended to the outbox on disk (one fsynced line, like the journal) and a background thread hands it to paho
in order, QoS 1; the outbox mark moves only when the broker acknowledged it, so nothing is lost across a broker
restart, a network cut or a restart of the table. The state is retained and coalesced: only the latest is sent.
A ``resend`` command from the hub (it noticed a gap or restarted) sends the current game's events again from a
``seq``; the hub drops the ones it has, so delivery is idempotent. A pairing the table kept is acknowledged on
the table's ``ack`` topic (``ack_pairing``). Whether the broker connection is up, and why not, goes to ``on_link``.
"""

from __future__ import annotations

import collections
import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from device.publish.outbox import Outbox
from tablelink import rounds, topics
from tablelink.broker import KEEPALIVE, BrokerLink, make_client, parse_broker_url
from tablelink.pairing import TablePairing, pairing_ack, parse_pairing
from tablelink.topics import SchemaError

log = logging.getLogger(__name__)

Command = Callable[[dict[str, Any]], None]
PairingHandler = Callable[[TablePairing], None]
LinkHandler = Callable[[BrokerLink], None]


def game_id_of(table_id: str, start_event: dict[str, Any]) -> str:
    """A game's id derived from its table and its first event (the same after a restart of the table)."""
    text = json.dumps([table_id, start_event], sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.error("%s unreadable (%s): ignored", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


class TablePublisher:
    """Publishes one table's game events (QoS 1, queued on disk) and state (retained) and receives round commands.

    ``broker_url`` None = no broker configured: ``publish_*`` only keep the latest state (``latest_state``) and
    nothing is queued. ``on_command`` is called on the publisher's network thread with each valid round command
    (``tablelink.rounds.RoundCommand.payload()`` plus ``retained``) once (ids already acted on are remembered in
    ``queue_dir``); it must only hand the command to the table's loop. ``retained`` True means the command was sent
    before this table connected: the table decides from its ``round`` and ``given`` whether it is for its game.
    ``ca_file``: the CA certificate of an ``mqtts://`` broker with a tournament's own certificate.
    ``on_pairing`` is called on the network thread with each valid ``TablePairing`` the hub sends this table
    (retained: again after every reconnect; the table decides whether it is new); a bad one is logged and dropped.
    ``on_link`` is called on the network thread with ``link`` (``tablelink.broker.BrokerLink``) when the broker
    connection comes up or fails for a new reason.
    """

    def __init__(
        self,
        table_id: str,
        broker_url: str | None,
        *,
        username: str | None = None,
        password: str | None = None,
        queue_dir: Path,
        on_command: Command | None = None,
        ca_file: str | None = None,
        on_pairing: PairingHandler | None = None,
        on_link: LinkHandler | None = None,
    ) -> None:
        self.table_id = topics.check_table_id(table_id)
        self.ca_file = ca_file
        self.address = parse_broker_url(broker_url) if broker_url else None
        self.username = username if username is not None else None
        self.password = password
        self.queue_dir = Path(queue_dir)
        self.queue_dir.mkdir(parents=True, exist_ok=True)
        self.on_command = on_command
        self.on_pairing = on_pairing
        self.on_link = on_link
        self.link = BrokerLink()
        """The broker connection: up, or down and why."""
        self._ack_topic = topics.table_topic(table_id, "ack")
        self._pairing_acks: collections.deque[bytes] = collections.deque()
        self._pairing_topic = topics.table_topic(table_id, "pairing")
        self._event_topic = topics.table_topic(table_id, "event")
        self._state_topic = topics.table_topic(table_id, "state")
        self._status_topic = topics.table_topic(table_id, "status")
        self._command_topic = topics.table_topic(table_id, "command")
        self._game_path = self.queue_dir / "game.json"
        self._command_path = self.queue_dir / "command.json"
        self._game: str | None = _read_json(self._game_path).get("game")
        self._last_command: str | None = _read_json(self._command_path).get("id")
        self._last_seq = -1
        self._lock = threading.Lock()
        self._state: dict[str, Any] | None = None
        self._state_payload: bytes | None = None
        self._state_version = 0
        self._state_sent = 0
        self._game_events: dict[int, str] = {}
        self._resend: collections.deque[str] = collections.deque()
        self._acks: collections.deque[int] = collections.deque()
        self._mids: dict[int, int] = {}
        self._handed = 0
        self._idle = threading.Condition()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: mqtt.Client | None = None
        self.outbox = Outbox(self.queue_dir) if self.address else None
        if self.outbox is not None:
            self._handed = self.outbox.acked
            for record in self.outbox.records_at_start:
                self._remember(record.payload)

    # ------------------------------------------------------------------------------------ the caller's side
    def publish_event(self, seq: int, event: dict[str, Any]) -> None:
        """Queue game event number ``seq`` (its index in the game journal; 0 = the ``start``) for the hub.

        ``event`` is ``encode_event``'s object plus the daemon's own fields; a ``"game"`` string names the game,
        otherwise the id is derived from the table and the event with seq 0. Raises SchemaError for a bad seq
        or event; never waits for the network. A disk that fails is logged and the event kept in memory.
        """
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise SchemaError(f"table {self.table_id}: event seq must be an integer >= 0, got {seq!r}")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise SchemaError(f"table {self.table_id}: an event is an object with a 'type', got {event!r:.80}")
        with self._lock:
            game = event.get("game") if isinstance(event.get("game"), str) else None
            if game is None:
                game = game_id_of(self.table_id, event) if seq == 0 else self._game
            if game is None:
                game = game_id_of(self.table_id, {"resumed": True})
                log.warning("table %s: event %d of a game whose start was never published", self.table_id, seq)
            if game != self._game:
                self._game = game
                self._game_events = {}
                if self.outbox is not None:
                    self.outbox.compact()  # the events of earlier games are not needed any more once sent
                try:
                    _write_json_atomic(self._game_path, {"game": game})
                except OSError as exc:
                    log.error("table %s: cannot remember game id in %s: %s", self.table_id, self._game_path, exc)
            self._last_seq = max(self._last_seq, seq) if seq else 0
            if self.outbox is None:
                return
            payload = topics.encode(
                {"table": self.table_id, "game": game, "seq": seq, "event": event, "sent": time.time()}
            ).decode()
            self.outbox.append(self._event_topic, payload)
            self._game_events[seq] = payload
        self._wake.set()

    def publish_state(self, state: dict[str, Any]) -> None:
        """Set the table's current state: its whole view (``Game.to_dict()`` under ``"game"``, the clock view,
        names ...), of which ``topics.compact_state`` goes to the broker (names, clock, the claimed scores, no
        history), with the seq of the last event published (the claim describes the game after it); retained
        on the broker; states that come faster than the network takes them are coalesced."""
        with self._lock:
            game, seq = self._game, self._last_seq
        payload = topics.encode({"table": self.table_id, "game": game, "seq": seq,
                                 "state": topics.compact_state(state), "sent": time.time()})  # fmt: skip
        with self._lock:
            self._state = state
            self._state_payload = payload
            self._state_version += 1
        self._wake.set()

    def ack_pairing(self, pairing: TablePairing) -> None:
        """Tell the hub this table kept ``pairing`` (sent when connected; the retained pairing comes again after a
        reconnect and is acknowledged again)."""
        if self.address is None:
            return
        self._pairing_acks.append(topics.encode(pairing_ack(pairing).payload()))
        self._wake.set()

    def latest_state(self) -> dict[str, Any] | None:
        """The last state given to ``publish_state`` (for serving the table page locally)."""
        with self._lock:
            return self._state

    @property
    def connected(self) -> bool:
        """True while connected to the broker."""
        return self._connected.is_set()

    def backlog(self) -> int:
        """How many queued events the broker has not acknowledged yet."""
        return len(self.outbox.pending()) if self.outbox is not None else 0

    def wait_idle(self, timeout: float) -> bool:
        """Wait until the broker acknowledged every queued event (True) or ``timeout`` seconds passed (False)."""
        with self._idle:
            return self._idle.wait_for(lambda: self.backlog() == 0, timeout)

    # ------------------------------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Connect in the background (retrying until the broker answers) and start sending."""
        if self.address is None or self._thread is not None:
            return
        client = make_client(f"partiar-table-{self.table_id}", self.address, self.username, self.password,
                             ca_file=self.ca_file)  # fmt: skip
        client.will_set(self._status_topic, self._status(False), qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.on_connect_fail = self._on_connect_fail
        self._client = client
        client.connect_async(self.address.host, self.address.port, KEEPALIVE)
        client.loop_start()
        self._thread = threading.Thread(target=self._run, name=f"publish-{self.table_id}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Say "offline", disconnect and stop the threads; unacknowledged events stay queued on disk."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        client = self._client
        if client is not None:
            if self._connected.is_set():
                info = client.publish(self._status_topic, self._status(False), qos=1, retain=True)
                try:
                    info.wait_for_publish(timeout)
                except (RuntimeError, ValueError):
                    pass
            client.disconnect()
            client.loop_stop()
            self._client = None
        if self.outbox is not None:
            self.outbox.close()

    def __enter__(self) -> TablePublisher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----------------------------------------------------------------------------------- network thread
    def _status(self, online: bool) -> bytes:
        return topics.encode({"table": self.table_id, "online": online, "sent": time.time()})

    def _remember(self, payload: str) -> None:
        try:
            data = json.loads(payload)
        except ValueError:
            return
        if data.get("game") != self._game:
            return
        seq = data.get("seq")
        if isinstance(seq, int):
            self._game_events[seq] = payload
            self._last_seq = max(self._last_seq, seq)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self._link_changed(self.link.down(reason))
            return
        client.subscribe([(topics.ROUND_COMMAND_TOPIC, 1), (self._command_topic, 1), (self._pairing_topic, 1)])
        client.publish(self._status_topic, self._status(True), qos=1, retain=True)
        with self._lock:
            self._state_sent = 0  # the retained state may be older than ours
        self._connected.set()
        self._wake.set()
        self._link_changed(self.link.up())

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        self._link_changed(self.link.down(getattr(client, "last_error", None) or "connection failed"))

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.clear()
        if not self._stopping.is_set():
            self._link_changed(self.link.lost(reason))

    def _link_changed(self, changed: bool) -> None:
        """The broker connection came up or failed for a new reason: the table says so (``on_link``); without a
        handler, the log does."""
        if not changed:
            return
        if self.on_link is not None:
            try:
                self.on_link(self.link)
            except Exception:  # the table's handler must never stop the feed
                log.exception("table %s: on_link failed", self.table_id)
        elif self.link.connected:
            log.info("table %s: connected to the broker", self.table_id)
        else:
            log.warning("table %s: no broker connection (%s: %s)", self.table_id, self.link.problem, self.link.detail)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        self._acks.append(mid)  # called under paho's lock: only hand it to the sender thread
        self._wake.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            payload = topics.decode(msg.payload, msg.topic)
        except SchemaError as exc:
            log.warning("table %s: ignored: %s", self.table_id, exc)
            return
        if msg.topic == self._command_topic:
            self._on_table_command(payload)
        elif msg.topic == topics.ROUND_COMMAND_TOPIC:
            self._on_round_command(payload, bool(msg.retain))
        elif msg.topic == self._pairing_topic:
            self._on_pairing(payload)

    def _on_pairing(self, payload: dict[str, Any]) -> None:
        try:
            pairing = parse_pairing(payload, self.table_id)
        except SchemaError as exc:
            log.warning("table %s: pairing ignored: %s", self.table_id, exc)
            return
        if self.on_pairing is not None:
            try:
                self.on_pairing(pairing)
            except Exception:  # the table's handler must never stop the feed
                log.exception("table %s: on_pairing failed for %r", self.table_id, pairing)

    def _on_table_command(self, payload: dict[str, Any]) -> None:
        start = payload.get("from")
        if payload.get("command") != "resend" or not isinstance(start, int):
            log.warning("table %s: unknown table command %r", self.table_id, payload)
            return
        with self._lock:
            if payload.get("game") != self._game:
                return
            self._resend.extend(p for seq, p in sorted(self._game_events.items()) if seq >= start)
        self._wake.set()

    def _on_round_command(self, payload: dict[str, Any], retained: bool) -> None:
        try:
            parsed = rounds.parse_round_command(payload)
        except SchemaError as exc:
            log.warning("table %s: round command ignored: %s", self.table_id, exc)
            return
        command_id = parsed.id
        if command_id == self._last_command:
            return
        self._last_command = command_id
        try:
            _write_json_atomic(self._command_path, {"id": command_id})
        except OSError as exc:
            log.error("table %s: cannot remember command %s: %s", self.table_id, command_id, exc)
        command: dict[str, Any] = parsed.payload()
        command["retained"] = retained
        if self.on_command is not None:
            try:
                self.on_command(command)
            except Exception:  # the table's handler must never stop the feed
                log.exception("table %s: on_command failed for %r", self.table_id, command)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(1.0)
            self._wake.clear()
            self._settle_acks()
            if self._connected.is_set() and not self._stopping.is_set():
                try:
                    self._pump()
                except (OSError, ValueError, RuntimeError) as exc:
                    log.warning("table %s: sending failed (%s); will retry", self.table_id, exc)

    def _settle_acks(self) -> None:
        assert self.outbox is not None
        while self._acks:
            n = self._mids.pop(self._acks.popleft(), None)
            if n is not None:
                self.outbox.ack(n)
        with self._idle:
            self._idle.notify_all()

    def _pump(self) -> None:
        assert self.outbox is not None and self._client is not None
        client = self._client
        with self._lock:  # the state first: it is never newer than the events handed over below
            payload, version = self._state_payload, self._state_version
        for record in self.outbox.pending():
            if record.n <= self._handed:
                continue
            info = client.publish(record.topic, record.payload, qos=1)
            self._mids[info.mid] = record.n
            self._handed = record.n
        while self._resend:
            client.publish(self._event_topic, self._resend.popleft(), qos=1)
        while self._pairing_acks:
            client.publish(self._ack_topic, self._pairing_acks.popleft(), qos=1)
        if payload is not None and version != self._state_sent:
            client.publish(self._state_topic, payload, qos=1, retain=True)
            self._state_sent = version
        self._settle_acks()
