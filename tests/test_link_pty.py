"""End to end over real ports: VirtualBoard -> real firmware (BoardDevice) -> pty -> BoardLink (pyserial) -> events.

No sleeps: every wait is a queue or event wait with a timeout.
"""

from __future__ import annotations

import queue
import socket
import threading

import pytest

from firmware import protocol as P
from firmware import tilecodes
from hw_sim.board_device import BoardDevice
from hw_sim.virtual_board import VirtualBoard
from shared.board_link import BoardChanged, BoardLink, LinkDown, LinkUp, Snapshot
from shared.timesource import FakeTime

WAIT = 60.0  # a wait ends when the event comes: generous for a loaded machine


class Events:
    def __init__(self) -> None:
        self.q: queue.Queue[object] = queue.Queue()

    def __call__(self, event: object) -> None:
        self.q.put(event)

    def next(self, kind: type | tuple[type, ...] = object) -> object:
        """The next event; fails if it is not a ``kind`` or none comes within WAIT seconds."""
        try:
            event = self.q.get(timeout=WAIT)
        except queue.Empty:
            pytest.fail(f"no {kind} event within {WAIT} s")
        assert isinstance(event, kind), f"expected {kind}, got {event!r}"
        return event


@pytest.fixture
def rig():
    board = VirtualBoard(seed=3)
    device = BoardDevice(board, scan_period_s=0.005, stable_scans=3)
    device.start()
    events = Events()
    link = BoardLink(device.port_path, events, reconnect_s=0.02, heartbeat_timeout_s=1.5)
    link.start()
    try:
        yield board, device, link, events
    finally:
        link.stop()
        device.stop()


def letters(grid) -> dict[tuple[int, int], str]:
    return {(r, c): x for r, row in enumerate(grid) for c, x in enumerate(row) if x is not None}


def test_tiles_on_the_virtual_board_reach_the_reader(rig):
    board, device, link, events = rig
    assert events.next() == LinkUp("sim-board", 1)
    assert letters(events.next(Snapshot).grid) == {}
    board.place(7, 7, "Ř")
    ev = events.next(BoardChanged)
    assert ev.cells == ((7, 7),) and letters(ev.grid) == {(7, 7): "Ř"}
    board.place(7, 8, "?")
    board.remove(7, 7)
    seen = {}
    while seen != {(7, 8): "?"}:
        seen = letters(events.next(BoardChanged).grid)
    assert link.grid == events_grid(seen) and link.up


def events_grid(cells: dict[tuple[int, int], str]):
    return tuple(tuple(cells.get((r, c)) for c in range(15)) for r in range(15))


def test_unplug_gives_link_down_and_replug_link_up_with_a_snapshot(rig):
    board, device, link, events = rig
    events.next(LinkUp)
    events.next(Snapshot)
    board.place(0, 0, "A")
    events.next(BoardChanged)
    device.unplug()
    assert "serial error" in events.next(LinkDown).reason
    assert not link.up
    assert link.grid == events_grid({(0, 0): "A"})  # the last trusted state is kept
    board.place(1, 0, "B")  # laid while the cable was out
    device.replug()
    assert events.next(LinkUp).board_id == "sim-board"
    assert letters(events.next(Snapshot).grid) == {(0, 0): "A", (1, 0): "B"}


def test_flicker_shorter_than_the_debounce_gives_no_event(rig):
    board, device, link, events = rig
    board.place(3, 3, "K")
    events.next(LinkUp)
    while letters(events.next((Snapshot, BoardChanged)).grid) != {(3, 3): "K"}:
        pass
    board.flicker(3, 3, 1)  # one scan reads it empty; the debounce needs 3
    board.place(9, 9, "L")  # a marker, confirmed after the flicker's reads are long past
    ev = events.next(BoardChanged)
    assert ev.cells == ((9, 9),)
    assert letters(ev.grid) == {(3, 3): "K", (9, 9): "L"}


def test_requests_reach_the_board_in_order(rig):
    board, device, link, events = rig
    events.next(LinkUp)
    events.next(Snapshot)
    assert link.set_debounce(5) and link.request_snapshot() and link.request_rescan()
    assert link.identify()
    assert device.identified.wait(WAIT)
    assert device.app.scanner.stable_scans == 5
    with pytest.raises(ValueError, match="debounce must be 1..255"):
        link.set_debounce(0)


def test_requests_without_a_port_say_so():
    link = BoardLink("/nonexistent/ttyACM9", lambda e: None)
    assert not link.request_snapshot()
    assert link.grid is None and not link.up


def test_loop_url_runs_and_stops_without_events():
    events = Events()
    link = BoardLink("loop://", events, reconnect_s=0.01)
    link.start()
    link.request_snapshot()
    link.stop()
    assert events.q.empty() and not link.up


def test_silent_board_over_socket_times_out_and_reconnects():
    """socket:// URL; a board that answers the host's hello with hello and a snapshot, then falls silent, twice."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(2)
    port = server.getsockname()[1]
    done = threading.Event()
    snapshot = bytearray(225)
    snapshot[0] = tilecodes.code_of("Ž")

    def serve() -> None:
        conns = []
        for _ in range(2):
            conn, _addr = server.accept()
            conns.append(conn)
            dec = P.FrameDecoder()
            while True:  # a board answers the host's hello
                data = conn.recv(256)
                if not data or any(f[0] == P.HOST_HELLO for f in dec.feed(data)):
                    break
            hello = P.hello_payload(0, 7, 15, 15, tilecodes.TABLE_VERSION, "sock")
            seq = 2 * len(conns)  # the same board (session 77) after a port reopen: its frames count on
            conn.sendall(
                P.encode_frame(P.HELLO, 77, seq, hello) + P.encode_frame(P.SNAPSHOT, 77, seq + 1, bytes(snapshot))
            )
        done.wait(WAIT)
        for conn in conns:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    events = Events()
    clock = FakeTime()
    link = BoardLink(f"socket://127.0.0.1:{port}", events, reconnect_s=0.01, time_source=clock)
    link.start()
    try:
        assert events.next() == LinkUp("sock", 7)
        assert letters(events.next(Snapshot).grid) == {(0, 0): "Ž"}
        clock.advance(1.6)  # past the 1.5 s heartbeat timeout on the link's time source
        assert "no frame from the board for 1.5 s" in events.next(LinkDown).reason
        assert events.next() == LinkUp("sock", 7)
        events.next(Snapshot)
    finally:
        done.set()
        link.stop()
        server.close()
        thread.join(WAIT)
