"""The hub's web server: the live pages, their JSON and server-sent-event feeds, round control, exports.

| method | path | who | answer |
|---|---|---|---|
| GET | ``/`` ``/table/<id>`` ``/standings`` ``/referee`` | all | the pages (``static/``) |
| GET | ``/api/overview`` | all | ``{"round", "tables": [summary, ...]}`` (a summary has no move history) |
| GET | ``/api/table/<id>`` | all | one table's full view (``HubStore.table_view``) |
| GET | ``/api/standings`` | all | ``{"round", "rounds": {n: [standing, ...]}, "results": [...]}`` |
| GET | ``/api/session`` | all | ``{"referee": bool, "csrf": token or null, "control": bool}`` |
| GET | ``/events`` | all | SSE: ``event: table`` (a summary) per changed table, ``event: round`` |
| GET | ``/events/table/<id>`` | all | SSE: ``event: table`` (the full view) when that table changes, ``event: round`` |
| POST | ``/api/login`` ``{"password"}`` / ``/api/logout`` | all | sets / clears the session cookie |
| POST | ``/api/round`` ``{"command", "round"}`` | referee + CSRF | publishes the round command |
| GET | ``/export/round/<n>.zip`` ``/export/round/<n>.csv`` ``/export/results.csv`` | referee | exports |

The same server with a store fed directly by the table daemon (no broker, no referee) serves one table's page
on the table unit: see ``docs/hub.md``.
"""

from __future__ import annotations

import json
import logging
import mimetypes
import threading
from http import cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from device.hub import results
from device.hub.auth import COOKIE, AuthError, RefereeAuth
from device.hub.link import HubLink
from device.hub.store import ROUND_KEY, HubStore, table_key
from device.publish.topics import SchemaError
from hw_sim.httpjson import MAX_BODY, HttpError

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
PAGES = {"/": "index.html", "/standings": "standings.html", "/referee": "referee.html"}
STATIC = resources.files("device.hub") / "static"


class HubHandler(BaseHTTPRequestHandler):
    """Routes one request; errors answer ``{"error": ...}`` with their status."""

    server: HubServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        log.debug("%s %s", self.address_string(), format % args)

    # ------------------------------------------------------------------------------------------ replies
    def send_bytes(self, status: int, data: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, status: int, payload: Any, extra: dict[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_bytes(status, data, "application/json; charset=utf-8", extra)

    def session_id(self) -> str | None:
        jar = cookies.SimpleCookie()
        try:
            jar.load(self.headers.get("Cookie", ""))
        except cookies.CookieError:
            return None
        morsel = jar.get(COOKIE)
        return morsel.value if morsel else None

    def read_body(self) -> dict[str, Any]:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise HttpError(400, "bad Content-Length") from None
        if length > MAX_BODY:
            raise HttpError(413, f"body of {length} bytes is larger than {MAX_BODY}")
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw.strip() else {}
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise HttpError(400, f"body is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise HttpError(400, f"body must be a JSON object, got {body!r:.60}")
        return body

    def require_referee(self) -> None:
        """Raise AuthError unless this request carries the referee's session (and, for POST, its CSRF token
        and a same-origin ``Origin`` if the browser sent one)."""
        if self.command == "POST":
            origin = self.headers.get("Origin")
            host = self.headers.get("Host", "")
            if origin and urlsplit(origin).netloc != host:
                raise AuthError(403, f"cross-origin request from {origin!r} refused")
            self.server.auth.check(self.session_id(), self.headers.get("X-CSRF-Token"))
        elif self.server.auth.token_of(self.session_id()) is None:
            raise AuthError(401, "the chief referee must log in first")

    # ------------------------------------------------------------------------------------------- routes
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        self._guard(self._get)

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        self._guard(self._post)

    def _guard(self, action: Any) -> None:
        try:
            action()
        except AuthError as exc:
            self.send_json(exc.status, {"error": str(exc)})
        except HttpError as exc:
            self.send_json(exc.status, {"error": exc.message})
        except SchemaError as exc:
            self.send_json(400, {"error": str(exc)})
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a broken request must answer, never kill the server silently
            log.exception("%s %s failed", self.command, self.path)
            self.send_json(500, {"error": f"{type(exc).__name__}: {exc}"})

    def _get(self) -> None:
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        store = self.server.store
        if path in PAGES:
            return self._static(PAGES[path])
        if path.startswith("/table/"):
            return self._static("table.html")
        if path.startswith("/static/"):
            return self._static(path.removeprefix("/static/"))
        if path == "/api/overview":
            return self.send_json(200, self.server.overview())
        if path.startswith("/api/table/"):
            view = store.table_view(path.removeprefix("/api/table/"))
            if view is None:
                raise HttpError(404, f"no table {path.removeprefix('/api/table/')!r} has reported")
            return self.send_json(200, view)
        if path == "/api/standings":
            upto = query.get("round", [None])[0]
            return self.send_json(200, self.server.standings(int(upto) if upto and upto.isdigit() else None))
        if path == "/api/session":
            token = self.server.auth.token_of(self.session_id())
            control = self.server.auth.enabled and self.server.link is not None
            return self.send_json(200, {"referee": token is not None, "csrf": token, "control": control})
        if path == "/events":
            return self._stream(None, full=False)
        if path.startswith("/events/table/"):
            return self._stream(path.removeprefix("/events/table/"), full=True)
        if path.startswith("/export/"):
            self.require_referee()
            return self._export(path.removeprefix("/export/"))
        raise HttpError(404, f"no such page: {path}")

    def _post(self) -> None:
        path = urlsplit(self.path).path
        body = self.read_body()
        auth = self.server.auth
        if path == "/api/login":
            password = body.get("password")
            if not isinstance(password, str):
                raise HttpError(400, "'password' must be a string")
            session, token = auth.login(password)
            cookie = f"{COOKIE}={session}; HttpOnly; SameSite=Strict; Path=/"
            return self.send_json(200, {"referee": True, "csrf": token}, {"Set-Cookie": cookie})
        if path == "/api/logout":
            auth.logout(self.session_id())
            cookie = f"{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"
            return self.send_json(200, {"referee": False}, {"Set-Cookie": cookie})
        if path == "/api/round":
            self.require_referee()
            link = self.server.link
            if link is None:
                raise HttpError(503, "this server has no broker link: round control is off")
            command, number = body.get("command"), body.get("round")
            return self.send_json(200, link.send_round_command(str(command), number))  # type: ignore[arg-type]
        raise HttpError(404, f"no such endpoint: POST {path}")

    def _static(self, name: str) -> None:
        if "/" in name or name.startswith("."):
            raise HttpError(404, f"no such file: {name}")
        item = STATIC / name
        if not item.is_file():
            raise HttpError(404, f"no such file: {name}")
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        self.send_bytes(200, item.read_bytes(), kind)

    def _export(self, name: str) -> None:
        store = self.server.store
        if name == "results.csv":
            text = results.results_csv(results.results(store))
            return self._download(text.encode(), "text/csv; charset=utf-8", "results.csv")
        stem, _, ext = name.removeprefix("round/").rpartition(".")
        if not name.startswith("round/") or not stem.isdigit() or ext not in ("zip", "csv"):
            raise HttpError(404, f"no such export: {name} (round/<n>.zip, round/<n>.csv, results.csv)")
        number = int(stem)
        if ext == "zip":
            return self._download(results.round_archive(store, number), "application/zip", f"round{number}.zip")
        text = results.results_csv(results.results(store, number))
        return self._download(text.encode(), "text/csv; charset=utf-8", f"round{number}.csv")

    def _download(self, data: bytes, kind: str, filename: str) -> None:
        self.send_bytes(200, data, kind, {"Content-Disposition": f'attachment; filename="{filename}"'})

    # -------------------------------------------------------------------------------------------- SSE
    def _stream(self, table_id: str | None, full: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        feed = self.server.store.feed
        keys = None if table_id is None else [table_key(table_id), ROUND_KEY]
        seen = feed.version
        try:
            self._send("round", self.server.store.round_view())
            for tid in [table_id] if table_id is not None else self.server.store.table_ids():
                view = self.server.store.table_view(tid, full)
                if view is not None:
                    self._send("table", view)
            while True:
                change = feed.wait(seen, keys, KEEPALIVE_SECONDS)
                if change is None:
                    return
                version, changed = change
                if not changed:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    continue
                seen = version
                for key in changed:
                    if key == ROUND_KEY:
                        self._send("round", self.server.store.round_view())
                    elif key.startswith("table:"):
                        view = self.server.store.table_view(key.removeprefix("table:"), full)
                        if view is not None:
                            self._send("table", view)
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def _send(self, event: str, payload: Any) -> None:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        self.wfile.write(f"event: {event}\ndata: {data}\n\n".encode())
        self.wfile.flush()


class HubServer(ThreadingHTTPServer):
    """Serves a ``HubStore``; ``link`` (the broker) and ``auth`` enable round control."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        store: HubStore,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        link: HubLink | None = None,
        auth: RefereeAuth | None = None,
    ) -> None:
        super().__init__((host, port), HubHandler)
        self.store = store
        self.link = link
        self.auth = auth or RefereeAuth(None)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.server_address[1]

    def overview(self) -> dict[str, Any]:
        views = [self.store.table_view(t, full=False) for t in self.store.table_ids()]
        return {"round": self.store.round_view(), "tables": [v for v in views if v is not None]}

    def standings(self, upto: int | None) -> dict[str, Any]:
        games = results.results(self.store)
        rounds = sorted({g.round for g in games})
        shown = [n for n in rounds if upto is None or n <= upto]
        return {
            "round": self.store.round_view(),
            "rounds": {str(n): [s.to_dict() for s in results.standings(games, n)] for n in shown},
            "results": [g.__dict__ | {"players": list(g.players), "scores": list(g.scores)} for g in games],
        }

    def start(self) -> None:
        self._thread = threading.Thread(target=self.serve_forever, args=(0.05,), name="hub-http", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the SSE streams, stop serving, close the socket."""
        self.store.feed.close()
        if self._thread is not None:
            self.shutdown()
            self._thread.join(5.0)
            self._thread = None
        self.server_close()
