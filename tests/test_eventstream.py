"""Server-sent events framing (``eventstream``): one message is an optional event line and one data line, whatever
the payload holds; a client's line reader gets the payload back."""

from __future__ import annotations

import pytest

from eventstream import KEEPALIVE, data_of, frame, frame_json


@pytest.mark.parametrize("payload", [{"name": "Žák\nřádek\r\ndruhý", "n": [1, 2]}, "text", None, [], {"a": "b: c"}])
def test_a_message_is_one_data_line_read_back_whole(payload) -> None:
    message = frame(payload, "table")
    lines = message.split(b"\n")
    assert lines[0] == b"event: table" and lines[2:] == [b"", b""]  # event line, data line, blank line
    assert data_of(lines[1] + b"\n") == payload and "Žák".encode() in frame({"n": "Žák"})


def test_other_lines_carry_no_data() -> None:
    assert frame([1]) == b"data: [1]\n\n"  # the default event: no event line
    assert frame_json('{"a":1}', "state") == b'event: state\ndata: {"a":1}\n\n'
    assert [data_of(line) for line in (b"event: table\n", KEEPALIVE, b"\n")] == [None, None, None]
    with pytest.raises(ValueError):
        data_of(b"data: {broken\n")
