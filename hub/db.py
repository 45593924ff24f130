"""The hub's tournament file: one SQLite database (standard library ``sqlite3``) in WAL mode with one writer.

Tables: ``meta`` (the round and its stage), ``round_commands``, ``tables``, ``games`` (table, game id, round),
``events`` (every game's events by seq: the truth the games are rebuilt from), ``results`` (each finished game's
result as the engine computed it), ``players`` (id, name), ``referees`` (argon2 hashes), ``audit`` (referee
actions). Every write is its own transaction: a hub killed with ``kill -9`` at any moment loses nothing it
had written (WAL with ``synchronous=NORMAL`` is durable against a crash of the process; a power cut may lose the
last transactions, which the tables resend). Backing the file up: ``docs/hub.md``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

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
CREATE TABLE IF NOT EXISTS audit(
    n INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, referee TEXT, action TEXT NOT NULL,
    detail TEXT NOT NULL, client TEXT);
"""


class Database:
    """One connection shared by the hub's threads under a lock (SQLite's one writer). ``path`` ``":memory:"``
    keeps nothing (tests, the table unit's local page)."""

    def __init__(self, path: Path | str = ":memory:") -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA busy_timeout=10000")
            self._conn.executescript(SCHEMA)
            self._conn.execute("INSERT OR IGNORE INTO meta VALUES('schema', ?)", (str(SCHEMA_VERSION),))

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (committed on leaving, rolled back on an exception)."""
        with self._lock:
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
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

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
                self._conn.backup(dest)
        finally:
            dest.close()

    def close(self) -> None:
        with self._lock:
            self._conn.close()
