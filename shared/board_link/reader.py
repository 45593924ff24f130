"""``BoardLink``: the board's serial link on a background thread, opened by pyserial URL.

The URL is anything ``serial.serial_for_url`` opens: ``/dev/ttyACM0`` (the Pico's USB CDC port), a pty path (the
simulator), ``socket://host:port``, ``loop://``. The thread opens the port, runs a ``HostSession`` on the bytes it
reads and hands every event to ``on_event`` (called on the reader thread: the table puts it on its queue). When
the port fails, reaches its end or the board falls silent for ``heartbeat_timeout_s``, it reports ``LinkDown``
(if the link was up), closes the port and retries every ``reconnect_s`` until ``stop()``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

import serial

from firmware import protocol as P
from shared.board_link.events import Grid
from shared.board_link.session import HostSession
from shared.timesource import MonotonicTime

log = logging.getLogger(__name__)

STOPPED = "stopped"

READ_TIMEOUT_S = 0.05
"""How long one read may block: bounds how late ``stop()`` and the heartbeat check are noticed."""
WRITE_TIMEOUT_S = 0.5
"""A request the port cannot take within this (a board that stopped reading) fails instead of blocking."""


class TimeSource(Protocol):
    def now(self) -> float: ...


class BoardLink:
    """The Pi's reader of the board protocol (``firmware/PROTOCOL.md``) with automatic reconnection.

    ``time_source`` (``now()`` in seconds; monotonic by default) times the heartbeat timeout, so a test can
    drive it with ``shared.timesource.FakeTime``. Raises ValueError for an empty URL.
    """

    def __init__(
        self,
        url: str,
        on_event: Callable[[object], None],
        *,
        reconnect_s: float = 1.0,
        heartbeat_timeout_s: float = 1.5,
        baudrate: int = 115200,
        time_source: TimeSource | None = None,
    ) -> None:
        if not url:
            raise ValueError("board link: empty serial URL (e.g. /dev/ttyACM0 or socket://host:port)")
        self.url = url
        self.on_event = on_event
        self.reconnect_s = reconnect_s
        self.baudrate = baudrate
        self.time = time_source or MonotonicTime()
        self.session = HostSession(heartbeat_timeout_s=heartbeat_timeout_s)
        self._lock = threading.Lock()  # guards the session and the port between the reader and callers
        self._port: serial.SerialBase | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------------------------- public API
    @property
    def grid(self) -> Grid | None:
        """The latest trusted board state, or None before the first snapshot."""
        with self._lock:
            return self.session.grid

    @property
    def up(self) -> bool:
        with self._lock:
            return self.session.up

    def start(self) -> None:
        """Start the reader thread (a daemon thread); raises RuntimeError if already started."""
        if self._thread is not None:
            raise RuntimeError("board link already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"board-link {self.url}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread, close the port and wait for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> BoardLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def request_snapshot(self) -> bool:
        """Ask the board for a full snapshot; False if the link is not connected."""
        return self._send(P.REQ_SNAPSHOT)

    def request_rescan(self) -> bool:
        """Ask the board to forget its debounced state and scan afresh (a snapshot follows)."""
        return self._send(P.REQ_RESCAN)

    def set_debounce(self, n: int) -> bool:
        """Ask the board to confirm a change after ``n`` stable scans (1..255)."""
        if not 1 <= n <= 255:
            raise ValueError(f"debounce must be 1..255 scans, got {n!r}")
        return self._send(P.SET_DEBOUNCE, bytes((n,)))

    def identify(self) -> bool:
        """Ask the board to identify itself (it answers with a hello and blinks its LED)."""
        return self._send(P.IDENTIFY)

    # -------------------------------------------------------------------------------------- internals
    def _send(self, ftype: int, payload: bytes = b"") -> bool:
        with self._lock:
            if self._port is None:
                return False
            self.session.request(ftype, payload)
            return self._flush_locked()

    def _flush_locked(self) -> bool:
        out = self.session.take_output()
        if out and self._port is not None:
            try:
                self._port.write(out)
            except (serial.SerialException, OSError) as e:
                log.warning("board link %s: write failed: %s", self.url, e)
                return False
        return True

    def _emit(self, events: list[object]) -> None:
        for event in events:
            try:
                self.on_event(event)
            except Exception:  # a broken consumer must not kill the link
                log.exception("board link %s: on_event failed for %r", self.url, event)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(
                    self.url, baudrate=self.baudrate, timeout=READ_TIMEOUT_S, write_timeout=WRITE_TIMEOUT_S
                )
            except (serial.SerialException, OSError, ValueError) as e:
                log.debug("board link %s: cannot open: %s", self.url, e)
                self._stop.wait(self.reconnect_s)
                continue
            reason = self._serve(port)
            with self._lock:
                self._port = None
                events = self.session.disconnect(reason)
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
            if events:
                log.log(
                    logging.INFO if reason == STOPPED else logging.WARNING,
                    "board link %s down: %s",
                    self.url,
                    reason,
                )
            self._emit(events)
            if not self._stop.is_set():
                self._stop.wait(self.reconnect_s)

    def _serve(self, port: serial.SerialBase) -> str:
        """Run one connection until it fails; returns the reason."""
        try:
            port.reset_input_buffer()
        except (serial.SerialException, OSError, AttributeError):
            pass
        with self._lock:
            self._port = port
            self.session.connect(self.time.now())
            self._flush_locked()
        while not self._stop.is_set():
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError) as e:
                return f"serial error: {e}"
            now = self.time.now()
            with self._lock:
                events = self.session.feed(data, now) if data else []
                self._flush_locked()
                timed_out = self.session.timed_out(now)
            self._emit(events)
            if timed_out:
                return f"no frame from the board for {self.session.heartbeat_timeout_s:g} s"
        return STOPPED
