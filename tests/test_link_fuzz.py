"""Fuzzing the link: a board's real frame stream, damaged on the way, into the Pi's HostSession.

Whatever the damage (random bytes, bit flips, cut, dropped, duplicated and reordered frames) the session must not
crash, must never hold or report a grid the board did not really have, and must be back on the board's true state
within one snapshot period of clean bytes. ``bench/link.py --fuzz N`` runs the same property for longer.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.board_link.events import BoardChanged, Snapshot
from device.board_link.grid import grid_from_letters
from device.board_link.session import HostSession
from firmware import protocol as P
from firmware import tilecodes
from firmware.board_app import BoardApp

STEP_MS = 20
SNAPSHOT_MS = 1000
CODES = [tilecodes.EMPTY] + [code for code, _ in tilecodes.LETTERS]


class ScriptedScanner:
    """A scanner whose confirmed changes the test scripts (the debouncer is tested elsewhere)."""

    ready = True

    def __init__(self) -> None:
        self.state = bytearray(225)
        self.next: list[tuple[int, int]] = []

    def scan(self, report=None) -> list[tuple[int, int]]:
        changes = [(cell, code) for cell, code in self.next if self.state[cell] != code]
        for cell, code in changes:
            self.state[cell] = code
        self.next = []
        return changes

    def set_debounce(self, n: int) -> None:
        pass

    def rescan(self) -> None:
        pass

    def grid(self):
        return grid_from_letters(
            [None if c == tilecodes.EMPTY else tilecodes.letter_of(c) for c in self.state]
        )


class ScriptedBoard:
    """A BoardApp on a ScriptedScanner; every frame it writes is kept separately, with the states it had."""

    def __init__(self) -> None:
        self.scanner = ScriptedScanner()
        self.ms = 0
        self.frames: list[bytes] = []
        self.hello_in = P.encode_frame(P.HOST_HELLO, 0, bytes((P.PROTOCOL_VERSION,)))
        self.app = BoardApp(
            self.scanner, self.frames.append, self._read, lambda: self.ms, snapshot_period_ms=SNAPSHOT_MS
        )
        self.states = {self.scanner.grid()}

    def _read(self) -> bytes:
        data, self.hello_in = self.hello_in, b""
        return data

    def run(self, steps) -> list[bytes]:
        start = len(self.frames)
        for changes in steps:
            self.scanner.next = list(dict(changes).items())
            self.ms += STEP_MS
            self.app.poll()
            self.states.add(self.scanner.grid())
        return self.frames[start:]


changes_st = st.lists(st.tuples(st.integers(0, 224), st.sampled_from(CODES)), max_size=3)
steps_st = st.lists(st.one_of(st.just([]), changes_st), min_size=1, max_size=40)
damage_st = st.one_of(
    st.just(("keep",)),
    st.just(("drop",)),
    st.just(("dup",)),
    st.just(("swap",)),
    st.tuples(st.just("flip"), st.integers(0, 10_000), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.integers(1, 10_000)),
    st.tuples(st.just("garbage"), st.binary(min_size=1, max_size=40)),
)


def damage(frames: list[bytes], ops) -> bytes:
    out: list[bytes] = []
    frames = list(frames)
    for k, frame in enumerate(frames):
        op = ops[k % len(ops)] if ops else ("keep",)
        kind = op[0]
        if kind == "keep":
            out.append(frame)
        elif kind == "dup":
            out += [frame, frame]
        elif kind == "swap" and k + 1 < len(frames):
            frames[k + 1], frame = frame, frames[k + 1]
            out.append(frame)
        elif kind == "flip":
            b = bytearray(frame)
            b[op[1] % len(b)] ^= 1 << op[2]
            out.append(bytes(b))
        elif kind == "cut":
            out.append(frame[: op[1] % len(frame)])
        elif kind == "garbage":
            out += [op[1], frame]
    return b"".join(out)


def feed_checked(session: HostSession, data: bytes, chunk: int, now: float, states) -> list[object]:
    events: list[object] = []
    for i in range(0, len(data), chunk):
        got = session.feed(data[i : i + chunk], now)
        for e in got:
            if isinstance(e, (Snapshot, BoardChanged)):
                assert e.grid in states, "the session reported a board state the board never had"
        assert session.grid is None or session.grid in states
        events += got
    return events


DAMAGED_STREAM = {
    "before": steps_st,
    "during": steps_st,
    "ops": st.lists(damage_st, min_size=1, max_size=12),
    "chunk": st.integers(1, 97),
}
RANDOM_BYTES = {"noise": st.binary(max_size=3000), "chunk": st.integers(1, 257)}


def check_damaged_stream(before, during, ops, chunk):
    """The property: no crash, no false state, healed by one snapshot period of clean bytes."""
    board = ScriptedBoard()
    session = HostSession()
    session.connect(0.0)
    feed_checked(session, b"".join(board.run([[]] + before)), chunk, 0.1, board.states)
    assert session.up and session.trusted and session.grid == board.scanner.grid()

    feed_checked(session, damage(board.run(during), ops), chunk, 0.2, board.states)

    # one snapshot period (plus a step) of clean bytes, the board still changing: back on the true state
    tail = [[(s, CODES[s % len(CODES)])] if s % 7 == 0 else [] for s in range(SNAPSHOT_MS // STEP_MS + 1)]
    feed_checked(session, b"".join(board.run(tail)), chunk, 0.3, board.states)
    assert session.trusted
    assert session.grid == board.scanner.grid()


def check_random_bytes(noise, chunk):
    """The property: random bytes after a trusted snapshot change nothing and report no board."""
    board = ScriptedBoard()
    session = HostSession()
    session.connect(0.0)
    feed_checked(session, b"".join(board.run([[], [(7, CODES[3])]])), 64, 0.1, board.states)
    grid = session.grid
    events = feed_checked(session, noise, chunk, 0.2, board.states)
    assert session.grid == grid
    assert not any(isinstance(e, (Snapshot, BoardChanged)) for e in events)


FUZZ = settings(derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
test_damaged_stream_never_gives_a_false_state_and_heals = settings(FUZZ, max_examples=120)(
    given(**DAMAGED_STREAM)(check_damaged_stream)
)
test_random_bytes_never_change_the_board = settings(FUZZ, max_examples=60)(
    given(**RANDOM_BYTES)(check_random_bytes)
)
