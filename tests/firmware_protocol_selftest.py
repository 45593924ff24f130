"""The protocol codec and BoardApp checked under MicroPython (and CPython): ``micropython <this file>``.

Plain asserts-by-function, no pytest: the MicroPython unix port runs it with the repository on MICROPYPATH
(``tests/test_protocol_micropython.py`` does so). Prints "protocol selftest: OK" and the number of checks.
"""

from firmware import protocol as P
from firmware import tilecodes
from firmware.board_app import BoardApp
from firmware.scanner import Scanner

_count = [0]


def check(ok, what):
    _count[0] += 1
    if not ok:
        raise AssertionError("protocol selftest failed: " + what)


def _mid_raw(code):
    for lo, hi, c in tilecodes.BANDS:
        if c == code:
            return (lo + hi) // 2
    raise ValueError(f"no band for code {code}")


def check_codec():
    check(P.crc16(b"123456789") == 0x29B1, "crc16 check value")
    check(P.crc16_py(b"123456789") == 0x29B1, "crc16 table check value")
    for n in (0, 1, 253, 254, 255, 600):
        data = bytes((i * 7) & 0xFF for i in range(n))
        enc = P.cobs_encode(data)
        check(0 not in enc, f"cobs output without zeros, {n} bytes")
        check(P.cobs_decode(enc) == data, f"cobs round trip, {n} bytes")
    frames = [
        (P.HELLO, 0x5EC00001, 0, P.hello_payload(P.FLAG_ANNOUNCE, 1, 15, 15, tilecodes.TABLE_VERSION, "pico")),
        (P.SNAPSHOT, 0x5EC00001, 1, bytes(range(225))),
        (P.CHANGES, 0xFFFFFFFF, 0xFFFFFFFF, P.changes_payload([(0, 1), (224, 0)])),
        (P.HEARTBEAT, 1, 3, P.u32_payload(123456)),
        (P.ACK, 1, 4, P.ack_payload(P.SET_DEBOUNCE, 9, P.ST_OK)),
        (P.SET_DEBOUNCE, 2, 5, b"\x04"),
    ]
    dec = P.FrameDecoder()
    wire = b"garbage" + b"".join(P.encode_frame(*f) for f in frames)
    got = []
    for i in range(0, len(wire), 5):
        got += dec.feed(wire[i : i + 5])
    check(got == frames, "stream round trip")
    check(dec.bad == 1, "garbage counted once")
    bad = bytearray(P.encode_frame(*frames[2]))
    bad[5] ^= 0x04
    check(P.FrameDecoder().feed(bytes(bad)) == [], "bit flip rejected")
    check(P.parse_hello(frames[0][3])[6] == "pico", "hello board id")
    check(P.parse_changes(frames[2][3]) == [(0, 1), (224, 0)], "changes payload")
    check(P.parse_u32(frames[3][3]) == 123456, "heartbeat payload")
    check(P.seq_newer(0, 0xFFFFFFFF) and not P.seq_newer(5, 5), "seq newer across the wrap")
    check(P.new_session_id() != 0, "a session id")


def check_board_app():
    cells = bytearray(225)  # the codes the fake board reads
    empty = _mid_raw(tilecodes.EMPTY)
    raw_of = {}

    def read_raw(cell):
        code = cells[cell]
        if code == tilecodes.EMPTY:
            return empty
        if code not in raw_of:
            raw_of[code] = _mid_raw(code)
        return raw_of[code]

    sent = []
    dec = P.FrameDecoder()
    inbox = [P.encode_frame(P.HOST_HELLO, 7, 0, bytes((P.PROTOCOL_VERSION,)))]
    ms = [0]

    def write(data):
        sent.extend(dec.feed(data))

    def read():
        return inbox.pop() if inbox else b""

    app = BoardApp(Scanner(read_raw, stable_scans=2), write, read, lambda: ms[0], board_id="mp")
    for _ in range(3):
        ms[0] += 10
        app.poll()
    types = [f[0] for f in sent]
    check(types[:3] == [P.HELLO, P.HELLO, P.SNAPSHOT], "hello, reply, snapshot: " + repr(types))
    a = tilecodes.code_of("A")
    cells[16] = a
    for _ in range(2):
        ms[0] += 10
        app.poll()
    check(sent[-1][0] == P.CHANGES and P.parse_changes(sent[-1][3]) == [(16, a)], "change reported")
    check([f[2] for f in sent] == list(range(len(sent))), "sequence numbers")
    check(len({f[1] for f in sent}) == 1 and sent[0][1] != 0, "one session per boot")


def run():
    check_codec()
    check_board_app()
    print("protocol selftest: OK", _count[0], "checks")
    return _count[0]


if __name__ == "__main__":
    run()
