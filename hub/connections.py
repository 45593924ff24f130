"""The hub's connections per client address: one laptop on the hall's Wi-Fi may hold ``PER_ADDRESS`` connections
and ``STREAMS_PER_ADDRESS`` live feeds, however many it opens, so it cannot take the pages away from everyone
else; and a reserve above the overall limits is kept for the referees, so the director's page always answers.

- ``HallLimits`` counts the open connections and live feeds per address (on the server's event loop: no lock).
- ``per_address_protocol`` makes the uvicorn protocol class that counts each connection and answers one beyond its
  address's share with a bare 503 and closes it, before a byte of it is parsed.
- ``ReserveGate`` (ASGI middleware): past ``MAX_CONNECTIONS`` open connections (uvicorn's own limit is set
  ``REFEREE_RESERVE`` higher) only the referees' requests are served (a request with a live referee session, and
  what a referee needs to log in: the referee page, its static files, ``/api/session``, ``/api/login``), and a
  viewer's pages and their snapshots (``VIEWER_PAGES``, ``VIEWER_PREFIXES``): a viewer gets the page, its
  updates slower (polled) until a live feed is free, never an error.

A trusted reverse proxy (``HubServer(proxy=...)``) is exempt from the per-address connection limit: every
connection through it comes from its address (the live-feed limit still applies, to the forwarded address).
Idle connections close after ``eventstream.server.HEAD_SECONDS`` without a request and ``KEEPALIVE_IDLE``
after a response.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Collection
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from eventstream.server import HeadTimeoutProtocol
from hub.auth import COOKIE

MAX_CONNECTIONS = 1000
"""Connections served to anybody; uvicorn's limit is ``MAX_CONNECTIONS + REFEREE_RESERVE``."""
REFEREE_RESERVE = 64
"""Connections beyond MAX_CONNECTIONS kept for the referees."""
PER_ADDRESS = 32
"""Connections one client address may hold at once (a browser opens about 6 per site; a few tabs with live
feeds on one laptop stay far below)."""
MAX_STREAMS = 500
"""Live feeds served to anybody; a referee's feed may go ``STREAM_RESERVE`` beyond."""
STREAM_RESERVE = 20
STREAMS_PER_ADDRESS = 16
"""Live feeds one client address may hold at once."""
REFEREE_PATHS = ("/referee", "/static/", "/api/session", "/api/login")
"""What a referee needs to log in: served from the reserve too (``REFEREE_PATHS`` prefixes)."""
VIEWER_PAGES = ("/", "/standings", "/live")
VIEWER_PREFIXES = ("/table/", "/static/", "/api/overview", "/api/table/", "/api/standings")
"""What a viewer's page needs, answered at once and closed after: served past ``MAX_CONNECTIONS`` too, so a crowd
of idle connections spread over many addresses (issue 35: 1,050 over 42 addresses gave viewers 503 on 37 of 65
tries) never keeps a viewer from the page. Only a new live feed waits then: the page updates from the snapshots
(``/api/overview``, ``/api/table/<id>``) every ``SLOW_MS`` (hub.js) until a feed is free."""
_BUSY_TEXT = b"too many connections from this address\n"
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nconnection: close\r\n"
        b"content-length: %d\r\n\r\n%s" % (len(_BUSY_TEXT), _BUSY_TEXT))  # fmt: skip
"""The answer to a connection beyond its address's share (written before anything is read)."""


class HallLimits:
    """Open connections and live feeds per client address, and in total."""

    def __init__(
        self, per_address: int = PER_ADDRESS, streams_per_address: int = STREAMS_PER_ADDRESS,
        exempt: Collection[str] = (),
    ) -> None:  # fmt: skip
        self.per_address = per_address
        self.streams_per_address = streams_per_address
        self.exempt = frozenset(exempt)
        self.connections: collections.Counter[str] = collections.Counter()
        self.streams: collections.Counter[str] = collections.Counter()
        self.total = 0
        self.refused = 0
        """Connections refused for their address's share (since the hub started)."""

    def opened(self, host: str) -> bool:
        """Count a new connection from ``host``; False (not counted) beyond its share."""
        if host not in self.exempt and self.connections[host] >= self.per_address:
            self.refused += 1
            return False
        self.connections[host] += 1
        self.total += 1
        return True

    def closed(self, host: str) -> None:
        self.total -= 1
        self.connections[host] -= 1
        if self.connections[host] <= 0:
            del self.connections[host]

    def streams_full(self, host: str) -> bool:
        """True if ``host`` has its share of live feeds open."""
        return self.streams[host] >= self.streams_per_address

    def stream_opened(self, host: str) -> None:
        """Count a live feed of ``host`` (once it runs: a feed whose client left before it started never ends)."""
        self.streams[host] += 1

    def stream_closed(self, host: str) -> None:
        self.streams[host] -= 1
        if self.streams[host] <= 0:
            del self.streams[host]

    def view(self) -> dict[str, Any]:
        """For the status page: connections in total, the busiest addresses, the connections refused."""
        busiest = self.connections.most_common(5)
        return {"open": self.total, "refused": self.refused,
                "busiest": [{"who": h, "connections": n, "streams": self.streams.get(h, 0)} for h, n in busiest]}  # fmt: skip


def per_address_protocol(base: type[HeadTimeoutProtocol], limits: HallLimits) -> type[HeadTimeoutProtocol]:
    """``base`` (uvicorn's h11 protocol with the head timeout) counting its connections in ``limits``: one beyond
    its address's share gets ``BUSY`` and is closed at once."""

    class PerAddressProtocol(base):  # type: ignore[valid-type, misc]
        _hall_host: str | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else ""
            if limits.opened(host):
                self._hall_host = host
            else:
                transport.write(BUSY)
                transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._hall_host is not None:
                limits.closed(self._hall_host)
                self._hall_host = None
            super().connection_lost(exc)

    return PerAddressProtocol


def viewer_request(scope: Scope) -> bool:
    """A GET of a viewer's page or of its snapshot (``VIEWER_PAGES``, ``VIEWER_PREFIXES``)."""
    path = scope["path"]
    return scope.get("method") in ("GET", "HEAD") and (path in VIEWER_PAGES or path.startswith(VIEWER_PREFIXES))


class ReserveGate:
    """ASGI middleware: past ``MAX_CONNECTIONS`` open connections, only a referee's requests (``is_referee``, given
    the cookie, run off the event loop) and the ``REFEREE_PATHS`` are served; the rest get 503."""

    def __init__(self, app: ASGIApp, limits: HallLimits, is_referee: Callable[[str | None], bool]) -> None:
        self.app = app
        self.limits = limits
        self.is_referee = is_referee

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.limits.total > MAX_CONNECTIONS:
            path = scope["path"]
            if not (path == "/referee" or path.startswith(REFEREE_PATHS[1:]) or viewer_request(scope)) and \
                    not await run_in_threadpool(self.is_referee, Request(scope).cookies.get(COOKIE)):  # fmt: skip
                busy = JSONResponse({"error": f"the hub has {MAX_CONNECTIONS} connections open; try again",
                                     "code": "busy"}, 503, headers={"Retry-After": "5"})  # fmt: skip
                await busy(scope, receive, send)
                return
        await self.app(scope, receive, send)
