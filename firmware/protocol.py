"""The board link's frame codec: the one module both ends use (the Pico's firmware and the Pi's reader).

MicroPython-safe: no dataclasses, typing, enum or abc at run time; only ``bytes``/``bytearray`` operations that the
MicroPython unix and rp2 ports have. Runs unchanged under CPython 3.11. ``firmware/PROTOCOL.md`` is the
specification; this module is its reference implementation.

A frame on the wire is ``00 | COBS(type u8, session u32 BE, seq u32 BE, length u16 BE, payload, crc u16 BE) | 00``;
the CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over everything before it; the length (of the payload)
catches a cut frame even where the cut leaves a CRC-looking tail. ``session`` is the sender's random id for this
boot (the board) or connection (the host); ``seq`` counts the sender's frames in that session from 0. A decoded
frame is the tuple ``(type, session, seq, payload)``.
Errors are ``ValueError`` with a message that names the reason; ``FrameDecoder`` never raises on bad input.
"""

from firmware.compat import micropython

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


PROTOCOL_VERSION = const(2)

# board -> host
HELLO = const(0x01)
SNAPSHOT = const(0x02)
CHANGES = const(0x03)
HEARTBEAT = const(0x04)
ACK = const(0x05)
# host -> board
HOST_HELLO = const(0x81)
REQ_SNAPSHOT = const(0x82)
REQ_RESCAN = const(0x83)
SET_DEBOUNCE = const(0x84)
IDENTIFY = const(0x85)

BOARD_TYPES = (HELLO, SNAPSHOT, CHANGES, HEARTBEAT, ACK)
HOST_TYPES = (HOST_HELLO, REQ_SNAPSHOT, REQ_RESCAN, SET_DEBOUNCE, IDENTIFY)
TYPE_NAMES = {
    HELLO: "hello",
    SNAPSHOT: "snapshot",
    CHANGES: "changes",
    HEARTBEAT: "heartbeat",
    ACK: "ack",
    HOST_HELLO: "host-hello",
    REQ_SNAPSHOT: "req-snapshot",
    REQ_RESCAN: "req-rescan",
    SET_DEBOUNCE: "set-debounce",
    IDENTIFY: "identify",
}

# HELLO flags
FLAG_ANNOUNCE = const(0x01)  # unsolicited (boot or not yet answered): the host answers with HOST_HELLO

# ACK status
ST_OK = const(0)
ST_BAD_ARG = const(1)
ST_UNKNOWN = const(2)
ST_BAD_VERSION = const(3)

OLD_PROTOCOL = "a protocol version 1 frame (the board's firmware is older than this reader)"

CELLS = const(225)
MAX_BOARD_ID = const(32)
HEADER = const(11)  # type, session, seq, length
MAX_RAW = const(HEADER + 2 * CELLS + 2)  # the largest frame before COBS: a CHANGES frame naming every cell
MAX_ENCODED = const(MAX_RAW + MAX_RAW // 254 + 2)

# ----------------------------------------------------------------------------------------------- CRC-16
_CRC_TABLE = []
for _i in range(256):
    _c = _i << 8
    for _ in range(8):
        _c = ((_c << 1) ^ 0x1021) if _c & 0x8000 else (_c << 1)
    _CRC_TABLE.append(_c & 0xFFFF)


@micropython.native
def crc16_py(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (table-driven; the MicroPython path, compiled to machine code there)."""
    t = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc


try:
    from binascii import crc_hqx as _crc_hqx  # CPython: the same CRC in C

    def crc16(data, crc=0xFFFF):
        """CRC-16/CCITT-FALSE of ``data`` (``binascii.crc_hqx`` where available)."""
        return _crc_hqx(data, crc)

except ImportError:  # MicroPython
    crc16 = crc16_py


# ------------------------------------------------------------------------------------------------ COBS
def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` re-coded without any zero byte."""
    out = bytearray()
    n = len(data)
    i = 0
    while True:
        z = data.find(b"\x00", i)
        end = n if z < 0 else z
        while end - i >= 254:  # a full block of 254 non-zero bytes carries no implied zero
            out.append(0xFF)
            out.extend(data[i : i + 254])
            i += 254
        out.append(end - i + 1)
        out.extend(data[i:end])
        if z < 0:
            return bytes(out)
        i = z + 1


def cobs_decode(data):
    """Inverse of ``cobs_encode``; raises ValueError on a zero byte or a block that runs past the end.

    In place on a copy: each block's code byte becomes the zero it stands for and the first one is dropped (one
    pass over the code bytes only); a full block (code 0xFF, no zero after it) or a fault takes the general path.
    """
    buf = bytearray(data)
    n = len(buf)
    i = 0
    while i < n:
        code = buf[i]
        j = i + code
        if code == 0 or code == 0xFF or j > n:  # a full block, or damage: the general path names the fault
            return _cobs_decode_blocks(data)
        buf[i] = 0
        i = j
    return bytes(buf[1:])


def _cobs_decode_blocks(data):
    """``cobs_decode`` block by block (any block length, 0xFF blocks included)."""
    out = bytearray()
    n = len(data)
    i = 0
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("COBS: zero byte inside a frame")
        j = i + code
        if j > n:
            raise ValueError(f"COBS: block of {code - 1} bytes runs past the frame end")
        out.extend(data[i + 1 : j])
        i = j
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------------------------------------- frames
def _u32(value):
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def encode_frame(ftype, session, seq, payload=b""):
    """The bytes on the wire for one frame (with a zero delimiter on both sides)."""
    n = len(payload)
    raw = bytearray((ftype,))
    raw.extend(_u32(session))
    raw.extend(_u32(seq))
    raw.append((n >> 8) & 0xFF)
    raw.append(n & 0xFF)
    raw.extend(payload)
    c = crc16(raw)
    raw.append(c >> 8)
    raw.append(c & 0xFF)
    return b"\x00" + cobs_encode(bytes(raw)) + b"\x00"


def decode_frame(body):
    """One COBS body (without delimiters) to ``(type, session, seq, payload)``; raises ValueError naming the
    reason."""
    if len(body) > MAX_ENCODED:
        raise ValueError(f"frame too long: {len(body)} bytes")
    raw = cobs_decode(body)
    size = len(raw) - HEADER - 2
    if size < 0:
        raise ValueError(f"frame too short: {len(raw)} bytes")
    if crc16(raw):  # a frame followed by its own CRC leaves a remainder of 0
        got = (raw[-2] << 8) | raw[-1]
        raise ValueError(f"CRC mismatch: frame says {got:04x}, computed {crc16(raw[:-2]):04x}")
    if ((raw[9] << 8) | raw[10]) != size:
        if raw[0] == HELLO and ((raw[3] << 8) | raw[4]) == len(raw) - 7 and raw[5] == 1:
            raise ValueError(OLD_PROTOCOL)  # a version-1 hello (no session): say so, not "length mismatch"
        raise ValueError(f"length mismatch: frame says {(raw[9] << 8) | raw[10]} payload bytes, has {size}")
    ftype = raw[0]
    payload = raw[HEADER:-2]
    check_payload(ftype, payload)
    return ftype, parse_u32(raw[1:5]), parse_u32(raw[5:9]), payload


def check_payload(ftype, payload):
    """Raise ValueError unless ``payload`` has a valid length and content for frame type ``ftype``."""
    n = len(payload)
    if ftype == CHANGES:  # the common frame first
        if n == 0 or n % 2 or n > 2 * CELLS:
            raise ValueError(f"changes: payload of {n} bytes (pairs of cell, code)")
        for k in range(0, n, 2):
            if payload[k] >= CELLS:
                raise ValueError(f"changes: cell {payload[k]} off the board")
    elif ftype == HELLO:
        if n < 8 or n > 8 + MAX_BOARD_ID:
            raise ValueError(f"hello: payload of {n} bytes (8..{8 + MAX_BOARD_ID})")
    elif ftype == SNAPSHOT:
        if n != CELLS:
            raise ValueError(f"snapshot: {n} cells, expected {CELLS}")
    elif ftype == HEARTBEAT:
        if n != 4:
            raise ValueError(f"heartbeat: payload of {n} bytes, expected 4")
    elif ftype == ACK:
        if n != 6:
            raise ValueError(f"ack: payload of {n} bytes, expected 6")
    elif ftype == HOST_HELLO or ftype == SET_DEBOUNCE:
        if n != 1:
            raise ValueError(f"{TYPE_NAMES[ftype]}: payload of {n} bytes, expected 1")
    elif ftype == REQ_SNAPSHOT or ftype == REQ_RESCAN or ftype == IDENTIFY:
        if n:
            raise ValueError(f"{TYPE_NAMES[ftype]}: payload of {n} bytes, expected none")
    else:
        raise ValueError(f"unknown frame type 0x{ftype:02x}")


class FrameDecoder:
    """Turns a byte stream into frames; skips garbage, cut frames and bad CRCs (counted in ``bad``).

    ``feed(data)`` returns the list of ``(type, session, seq, payload)`` frames completed by ``data``. It never raises on
    bad input: ``last_error`` keeps the reason the last rejected frame was dropped.
    """

    def __init__(self):
        self._pending = b""
        self._skipping = False
        self.good = 0
        self.bad = 0
        self.last_error = ""

    def reset(self):
        """Forget a partly received frame (after a reconnect)."""
        self._pending = b""
        self._skipping = False

    def feed(self, data):
        frames = []
        if not data:
            return frames
        parts = (self._pending + bytes(data)).split(b"\x00")
        self._pending = parts.pop()
        for body in parts:
            if self._skipping:  # the tail of an over-long frame
                self._skipping = False
                continue
            if not body:
                continue
            try:
                frames.append(decode_frame(body))
                self.good += 1
            except ValueError as e:
                self.bad += 1
                self.last_error = str(e)
        if len(self._pending) > MAX_ENCODED:
            self.bad += 1
            self.last_error = f"frame too long: over {MAX_ENCODED} bytes without a delimiter"
            self._pending = b""
            self._skipping = True
        return frames


# -------------------------------------------------------------------------------------------- payloads
def hello_payload(flags, fw_version, rows, cols, table_version, board_id):
    """HELLO: protocol version, flags, firmware version, board size, tile-code table version, board id."""
    bid = board_id.encode()[:MAX_BOARD_ID]
    return (
        bytes(
            (
                PROTOCOL_VERSION,
                flags,
                (fw_version >> 8) & 0xFF,
                fw_version & 0xFF,
                rows,
                cols,
                (table_version >> 8) & 0xFF,
                table_version & 0xFF,
            )
        )
        + bid
    )


def parse_hello(payload):
    """HELLO payload to ``(protocol_version, flags, fw_version, rows, cols, table_version, board_id)``."""
    p = payload
    try:
        bid = bytes(p[8:]).decode()
    except UnicodeError:
        raise ValueError("hello: board id is not UTF-8") from None
    return p[0], p[1], (p[2] << 8) | p[3], p[4], p[5], (p[6] << 8) | p[7], bid


def changes_payload(changes):
    """CHANGES payload from ``(cell, code)`` pairs."""
    out = bytearray(2 * len(changes))
    k = 0
    for cell, code in changes:
        out[k] = cell
        out[k + 1] = code
        k += 2
    return bytes(out)


def parse_changes(payload):
    """CHANGES payload to a list of ``(cell, code)`` pairs."""
    return [(payload[k], payload[k + 1]) for k in range(0, len(payload), 2)]


def u32_payload(value):
    """HEARTBEAT payload: board uptime in ms, modulo 2**32."""
    return _u32(value & 0xFFFFFFFF)


def parse_u32(payload):
    return (payload[0] << 24) | (payload[1] << 16) | (payload[2] << 8) | payload[3]


def ack_payload(req_type, req_seq, status):
    """ACK payload: which request (type, host seq) and its status (ST_*)."""
    return bytes((req_type,)) + _u32(req_seq) + bytes((status,))


def parse_ack(payload):
    """ACK payload to ``(req_type, req_seq, status)``."""
    return payload[0], parse_u32(payload[1:5]), payload[5]


SEQ_MASK = 0xFFFFFFFF


def next_seq(seq):
    """The sequence number after ``seq`` (32 bits, wrapping)."""
    return (seq + 1) & SEQ_MASK


def seq_newer(seq, than):
    """Whether ``seq`` comes after ``than`` in one session (serial-number arithmetic over 32 bits: at most 2**31
    frames ahead; a session of a board sending 1,000 frames a second would need 24 days to get there)."""
    return 0 < ((seq - than) & SEQ_MASK) < 0x80000000


def new_session_id(random_bytes=None):
    """A random, non-zero 32-bit session id (per boot of the board, per connection of the host)."""
    if random_bytes is None:
        try:
            from os import urandom as random_bytes
        except ImportError:  # a port without os.urandom
            from random import getrandbits

            return getrandbits(32) or 1
    b = random_bytes(4)
    return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) or 1
