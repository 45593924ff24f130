"""The hub's web server: the live pages, their JSON and server-sent-event feeds, round control, exports, the
status page. A Starlette application served by uvicorn (one asyncio thread: an idle browser costs a socket, not
a thread); see ``docs/hub.md`` for why this stack.

| method | path | who | answer |
|---|---|---|---|
| GET | ``/`` ``/table/<id>`` ``/standings`` ``/referee`` ``/status`` | all | the pages (``static/``) |
| GET | ``/api/overview`` | all | ``{"round", "tables": [summary, ...], "rejected"}`` (a summary has no move history) |
| GET | ``/api/table/<id>`` | all | one table's full view (``HubStore.table_view``) |
| GET | ``/api/table/<id>/chart.svg?lang=cs|en`` | all | its game's score over time (``engine.score_chart``) |
| GET | ``/api/standings`` | all | with the desk: its TurČAS standings from the deník (``Desk.standings_payload``)
  and ``round``; without: ``{"round", "rounds": {n: [standing, ...]}, "results": [...]}`` of the tables' games (a
  standing says whether the player was excluded by that round) |
| GET | ``/api/status`` | all | message counters, refused messages, disagreeing tables, the sanctions of the tournament
  (``hub.sanctions``) |
| GET | ``/api/session`` | all | ``{"referee": name or null, "csrf": token or null, "control": bool}`` |
| GET | ``/api/players`` | all | ``[{"id", "name"}]`` |
| GET | ``/events`` | all | SSE: ``event: table`` (a summary) per changed table, ``event: round`` |
| GET | ``/events/table/<id>`` | all | SSE: ``event: table`` (the full view) when that table changes, ``event: round`` |
| POST | ``/api/login`` ``{"user", "password"[, "code"]}`` / ``/api/logout`` | all | sets / clears the session
  cookie; ``code``: a new device's one-time code, past the account's failed-login limit |
| POST | ``/api/round`` ``{"command", "round"}`` | referee + CSRF | publishes the round command |
| POST | ``/api/players`` ``{"players": [{"id", "name"}]}`` | referee + CSRF | registers player ids |
| POST | ``/api/aside`` ``{"action": "release"|"clear", "table", "game"}`` | referee + CSRF | takes a game put aside in,
  or clears a table's (``hub.quarantine``) |
| GET | ``/api/audit`` | referee | the audit log |
| GET | ``/export/round/<n>.zip`` ``/export/round/<n>.csv`` ``/export/results.csv`` | referee | exports (the results
  from the desk's deník when the hub runs the desk) |
| GET | ``/export/denik.jsonl`` ``/export/ladder.csv`` ``/export/games.csv`` ``/export/tournament.t`` | referee | the
  desk's deník, the ladder, the rated games, TSH |

Limits: request bodies of at most ``MAX_BODY`` bytes (a larger or malformed ``Content-Length`` is refused before
reading), a body must arrive within ``BODY_SECONDS``; at most ``MAX_STREAMS`` live feeds and ``MAX_CONNECTIONS``
connections (then 503), per client address and with a reserve for the referees (``hub.connections``); idle
keep-alive connections close after ``KEEPALIVE_IDLE`` seconds, a connection whose request head is not complete
after ``HEAD_SECONDS`` too.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engine.board import premium_rows
from engine.score_chart import score_chart_svg
from eventstream import KEEPALIVE, KEEPALIVE_SECONDS, compact, frame, frame_json, response
from eventstream.changes import Notifier
from eventstream.server import HEAD_SECONDS, ServerThread, with_head_timeout
from hub import results
from hub.auth import COOKIE, RefereeAuth
from hub.connections import (
    MAX_CONNECTIONS,
    MAX_STREAMS,
    REFEREE_RESERVE,
    STREAM_RESERVE,
    HallLimits,
    ReserveGate,
    per_address_protocol,
)
from hub.db import Database
from hub.director_render import build_footer
from hub.errors import AuthError, HubError, MessageError
from hub.link import HubLink, broker_says
from hub.schema import (
    MAX_PLAYERS_BYTES,
    MAX_ROUND,
    MAX_SMALL_BYTES,
    AsideBody,
    LoginBody,
    PlayersBody,
    RoundBody,
    parse_json,
    validate,
)
from hub.store import ROUND_KEY, STATUS_KEY, HubStore, table_key
from tournament.ladder import games_csv, ladder, ladder_csv
from tournament.players import BadText, check_text
from tournament.tsh import export_tsh

log = logging.getLogger(__name__)

STATIC = resources.files("hub") / "static"
PAGES = {"/": "overview", "/standings": "standings", "/referee": "referee", "/status": "status"}
"""Page paths and the names of their parts: ``static/<name>.main.html`` inside ``static/shell.html``."""
GATHER_SECONDS = 0.02
"""A live page gets at most one write this often: a change after a quiet moment goes out at once, changes that
follow closer than this (a table's event and then its state, other tables' moves) are gathered into the next
write, each changed table once. A busy round then costs each open page at most 50 writes a second instead of two
per event (with hundreds of pages open, that is what the event loop spends its time on); it adds up to 20 ms to a
change that follows another."""
MAX_BODY = MAX_PLAYERS_BYTES
BODY_SECONDS = 10.0
KEEPALIVE_IDLE = 5
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-store"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
]


class HttpError(HubError):
    """A request the hub refuses: ``status``, a message naming what was wrong, a ``code`` for the page."""

    def __init__(self, status: int, message: str, code: str = "request") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def error(status: int, message: str, code: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status, headers=headers)

HSTS = (b"strict-transport-security", b"max-age=15552000")
"""Over HTTPS: the browser comes back over HTTPS only (180 days), so a hall laptop that once reached the hub
securely is not talked into plain HTTP (a stolen session cookie) by someone on the Wi-Fi."""


class Limits:
    """ASGI middleware: refuses a missing-or-bad, negative or too large ``Content-Length`` before the body is
    read, stops reading a body past ``MAX_BODY`` bytes or ``BODY_SECONDS``, and adds the security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None:
            text = length.decode("latin-1").strip()
            if not text.isdigit():
                await error(400, f"bad Content-Length {text[:20]!r}", "request")(scope, receive, send)
                return
            if int(text) > MAX_BODY:
                await error(413, f"body of {text[:20]} bytes; at most {MAX_BODY}", "too_large")(scope, receive, send)
                return
        elif scope["method"] in ("POST", "PUT", "PATCH") and b"transfer-encoding" in headers:
            await error(411, "a body needs a Content-Length", "request")(scope, receive, send)
            return
        seen = 0
        complete = False

        async def limited() -> Message:
            nonlocal seen, complete
            if complete:  # the body is in: later calls wait for the client to go (a live feed), unlimited
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), BODY_SECONDS)
            except TimeoutError:
                raise HttpError(408, f"the body did not arrive within {BODY_SECONDS:.0f} s", "timeout") from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise HttpError(413, f"body larger than {MAX_BODY} bytes", "too_large")
                complete = not message.get("more_body", False)
            return message

        https = scope.get("scheme") == "https"  # served over TLS, or behind the trusted proxy that says so

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                names = {k.lower() for k, _ in message.get("headers", [])}
                wanted = [*SECURITY_HEADERS, *([HSTS] if https else [])]
                message["headers"] = [*message.get("headers", []), *(h for h in wanted if h[0] not in names)]
            await send(message)

        await self.app(scope, limited, secured)


class HubApp:
    """The Starlette application over a store; ``link`` (the broker) and ``auth`` enable round control."""

    def __init__(
        self, store: HubStore, link: HubLink | None = None, auth: RefereeAuth | None = None, desk: Any = None
    ) -> None:
        self.store = store
        self.link = link
        self.desk = desk
        self.auth = auth or RefereeAuth(store.db if store.db is not None else Database())
        self.streams = 0
        self.hall = HallLimits()
        self.notifier: Notifier | None = None
        self._encoded: dict[tuple[str, bool], tuple[int, tuple[tuple[Any, Any], bytes, bytes]]] = {}
        self._games: dict[tuple[str, bool], tuple[dict[str, Any], str]] = {}
        self.started = threading.Event()
        routes = [
            *(Route(path, self.page) for path in PAGES),
            Route("/table/{table}", self.page),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
            Route("/api/overview", self.overview),
            Route("/api/table/{table}", self.table),
            Route("/api/table/{table}/chart.svg", self.chart),
            Route("/api/standings", self.standings_view),
            Route("/api/status", self.status),
            Route("/api/session", self.session),
            Route("/api/players", self.players, methods=["GET", "POST"]),
            Route("/api/login", self.login, methods=["POST"]),
            Route("/api/logout", self.logout, methods=["POST"]),
            Route("/api/round", self.round, methods=["POST"]),
            Route("/api/audit", self.audit),
            Route("/api/aside", self.aside, methods=["POST"]),
            Route("/events", self.events),
            Route("/events/table/{table}", self.events),
            Route("/export/results.csv", self.export_results),
            Route("/export/{name:str}", self.export_tournament),
            Route("/export/round/{name}", self.export_round),
        ]
        if desk is not None:  # the tournament desk's pages (hub.director_pages)
            from hub.director_pages import DeskPages

            routes += DeskPages(desk, self.auth, broker=self._broker_view).routes()
        handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
            AuthError: self._auth_error, MessageError: self._message_error, HttpError: self._http_error,
        }  # fmt: skip
        starlette = Starlette(routes=routes, exception_handlers=handlers, lifespan=self._lifespan)
        self.app = Limits(ReserveGate(starlette, self.hall, lambda cookie: self.auth.session(cookie) is not None))

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.notifier = self.store.feed.subscribe(asyncio.get_running_loop())
        self.started.set()
        yield
        self.store.feed.unsubscribe(self.notifier)

    # ---------------------------------------------------------------------------------------- errors
    async def _auth_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, AuthError)
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after is not None else None
        return error(exc.status, str(exc), exc.code, headers)

    async def _message_error(self, request: Request, exc: Exception) -> Response:
        return error(400, str(exc), "bad_request")

    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HttpError)
        return error(exc.status, str(exc), exc.code)

    # ---------------------------------------------------------------------------------------- helpers
    @staticmethod
    def client(request: Request) -> str:
        return request.client.host if request.client else ""

    async def body(self, request: Request, limit: int = MAX_SMALL_BYTES) -> Any:
        data = await request.body()
        return parse_json(data, limit, f"{request.method} {request.url.path}") if data.strip() else {}

    def referee(self, request: Request) -> str:
        """The referee of this request; raises AuthError (no session, a wrong CSRF token or a cross-origin
        POST). It may read the database: called off the event loop (``run_in_threadpool``), like every use of
        the database here, so a commit on a slow disk never stalls the live pages."""
        session = request.cookies.get(COOKIE)
        if request.method == "POST":
            origin = request.headers.get("origin")
            if origin and urlsplit(origin).netloc != request.headers.get("host", ""):
                raise AuthError(403, f"cross-origin request from {origin[:80]!r} refused", "origin")
            return self.auth.check(session, request.headers.get("x-csrf-token"))
        entry = self.auth.session(session)
        if entry is None:
            raise AuthError(401, "a referee must log in first", "session")
        return entry[0]

    def safe_view(self, table_id: str, full: bool) -> dict[str, Any] | None:
        """A table's view; a table whose view cannot be built is shown with the error, never breaking others."""
        try:
            return self.store.table_view(table_id, full)
        except Exception as exc:  # one table's bad data must never take the overview down
            log.exception("hub: view of table %s failed", table_id)
            return {"table": table_id, "online": None, "state": {}, "game": None, "seq": -1,
                    "error": f"{type(exc).__name__}: {exc}"}  # fmt: skip

    def encoded(self, table_id: str, full: bool) -> tuple[tuple[Any, Any], bytes, bytes] | None:
        """A table's SSE messages, encoded once per change of the table for every stream: ``(game token, the
        whole view as "event: table", the view without its game as "event: state")``. The token names the game
        the view shows (game id and last event applied): a stream that sent that game already sends the short
        message, so a table's state (its clock) costs a few hundred bytes, not the board again."""
        version = self.store.feed.key_version(table_key(table_id))
        cached = self._encoded.get((table_id, full))
        if cached is not None and cached[0] == version:
            return cached[1]
        view = self.safe_view(table_id, full)
        if view is None:
            return None
        game = view.get("game")
        head = compact({k: v for k, v in view.items() if k != "game"})
        if not isinstance(game, dict):
            whole = frame(view, "table")
        else:  # the game's JSON is made once per event, not again for each state (clock) of the table
            known = self._games.get((table_id, full))
            if known is None or known[0] is not game:
                known = self._games[(table_id, full)] = (game, compact(game))
            whole = frame_json(f'{head[:-1]},"game":{known[1]}}}', "table")
        messages = ((view.get("game_id"), view.get("seq")), whole, frame_json(head, "state"))
        self._encoded[(table_id, full)] = (version, messages)
        return messages

    # ---------------------------------------------------------------------------------------- pages
    async def page(self, request: Request) -> Response:
        path = request.url.path
        return HTMLResponse(page_html("table" if path.startswith("/table/") else PAGES[path]))

    async def overview(self, request: Request) -> Response:
        views = [self.safe_view(t, False) for t in self.store.table_ids()]
        return JSONResponse({"round": self.store.round_shown(), "tables": [v for v in views if v is not None],
                             "rejected": self.store.rejected})  # fmt: skip

    async def table(self, request: Request) -> Response:
        table_id = request.path_params["table"]
        view = self.safe_view(table_id, True)
        if view is None:
            return error(404, f"no table {table_id[:40]!r} has reported", "no_table")
        return JSONResponse(view)

    async def chart(self, request: Request) -> Response:
        """The table's current game's score over time as SVG (the table page draws it under the players)."""
        table_id = request.path_params["table"]
        lang = "en" if request.query_params.get("lang") == "en" else "cs"
        record = self.store.current_game(table_id)
        if record is None or not record.applied:
            return error(404, f"no game at table {table_id[:40]!r}", "no_table")
        svg = await run_in_threadpool(score_chart_svg, record.game, lang)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def standings_view(self, request: Request) -> Response:
        if self.desk is not None:  # the desk's deník is the one record of results: its TurČAS standings, always
            payload = await run_in_threadpool(self.desk.standings_payload)
            return JSONResponse(payload | {"round": self.store.round_shown()})
        upto_text = request.query_params.get("round", "")
        upto = int(upto_text) if upto_text.isdigit() and len(upto_text) <= 3 else None
        games = self.store.results()
        rounds = sorted({g.round for g in games})
        shown = [n for n in rounds if upto is None or n <= upto]
        excluded = {s.player_id: s.excluded.round for s in self.store.sanctions() if s.excluded is not None}
        return JSONResponse({
            "round": self.store.round_shown(),
            "rounds": {str(n): [s.to_dict() | {"excluded": s.player_id in excluded and excluded[s.player_id] <= n}
                                for s in results.standings(games, n)] for n in shown},
            "results": [g.to_dict() for g in games],
        })  # fmt: skip

    async def status(self, request: Request) -> Response:
        return JSONResponse(self.store.status_view() | {"streams": self.streams, "round": self.store.round_shown(),
                                                        "sanctions": [s.to_dict() for s in self.store.sanctions()],
                                                        "logins": {**self.auth.throttle.view(), **self.auth.checks.view()},
                                                        "connections": self.hall.view(),
                                                        "share": self.link.share.view() if self.link else None,
                                                        "broker": self._broker_view()})  # fmt: skip

    def _broker_view(self) -> dict[str, Any] | None:
        """The hub's own broker link: up, or down and why, in words (``hub.link.broker_says``)."""
        if self.link is None:
            return None
        view = self.link.broker.view()
        return view | {"says": {lang: broker_says(view, lang) for lang in ("cs", "en")}}

    async def session(self, request: Request) -> Response:
        cookie = request.cookies.get(COOKIE)
        entry, enabled = await run_in_threadpool(lambda: (self.auth.session(cookie), self.auth.enabled))
        control = enabled and self.link is not None
        return JSONResponse({"referee": entry[0] if entry else None, "csrf": entry[1] if entry else None,
                             "control": control})  # fmt: skip

    async def players(self, request: Request) -> Response:
        if request.method == "POST":
            referee = await run_in_threadpool(self.referee, request)
            body = validate(PlayersBody, await self.body(request, MAX_PLAYERS_BYTES), "POST /api/players")
            rows = [(p.id, p.name) for p in body.players]
            try:
                for pid, name in rows:
                    check_text("name", name, check_text("id", pid))
            except BadText as exc:
                raise HttpError(400, exc.text("cs"), "bad_player") from None
            await run_in_threadpool(self.store.set_players, rows)
            await run_in_threadpool(self.auth.audit, referee, "players", {"count": len(rows)}, self.client(request))
        return JSONResponse(self.store.players())

    # ---------------------------------------------------------------------------------------- referee
    async def login(self, request: Request) -> Response:
        body = validate(LoginBody, await self.body(request), "POST /api/login")
        session, token = await self.auth.login_off_path(body.user, body.password, self.client(request), body.code)
        response = JSONResponse({"referee": body.user, "csrf": token})
        response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path="/",
                            secure=request.url.scheme == "https")  # fmt: skip
        return response

    async def logout(self, request: Request) -> Response:
        await run_in_threadpool(self.auth.logout, request.cookies.get(COOKIE), self.client(request))
        response = JSONResponse({"referee": None})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                               secure=request.url.scheme == "https")  # fmt: skip
        return response

    async def round(self, request: Request) -> Response:
        referee = await run_in_threadpool(self.referee, request)
        body = validate(RoundBody, await self.body(request), "POST /api/round")
        link = self.link
        if link is None:
            raise HttpError(503, "this server has no broker link: round control is off", "no_link")
        command = await run_in_threadpool(link.send_round_command, body.command, body.round, referee)
        await run_in_threadpool(self.auth.audit, referee, "round", {"command": body.command, "round": body.round,
                                "id": command["id"]}, self.client(request))  # fmt: skip
        return JSONResponse(command)

    async def aside(self, request: Request) -> Response:
        """A referee takes a game put aside in, or clears a table's games aside (``hub.quarantine``)."""
        referee = await run_in_threadpool(self.referee, request)
        body = validate(AsideBody, await self.body(request), "POST /api/aside")
        if body.action == "release":
            if body.game is None or not await run_in_threadpool(self.store.release, body.table, body.game):
                raise HttpError(404, f"no game {body.game!r} of table {body.table} is aside", "no_game")
            done = 1
        else:
            done = await run_in_threadpool(self.store.clear_aside, body.table)
        await run_in_threadpool(self.auth.audit, referee, f"aside_{body.action}",
                                {"table": body.table, "game": body.game, "games": done}, self.client(request))  # fmt: skip
        return JSONResponse({"action": body.action, "table": body.table, "games": done})

    async def audit(self, request: Request) -> Response:
        await run_in_threadpool(self.referee, request)
        return JSONResponse(await run_in_threadpool(self.auth.audit_log))

    def results_text(self, number: int | None = None) -> str:
        """The results CSV: the desk's deník (the one record of results), or the tables' games without a desk."""
        if self.desk is not None:
            return results.denik_results_csv(self.desk.tournament, number)
        return results.results_csv(self.store.results(number))

    async def export_results(self, request: Request) -> Response:
        referee = await run_in_threadpool(self.referee, request)
        await run_in_threadpool(self.auth.audit, referee, "export", {"file": "results.csv"}, self.client(request))
        text = await run_in_threadpool(self.results_text)
        return download(text.encode(), "text/csv; charset=utf-8", "results.csv")

    async def export_tournament(self, request: Request) -> Response:
        """The ladder keeper's files from the desk's deník: ``denik.jsonl``, ``ladder.csv``, ``games.csv`` (every
        rated game from each side), ``tournament.t`` (TSH)."""
        referee = await run_in_threadpool(self.referee, request)
        name = request.path_params["name"]
        made = TOURNAMENT_EXPORTS.get(name)
        if made is None or self.desk is None:
            raise HttpError(404, f"no such export: {name[:40]} ({', '.join(TOURNAMENT_EXPORTS)} with the desk)",
                            "no_export")  # fmt: skip
        await run_in_threadpool(self.auth.audit, referee, "export", {"file": name}, self.client(request))
        kind, make = made
        return download((await run_in_threadpool(make, self.desk)).encode(), kind, name)

    async def export_round(self, request: Request) -> Response:
        referee = await run_in_threadpool(self.referee, request)
        name = request.path_params["name"]
        stem, _, ext = name.rpartition(".")
        if not stem.isdigit() or len(stem) > 3 or not 1 <= int(stem) <= MAX_ROUND or ext not in ("zip", "csv"):
            raise HttpError(404, f"no such export: {name[:40]} (round/<1-{MAX_ROUND}>.zip or .csv)", "no_export")
        number = int(stem)
        await run_in_threadpool(self.auth.audit, referee, "export", {"file": name}, self.client(request))
        text = await run_in_threadpool(self.results_text, number)
        if ext == "zip":
            data = await run_in_threadpool(results.round_archive, self.store, number, "cs", text)
            return download(data, "application/zip", f"round{number}.zip")
        return download(text.encode(), "text/csv; charset=utf-8", f"round{number}.csv")

    # ---------------------------------------------------------------------------------------- SSE
    async def events(self, request: Request) -> Response:
        cookie = request.cookies.get(COOKIE)
        if self.streams >= MAX_STREAMS and not (cookie and self.streams < MAX_STREAMS + STREAM_RESERVE and
                                                await run_in_threadpool(self.auth.session, cookie)):  # fmt: skip
            return error(503, f"already {MAX_STREAMS} live pages open", "busy")
        client = self.client(request)
        if self.hall.streams_full(client):
            return error(503, f"already {self.hall.streams_per_address} live pages open from {client}", "busy")
        table_id = request.path_params.get("table")
        full = table_id is not None
        keys = None if table_id is None else [table_key(table_id), ROUND_KEY]
        return response(self._stream(table_id, keys, full, client))

    async def _stream(
        self, table_id: str | None, keys: list[str] | None, full: bool, client: str
    ) -> AsyncIterator[bytes]:
        """The messages of one live page: the round and every table (or the one) at first, then what changed;
        the messages of one wake-up go out in one write."""
        feed, notifier = self.store.feed, self.notifier
        assert notifier is not None
        games: dict[str, tuple[Any, Any]] = {}  # per table, the game token this stream has sent

        def table_message(tid: str) -> bytes:
            messages = self.encoded(tid, full)
            if messages is None:
                return b""
            token, whole, state = messages
            if games.get(tid) == token:
                return state
            games[tid] = token
            return whole

        loop = asyncio.get_running_loop()
        self.streams += 1
        self.hall.stream_opened(client)
        try:
            seen = feed.version
            first = [frame(self.store.round_shown(), "round")]
            first += [table_message(tid) for tid in ([table_id] if table_id is not None else self.store.table_ids())]
            yield b"".join(first)
            written = loop.time()
            while not feed.closed:
                version, changed = feed.changes(seen, keys)
                if not changed:
                    if not await notifier.wait(KEEPALIVE_SECONDS):
                        yield KEEPALIVE
                    continue
                early = written + GATHER_SECONDS - loop.time()
                if early > 0:
                    await asyncio.sleep(early)
                    version, changed = feed.changes(seen, keys)
                seen = version
                out = []
                for key in changed:
                    if key == ROUND_KEY:
                        out.append(frame(self.store.round_shown(), "round"))
                    elif key.startswith("table:"):
                        out.append(table_message(key.removeprefix("table:")))
                    elif key == STATUS_KEY:
                        out.append(frame({"rejected": self.store.rejected}, "status"))
                data = b"".join(out)
                if data:
                    yield data
                    written = loop.time()
        finally:
            self.streams -= 1
            self.hall.stream_closed(client)


@functools.cache
def page_html(name: str) -> str:
    """A page: the shell (head, header with the navigation) around the page's own part, the build in its footer."""
    shell = (STATIC / "shell.html").read_text(encoding="utf-8")
    main = (STATIC / f"{'index' if name == 'overview' else name}.main.html").read_text(encoding="utf-8")
    premiums = "/".join(premium_rows())  # the boards' premium squares (engine.board), drawn by hub.js
    return (shell.replace("{{page}}", name).replace("{{build}}", build_footer()).replace("{{premiums}}", premiums)
            .replace("{{main}}", main))


TOURNAMENT_EXPORTS: dict[str, tuple[str, Callable[[Any], str]]] = {
    "denik.jsonl": ("application/x-ndjson; charset=utf-8", lambda desk: results.denik_jsonl(desk.denik.entries())),
    "ladder.csv": ("text/csv; charset=utf-8", lambda desk: ladder_csv(ladder(desk.tournament))),
    "games.csv": ("text/csv; charset=utf-8", lambda desk: games_csv(desk.tournament)),
    "tournament.t": ("text/plain; charset=utf-8", lambda desk: export_tsh(desk.tournament)),
}
"""``/export/<name>``: the desk's files for the ladder keeper, each made from the deník."""


def download(data: bytes, kind: str, filename: str) -> Response:
    return Response(data, media_type=kind, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


class HubServer:
    """Serves a ``HubStore`` with uvicorn in a thread of its own (``start``/``stop``). ``ssl_certfile`` and
    ``ssl_keyfile`` serve HTTPS directly; ``proxy`` trusts ``X-Forwarded-Proto``/``-For`` from that address
    (a TLS reverse proxy on the same machine, e.g. ``127.0.0.1``)."""

    def __init__(
        self,
        store: HubStore,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        link: HubLink | None = None,
        auth: RefereeAuth | None = None,
        ssl_certfile: str | None = None,
        ssl_keyfile: str | None = None,
        proxy: str | None = None,
        desk: Any = None,
    ) -> None:
        self.store = store
        self.hub = HubApp(store, link, auth, desk)
        if proxy is not None:  # every connection through the proxy comes from its address
            self.hub.hall.exempt = frozenset({proxy})
        self.link = link
        self.auth = self.hub.auth
        self.http = ServerThread(
            self.hub.app, port, name="hub-http", host=host, streams=store.feed, backlog=1024, server_header=False,
            lifespan="on", timeout_keep_alive=KEEPALIVE_IDLE, limit_concurrency=MAX_CONNECTIONS + REFEREE_RESERVE,
            timeout_graceful_shutdown=2, ssl_certfile=ssl_certfile, ssl_keyfile=ssl_keyfile,
            proxy_headers=proxy is not None, forwarded_allow_ips=proxy,
            http=per_address_protocol(with_head_timeout(HEAD_SECONDS), self.hub.hall),
        )  # fmt: skip
        self.tls = ssl_certfile is not None

    @property
    def port(self) -> int:
        return self.http.port

    def start(self, timeout: float = 30.0) -> None:
        """Serve in the background; returns once the application has started (raises HubError if not)."""
        self.http.start()
        if not self.hub.started.wait(timeout):
            raise HubError(f"the hub's web server did not start within {timeout:.0f} s")

    def stop(self) -> None:
        """End the live feeds, stop serving, close the socket."""
        self.http.stop()
