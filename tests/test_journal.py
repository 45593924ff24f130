"""The journal keeps every record that was written, survives a torn last line, and refuses real corruption."""

import json
import os

import pytest

from device.errors import JournalError
from device.journal import Journal, read_journal, write_atomic


def test_records_round_trip(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        j.append({"t": "game", "n": 1, "word": "ŘEŠIT"})
        j.append({"t": "game", "n": 2})
    assert list(read_journal(path)) == [{"t": "game", "n": 1, "word": "ŘEŠIT"}, {"t": "game", "n": 2}]


def test_torn_last_line_is_dropped_and_appending_continues(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        j.append({"n": 1})
    with open(path, "ab") as f:  # a power cut in the middle of the second write
        f.write(b'{"n": 2, "wo')
    assert list(read_journal(path)) == [{"n": 1}]
    with Journal(path) as j:  # reopening cuts the torn tail so the next record is whole
        j.append({"n": 3})
        assert j.records() == [{"n": 1}, {"n": 3}]


def test_corruption_before_the_end_names_file_and_line(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text('{"n": 1}\nnot json\n{"n": 3}\n', encoding="utf-8")
    with pytest.raises(JournalError, match=r"j\.jsonl:2: not a JSON record"):
        list(read_journal(path))


def test_non_object_record_is_refused(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(JournalError, match="JSON object"):
        list(read_journal(path))


def test_append_is_on_disk_before_return(tmp_path):
    path = tmp_path / "j.jsonl"
    j = Journal(path)
    j.append({"n": 1})
    # read through a separate descriptor without closing the journal: the data is already there
    fd = os.open(path, os.O_RDONLY)
    try:
        assert json.loads(os.read(fd, 100).decode()) == {"n": 1}
    finally:
        os.close(fd)
        j.close()


def test_write_atomic_replaces(tmp_path):
    target = tmp_path / "state" / "clock.json"
    write_atomic(target, "one")
    write_atomic(target, "two")
    assert target.read_text() == "two"
    assert not (tmp_path / "state" / "clock.json.tmp").exists()


def test_a_torn_tail_is_cut_but_the_file_as_it_was_is_kept_aside(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_bytes(b'{"n": 1}\n{"n": 2, "w": "\xc5')  # torn inside a two-byte letter
    original = path.read_bytes()
    with Journal(path) as j:
        assert j.records() == [{"n": 1}]
    assert (tmp_path / "j.jsonl.damaged-1").read_bytes() == original


def test_valid_prefix_stops_at_the_first_bad_or_refused_line(tmp_path):
    from device.journal import valid_prefix

    path = tmp_path / "j.jsonl"
    path.write_text('{"n": 1}\n\n{"n": 2}\nnot json\n{"n": 4}\n', encoding="utf-8")
    records, damage = valid_prefix(path)
    assert records == [{"n": 1}, {"n": 2}] and damage is not None and damage.line == 4 and not damage.torn

    def refuse_two(record):
        if record["n"] == 2:
            raise ValueError("two is refused")

    records, damage = valid_prefix(path, refuse_two)
    assert records == [{"n": 1}] and damage.line == 3 and "two is refused" in damage.reason
    assert valid_prefix(tmp_path / "missing.jsonl") == ([], None)
