"""A request head must arrive whole within ``HEAD_SECONDS``: uvicorn's h11 protocol with a timer on the head.

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive``, but stops that timer at the first
byte a client sends, and never starts one for a connection that has sent nothing: a client that opens
connections and sends a head a byte at a time (slowloris), or nothing at all, held each of them for good, and
``limit_concurrency`` of them made the server answer 503 to everybody. This protocol starts a timer when a
connection opens and after each response; when it fires and the connection still waits for (the rest of) a
request head, the connection is closed. A request being served (a live feed too) is not touched.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class HeadTimeoutProtocol(H11Protocol):
    """``H11Protocol`` closing a connection whose request head is not complete ``head_seconds()`` after the
    connection opened or the last response ended."""

    head_seconds: float = 10.0
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
