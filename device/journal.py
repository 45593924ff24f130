"""The game journal: an append-only JSON Lines file, flushed and fsynced before an event is acted on.

A record is one JSON object per line. A power cut can tear only the last line (it was never acted on, because the
daemon acts only after the write returned): reading drops a torn last line with a warning. A bad line anywhere
else is corruption and raises JournalError naming the file and line.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from device.errors import JournalError

log = logging.getLogger(__name__)


class Journal:
    """Append records durably; read them back after a restart."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._repair_torn_tail()
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the daemon's life

    def append(self, record: dict[str, Any]) -> None:
        """Write one record and make it durable (flush + fsync) before returning."""
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        if "\n" in line:
            raise JournalError(f"{self.path}: record would span lines: {line[:80]!r}")
        self._file.write(line + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def rotate(self) -> Path | None:
        """Close this game's journal and move it aside (``journal-<n>.jsonl``); new records start a new file."""
        self.close()
        archived = None
        if self.path.exists() and self.path.stat().st_size:
            n = 1
            while (candidate := self.path.with_name(f"{self.path.stem}-{n:04d}{self.path.suffix}")).exists():
                n += 1
            os.replace(self.path, candidate)
            archived = candidate
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        return archived

    def records(self) -> list[dict[str, Any]]:
        return list(read_journal(self.path))

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _repair_torn_tail(self) -> None:
        """Cut a torn last line (no newline at the end) so new records start on a line of their own."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            log.warning("%s: dropping a torn last record (%d bytes) left by a power cut", self.path, len(data) - keep)
            with open(self.path, "r+b") as f:
                f.truncate(keep)
                f.flush()
                os.fsync(f.fileno())


def read_journal(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Yield the records of a journal; a torn last line is skipped, any other bad line raises JournalError."""
    path = Path(path)
    if not path.exists():
        return
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    torn_tail = not raw.endswith(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        is_last = number == len(lines)
        try:
            record = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            if is_last and torn_tail:
                log.warning("%s:%d: skipping a torn last record", path, number)
                return
            raise JournalError(f"{path}:{number}: not a JSON record ({e})") from e
        if not isinstance(record, dict):
            raise JournalError(f"{path}:{number}: a record must be a JSON object, got {type(record).__name__}")
        yield record


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Replace a small file atomically and durably (write a temp file, fsync, rename, fsync the folder)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
