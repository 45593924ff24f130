"""Small loopback HTTP plumbing shared by the panel and the sim's web server: JSON routes and server-sent events.

``Broadcaster`` is a version counter under a ``threading.Condition``: ``bump()`` wakes every SSE stream, which then
sends the latest state once (changes that come faster than a client reads are coalesced, never queued).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
"""An SSE stream sends a comment line this often when nothing changed, so a dead client is noticed."""

MAX_BODY = 64 * 1024


class HttpError(Exception):
    """A request the server refuses: ``status`` and a message that names what was wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Broadcaster:
    """Wakes server-sent-event streams when the state changes; ``close()`` ends them."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._version = 0
        self._closed = False

    @property
    def version(self) -> int:
        with self._cond:
            return self._version

    @property
    def closed(self) -> bool:
        with self._cond:
            return self._closed

    def bump(self) -> None:
        """The state changed: wake every stream."""
        with self._cond:
            self._version += 1
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def wait_change(self, seen: int, timeout: float) -> int | None:
        """Block until the version differs from ``seen`` (returns it), the timeout passes (returns ``seen``) or the
        broadcaster closes (returns None)."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or self._version != seen, timeout)
            if self._closed:
                return None
            return self._version


Route = Callable[[dict[str, Any]], Any]


def body_number(body: dict[str, Any], key: str, default: float | None = None) -> float:
    """A number from a JSON body; raises HttpError 400 naming the key if it is missing or not a number."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise HttpError(400, f"{key!r} must be a number, got {value!r}")
    return value


def body_int(body: dict[str, Any], key: str, default: int | None = None) -> int:
    """An integer from a JSON body; raises HttpError 400 naming the key otherwise."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HttpError(400, f"{key!r} must be an integer, got {value!r}")
    return value


def body_str(body: dict[str, Any], key: str, default: str | None = None) -> str:
    """A string from a JSON body; raises HttpError 400 naming the key otherwise."""
    value = body.get(key, default)
    if not isinstance(value, str):
        raise HttpError(400, f"{key!r} must be a string, got {value!r}")
    return value


class JsonHandler(BaseHTTPRequestHandler):
    """Dispatches ``GET``/``POST`` to the server's route tables; answers JSON, errors as ``{"error": ...}``."""

    server: JsonServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        log.debug("%s %s", self.address_string(), format % args)

    def send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def read_body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise HttpError(413, f"body of {length} bytes is larger than {MAX_BODY}")
        raw = self.rfile.read(length) if length else b""
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise HttpError(400, f"body is not JSON: {e}") from None
        if not isinstance(body, dict):
            raise HttpError(400, f"body must be a JSON object, got {body!r}")
        return body

    def path_only(self) -> str:
        return self.path.split("?", 1)[0]

    def _dispatch(self, routes: dict[str, Route], body: dict[str, Any]) -> None:
        path = self.path_only()
        route = routes.get(path)
        if route is None:
            raise HttpError(404, f"no such endpoint: {self.command} {path}")
        self.send_json(200, route(body))

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        path = self.path_only()
        try:
            if path == self.server.events_path:
                self.stream_events()
                return
            if self.server.serve_static(self, path):
                return
            self._dispatch(self.server.get_routes, {})
        except HttpError as e:
            self.send_json(e.status, {"error": e.message})
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        try:
            self._dispatch(self.server.post_routes, self.read_body())
        except HttpError as e:
            self.send_json(e.status, {"error": e.message})
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as e:  # a broken command must answer, never kill the server thread silently
            log.exception("POST %s failed", self.path)
            self.send_json(500, {"error": f"{type(e).__name__}: {e}"})

    def stream_events(self) -> None:
        """Server-sent events: the state now, then once after every change, until the client or server goes."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        broadcaster = self.server.broadcaster
        seen = broadcaster.version
        try:
            self._send_event(self.server.state())
            while True:
                version = broadcaster.wait_change(seen, KEEPALIVE_SECONDS)
                if version is None:
                    return
                if version == seen:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    continue
                seen = version
                self._send_event(self.server.state())
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def _send_event(self, payload: Any) -> None:
        data = json.dumps(payload, ensure_ascii=False)
        self.wfile.write(f"data: {data}\n\n".encode())
        self.wfile.flush()


class JsonServer(ThreadingHTTPServer):
    """A loopback server with JSON routes, one SSE path fed by ``broadcaster`` and ``state``, optional static files."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        port: int,
        state: Callable[[], Any],
        get_routes: dict[str, Route],
        post_routes: dict[str, Route],
        events_path: str = "/events",
        handler: type[JsonHandler] = JsonHandler,
    ) -> None:
        super().__init__(("127.0.0.1", port), handler)
        self.state = state
        self.get_routes = get_routes
        self.post_routes = post_routes
        self.events_path = events_path
        self.broadcaster = Broadcaster()
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.server_address[1]

    def serve_static(self, handler: JsonHandler, path: str) -> bool:
        """Override to serve files; True if the request was answered."""
        return False

    def start(self, name: str) -> None:
        # serve_forever checks for shutdown() between selects; a short interval makes stop() prompt.
        self._thread = threading.Thread(target=self.serve_forever, args=(0.05,), name=name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the SSE streams, stop serving and close the socket."""
        self.broadcaster.close()
        if self._thread is not None:
            self.shutdown()
            self._thread.join(5.0)
            self._thread = None
        self.server_close()
