"""The table unit's live feed to the tournament hub over MQTT (``TablePublisher``; the schema is ``tablelink``'s).

The publisher (and with it paho-mqtt, ssl, sockets, email and urllib: some 60 ms of CPU at a daemon's start) is
imported when first asked for, not when the table imports ``tablelink`` for the round's pairing (issue 34: a
restart's imports)."""

from __future__ import annotations

from typing import Any

from tablelink.topics import SCHEMA_VERSION, SchemaError

__all__ = ["SCHEMA_VERSION", "SchemaError", "TablePublisher", "game_id_of"]


def __getattr__(name: str) -> Any:
    if name in ("TablePublisher", "game_id_of"):
        from device.publish import publisher

        return getattr(publisher, name)
    raise AttributeError(f"module 'device.publish' has no attribute {name!r}")
