"""What is left of the simulator's old ``http.server`` plumbing: only the old hub (``device/hub/server.py``) still
imports these two names. The simulator's servers are on Starlette and uvicorn (``hw_sim/asgi.py``); delete this
module once the hub (moving to its own ``hub/`` package) no longer imports it."""

from __future__ import annotations

MAX_BODY = 64 * 1024


class HttpError(Exception):
    """A request the server refuses: ``status`` and a message that names what was wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
