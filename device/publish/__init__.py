"""The table unit's live feed to the tournament hub over MQTT (``TablePublisher``; schema in ``topics``)."""

from device.publish.publisher import TablePublisher, game_id_of
from device.publish.topics import SCHEMA_VERSION, SchemaError

__all__ = ["SCHEMA_VERSION", "SchemaError", "TablePublisher", "game_id_of"]
