"""The Pi's side of the board protocol as a pure state machine: bytes and timestamps in, events and bytes out.

``HostSession`` does no I/O and reads no clock, so tests and fuzzers drive it byte by byte; ``BoardLink`` runs it
on a serial port. Trust rules (``firmware/PROTOCOL.md``, "Recovery"): frames count only in the board's current
session (its per-boot id, learnt from its hello) and only if newer than every frame seen of it, so nothing older
than what was applied is ever applied (a replayed, delayed or duplicated frame, or one from an earlier boot, is
dropped as stale); a snapshot makes the state trusted; a change report is applied only while trusted and only if
its sequence number follows the previous frame's; any gap or a new session (a board reboot) drops trust until
the next snapshot, which is requested at once.
"""

from __future__ import annotations

import logging

from firmware import protocol as P
from firmware import tilecodes
from shared.board_link.events import BoardChanged, Grid, LinkDown, LinkUp, Snapshot
from shared.board_link.grid import BoardCopy

log = logging.getLogger(__name__)

SIZE = 15


def _hello_problem(payload: bytes) -> str:
    """Why a board's hello cannot be worked with (another protocol, size or tile table), or ""."""
    try:
        version, _flags, _fw, rows, cols, table_version, _board_id = P.parse_hello(payload)
    except ValueError as e:
        return str(e)
    if version != P.PROTOCOL_VERSION:
        return f"board speaks protocol version {version}, this reader {P.PROTOCOL_VERSION}"
    if (rows, cols) != (SIZE, SIZE):
        return f"board is {rows}x{cols}, expected {SIZE}x{SIZE}"
    if table_version != tilecodes.TABLE_VERSION:
        return f"board tile-code table {table_version:#06x}, this reader {tilecodes.TABLE_VERSION:#06x}"
    return ""


class HostSession:
    """The protocol state of one board connection (kept across reconnects: the last trusted grid and faults).

    ``connect(now)`` starts a connection (queues the host hello); ``feed(data, now)`` returns the events the bytes
    complete; ``take_output()`` returns the bytes to write to the board; ``timed_out(now)`` says whether the board
    has been silent for longer than ``heartbeat_timeout_s``.
    """

    def __init__(self, *, heartbeat_timeout_s: float = 1.5, retry_s: float = 0.25) -> None:
        self.heartbeat_timeout_s = heartbeat_timeout_s
        self.retry_s = retry_s
        self.decoder = P.FrameDecoder()
        self.up = False
        self.trusted = False
        self.board_id = ""
        self.fw_version = 0
        self.incompatible = ""
        self._board = BoardCopy()
        self._has_grid = False
        self.board_session: int | None = None
        """The board's current session (per boot), from its latest hello."""
        self._retired: set[int] = set()
        """Sessions the board has left (it rebooted): their frames are stale for ever."""
        self._last_seq: int | None = None
        self._last_rx = 0.0
        self._host_session = P.new_session_id()
        self._host_seq = 0
        self._out = bytearray()
        self._asked_snapshot_at: float | None = None
        self._asked_hello_at: float | None = None
        self.stats = {"frames": 0, "stale": 0, "gaps": 0, "snapshots": 0, "changes": 0, "ignored": 0, "sessions": 0}

    # ------------------------------------------------------------------------------------------- state
    @property
    def grid(self) -> Grid | None:
        """The latest trusted grid (kept while the link is down or distrusted), None before the first snapshot."""
        return self._board.grid if self._has_grid else None

    @property
    def faults(self) -> dict[int, str]:
        """Cells that read a fault now: cell -> "open", "short" or "band"."""
        return self._board.faults

    def timed_out(self, now: float) -> bool:
        return now - self._last_rx > self.heartbeat_timeout_s

    # ------------------------------------------------------------------------------------------ output
    def request(self, ftype: int, payload: bytes = b"") -> None:
        """Queue a host-to-board frame (``firmware.protocol`` HOST_HELLO, REQ_SNAPSHOT, ...)."""
        P.check_payload(ftype, payload)
        self._out += P.encode_frame(ftype, self._host_session, self._host_seq, payload)
        self._host_seq = P.next_seq(self._host_seq)

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    def _ask(self, what: str, now: float) -> None:
        """Request the snapshot (or hello) we lack, at most once per ``retry_s``."""
        attr = "_asked_hello_at" if what == "hello" else "_asked_snapshot_at"
        last = getattr(self, attr)
        if last is not None and now - last < self.retry_s:
            return
        setattr(self, attr, now)
        if what == "hello":
            self.request(P.HOST_HELLO, bytes((P.PROTOCOL_VERSION,)))
        else:
            self.request(P.REQ_SNAPSHOT)

    # ---------------------------------------------------------------------------------- connection
    def connect(self, now: float) -> None:
        """A new connection: forget framing and trust, say hello."""
        self.decoder.reset()
        self._out.clear()
        self.up = False
        self.trusted = False
        self._last_rx = now
        self._host_session, self._host_seq = P.new_session_id(), 0
        self._asked_hello_at = None
        self._asked_snapshot_at = None
        self._ask("hello", now)

    def disconnect(self, reason: str) -> list[object]:
        """The connection ended; a LinkDown event if the link was up."""
        was_up = self.up
        self.up = False
        self.trusted = False
        return [LinkDown(reason)] if was_up else []

    # ------------------------------------------------------------------------------------------- input
    def feed(self, data: bytes, now: float) -> list[object]:
        """Decode ``data`` and return the events it completes (bad frames are counted and dropped)."""
        events: list[object] = []
        frames = self.decoder.feed(data)
        if self.decoder.last_error == P.OLD_PROTOCOL and not self.up:
            self.decoder.last_error = ""
            self._refuse_or_accept(f"board speaks protocol version 1, this reader {P.PROTOCOL_VERSION}", "", events)
        for frame in frames:
            ftype, session, seq, payload = frame
            if ftype not in P.BOARD_TYPES:  # our own requests echoed by a loopback line
                self.stats["ignored"] += 1
                continue
            self.stats["frames"] += 1
            self._last_rx = now
            if not self._current(ftype, session, seq, payload, now):
                continue
            if ftype == P.HELLO:
                self._on_hello(payload, now, events)
            elif not self.up:
                if not self.incompatible:
                    self._ask("hello", now)
            elif ftype == P.SNAPSHOT:
                self._on_snapshot(payload, events)
            elif ftype == P.CHANGES:
                if self.trusted:
                    self._on_changes(payload, events)
                else:
                    self._ask("snapshot", now)
            elif ftype == P.HEARTBEAT:
                if not self.trusted:
                    self._ask("snapshot", now)
            elif ftype == P.ACK:
                req, req_seq, status = P.parse_ack(payload)
                if status != P.ST_OK:
                    log.warning(
                        "board refused %s (seq %d): status %d",
                        P.TYPE_NAMES.get(req, hex(req)),
                        req_seq,
                        status,
                    )
        return events

    def _current(self, ftype: int, session: int, seq: int, payload: bytes, now: float) -> bool:
        """Whether a frame counts: of the board's current session and newer than every frame seen of it. A hello
        of a new session starts it (the board rebooted: trust ends, a fresh snapshot follows); a frame of a
        session the board has left, or not newer than the last, is stale and dropped; any other frame of an
        unknown session means a board we have not heard say hello: trust ends and we ask who it is."""
        if session in self._retired:
            self.stats["stale"] += 1
            return False
        if session != self.board_session:
            if ftype != P.HELLO:
                self.stats["stale"] += 1
                self.trusted = False
                if not self.incompatible:
                    self._ask("hello", now)
                return False
            if _hello_problem(payload):
                return True  # not switched to: _on_hello reports the incompatible board
            if self.board_session is not None:
                self._retired.add(self.board_session)
                log.info("board session %08x replaces %08x (the board restarted)", session, self.board_session)
            self.board_session, self._last_seq, self.trusted = session, seq, False
            self.stats["sessions"] += 1
            return True
        if self._last_seq is not None and not P.seq_newer(seq, self._last_seq):
            self.stats["stale"] += 1  # a duplicate, a replay or a delayed frame: never older than what we have
            return False
        in_order = self._last_seq is not None and seq == P.next_seq(self._last_seq)
        self._last_seq = seq
        if not in_order and self.trusted:
            self.trusted = False
            self.stats["gaps"] += 1
        return True

    def _on_hello(self, payload: bytes, now: float, events: list[object]) -> None:
        try:
            _version, flags, fw, _rows, _cols, _table, board_id = P.parse_hello(payload)
        except ValueError as e:
            log.warning("bad hello from the board: %s", e)
            return
        reason = _hello_problem(payload)
        self._refuse_or_accept(reason, board_id, events)
        if reason:
            return
        if flags & P.FLAG_ANNOUNCE:  # the board was never answered: answer (a restart is a new session, above)
            self._asked_hello_at = None
            self._ask("hello", now)
        self.board_id, self.fw_version = board_id, fw
        if not self.up:
            self.up = True
            events.append(LinkUp(board_id, fw))

    def _refuse_or_accept(self, reason: str, board_id: str, events: list[object]) -> None:
        """An incompatible board puts the link down (said once); a compatible one clears that."""
        if reason:
            if reason != self.incompatible:  # said once (a LinkDown even if the link never came up)
                log.error("incompatible board %r: %s", board_id, reason)
                self.incompatible = reason
                self.up = True
            events.extend(self.disconnect(f"incompatible board: {reason}"))
            return
        self.incompatible = ""

    def _on_snapshot(self, payload: bytes, events: list[object]) -> None:
        self.stats["snapshots"] += 1
        fault_events: list[object] = []
        changed = self._board.load(payload, fault_events)
        was_trusted = self.trusted and self._has_grid
        self.trusted = True
        self._has_grid = True
        self._asked_snapshot_at = None
        grid = self._board.grid
        events.extend(fault_events)  # faults first: a consumer that stops at the grid event has seen them
        if not was_trusted:
            events.append(Snapshot(grid))
        elif changed:
            events.append(BoardChanged(grid, changed))

    def _on_changes(self, payload: bytes, events: list[object]) -> None:
        self.stats["changes"] += 1
        changed = self._board.apply_changes(payload, events)  # fault events first, as for a snapshot
        if changed:
            events.append(BoardChanged(self._board.grid, changed))
