"""The board side of the link: one scan per ``poll()``, reports and answers to the host's requests.

MicroPython-safe and hardware-free: the Pico's ``main.py`` and the simulator's ``hw_sim.board_device`` hand it the
scanner, a ``write(bytes)`` for the serial port, a non-blocking ``read() -> bytes`` and a millisecond tick source.
What it sends and when is specified in ``firmware/PROTOCOL.md``.
"""

from firmware import protocol as P
from firmware import tilecodes

try:
    from time import ticks_diff as _ticks_diff  # MicroPython: ticks wrap around
except ImportError:  # CPython

    def _ticks_diff(a, b):
        return a - b


FIRMWARE_VERSION = 1
BOARD_ROWS = 15
BOARD_COLS = 15


class BoardApp:
    """Runs the protocol session of one board: hello until answered, changes, periodic snapshots, heartbeats.

    ``scanner`` is a ``firmware.scanner.Scanner`` (``scan()``, ``state``, ``ready``, ``set_debounce(n)``,
    ``rescan()``); snapshots wait until ``ready`` (after boot and after a rescan), so none shows a half-debounced
    board.
    ``on_identify`` (optional) is called when the host asks the board to identify itself (blink an LED).
    ``session``: this boot's session id (default: a random one, ``protocol.new_session_id``); every frame carries
    it, so the host never takes a frame of an earlier boot for one of this boot.
    """

    def __init__(
        self,
        scanner,
        write,
        read,
        ticks_ms,
        board_id="partiar-board",
        snapshot_period_ms=1000,
        heartbeat_ms=250,
        on_identify=None,
        session=None,
    ):
        self.scanner = scanner
        self._write = write
        self._read = read
        self._ticks = ticks_ms
        self.board_id = board_id
        self.snapshot_period_ms = snapshot_period_ms
        self.heartbeat_ms = heartbeat_ms
        self.on_identify = on_identify
        self.decoder = P.FrameDecoder()
        self.session = session if session is not None else P.new_session_id()  # this boot's id
        self.seq = 0
        self.answered = False  # the host has answered our hello
        self.frames_sent = 0
        t = ticks_ms()
        self._t0 = t
        self._last_tx = t
        self._last_snapshot = t
        self._booted = False
        self._snapshot_due = False

    # ------------------------------------------------------------------------------------------ sending
    def _send(self, ftype, payload=b""):
        self._write(P.encode_frame(ftype, self.session, self.seq, payload))
        self.seq = P.next_seq(self.seq)
        self.frames_sent += 1
        self._last_tx = self._ticks()

    def send_hello(self, announce):
        self._send(
            P.HELLO,
            P.hello_payload(
                P.FLAG_ANNOUNCE if announce else 0,
                FIRMWARE_VERSION,
                BOARD_ROWS,
                BOARD_COLS,
                tilecodes.TABLE_VERSION,
                self.board_id,
            ),
        )

    def send_snapshot(self):
        """Send the stable state now if the scanner has settled (``ready``), else as soon as it has."""
        if not self.scanner.ready:  # a half-debounced state is not a state the board has: wait
            self._snapshot_due = True
            return
        self._snapshot_due = False
        self._send(P.SNAPSHOT, bytes(self.scanner.state))
        self._last_snapshot = self._ticks()

    # ------------------------------------------------------------------------------------------ the loop
    def poll(self):
        """Handle the host's requests, scan once, then send what is due (changes, snapshot, heartbeat)."""
        if not self._booted:
            self._booted = True
            self.send_hello(True)
        data = self._read()
        if data:
            for frame in self.decoder.feed(data):
                self._handle(frame)
        sent = []

        def send(changes):
            self._send(P.CHANGES, P.changes_payload(changes))
            sent.extend(changes)

        rest = self.scanner.scan(send)  # the changes of the rows read first go out at once
        if rest:
            send(rest)
        now = self._ticks()
        if self._snapshot_due or _ticks_diff(now, self._last_snapshot) >= self.snapshot_period_ms:
            self.send_snapshot()
        if _ticks_diff(now, self._last_tx) >= self.heartbeat_ms:
            if self.answered:
                self._send(P.HEARTBEAT, P.u32_payload(_ticks_diff(now, self._t0)))
            else:
                self.send_hello(True)
        return sent

    def _handle(self, frame):
        ftype, _session, seq, payload = frame
        if ftype == P.HOST_HELLO:
            if payload[0] != P.PROTOCOL_VERSION:
                self._send(P.ACK, P.ack_payload(ftype, seq, P.ST_BAD_VERSION))
                return
            self.answered = True
            self.send_hello(False)
            self.send_snapshot()
        elif ftype == P.REQ_SNAPSHOT:
            self.send_snapshot()
        elif ftype == P.REQ_RESCAN:
            self.scanner.rescan()
            self._send(P.ACK, P.ack_payload(ftype, seq, P.ST_OK))
            self._snapshot_due = True  # sent once the rescan has settled
        elif ftype == P.SET_DEBOUNCE:
            try:
                self.scanner.set_debounce(payload[0])
                status = P.ST_OK
            except ValueError:
                status = P.ST_BAD_ARG
            self._send(P.ACK, P.ack_payload(ftype, seq, status))
        elif ftype == P.IDENTIFY:
            self.send_hello(False)
            if self.on_identify is not None:
                self.on_identify()
        else:  # a board-to-host frame (an echo on a loopback line): not for us
            return
