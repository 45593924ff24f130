"""The simulator's JSON API on Starlette: JSON bodies with limits, numbers and strings read from them with errors
that name the key, endpoints that run their handler on a worker thread, errors answered as ``{"error": ...}``. The
panel (inside the daemon) and the sim's page server are both built from it; their server-sent events
(``eventstream.changes``) and their uvicorn thread (``eventstream.server``) are the ones every live page shares.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
"""The largest request body accepted (413 beyond)."""
BODY_SECONDS = 10.0
"""A request body must arrive within this long (408 otherwise): a stalled client cannot hold a worker."""


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


class Refused(HTTPException):
    """A 400 answer ``{"error": detail, **extra}``: ``extra`` carries what a client words itself (a problem code
    and its values)."""

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(400, detail)
        self.extra = extra


async def _http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return json_response({"error": exc.detail, **getattr(exc, "extra", {})}, exc.status_code)


async def _crash(request: Request, exc: Exception) -> Response:
    # a broken command must answer, never leave the client hanging
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return json_response({"error": f"{type(exc).__name__}: {exc}"}, 500)


def json_app(routes: Sequence[BaseRoute]) -> Starlette:
    """A Starlette app whose errors (404, 405, 4xx raised as HTTPException, crashes) answer ``{"error": ...}``."""
    return Starlette(routes=list(routes), exception_handlers={HTTPException: _http_error, Exception: _crash})
