"""The journal keeps every record that was written, survives a torn last line, and refuses real corruption."""

import errno
import json
import os

import pytest
from table_rig import PowerCut, cut_journal_op, file_size_limit

from shared.errors import JournalError, JournalWriteError
from shared.journal import Journal, read_journal, write_atomic


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
    from shared.journal import valid_prefix

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


def test_rotate_archives_the_game_and_starts_the_next_with_its_first_records(tmp_path):
    path = tmp_path / "journal.jsonl"
    with Journal(path) as j:
        j.append({"type": "start", "n": 1})
        archived = j.rotate([{"type": "start", "n": 2}, {"type": "info"}])
        j.append({"type": "pass"})
    assert archived == tmp_path / "journal-0001.jsonl"
    assert list(read_journal(archived)) == [{"type": "start", "n": 1}]
    assert list(read_journal(path)) == [{"type": "start", "n": 2}, {"type": "info"}, {"type": "pass"}]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal-0001.jsonl", "journal.jsonl"]


@pytest.mark.parametrize("how", ["before", "after"])
def test_a_power_cut_at_any_instant_of_a_rotation_leaves_a_whole_journal(tmp_path, monkeypatch, how):
    """Never an empty journal (a restart would start a game of its own): the old game's, or the new one's with
    its first records. A rotation after a cut reuses the archive the cut left."""
    cut_at = 0
    while True:
        folder = tmp_path / f"{how}-{cut_at}"
        path = folder / "journal.jsonl"
        with Journal(path) as j:
            j.append({"type": "start", "n": 1})
        seen = cut_journal_op(monkeypatch, path, cut_at, how)
        j = Journal(path)
        try:
            j.rotate([{"type": "start", "n": 2}])
            cut = False
        except PowerCut:
            cut = True
        monkeypatch.undo()
        j.close()
        if not cut:
            break
        assert list(read_journal(path)) in ([{"type": "start", "n": 1}], [{"type": "start", "n": 2}]), seen
        if list(read_journal(path)) == [{"type": "start", "n": 1}]:  # the players start the new game again
            with Journal(path) as again:
                again.rotate([{"type": "start", "n": 2}])
            assert list(read_journal(path)) == [{"type": "start", "n": 2}]
        archives = sorted(folder.glob("journal-*.jsonl"))
        assert [list(read_journal(a)) for a in archives] == [[{"type": "start", "n": 1}]], seen
        cut_at += 1
    assert cut_at >= 2  # the rotation touched the journal's name more than once and every step was cut


def test_a_line_the_card_refuses_leaves_no_part_of_it_and_the_next_line_is_whole(tmp_path):
    """A full card writes part of a line, then refuses the rest: the part must not stay in the file, where it would
    run into the next record and make the journal unreadable from there (the append was buffered and left it)."""
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        j.append({"n": 1})
        size = path.stat().st_size
        with file_size_limit(size + 5), pytest.raises(JournalWriteError) as refused:
            j.append({"n": 2, "word": "ŘEŠIT" * 20})
        assert refused.value.errno == errno.EFBIG and str(path) in str(refused.value)
        assert path.stat().st_size == size
        j.append({"n": 3})
    assert list(read_journal(path)) == [{"n": 1}, {"n": 3}]


def test_a_new_game_the_card_refuses_keeps_the_old_journal_open_and_whole(tmp_path):
    """The next game's first records refused (a full card): the finished game's journal stays where it was, nothing
    half-made is left beside it, and its next line is written to it (the journal was left closed: every later line
    failed)."""
    path = tmp_path / "journal.jsonl"
    with Journal(path) as j:
        j.append({"n": 1})
        before = path.read_bytes()
        with file_size_limit(4), pytest.raises(JournalWriteError):
            j.rotate([{"type": "start", "players": ["Eva", "Jan"]}])
        assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["journal.jsonl"]
        j.append({"n": 2})
    assert list(read_journal(path)) == [{"n": 1}, {"n": 2}]


def test_salvage_keeps_every_record_after_a_bad_line_that_still_applies(tmp_path):
    from shared.journal import salvage

    path = tmp_path / "j.jsonl"
    path.write_text('{"n": 1}\nnot json\n{"n": 2}\n[3]\n{"n": 4}\n{"n": 5}\n', encoding="utf-8")

    def refuse_four(record):
        if record["n"] == 4:
            raise ValueError("four is refused")

    records, set_aside = salvage(path, refuse_four)
    assert records == [{"n": 1}, {"n": 2}, {"n": 5}]
    assert [(s.line, s.kind) for s in set_aside] == [(2, None), (4, None), (5, None)]
    assert "four is refused" in set_aside[2].reason and not any(s.torn for s in set_aside)


def test_a_copy_kept_aside_is_reused_while_the_file_is_the_same(tmp_path):
    """A power cut after the copy, before the repair: the next start copies nothing twice (one report, one copy)."""
    from shared.journal import keep_aside

    path = tmp_path / "j.jsonl"
    path.write_bytes(b'{"n": 1}\nnot json\n')
    first = keep_aside(path)
    assert keep_aside(path) == first
    path.write_bytes(b'{"n": 1}\nstill not json\n')
    second = keep_aside(path)
    assert second != first and second.read_bytes() == path.read_bytes()
    assert first.read_bytes() == b'{"n": 1}\nnot json\n'


def test_a_repair_the_card_refuses_waits_for_the_next_record_and_copies_first(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_bytes(b'{"n": 1}\nnot json\n{"n": 2}\n')
    damaged = path.read_bytes()
    journal = Journal(path)
    with file_size_limit(1):  # the copy cannot be made
        assert journal.replace([{"n": 1}, {"n": 2}]) is None
        assert journal.repair_pending and path.read_bytes() == damaged
        with pytest.raises(JournalWriteError):
            journal.append({"n": 3})
        assert path.read_bytes() == damaged
    journal.append({"n": 3})
    assert not journal.repair_pending
    assert list(read_journal(path)) == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert (tmp_path / "j.jsonl.damaged-1").read_bytes() == damaged
    journal.close()
