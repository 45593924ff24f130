"""uvicorn serving an ASGI app from a thread of its own: the one runner of the project's HTTP servers (the
simulator's page and panel, the duplicate room's page, the tournament hub).

The socket is bound when the server is made, so a taken port raises OSError there and ``port`` 0 gives the free
port it picked before anything is served. ``stop()`` first closes the live streams (``streams.close()``: a
``Changes``), so uvicorn's graceful shutdown does not wait on them, then stops serving and closes the socket.

The defaults are the limits every server of the project keeps (see ``docs/architecture.md``); a server changes or
adds uvicorn options by keyword (the hub: TLS, a reverse proxy, its lifespan).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from typing import Any, Protocol

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
MAX_CONNECTIONS = 64
"""uvicorn answers 503 beyond this many concurrent connections and tasks."""
KEEP_ALIVE_SECONDS = 5
"""An idle keep-alive connection is closed after this long."""
MAX_HEAD = 16 * 1024
"""The largest request head (request line and headers) uvicorn's parser accepts."""
HEAD_SECONDS = 10.0
"""A request head must be complete this long after the connection opened or the last response ended
(``HeadTimeoutProtocol``)."""
STOP_SECONDS = 3
"""uvicorn's graceful shutdown: open requests get this long to finish, then are cancelled."""


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn closes an idle keep-alive connection after ``timeout_keep_alive``, but stops that timer at the first
    byte a client sends and never starts one for a connection that has sent nothing: a client sending a head a
    byte at a time (slowloris), or nothing, held each connection for good, and ``limit_concurrency`` of them made
    the server answer 503 to everybody. This protocol starts a timer when a connection opens and after each
    response; if the connection still waits for (the rest of) a request head when it fires, it is closed. A
    request being served (a live feed too) is not touched."""

    head_seconds: float = HEAD_SECONDS
    """Replaced by a subclass made by ``with_head_timeout``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def _arm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_timeout)

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        # IDLE: no request yet, or part of a head; DONE/MUST_CLOSE after a response: the keep-alive timer's case
        if self.conn.their_state is h11.IDLE:
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)


def with_head_timeout(seconds: float) -> type[HeadTimeoutProtocol]:
    """The protocol class for ``uvicorn.Config(http=...)`` with a head timeout of ``seconds``."""
    return type("HeadTimeoutProtocol", (HeadTimeoutProtocol,), {"head_seconds": float(seconds)})


DEFAULTS: dict[str, Any] = {
    "log_level": "warning",
    "access_log": False,
    "lifespan": "off",
    "limit_concurrency": MAX_CONNECTIONS,
    "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    "timeout_graceful_shutdown": STOP_SECONDS,
    "h11_max_incomplete_event_size": MAX_HEAD,
    "http": with_head_timeout(HEAD_SECONDS),
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
