"""The hub's tournament file: one SQLite database (standard library ``sqlite3``) in WAL mode with one writer.

Tables: ``meta`` (the round and its stage), ``round_commands``, ``tables``, ``games`` (table, game id, round),
``events`` (every game's events by seq: the truth the games are rebuilt from), ``results`` (each finished game's
result as the engine computed it), ``players`` (id, name), ``referees`` (argon2 hashes), ``sessions`` (the
referees' logins: a SHA-256 of the session token, expiry, revocation), ``audit`` (referee actions).

Writes: ``execute`` and ``transaction`` commit at once. ``write`` queues a statement for a **group commit**: with
``commit_window`` > 0 a committer thread commits every queued statement in one transaction at most
``commit_window`` seconds after the first was queued (or once ``MAX_BATCH`` statements or ``MAX_WAITING``
callbacks are waiting); ``after_commit`` runs a callback once everything queued before it is committed (the hub
acknowledges a message to the broker there, never earlier). Callbacks run in the order they were given, on the committer thread. Every immediate
write and every read first commits what is queued, so reads see every write and statements commit in order.
With ``commit_window`` 0 (the default) ``write`` commits at once and ``after_commit`` runs the callback at once.

Durability: WAL with ``synchronous=FULL`` (each commit is on the disk when it returns) for a file given
``commit_window`` > 0, so a committed write survives a power cut too; ``synchronous=NORMAL`` otherwise (durable
against a crash of the process). Backing the file up: ``docs/hub.md``.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
COMMIT_WINDOW = 0.05
"""Seconds ``partiar hub`` lets writes gather before a group commit: at 100 events a second, 5 share a commit
(an fsync); a referee never notices 50 ms, and the broker keeps each message until its commit."""
MAX_BATCH = 1000
"""Queued statements that trigger a group commit before the window has passed."""
MAX_WAITING = 16
"""Callbacks waiting for a commit that trigger it before the window has passed. The hub acknowledges a message
in its callback, and the broker sends a client at most ``max_inflight_messages`` unacknowledged messages (100 in
``deploy/mosquitto/mosquitto.conf``, 20 by mosquitto's default): committing early keeps the broker sending."""
RETRY_SECONDS = 1.0
"""After a failed group commit (disk full, I/O error) the statements stay queued and are tried again this late."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS round_commands(
    n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL, round INTEGER NOT NULL,
    command TEXT NOT NULL, sent REAL NOT NULL, referee TEXT);
CREATE TABLE IF NOT EXISTS tables(id TEXT PRIMARY KEY, online INTEGER, game_id TEXT, updated REAL);
CREATE TABLE IF NOT EXISTS games(
    tbl TEXT NOT NULL, game_id TEXT NOT NULL, round INTEGER NOT NULL, created REAL NOT NULL,
    PRIMARY KEY(tbl, game_id));
CREATE TABLE IF NOT EXISTS events(
    tbl TEXT NOT NULL, game_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL, sent REAL,
    PRIMARY KEY(tbl, game_id, seq));
CREATE TABLE IF NOT EXISTS results(
    tbl TEXT NOT NULL, game_id TEXT NOT NULL, round INTEGER NOT NULL, players TEXT NOT NULL,
    player_ids TEXT NOT NULL, scores TEXT NOT NULL, end_reason TEXT NOT NULL, forfeit_all INTEGER NOT NULL,
    PRIMARY KEY(tbl, game_id));
CREATE TABLE IF NOT EXISTS players(id TEXT PRIMARY KEY, name TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS referees(name TEXT PRIMARY KEY, hash TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS sessions(
    token_hash TEXT PRIMARY KEY, referee TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL, revoked REAL);
CREATE TABLE IF NOT EXISTS audit(
    n INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, referee TEXT, action TEXT NOT NULL,
    detail TEXT NOT NULL, client TEXT);
"""


class Database:
    """One connection shared by the hub's threads under a lock (SQLite's one writer). ``path`` ``":memory:"``
    keeps nothing (tests, the table unit's local page). ``commit_window`` > 0: ``write`` is group-committed by a
    thread of its own (see the module's docstring); ``close()`` commits what is queued.

    Two locks: ``_lock`` guards the connection (held through a commit and its fsync), ``_queue`` the queued
    writes and callbacks, so queueing a write never waits for a commit on the disk. Queued writes are taken
    only by a holder of ``_lock``, which commits them before it lets go: statements commit in queue order."""

    def __init__(self, path: Path | str = ":memory:", commit_window: float = 0.0) -> None:
        self.path = str(path)
        self.commit_window = commit_window
        self._lock = threading.Lock()
        self._queue = threading.Condition(threading.Lock())
        self._queued: list[tuple[str, tuple[Any, ...]]] = []
        self._first = 0.0
        self._callbacks: list[Callable[[], None]] = []
        self._closing = False
        self.commits = 0
        """Group commits so far (for the tests)."""
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        batched = commit_window > 0
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(f"PRAGMA synchronous={'FULL' if batched and self.path != ':memory:' else 'NORMAL'}")
            self._conn.execute("PRAGMA busy_timeout=10000")
            self._conn.executescript(SCHEMA)
            self._conn.execute("INSERT OR IGNORE INTO meta VALUES('schema', ?)", (str(SCHEMA_VERSION),))
        self._committer: threading.Thread | None = None
        if batched:
            self._committer = threading.Thread(target=self._commit_loop, name="hub-db-commit", daemon=True)
            self._committer.start()

    # ------------------------------------------------------------------------------------- group commit
    def write(self, sql: str, params: Iterable[Any] = ()) -> None:
        """Queue one write for the next group commit (committed at once without a ``commit_window``)."""
        if self._committer is None:
            self.execute(sql, params)
            return
        with self._queue:
            if not self._queued:
                self._first = time.monotonic()
            self._queued.append((sql, tuple(params)))
            if len(self._queued) == 1 or len(self._queued) >= MAX_BATCH:
                self._queue.notify()

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once every write queued so far is committed, after the callbacks given before it
        (at once without a ``commit_window``). It runs on the committer thread: it must be quick and must not
        use this database."""
        if self._committer is None:
            callback()
            return
        with self._queue:
            self._callbacks.append(callback)
            if not self._queued or len(self._callbacks) >= MAX_WAITING:  # else the window's end wakes it
                self._queue.notify()

    def _commit_queued(self) -> None:
        """Take the queued writes and commit them in one transaction; the caller holds ``_lock``. On an error
        they go back to the head of the queue (and the exception propagates)."""
        with self._queue:
            writes, self._queued = self._queued, []
        if not writes:
            return
        try:
            try:
                self._run_group(writes, one_by_one=False)
            except sqlite3.IntegrityError:  # a row the data refuses: again, each statement on its own
                self._run_group(writes, one_by_one=True)
        except BaseException:
            with self._queue:
                self._queued[:0] = writes
            raise
        self.commits += 1

    def _run_group(self, writes: list[tuple[str, tuple[Any, ...]]], one_by_one: bool) -> None:
        """The writes in one transaction. ``one_by_one``: each in a savepoint, and a statement the data refuses
        (a constraint) is logged and left out, so one bad row never holds back the writes (and the
        acknowledgements) after it. An I/O or schema error fails the whole group."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in writes:
                if not one_by_one:
                    self._conn.execute(sql, params)
                    continue
                self._conn.execute("SAVEPOINT one")
                try:
                    self._conn.execute(sql, params)
                except sqlite3.IntegrityError as exc:
                    self._conn.execute("ROLLBACK TO one")
                    log.error("hub: the database refused %s %r: %s", sql.split("(")[0], params[:3], exc)
                self._conn.execute("RELEASE one")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _commit_loop(self) -> None:
        """The committer thread: waits for queued writes or callbacks, lets the window pass, commits, then runs
        the callbacks taken before that commit (so a callback never runs before the writes queued before it)."""
        while True:
            with self._queue:
                self._queue.wait_for(lambda: self._closing or bool(self._queued) or bool(self._callbacks))
                while (self._queued and not self._closing and len(self._queued) < MAX_BATCH
                       and len(self._callbacks) < MAX_WAITING):
                    left = self._first + self.commit_window - time.monotonic()
                    if left <= 0:
                        break
                    self._queue.wait(left)
                callbacks, self._callbacks = self._callbacks, []
                closing = self._closing
            try:
                with self._lock:  # every write queued before these callbacks is committed when this returns
                    self._commit_queued()
            except sqlite3.Error:
                log.exception("hub: a group commit failed; its writes stay queued")
                with self._queue:
                    self._callbacks[:0] = callbacks  # nothing they wait for is committed: keep them, in order
                    if closing:
                        return
                    self._queue.wait(RETRY_SECONDS)
                continue
            for callback in callbacks:
                try:
                    callback()
                except Exception:  # one failing callback must not stop the commits
                    log.exception("hub: a callback after a commit failed")
            with self._queue:
                if closing and not self._callbacks and not self._queued:
                    return

    # ------------------------------------------------------------------------------------- immediate
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (committed on leaving, rolled back on an exception), after the queued writes."""
        with self._lock:
            self._commit_queued()
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def execute(self, sql: str, params: Iterable[Any] = ()) -> None:
        """One write in its own transaction."""
        with self.transaction() as conn:
            conn.execute(sql, tuple(params))

    def query(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Rows of a read, after the queued writes are committed."""
        with self._lock:
            self._commit_queued()
            return self._conn.execute(sql, tuple(params)).fetchall()

    def flush(self) -> None:
        """Commit the queued writes now (their callbacks run on the committer thread, which this wakes)."""
        with self._lock:
            self._commit_queued()
        with self._queue:
            self._queue.notify()

    def get_meta(self, key: str) -> str | None:
        rows = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self.execute("INSERT INTO meta VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                     (key, value))  # fmt: skip

    def backup(self, target: Path) -> None:
        """A consistent copy of the database at ``target`` (SQLite's online backup), while the hub runs."""
        dest = sqlite3.connect(str(target))
        try:
            with self._lock:
                self._commit_queued()
                self._conn.backup(dest)
        finally:
            dest.close()

    def close(self) -> None:
        """Commit what is queued, run the waiting callbacks, stop the committer, close the file."""
        if self._committer is not None:
            with self._queue:
                self._closing = True
                self._queue.notify()
            self._committer.join(30.0)
        with self._lock:
            try:
                self._commit_queued()
            finally:
                self._conn.close()
