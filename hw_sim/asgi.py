"""The simulator's HTTP plumbing on Starlette and uvicorn: JSON bodies with limits, server-sent events, a loopback
server on its own thread. The panel (inside the daemon) and the sim's page server are both built from it.

``Broadcaster`` is a version counter: ``bump()`` (from any thread: gpiozero callbacks, the table's loop) wakes
every ``/events`` stream, which then sends the latest state once (changes that come faster than a client reads are
coalesced, never queued). ``close()`` ends the streams, so the server can stop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from eventstream import KEEPALIVE, KEEPALIVE_SECONDS, frame, response

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
"""The largest request body accepted (413 beyond)."""
BODY_SECONDS = 10.0
"""A request body must arrive within this long (408 otherwise): a stalled client cannot hold a worker."""
MAX_CONNECTIONS = 64
"""uvicorn answers 503 beyond this many concurrent connections and tasks."""
KEEP_ALIVE_SECONDS = 5
STOP_SECONDS = 3
"""uvicorn's graceful shutdown: open requests get this long to finish, then are cancelled."""


class Broadcaster:
    """Wakes server-sent-event streams when the state changes; ``close()`` ends them. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = 0
        self._closed = False
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    @property
    def version(self) -> int:
        with self._lock:
            return self._version

    @property
    def closed(self) -> bool:
        with self._lock:
            return self._closed

    def bump(self) -> None:
        """The state changed: wake every stream (callable from any thread)."""
        with self._lock:
            self._version += 1
            waiters = list(self._waiters)
        _wake(waiters)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            waiters = list(self._waiters)
        _wake(waiters)

    async def wait_change(self, seen: int, timeout: float) -> int | None:
        """Wait until the version differs from ``seen`` (returns it), the timeout passes (returns ``seen``) or the
        broadcaster closes (returns None)."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            if self._closed:
                return None
            if self._version != seen:
                return self._version
            self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter[1].wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._lock:
                self._waiters.discard(waiter)
        with self._lock:
            return None if self._closed else self._version


def _wake(waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]) -> None:
    for loop, event in waiters:
        try:
            loop.call_soon_threadsafe(event.set)
        except RuntimeError:  # that stream's loop has already closed
            pass


def events_route(path: str, state: Callable[[], Any], broadcaster: Broadcaster) -> Route:
    """``GET path``: server-sent events of ``state()`` (see ``event_stream``)."""

    async def endpoint(_request: Request) -> Response:
        return event_stream(state, broadcaster)

    return Route(path, endpoint)


def event_stream(state: Callable[[], Any], broadcaster: Broadcaster) -> StreamingResponse:
    """Server-sent events: ``state()`` now, then once after every ``bump()``, until the client or server goes."""

    async def events() -> AsyncIterator[bytes]:
        seen = broadcaster.version
        yield frame(await run_in_threadpool(state))  # state() may wait for a lock: not on the event loop
        while True:
            version = await broadcaster.wait_change(seen, KEEPALIVE_SECONDS)
            if version is None:
                return
            if version == seen:
                yield KEEPALIVE
                continue
            seen = version
            yield frame(await run_in_threadpool(state))

    return response(events())


def json_response(payload: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(payload, status, headers={"Cache-Control": "no-store"})


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body). Raises HTTPException 413 beyond MAX_BODY (by the
    declared length or while reading), 408 if it does not arrive within BODY_SECONDS, 400 for anything but a JSON
    object."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise HTTPException(413 if declared.isdigit() else 400, f"bad or too large Content-Length {declared!r} "
                            f"(at most {MAX_BODY} bytes)")  # fmt: skip
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise HTTPException(413, f"body larger than {MAX_BODY} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise HTTPException(408, f"the body did not arrive within {BODY_SECONDS:g} s") from None
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise HTTPException(400, f"body is not JSON: {e}") from None
    if not isinstance(body, dict):
        raise HTTPException(400, f"body must be a JSON object, got {body!r}"[:200])
    return body


def body_number(body: dict[str, Any], key: str, default: float | None = None) -> float:
    """A number from a JSON body; raises HTTPException 400 naming the key if it is missing or not a number."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise HTTPException(400, f"{key!r} must be a number, got {value!r}")
    return value


def body_int(body: dict[str, Any], key: str, default: int | None = None) -> int:
    """An integer from a JSON body; raises HTTPException 400 naming the key otherwise."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HTTPException(400, f"{key!r} must be an integer, got {value!r}")
    return value


def body_str(body: dict[str, Any], key: str, default: str | None = None) -> str:
    """A string from a JSON body; raises HTTPException 400 naming the key otherwise."""
    value = body.get(key, default)
    if not isinstance(value, str):
        raise HTTPException(400, f"{key!r} must be a string, got {value!r}")
    return value


def get_json(handler: Callable[[], Any]) -> Callable[[Request], Any]:
    """A GET endpoint answering ``handler()`` as JSON (run on a worker thread: it may take locks)."""

    async def endpoint(_request: Request) -> Response:
        return json_response(await run_in_threadpool(handler))

    return endpoint


def post_json(handler: Callable[[dict[str, Any]], Any]) -> Callable[[Request], Any]:
    """A POST endpoint: the JSON body (see ``json_body``) to ``handler(body)`` on a worker thread (it may block
    until the table has seen a press), its answer as JSON."""

    async def endpoint(request: Request) -> Response:
        body = await json_body(request)
        return json_response(await run_in_threadpool(handler, body))

    return endpoint


async def _http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return json_response({"error": exc.detail}, exc.status_code)


async def _crash(request: Request, exc: Exception) -> Response:
    # a broken command must answer, never leave the client hanging
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return json_response({"error": f"{type(exc).__name__}: {exc}"}, 500)


def json_app(routes: Sequence[BaseRoute]) -> Starlette:
    """A Starlette app whose errors (404, 405, 4xx raised as HTTPException, crashes) answer ``{"error": ...}``."""
    return Starlette(routes=list(routes), exception_handlers={HTTPException: _http_error, Exception: _crash})


class LoopbackServer:
    """uvicorn serving ``app`` on 127.0.0.1 from its own thread. ``port`` 0 picks a free one (see ``.port``).

    The socket is bound in the constructor, so a taken port raises OSError there. ``stop()`` ends the SSE streams
    (``broadcaster``), then uvicorn's graceful shutdown (bounded by STOP_SECONDS)."""

    def __init__(self, app: Starlette, port: int, broadcaster: Broadcaster, name: str) -> None:
        self.broadcaster = broadcaster
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._socket.bind((HOST, port))
            self._socket.listen(128)
        except OSError:
            self._socket.close()
            raise
        self.port: int = self._socket.getsockname()[1]
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            limit_concurrency=MAX_CONNECTIONS,
            timeout_keep_alive=KEEP_ALIVE_SECONDS,
            timeout_graceful_shutdown=STOP_SECONDS,
            h11_max_incomplete_event_size=16 * 1024,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            self._server.run(sockets=[self._socket])
        except Exception:  # the thread must say why it stopped serving
            log.exception("HTTP server on port %d stopped", self.port)

    def stop(self) -> None:
        """End the SSE streams, stop serving and close the socket."""
        self.broadcaster.close()
        self._server.should_exit = True
        self._thread.join(STOP_SECONDS + 5.0)
        self._socket.close()
