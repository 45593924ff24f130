"""The tournament's deník in the hub's SQLite file: the events of the ``tournament`` package, appended and never
rewritten, and the ``Tournament`` rebuilt from them.

Table ``denik(n, at, by, type, event)``: one row per event in the order it happened, the event as
``tournament.events.encode_event`` makes it. Triggers refuse every ``UPDATE`` and ``DELETE`` on it, and an
``INSERT`` over an entry's number (``INSERT OR REPLACE`` deletes the old row without firing the delete trigger)
or before the last one, so a correction can only be a new entry at the end (seed 004: nothing in the
log is rewritten). An event the tournament refuses (a result for
a table that was not paired, a round closed with a game missing ...) is never written: ``append`` raises the
package's ``TournamentError`` naming it and the log stays as it was.
"""

from __future__ import annotations

import json
import logging
import threading

from hub.db import Database
from tournament.errors import TournamentError
from tournament.events import Event, decode_event, encode_event
from tournament.state import Tournament

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS denik(
    n INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, by TEXT NOT NULL, type TEXT NOT NULL,
    event TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS denik_no_update BEFORE UPDATE ON denik
    BEGIN SELECT RAISE(ABORT, 'the deník is append-only: a correction is a new entry'); END;
CREATE TRIGGER IF NOT EXISTS denik_no_delete BEFORE DELETE ON denik
    BEGIN SELECT RAISE(ABORT, 'the deník is append-only: a correction is a new entry'); END;
CREATE TRIGGER IF NOT EXISTS denik_no_replace BEFORE INSERT ON denik
    WHEN EXISTS (SELECT 1 FROM denik WHERE n = NEW.n)
    BEGIN SELECT RAISE(ABORT, 'the deník is append-only: a correction is a new entry'); END;
CREATE TRIGGER IF NOT EXISTS denik_only_at_the_end AFTER INSERT ON denik
    WHEN NEW.n < (SELECT MAX(n) FROM denik)
    BEGIN SELECT RAISE(ABORT, 'the deník is append-only: a correction is a new entry'); END;
"""


class DenikStore:
    """The deník of one tournament in ``db``; ``tournament`` is its state rebuilt from the log. Thread-safe."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._lock = threading.RLock()
        with db.transaction() as conn:  # executescript would commit in the middle: one statement at a time
            for statement in _statements(SCHEMA):
                conn.execute(statement)
        self._events: list[Event] = []
        for row in db.query("SELECT n, event FROM denik ORDER BY n"):
            try:
                self._events.append(decode_event(json.loads(row["event"])))
            except (ValueError, TournamentError) as exc:  # a file edited by hand: say which entry, keep the rest out
                raise TournamentError(f"deník entry {row['n']} unreadable: {exc}") from None
        self.tournament = Tournament.from_events(self._events)
        self.version = len(self._events)

    def events(self) -> list[Event]:
        with self._lock:
            return list(self._events)

    def entries(self) -> list[dict[str, object]]:
        """The log as stored: ``{"n", "at", "by", "type", "event"}`` per entry, oldest first."""
        return [{"n": r["n"], "at": r["at"], "by": r["by"], "type": r["type"], "event": json.loads(r["event"])}
                for r in self.db.query("SELECT n, at, by, type, event FROM denik ORDER BY n")]  # fmt: skip

    def jsonl(self) -> bytes:
        """The deník as stored, one event (``encode_event``'s JSON) a line, oldest first: what ``partiar
        tournament log FILE.jsonl`` reads."""
        rows = self.db.query("SELECT event FROM denik ORDER BY n")
        return "".join(r["event"] + "\n" for r in rows).encode("utf-8")

    def append(self, *events: Event) -> Tournament:
        """Check the events against the tournament, then write them in one transaction; returns the new state.
        Raises a ``TournamentError`` naming the first event refused (nothing written)."""
        with self._lock:
            trial = Tournament.from_events([*self._events, *events])  # the state is never half-applied
            with self.db.transaction() as conn:
                for event in events:
                    conn.execute("INSERT INTO denik(at, by, type, event) VALUES(?, ?, ?, ?)",
                                 (event.at, event.by, type(event).__name__,
                                  json.dumps(encode_event(event), ensure_ascii=False)))  # fmt: skip
            self._events.extend(events)
            self.tournament = trial
            self.version = len(self._events)
            for event in events:
                log.info("deník: %s by %s", type(event).__name__, event.by)
            return trial


def _statements(script: str) -> list[str]:
    """The statements of ``SCHEMA`` (a trigger's body has its own ``;``: split after ``END;``)."""
    out, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        if text.endswith("END;") or (text.endswith(";") and "TRIGGER" not in text):
            out.append(text)
            current = []
    return out
