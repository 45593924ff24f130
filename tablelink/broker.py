"""Broker URLs, paho-mqtt clients configured the same way for the table and the hub, and why a connection fails.

A broker is named by URL: ``mqtt://host[:1883]`` or ``mqtts://host[:8883]`` (TLS with the system's CA store, or a
tournament's own CA). ``BrokerLink`` keeps whether a client is connected and, if not, why (``PROBLEMS``): the table
shows it on its LCD and in its log, the hub on ``/status``, the desk and in its log.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

from tablelink.topics import SchemaError

RECONNECT_MIN = 0.1
RECONNECT_MAX = 2.0
"""Seconds between reconnection attempts: from the first to the longest back-off."""

KEEPALIVE = 10
"""MQTT keep-alive in seconds: the broker publishes a table's last will about 1.5x this after it goes silent."""


@dataclass(frozen=True)
class BrokerAddress:
    """Host, port and whether to use TLS."""

    host: str
    port: int
    tls: bool = False


def parse_broker_url(url: str) -> BrokerAddress:
    """The address in ``mqtt://host:port`` / ``mqtts://host:port``; raises SchemaError naming the URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise SchemaError(f"broker URL {url!r} must look like mqtt://host:1883 or mqtts://host:8883")
    try:
        port = parts.port
    except ValueError:
        raise SchemaError(f"broker URL {url!r} has a bad port") from None
    tls = parts.scheme == "mqtts"
    return BrokerAddress(parts.hostname, port or (8883 if tls else 1883), tls)


def make_client(
    client_id: str,
    address: BrokerAddress,
    username: str | None,
    password: str | None,
    *,
    clean: bool = True,
    ca_file: str | None = None,
) -> LinkClient:
    """A paho client (MQTT 3.1.1, callback API 2) with credentials, TLS if asked (the system's CA store, or
    ``ca_file`` for a tournament's own certificate authority), and quick reconnection."""
    client = LinkClient(
        mqtt.CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean,
        protocol=mqtt.MQTTv311,
    )
    if username is not None:
        client.username_pw_set(username, password)
    if address.tls:
        client.tls_set_context(ssl.create_default_context(cafile=ca_file))
    client.reconnect_delay_set(RECONNECT_MIN, RECONNECT_MAX)  # type: ignore[arg-type] # float seconds work
    client.max_inflight_messages_set(100)
    return client


PROBLEMS = ("refused", "tls", "auth", "name", "unreachable", "lost")
"""Why a broker connection fails: the broker refuses the connection (nothing listens on the port, e.g. plain
``mqtt://`` to the tournament broker's TLS-only hall address), TLS (the certificate is not the ``ca_file``'s, or the
name is not in it), not authorised (wrong user name or password, or a user the broker does not know), the host
name does not resolve, the host cannot be reached (no network, a timeout), a connection that was up is lost."""


class LinkClient(mqtt.Client):
    """A paho client that keeps the error of its last failed connection attempt (paho's reconnect loop swallows
    it; ``on_connect_fail`` is called without it)."""

    last_error: BaseException | None = None

    def reconnect(self) -> mqtt.MQTTErrorCode:
        try:
            return super().reconnect()
        except OSError as exc:
            self.last_error = exc
            raise


def problem_of(error: BaseException | Any) -> str:
    """The ``PROBLEMS`` key for a failed connection: an exception from connecting, or the broker's CONNACK reason
    code."""
    if isinstance(error, ssl.SSLError | ssl.CertificateError):
        return "tls"
    if isinstance(error, socket.gaierror):
        return "name"
    if isinstance(error, ConnectionRefusedError):
        return "refused"
    if isinstance(error, OSError):
        return "unreachable"
    name = str(error).lower()
    if "authori" in name or "password" in name or "identifier" in name:
        return "auth"
    return "refused"


class BrokerLink:
    """Whether a client is connected to its broker and, while not, why (thread-safe): ``up()`` at a CONNACK
    accepted, ``down(error)`` at a refused CONNACK, a failed connection attempt or a lost connection. Each returns
    True when the link changed (connected again, or down for another reason): what the caller says aloud."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.connected = False
        self.problem: str | None = None
        """The ``PROBLEMS`` key while down after a failure (None: connected, or not tried yet)."""
        self.detail = ""
        """The error as the library gave it (for the log and the status page)."""
        self.since = time.time()

    def up(self) -> bool:
        with self._lock:
            changed = not self.connected
            self.connected, self.problem, self.detail = True, None, ""
            if changed:
                self.since = time.time()
            return changed

    def down(self, error: BaseException | Any, problem: str | None = None) -> bool:
        key = problem or problem_of(error)
        with self._lock:
            changed = self.connected or key != self.problem
            self.connected, self.problem, self.detail = False, key, str(error)[:300]
            if changed:
                self.since = time.time()
            return changed

    def lost(self, reason: Any) -> bool:
        """A connection that was up dropped (True); a drop after a refused connection says nothing new (False)."""
        return self.connected and self.down(reason, "lost")

    def view(self) -> dict[str, Any]:
        """``{"connected", "problem", "detail", "since"}`` for a status page."""
        with self._lock:
            return {"connected": self.connected, "problem": self.problem, "detail": self.detail, "since": self.since}
