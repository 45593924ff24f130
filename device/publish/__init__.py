"""The table unit's live feed to the tournament hub over MQTT (``TablePublisher``; the schema is ``tablelink``'s)."""

from device.publish.publisher import TablePublisher, game_id_of
from tablelink.topics import SCHEMA_VERSION, SchemaError

__all__ = ["SCHEMA_VERSION", "SchemaError", "TablePublisher", "game_id_of"]
