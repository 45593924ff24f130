"""The tournament hub (``partiar hub``): every table live over MQTT, round control, standings and exports.

``HubStore`` (what the hub knows) is fed by ``HubLink`` (the broker) or, on a table unit without a broker, by
the daemon itself; ``HubServer`` serves the pages and feeds of a store. See ``docs/hub.md``.
"""

from device.hub.auth import AuthError, RefereeAuth
from device.hub.link import HubLink
from device.hub.server import HubServer
from device.hub.store import HubStore

__all__ = ["AuthError", "HubLink", "HubServer", "HubStore", "RefereeAuth"]
