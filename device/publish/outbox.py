"""The table's outgoing queue on disk: every event is appended and fsynced before it is sent.

``outbox.jsonl`` holds one record a line: ``{"n": N, "topic": ..., "payload": ...}`` (``n`` counts up from 1
for the life of the directory); ``acked`` holds the highest ``n`` up to which the broker acknowledged every
record. After a restart every record above ``acked`` is sent again, in order (the hub drops what it already has,
by ``game`` and ``seq``). A file whose last line was cut off by a power cut is read up to that line. Acknowledged
records stay (the publisher resends the current game's events from them when the hub asks) until ``compact()``,
which the publisher calls when a new game starts.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Record:
    """One queued message."""

    n: int
    topic: str
    payload: str


class Outbox:
    """An append-only, fsynced queue of messages with an acknowledged mark. Thread-safe."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / "outbox.jsonl"
        self.acked_path = self.directory / "acked"
        self._lock = threading.Lock()
        self._acked = self._read_acked()
        self.records_at_start = self._read_records()
        """Every record in the file when it was opened (acknowledged or not)."""
        self._pending: list[Record] = [r for r in self.records_at_start if r.n > self._acked]
        self._last = max([self._acked, *(r.n for r in self._pending)])
        self._done: set[int] = set()
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for appends

    def _read_acked(self) -> int:
        try:
            return int(self.acked_path.read_text(encoding="ascii").strip() or 0)
        except FileNotFoundError:
            return 0
        except (OSError, ValueError) as exc:
            log.error("outbox mark %s unreadable (%s): sending the whole outbox again", self.acked_path, exc)
            return 0

    def _read_records(self) -> list[Record]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        out = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                out.append(Record(int(data["n"]), str(data["topic"]), str(data["payload"])))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                log.warning("%s:%d: unreadable outbox line dropped: %.60r", self.path, number, line)
        if text and not text.endswith("\n"):
            # a cut-off last line: start the next append on a fresh line
            with open(self.path, "a", encoding="utf-8") as f:
                f.write("\n")
        return out

    def append(self, topic: str, payload: str) -> Record:
        """Queue a message: written and fsynced before this returns. If the disk fails the message is still
        queued, in memory only (it is sent while the program runs), and the error is logged."""
        with self._lock:
            record = Record(self._last + 1, topic, payload)
            line = json.dumps({"n": record.n, "topic": topic, "payload": payload}, ensure_ascii=False)
            try:
                self._file.write(line + "\n")
                self._file.flush()
                os.fsync(self._file.fileno())
            except (OSError, ValueError) as exc:
                log.error("outbox %s: cannot write (%s): message %d kept in memory only", self.path, exc, record.n)
            self._last = record.n
            self._pending.append(record)
            return record

    def pending(self) -> list[Record]:
        """The records not yet acknowledged, oldest first."""
        with self._lock:
            return list(self._pending)

    @property
    def acked(self) -> int:
        with self._lock:
            return self._acked

    def ack(self, n: int) -> None:
        """The broker acknowledged record ``n``: move the mark over every record acknowledged in a row."""
        with self._lock:
            if n <= self._acked:
                return
            self._done.add(n)
            moved = False
            while self._pending and self._pending[0].n in self._done:
                self._done.discard(self._pending[0].n)
                self._acked = self._pending.pop(0).n
                moved = True
            if moved:
                self._write_acked()

    def _write_acked(self) -> None:
        tmp = self.acked_path.with_suffix(".tmp")
        try:
            tmp.write_text(str(self._acked), encoding="ascii")
            os.replace(tmp, self.acked_path)
        except OSError as exc:  # the records are sent again after a restart: duplicates, which the hub drops
            log.error("outbox mark %s: cannot write (%s)", self.acked_path, exc)

    def compact(self) -> bool:
        """Empty the file if every record is acknowledged (True); else leave it (False)."""
        with self._lock:
            if self._pending:
                return False
            try:
                self._file.close()
                self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - kept open for appends
                self._file.flush()
                os.fsync(self._file.fileno())
            except OSError as exc:
                log.error("outbox %s: cannot empty it (%s)", self.path, exc)
                return False
            return True

    def close(self) -> None:
        with self._lock:
            self._file.close()
