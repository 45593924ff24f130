"""Broker URLs and paho-mqtt clients configured the same way for the table and the hub.

A broker is named by URL: ``mqtt://host[:1883]`` or ``mqtts://host[:8883]`` (TLS with the system's CA store).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

from device.publish.topics import SchemaError

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
) -> mqtt.Client:
    """A paho client (MQTT 3.1.1, callback API 2) with credentials, TLS if asked (the system's CA store, or
    ``ca_file`` for a tournament's own certificate authority), and quick reconnection."""
    client = mqtt.Client(
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
