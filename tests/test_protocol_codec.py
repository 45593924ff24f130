"""The frame codec shared by the firmware and the reader: CRC, COBS, frames, payloads, the stream decoder."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware import protocol as P


def test_crc16_is_ccitt_false():
    assert P.crc16(b"123456789") == 0x29B1
    assert P.crc16_py(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
def test_crc16_table_path_matches_fast_path(data):
    assert P.crc16_py(data) == P.crc16(data)


@given(st.binary(max_size=1200))
def test_cobs_round_trip_without_zero_bytes(data):
    enc = P.cobs_encode(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + len(data) // 254 + 1
    assert P.cobs_decode(enc) == data


@pytest.mark.parametrize(
    ("body", "reason"), [(b"\x05ab", "runs past the frame end"), (b"\x02a\x00", "zero byte")]
)
def test_cobs_decode_names_the_fault(body, reason):
    with pytest.raises(ValueError, match=reason):
        P.cobs_decode(body)


S = 0x5EC0_0001  # a session id

FRAMES = [
    (P.HELLO, S, 0, P.hello_payload(P.FLAG_ANNOUNCE, 3, 15, 15, 0x5B2E, "stůl-7")),
    (P.SNAPSHOT, S, 1, bytes(range(225))),
    (P.CHANGES, 0xFFFFFFFF, 0xFFFFFFFF, P.changes_payload([(0, 1), (224, 252)])),
    (P.CHANGES, 1, 7, P.changes_payload([(c, 40) for c in range(225)])),
    (P.HEARTBEAT, S, 9, P.u32_payload(2**32 + 5)),
    (P.ACK, S, 10, P.ack_payload(P.SET_DEBOUNCE, 70_000, P.ST_BAD_ARG)),
    (P.HOST_HELLO, 7, 0, bytes((P.PROTOCOL_VERSION,))),
    (P.REQ_SNAPSHOT, 7, 1, b""),
    (P.REQ_RESCAN, 7, 2, b""),
    (P.SET_DEBOUNCE, 7, 3, b"\x05"),
    (P.IDENTIFY, 7, 4, b""),
]


@pytest.mark.parametrize("frame", FRAMES, ids=lambda f: P.TYPE_NAMES[f[0]])
def test_frame_round_trip(frame):
    wire = P.encode_frame(*frame)
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    assert P.decode_frame(wire[1:-1]) == frame
    assert P.FrameDecoder().feed(wire) == [frame]


def test_payload_helpers_round_trip():
    assert P.parse_hello(FRAMES[0][3]) == (P.PROTOCOL_VERSION, P.FLAG_ANNOUNCE, 3, 15, 15, 0x5B2E, "stůl-7")
    assert P.parse_changes(FRAMES[2][3]) == [(0, 1), (224, 252)]
    assert P.parse_u32(FRAMES[4][3]) == 5
    assert P.parse_ack(FRAMES[5][3]) == (P.SET_DEBOUNCE, 70_000, P.ST_BAD_ARG)
    assert P.parse_hello(P.hello_payload(0, 1, 15, 15, 1, "x" * 80))[6] == "x" * P.MAX_BOARD_ID


def _raw(ftype, seq, payload, session=S):
    return bytes((ftype,)) + P.u32_payload(session) + P.u32_payload(seq) + bytes((len(payload) >> 8, len(payload) & 0xFF)) + payload


def _cut_crc(raw):
    """A cut frame whose tail happens to hold a valid CRC of what precedes it."""
    cut = raw[:-2]
    c = P.crc16(cut)
    return cut + bytes((c >> 8, c & 0xFF))


def _raw_frame(ftype, seq, payload):
    raw = _raw(ftype, seq, payload)
    c = P.crc16(raw)
    return P.cobs_encode(raw + bytes((c >> 8, c & 0xFF)))


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (P.cobs_encode(b"\x01" + bytes(11)), "too short"),
        (P.cobs_encode(_cut_crc(_raw(P.CHANGES, 1, b"\x01\x02\x03\x04"))), "length mismatch"),
        (_raw_frame(0x42, 1, b""), "unknown frame type 0x42"),
        (_raw_frame(P.SNAPSHOT, 1, bytes(224)), "snapshot: 224 cells"),
        (_raw_frame(P.CHANGES, 1, b"\x01"), "changes: payload of 1"),
        (_raw_frame(P.CHANGES, 1, b""), "changes: payload of 0"),
        (_raw_frame(P.CHANGES, 1, b"\xe1\x01"), "cell 225 off the board"),
        (_raw_frame(P.HEARTBEAT, 1, b"\x00"), "heartbeat"),
        (_raw_frame(P.HELLO, 1, b"\x01"), "hello"),
        (_raw_frame(P.REQ_SNAPSHOT, 1, b"\x01"), "req-snapshot"),
        (_raw_frame(P.SET_DEBOUNCE, 1, b""), "set-debounce"),
        (b"\x7f" + b"\x01" * 600, "too long"),
    ],
)
def test_decode_frame_rejects_with_a_reason(body, reason):
    with pytest.raises(ValueError, match=reason):
        P.decode_frame(body)


def test_decode_frame_rejects_a_flipped_bit():
    wire = bytearray(P.encode_frame(P.CHANGES, S, 5, P.changes_payload([(17, 3)])))
    wire[4] ^= 0x10
    with pytest.raises(ValueError, match="CRC mismatch|COBS|payload|type"):
        P.decode_frame(bytes(wire[1:-1]))


def test_bad_utf8_board_id_is_a_value_error():
    with pytest.raises(ValueError, match="UTF-8"):
        P.parse_hello(P.hello_payload(0, 1, 15, 15, 1, "") + b"\xff\xfe")


def test_decoder_skips_garbage_and_cut_frames_and_counts_them():
    a = P.encode_frame(P.HEARTBEAT, S, 1, P.u32_payload(1))
    b = P.encode_frame(P.CHANGES, S, 2, P.changes_payload([(3, 4)]))
    dec = P.FrameDecoder()
    stream = b"noise\xff\x13" + a[: len(a) // 2] + b + b"\x01\x02" + a
    got = []
    for i in range(0, len(stream), 3):  # arbitrary chunking
        got += dec.feed(stream[i : i + 3])
    assert got == [P.decode_frame(b[1:-1]), P.decode_frame(a[1:-1])]
    assert dec.bad == 3 and dec.good == 2  # the noise, the cut frame, the stray "\x01\x02"
    assert dec.last_error


def test_decoder_drops_an_endless_frame_and_resynchronises():
    dec = P.FrameDecoder()
    assert dec.feed(b"\x01" * (P.MAX_ENCODED + 10)) == []
    assert "too long" in dec.last_error
    frame = P.encode_frame(P.REQ_SNAPSHOT, 9, 3)
    assert dec.feed(b"\x01\x01" + frame) == [(P.REQ_SNAPSHOT, 9, 3, b"")]


def test_decoder_reset_forgets_a_partial_frame():
    frame = P.encode_frame(P.IDENTIFY, 9, 1)
    dec = P.FrameDecoder()
    dec.feed(frame[:-3])
    dec.reset()
    assert dec.feed(frame[-3:]) == []


@given(st.binary(max_size=2000))
def test_decoder_never_raises_on_random_bytes(data):
    dec = P.FrameDecoder()
    for ftype, session, seq, payload in dec.feed(data):
        P.check_payload(ftype, payload)  # anything returned is a well-formed frame
        assert 0 <= seq <= 0xFFFFFFFF and 0 <= session <= 0xFFFFFFFF
    assert len(dec._pending) <= P.MAX_ENCODED


def test_next_seq_wraps_and_newer_follows_it():
    assert P.next_seq(0xFFFFFFFF) == 0
    assert P.next_seq(41) == 42
    assert P.seq_newer(42, 41) and not P.seq_newer(41, 42) and not P.seq_newer(41, 41)
    assert P.seq_newer(0, 0xFFFFFFFF)  # across the wrap


def test_session_ids_are_random_and_never_zero():
    assert P.new_session_id(lambda n: bytes(n)) == 1
    ids = {P.new_session_id() for _ in range(50)}
    assert len(ids) == 50 and 0 not in ids


def test_a_version_1_hello_is_named_not_a_length_mismatch():
    payload = bytes((1, 1, 0, 1, 15, 15, 0x5B, 0x2E)) + b"old"
    raw = bytes((P.HELLO, 0, 0, 0, len(payload))) + payload
    c = P.crc16(raw)
    with pytest.raises(ValueError, match="protocol version 1"):
        P.decode_frame(P.cobs_encode(raw + bytes((c >> 8, c & 0xFF))))


def test_protocol_md_examples_decode():
    """The hex examples in firmware/PROTOCOL.md are real frames of this codec."""
    import re
    from pathlib import Path

    text = (Path(P.__file__).parent / "PROTOCOL.md").read_text(encoding="utf-8")
    lines = [m.group(1) for m in re.finditer(r"^(00(?: [0-9a-f]{2})+)", text, re.MULTILINE)]
    frames = [P.FrameDecoder().feed(bytes.fromhex(ln)) for ln in lines]
    assert [f[0][0] for f in frames] == [P.HOST_HELLO, P.HELLO, P.CHANGES, P.HEARTBEAT]
    assert P.parse_hello(frames[1][0][3])[6] == "sim-board"
    assert P.parse_changes(frames[2][0][3]) == [(112, 1)]
    assert P.parse_u32(frames[3][0][3]) == 1000
    assert {f[0][1] for f in frames[1:]} == {0x5EC0_0001}
