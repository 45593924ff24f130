"""The tournament hub (``partiar hub``): every table live over MQTT, round control, standings and exports.

Not part of the table unit: the tables only publish (``device.publish``). ``HubStore`` (what the hub knows,
persisted in SQLite by ``Database``) is fed by ``HubLink`` (the broker); ``HubServer`` serves the pages and feeds
of a store. See ``docs/hub.md``.
"""

from hub.auth import RefereeAuth
from hub.db import Database
from hub.errors import AuthError, HubError, MessageError
from hub.link import HubLink
from hub.store import HubStore
from hub.web import HubServer

__all__ = ["AuthError", "Database", "HubError", "HubLink", "HubServer", "HubStore", "MessageError", "RefereeAuth"]
