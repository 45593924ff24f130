"""The hub's database: the group commit (writes queued, committed together, callbacks after their commit and in
order, reads and immediate writes committing the queue first, a failed commit keeping the writes queued)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from hub.db import Database

WAIT = 30.0
"""Generous limit for the committer thread on a busy machine (the tests wait on events, never on time)."""


def committed(path: Path, sql: str = "SELECT key FROM meta WHERE key LIKE 'k%' ORDER BY key") -> list[str]:
    """What another connection (another process, a crash's survivor) sees in the file."""
    other = sqlite3.connect(path)
    try:
        return [row[0] for row in other.execute(sql)]
    finally:
        other.close()


@pytest.fixture
def batched(tmp_path: Path):
    """``(path, open)``: ``open(window)`` opens the file with that commit window; each is closed at the end."""
    path = tmp_path / "hub.sqlite"
    opened: list[Database] = []

    def open_db(window: float = 3600.0) -> Database:  # an hour: the window never ends by itself in a test
        opened.append(Database(path, commit_window=window))
        return opened[-1]

    yield path, open_db
    for db in opened:
        db.close()


def test_queued_writes_commit_together_and_callbacks_follow_the_commit(batched) -> None:
    path, open_db = batched
    db = open_db()
    seen: list[tuple[str, list[str]]] = []
    done = threading.Event()
    for key in ("k1", "k2", "k3"):
        db.write("INSERT INTO meta VALUES(?, 'v')", (key,))
        db.after_commit(lambda key=key: seen.append((key, committed(path))))
    db.after_commit(done.set)
    assert committed(path) == [] and seen == []  # queued: nothing on the disk, no callback yet
    db.flush()
    assert committed(path) == ["k1", "k2", "k3"] and db.commits == 1
    assert done.wait(WAIT)
    assert [key for key, _ in seen] == ["k1", "k2", "k3"]  # in the order given
    assert all(on_disk == ["k1", "k2", "k3"] for _, on_disk in seen)  # each after its write's commit


def test_the_window_ends_a_group_by_itself(batched) -> None:
    path, open_db = batched
    db = open_db(0.05)
    done = threading.Event()
    db.write("INSERT INTO meta VALUES('k1', 'v')")
    db.after_commit(done.set)
    assert done.wait(WAIT) and committed(path) == ["k1"]
    nothing = threading.Event()
    db.after_commit(nothing.set)  # nothing queued: runs without waiting for a window
    assert nothing.wait(WAIT)


def test_reads_and_immediate_writes_commit_the_queue_first(batched) -> None:
    path, open_db = batched
    db = open_db()
    db.write("INSERT INTO meta VALUES('k1', 'v')")
    assert [r["key"] for r in db.query("SELECT key FROM meta WHERE key LIKE 'k%'")] == ["k1"]
    db.write("INSERT INTO meta VALUES('k2', 'v')")
    db.execute("UPDATE meta SET value = 'w' WHERE key = 'k2'")  # after the queued insert, not before it
    assert committed(path, "SELECT value FROM meta WHERE key = 'k2'") == ["w"]


def test_close_commits_the_queue_and_runs_the_callbacks(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    db = Database(path, commit_window=3600.0)
    ran = threading.Event()
    db.write("INSERT INTO meta VALUES('k1', 'v')")
    db.after_commit(ran.set)
    db.close()
    assert ran.is_set() and committed(path) == ["k1"]


def test_a_failed_commit_keeps_the_writes_and_holds_their_callbacks(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    db = Database(path, commit_window=3600.0)
    try:
        ran = threading.Event()
        db.write("INSERT INTO meta VALUES('k1', 'v')")
        db.write("INSERT INTO no_such_table VALUES(1)")
        db.after_commit(ran.set)
        with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
            db.flush()
        assert committed(path) == [] and not ran.is_set()  # rolled back as one: nothing acknowledged
        with pytest.raises(sqlite3.OperationalError):
            db.query("SELECT 1")  # still queued, still failing
    finally:
        with pytest.raises(sqlite3.OperationalError):
            db.close()


def test_without_a_window_writes_and_callbacks_are_immediate(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    db = Database(path)
    try:
        ran: list[list[str]] = []
        db.write("INSERT INTO meta VALUES('k1', 'v')")
        db.after_commit(lambda: ran.append(committed(path)))
        assert ran == [["k1"]]
    finally:
        db.close()


def test_a_row_the_data_refuses_is_left_out_of_its_group(batched, caplog: pytest.LogCaptureFixture) -> None:
    path, open_db = batched
    db = open_db()
    ran = threading.Event()
    db.write("INSERT INTO meta VALUES('k1', 'v')")
    db.write("INSERT INTO meta VALUES('k1', 'again')")  # the primary key refuses it
    db.write("INSERT INTO meta VALUES('k2', 'v')")
    db.after_commit(ran.set)
    db.flush()
    assert ran.wait(WAIT)
    assert committed(path) == ["k1", "k2"] and "refused INSERT INTO meta" in caplog.text
    assert committed(path, "SELECT value FROM meta WHERE key = 'k1'") == ["v"]
