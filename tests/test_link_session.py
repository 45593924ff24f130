"""The Pi side's protocol state (HostSession) talking to the real BoardApp in memory, tick by tick."""

from __future__ import annotations

import pytest

from firmware import protocol as P
from firmware import tilecodes
from firmware.board_app import FIRMWARE_VERSION, BoardApp
from firmware.scanner import Scanner
from hw_sim.virtual_board import VirtualBoard
from shared.board_link.events import BoardChanged, CellFault, LinkDown, LinkUp, Snapshot
from shared.board_link.session import HostSession


class Wire:
    """BoardApp <-> HostSession through byte buffers; ``drop`` filters board frames (by sequence number)."""

    def __init__(self, stable_scans: int = 1, board_id: str = "wire") -> None:
        self.board = VirtualBoard(seed=2)
        self.ms = 0
        self.board_id = board_id
        self.stable_scans = stable_scans
        self.session = HostSession(heartbeat_timeout_s=1.5)
        self.events: list[object] = []
        self.to_host = bytearray()
        self.to_board = bytearray()
        self.drop: set[int] = set()
        self.boot()
        self.session.connect(0.0)

    def boot(self) -> None:
        self.app = BoardApp(
            Scanner(self.board.read_raw, stable_scans=self.stable_scans),
            self._board_write,
            self._board_read,
            lambda: self.ms,
            board_id=self.board_id,
        )

    def _board_write(self, data: bytes) -> None:
        seq = self.app.seq
        if seq not in self.drop:
            self.to_host += data

    def _board_read(self) -> bytes:
        data = bytes(self.to_board)
        self.to_board.clear()
        return data

    def pump(self, n: int = 1, ms: int = 20) -> list[object]:
        """``n`` rounds: host output to the board, a board poll, board output to the host."""
        start = len(self.events)
        for _ in range(n):
            self.to_board += self.session.take_output()
            self.ms += ms
            self.app.poll()
            data = bytes(self.to_host)
            self.to_host.clear()
            self.events += self.session.feed(data, self.ms / 1000)
        return self.events[start:]


def letters(grid) -> dict[tuple[int, int], str]:
    return {(r, c): x for r, row in enumerate(grid) for c, x in enumerate(row) if x is not None}


def test_handshake_gives_link_up_and_snapshot():
    w = Wire(board_id="stůl 3")
    w.board.place(7, 7, "Ů")
    events = w.pump(3)
    assert events[0] == LinkUp("stůl 3", FIRMWARE_VERSION)
    snaps = [e for e in events if isinstance(e, Snapshot)]
    assert len(snaps) == 1
    assert letters(snaps[0].grid) == {(7, 7): "Ů"}
    assert w.session.up and w.session.trusted and w.session.grid == snaps[0].grid


def test_placed_and_removed_tiles_become_board_changed():
    w = Wire()
    w.pump(3)
    w.board.place(0, 14, "?")
    w.board.place(14, 0, "Z")
    (ev,) = w.pump()
    assert isinstance(ev, BoardChanged)
    assert sorted(ev.cells) == [(0, 14), (14, 0)]
    assert letters(ev.grid) == {(0, 14): "?", (14, 0): "Z"}
    w.board.remove(0, 14)
    (ev,) = w.pump()
    assert ev.cells == ((0, 14),) and letters(ev.grid) == {(14, 0): "Z"}


def test_lost_change_is_not_applied_and_heals_by_snapshot_request():
    w = Wire()
    w.pump(3)
    w.drop = {w.app.seq}  # the next board frame (the change) is lost
    w.board.place(5, 5, "K")
    assert w.pump() == []
    w.board.place(6, 5, "O")
    w.drop = set()
    assert w.pump() == []  # the second change follows a gap: not applied, a snapshot is requested
    assert not w.session.trusted and w.session.stats["gaps"] == 1
    (ev,) = w.pump()  # the board answers the request at once
    assert isinstance(ev, Snapshot)
    assert letters(ev.grid) == {(5, 5): "K", (6, 5): "O"}


def test_duplicate_frame_is_ignored():
    w = Wire()
    w.pump(3)
    w.board.place(1, 1, "E")
    w.ms += 20
    w.app.poll()
    frame = bytes(w.to_host)
    w.to_host.clear()
    assert len(w.session.feed(frame + frame, 1.0)) == 1
    assert w.session.stats["stale"] == 1 and w.session.trusted


def _board_frames(w: Wire) -> bytes:
    """Run one board poll and take what it wrote, without handing it to the host."""
    w.ms += 20
    w.app.poll()
    data = bytes(w.to_host)
    w.to_host.clear()
    return data


def test_a_stale_snapshot_replayed_later_is_never_applied():
    """Issue 13: an old snapshot frame that arrives again (repeated or delayed) must not show an earlier board."""
    w = Wire()
    w.pump(3)
    w.app.send_snapshot()  # a snapshot of the empty board...
    old = bytes(w.to_host)
    w.to_host.clear()
    w.session.feed(old, 0.1)
    w.board.place(4, 4, "K")
    w.pump(2)
    assert letters(w.session.grid) == {(4, 4): "K"}
    assert w.session.feed(old, 0.2) == []  # ...comes again after the K was laid
    assert letters(w.session.grid) == {(4, 4): "K"} and w.session.stats["stale"] == 1
    assert w.session.trusted  # nothing was lost: the next frames still apply
    w.board.place(4, 5, "O")
    assert letters(w.pump()[-1].grid) == {(4, 4): "K", (4, 5): "O"}


def test_frames_of_an_earlier_boot_are_never_applied():
    """A board that resets without a port reopen: its new session starts with a fresh snapshot, and frames of the
    old boot that come late (even with the sequence number the new session expects next) are dropped."""
    w = Wire()
    w.board.place(2, 2, "U")
    w.pump(3)
    w.app.send_snapshot()
    old_snapshot = bytes(w.to_host)  # the board with the U, from the first boot
    w.to_host.clear()
    w.session.feed(old_snapshot, 0.1)
    w.board.remove(2, 2)
    w.boot()
    events = w.pump(3)
    assert [type(e) for e in events] == [Snapshot] and letters(events[0].grid) == {}
    assert w.session.feed(old_snapshot, 0.5) == []
    assert w.session.grid == events[0].grid and w.session.stats["stale"] >= 1


def test_a_reboot_whose_hello_was_lost_is_asked_who_it_is_and_heals():
    w = Wire()
    w.pump(3)
    w.boot()
    _board_frames(w)  # the announcing hello is lost
    w.board.place(9, 9, "S")
    for _ in range(3):
        assert w.session.feed(_board_frames(w), w.ms / 1000) == []  # frames of an unknown session: not applied
    assert not w.session.trusted and letters(w.session.grid) == {}
    events = w.pump(20)  # the host's hello (at most every 0.25 s) is answered with a hello and a snapshot
    grids = [e for e in events if isinstance(e, (Snapshot, BoardChanged))]
    assert letters(grids[-1].grid) == {(9, 9): "S"} and w.session.trusted


def test_fault_keeps_the_last_trusted_letter_and_clears():
    w = Wire()
    w.board.place(3, 4, "M")
    w.pump(3)
    w.board.set_fault(3, 4, "open")
    assert w.pump() == [CellFault(3, 4, "open")]
    assert w.session.grid[3][4] == "M"
    w.board.set_fault(3, 4, None)
    assert w.pump() == [CellFault(3, 4, None)]
    w.board.set_fault(8, 8, "short")
    w.board.set_fault(8, 9, "band")
    assert sorted(w.pump(), key=repr) == [CellFault(8, 8, "short"), CellFault(8, 9, "band")]
    assert w.session.grid[8][8] is None


def test_fault_in_the_first_snapshot_is_reported():
    w = Wire()
    w.board.set_fault(0, 0, "short")
    events = w.pump(3)
    assert CellFault(0, 0, "short") in events


def test_board_restart_drops_trust_until_the_new_snapshot():
    w = Wire()
    w.board.place(2, 2, "U")
    w.pump(3)
    w.boot()  # the Pico resets: sequence numbers start again, hello announced
    events = w.pump(3)
    assert [type(e) for e in events] == [Snapshot]
    assert letters(events[0].grid) == {(2, 2): "U"}
    assert w.session.up


def test_heartbeats_keep_the_link_alive_and_silence_times_out():
    w = Wire()
    w.pump(3)
    w.pump(100)  # 2 s of a quiet board
    assert not w.session.timed_out(w.ms / 1000)
    assert w.session.timed_out(w.ms / 1000 + 1.6)
    assert w.session.disconnect("gone") == [LinkDown("gone")]
    assert w.session.disconnect("again") == []


def _hello(version: int = P.PROTOCOL_VERSION, size: int = 15, table: int = tilecodes.TABLE_VERSION) -> bytes:
    payload = bytearray(P.hello_payload(P.FLAG_ANNOUNCE, 1, size, size, table, "old"))
    payload[0] = version
    return bytes(payload)


@pytest.mark.parametrize(
    ("hello", "reason"),
    [
        (_hello(table=tilecodes.TABLE_VERSION ^ 1), "board tile-code table"),
        (_hello(version=3), "board speaks protocol version 3, this reader 2"),
        (_hello(size=11), "board is 11x11, expected 15x15"),
    ],
)
def test_incompatible_board_keeps_the_link_down(hello, reason):
    s = HostSession()
    s.connect(0.0)
    (down,) = s.feed(P.encode_frame(P.HELLO, 9, 0, hello), 0.1)
    assert isinstance(down, LinkDown) and f"incompatible board: {reason}" in down.reason
    assert s.feed(P.encode_frame(P.HELLO, 9, 1, hello), 0.2) == []  # said once, not per hello
    assert not s.up and reason in s.incompatible
    assert P.HOST_HELLO not in [f[0] for f in P.FrameDecoder().feed(s.take_output())[1:]]  # not answered
    assert s.feed(P.encode_frame(P.SNAPSHOT, 9, 2, bytes(225)), 0.3) == []
    assert s.grid is None


def test_a_version_1_board_is_named():
    payload = _hello(version=1)
    raw = bytes((P.HELLO, 0, 0, 0, len(payload))) + payload
    c = P.crc16(raw)
    s = HostSession()
    s.connect(0.0)
    (down,) = s.feed(b"\x00" + P.cobs_encode(raw + bytes((c >> 8, c & 0xFF))) + b"\x00", 0.1)
    assert "board speaks protocol version 1, this reader 2" in down.reason


def test_snapshot_before_handshake_is_not_trusted():
    s = HostSession()
    s.connect(0.0)
    s.take_output()
    assert s.feed(P.encode_frame(P.SNAPSHOT, 9, 5, bytes(225)), 0.5) == []
    assert s.grid is None
    (hello,) = P.FrameDecoder().feed(s.take_output())
    assert (hello[0], hello[2], hello[3]) == (P.HOST_HELLO, 1, bytes((P.PROTOCOL_VERSION,)))


def test_requests_are_rate_limited():
    w = Wire()
    w.pump(3)
    w.to_board.clear()
    w.session.trusted = False
    for i in range(5):
        w.session.feed(P.encode_frame(P.HEARTBEAT, w.app.session, 1000 + i, P.u32_payload(0)), 10.0 + i * 0.01)
    frames = P.FrameDecoder().feed(w.session.take_output())
    assert [f[0] for f in frames] == [P.REQ_SNAPSHOT]
