"""uvicorn serving an ASGI app from a thread of its own: the one runner of the project's HTTP servers (the
simulator's page and panel, the duplicate room's page, the tournament hub).

The socket is bound when the server is made, so a taken port raises OSError there and ``port`` 0 gives the free
port it picked before anything is served. ``stop()`` first closes the live streams (``streams.close()``: a
``Changes``), so uvicorn's graceful shutdown does not wait on them, then stops serving and closes the socket.

The defaults are the limits every server of the project keeps (see ``docs/architecture.md``); a server changes or
adds uvicorn options by keyword (the hub: TLS, a reverse proxy, its lifespan).
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any, Protocol

import uvicorn
from starlette.types import ASGIApp

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
MAX_CONNECTIONS = 64
"""uvicorn answers 503 beyond this many concurrent connections and tasks."""
KEEP_ALIVE_SECONDS = 5
"""An idle keep-alive connection is closed after this long."""
MAX_HEAD = 16 * 1024
"""The largest request head (request line and headers) uvicorn's parser accepts."""
STOP_SECONDS = 3
"""uvicorn's graceful shutdown: open requests get this long to finish, then are cancelled."""

DEFAULTS: dict[str, Any] = {
    "log_level": "warning",
    "access_log": False,
    "lifespan": "off",
    "limit_concurrency": MAX_CONNECTIONS,
    "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    "timeout_graceful_shutdown": STOP_SECONDS,
    "h11_max_incomplete_event_size": MAX_HEAD,
}


class Closable(Protocol):
    def close(self) -> None: ...


def listening_socket(host: str, port: int, backlog: int = 128) -> socket.socket:
    """A TCP socket bound to ``host`` (IPv6 if it has a colon) and ``port`` and listening; raises OSError (the
    socket closed) if the address is taken or not this machine's."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    return sock


class ServerThread:
    """uvicorn serving ``app`` on ``host``:``port`` (0: a free port, see ``.port``) from a thread named ``name``.
    ``start()`` serves, ``stop()`` ends the ``streams``, stops serving and closes the socket."""

    def __init__(
        self,
        app: ASGIApp,
        port: int = 0,
        *,
        name: str,
        host: str = LOOPBACK,
        streams: Closable | None = None,
        backlog: int = 128,
        **options: Any,
    ) -> None:
        self.host = host
        self.streams = streams
        self.socket = listening_socket(host, port, backlog)
        self.port: int = self.socket.getsockname()[1]
        settings = {**DEFAULTS, **options}
        self._grace = float(settings["timeout_graceful_shutdown"] or 0)
        self.server = uvicorn.Server(uvicorn.Config(app, **settings))
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)

    @property
    def url(self) -> str:
        """``http://host:port/`` (the scheme is the caller's to change when it serves TLS)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def start(self) -> ServerThread:
        """Serve in the background (connections already queue on the bound socket); returns self."""
        self._thread.start()
        return self

    def _serve(self) -> None:
        try:
            self.server.run(sockets=[self.socket])
        except Exception:  # the thread must say why it stopped serving
            log.exception("HTTP server on %s:%d stopped", self.host, self.port)

    def stop(self) -> None:
        """End the live streams, stop serving (uvicorn's graceful shutdown) and close the socket."""
        if self.streams is not None:
            self.streams.close()
        self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(self._grace + 5.0)
        self.socket.close()
