"""The board side of the protocol: firmware.board_app.BoardApp on the real Scanner reading a VirtualBoard."""

from __future__ import annotations

from firmware import protocol as P
from firmware import tilecodes
from firmware.board_app import FIRMWARE_VERSION, BoardApp
from firmware.scanner import Scanner
from hw_sim.virtual_board import VirtualBoard


class Rig:
    """A BoardApp with a fake tick counter, an outbox of decoded frames and an inbox of host bytes."""

    def __init__(self, stable_scans: int = 2, snapshot_ms: int = 1000, heartbeat_ms: int = 250) -> None:
        self.board = VirtualBoard(seed=1)
        self.scanner = Scanner(self.board.read_raw, stable_scans=stable_scans)
        self.ms = 0
        self.inbox = bytearray()
        self.decoder = P.FrameDecoder()
        self.sent: list[tuple[int, int, bytes]] = []
        self.identified = 0
        self.app = BoardApp(
            self.scanner,
            self._write,
            self._read,
            lambda: self.ms,
            board_id="test-board",
            snapshot_period_ms=snapshot_ms,
            heartbeat_ms=heartbeat_ms,
            on_identify=self._identify,
        )
        self.host_seq = 0

    def _write(self, data: bytes) -> None:
        self.sent += self.decoder.feed(data)

    def _read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def _identify(self) -> None:
        self.identified += 1

    def host(self, ftype: int, payload: bytes = b"") -> None:
        self.inbox += P.encode_frame(ftype, 7, self.host_seq, payload)
        self.host_seq += 1

    def poll(self, ms: int = 10) -> list[tuple[int, int, bytes]]:
        """Advance the ticks by ``ms``, poll once and return the frames sent."""
        self.ms += ms
        start = len(self.sent)
        self.app.poll()
        return self.sent[start:]

    def types(self, frames) -> list[str]:
        return [P.TYPE_NAMES[f[0]] for f in frames]


def test_boot_announces_and_repeats_hello_until_answered():
    rig = Rig()
    first = rig.poll(0)
    assert rig.types(first) == ["hello"]
    version, flags, fw, rows, cols, table, board_id = P.parse_hello(first[0][3])
    assert (version, flags, fw, rows, cols, table, board_id) == (
        P.PROTOCOL_VERSION,
        P.FLAG_ANNOUNCE,
        FIRMWARE_VERSION,
        15,
        15,
        tilecodes.TABLE_VERSION,
        "test-board",
    )
    assert rig.poll(100) == []
    assert rig.types(rig.poll(150)) == ["hello"]  # 250 ms of silence: announce again, not a heartbeat


def test_host_hello_gets_hello_and_a_settled_snapshot():
    rig = Rig(stable_scans=2)
    rig.board.place(7, 7, "A")
    rig.poll()
    rig.host(P.HOST_HELLO, bytes((P.PROTOCOL_VERSION,)))
    got = rig.poll()  # second scan: the scanner is ready and the tile confirmed
    assert rig.types(got) == ["hello", "changes", "snapshot"] or rig.types(got) == ["hello", "snapshot"]
    snap = [f for f in got if f[0] == P.SNAPSHOT][0][3]
    assert snap[7 * 15 + 7] == tilecodes.code_of("A")
    assert P.parse_hello(got[0][3])[1] == 0  # a reply, not an announce
    assert rig.app.answered


def test_snapshot_waits_until_the_scanner_is_ready():
    rig = Rig(stable_scans=3)
    rig.board.place(0, 0, "Ž")
    rig.host(P.HOST_HELLO, bytes((P.PROTOCOL_VERSION,)))
    assert rig.types(rig.poll()) == ["hello", "hello"]  # boot announce, then the reply; no snapshot yet
    assert rig.types(rig.poll()) == ["changes"]  # a tile laid: confirmed after 2 scans, the board not yet settled
    third = rig.poll()
    assert rig.types(third) == ["snapshot"]
    assert third[0][3][0] == tilecodes.code_of("Ž")


def test_sequence_numbers_count_every_frame():
    rig = Rig(stable_scans=1, heartbeat_ms=20)
    rig.host(P.HOST_HELLO, bytes((P.PROTOCOL_VERSION,)))
    for i in range(40):
        if i % 4 == 0:
            rig.board.place(i % 15, 0, "B")
        rig.poll(15)
    seqs = [f[2] for f in rig.sent]
    assert {f[1] for f in rig.sent} == {rig.app.session}  # one session for the whole boot
    assert seqs == list(range(len(seqs)))
    assert {"hello", "snapshot", "changes", "heartbeat"} <= set(rig.types(rig.sent))


def test_changes_report_confirmed_cells_only():
    rig = Rig(stable_scans=3)
    for _ in range(3):
        rig.poll()
    rig.board.place(2, 3, "C")
    assert rig.types(rig.poll()) == []
    second = rig.poll()  # a tile laid on an empty cell: 2 steady scans
    assert second[0][0] == P.CHANGES
    assert P.parse_changes(second[0][3]) == [(2 * 15 + 3, tilecodes.code_of("C"))]
    rig.board.remove(2, 3)
    assert rig.types(rig.poll()) == [] and rig.types(rig.poll()) == []
    third = rig.poll()  # a removal: the full 3 scans
    assert P.parse_changes(third[0][3]) == [(2 * 15 + 3, tilecodes.EMPTY)]


def test_flicker_shorter_than_debounce_sends_nothing():
    rig = Rig(stable_scans=3)
    rig.board.place(4, 4, "D")
    for _ in range(4):
        rig.poll()
    rig.board.flicker(4, 4, 2)  # empty, placed, empty, placed
    assert [f for _ in range(6) for f in rig.poll() if f[0] == P.CHANGES] == []


def test_heartbeat_after_silence_and_periodic_snapshot():
    rig = Rig(stable_scans=1, snapshot_ms=1000, heartbeat_ms=250)
    rig.host(P.HOST_HELLO, bytes((P.PROTOCOL_VERSION,)))
    rig.poll()
    kinds = []
    for _ in range(100):
        kinds += rig.types(rig.poll(20))
    assert kinds.count("snapshot") == 2  # 2 s of silence: one per second
    assert 5 <= kinds.count("heartbeat") <= 8
    hb = [f for f in rig.sent if f[0] == P.HEARTBEAT][-1]
    assert rig.ms - 250 <= P.parse_u32(hb[3]) <= rig.ms  # uptime in ms when it was sent


def test_set_debounce_is_acknowledged_or_refused():
    rig = Rig()
    rig.host(P.SET_DEBOUNCE, b"\x05")
    rig.host(P.SET_DEBOUNCE, b"\x00")
    acks = [P.parse_ack(f[3]) for f in rig.poll() if f[0] == P.ACK]
    assert acks == [(P.SET_DEBOUNCE, 0, P.ST_OK), (P.SET_DEBOUNCE, 1, P.ST_BAD_ARG)]
    assert rig.scanner.stable_scans == 5


def test_rescan_acks_then_snapshots_once_settled():
    rig = Rig(stable_scans=2)
    for _ in range(3):
        rig.poll()
    rig.host(P.REQ_RESCAN)
    assert rig.types(rig.poll()) == ["ack"]
    assert rig.types(rig.poll()) == ["snapshot"]


def test_identify_and_snapshot_requests():
    rig = Rig(stable_scans=1)
    rig.poll()
    rig.host(P.IDENTIFY)
    rig.host(P.REQ_SNAPSHOT)
    assert rig.types(rig.poll()) == ["hello", "snapshot"]
    assert rig.identified == 1


def test_wrong_protocol_version_is_refused_and_board_keeps_announcing():
    rig = Rig()
    rig.host(P.HOST_HELLO, b"\x63")
    got = rig.poll(0)
    assert rig.types(got) == ["hello", "ack"]
    assert P.parse_ack(got[1][3]) == (P.HOST_HELLO, 0, P.ST_BAD_VERSION)
    assert not rig.app.answered


def test_echoed_board_frames_and_garbage_are_ignored():
    rig = Rig(stable_scans=1)
    rig.poll()
    rig.inbox += b"\x13\x37garbage" + P.encode_frame(P.SNAPSHOT, 7, 4, bytes(225))
    assert rig.types(rig.poll()) == []
    assert rig.app.decoder.bad == 1
