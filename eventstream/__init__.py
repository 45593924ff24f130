"""What the project's live pages are served with, shared by the hub (``hub/web.py``), the simulator's page and panel
(``hw_sim/sim.py``, ``hw_sim/panel.py``) and the duplicate room's page (``desk/show.py``):

- this module: server-sent events (the ``text/event-stream`` format of the HTML standard) as those servers send
  them and the simulator's own clients read them (``hw_sim/sim.py``, ``hw_sim/sim_client.py``): the framing, the
  keep-alive comment, the response's media type and headers, and reading a message's data back;
- ``eventstream.changes``: the change bookkeeping (a version, a closed flag, waking threads and asyncio streams),
  the one-state ``Broadcaster`` and its stream of states;
- ``eventstream.server``: uvicorn serving an app from a thread of its own, with the project's limits.

Its own package because they all use it and none may import another: the hub is deployed without the simulator,
the simulator must not pull in the tournament hub, the table unit imports neither. It imports no project package
(checked by ``tests/test_layering.py``).

A message is an optional ``event: NAME`` line and one ``data:`` line of compact UTF-8 JSON (``json.dumps`` never
writes a raw line break, so one line always holds the whole payload), then an empty line.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.responses import StreamingResponse

KEEPALIVE_SECONDS = 15.0
"""A stream sends ``KEEPALIVE`` this often when nothing changed, so a client that went away is noticed."""
KEEPALIVE = b": keepalive\n\n"
"""A comment line: browsers ignore it, proxies and sockets see traffic."""
MEDIA_TYPE = "text/event-stream; charset=utf-8"
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""Never cached; ``X-Accel-Buffering: no`` asks a reverse proxy (nginx) not to buffer the stream."""


def compact(payload: Any) -> str:
    """JSON without spaces, non-ASCII letters kept (Czech names stay readable and short)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def frame_json(data: str, event: str | None = None) -> bytes:
    """One message of JSON text already encoded (one line: from ``compact`` or spliced from its pieces)."""
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {data}\n\n".encode()


def frame(payload: Any, event: str | None = None) -> bytes:
    """One message carrying ``payload`` as JSON, named ``event`` (None: the default ``message`` event)."""
    return frame_json(compact(payload), event)


def response(messages: AsyncIterator[bytes]) -> StreamingResponse:
    """The streaming response of a live page: the framed ``messages`` as they come."""
    return StreamingResponse(messages, media_type=MEDIA_TYPE, headers=HEADERS)


def data_of(line: bytes) -> Any | None:
    """The JSON payload of one ``data:`` line as a client reads the stream line by line; None for any other line
    (``event:``, comments, the empty line ending a message). Raises ValueError for data that is not JSON."""
    if not line.startswith(b"data: "):
        return None
    return json.loads(line[6:])
