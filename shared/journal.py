"""The game journal: an append-only JSON Lines file, flushed and fsynced before an event is acted on.

A record is one JSON object per line. A power cut can tear only the last line (it was never acted on, because the
daemon acts only after the write returned): reading drops a torn last line with a warning. A bad line anywhere
else is corruption: ``read_journal`` raises JournalError naming the file and line, ``valid_prefix`` returns the
records before it and says where the damage starts (``partiar sheet`` goes on from that prefix), ``salvage``
keeps every record after it that still applies and names the lines it sets aside (the daemon's repair,
``Journal.replace``). Nothing is ever deleted: damaged bytes are kept in ``journal.jsonl.damaged-N`` next to the
journal. A repair or a torn tail's cut the card refuses (full) waits, with its copy first, for the next record.
"""

from __future__ import annotations

import contextlib
import filecmp
import json
import logging
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from shared.errors import JournalError, JournalWriteError

log = logging.getLogger(__name__)


class Journal:
    """Append records durably; read them back after a restart."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = -1
        self._rewrite: bytes | None = None
        """The journal's repaired text waiting to replace the file (``replace``): a card that refused it (full)
        gets it again before the next record."""
        self._before_rewrite: Callable[[Path], object] | None = None
        self._aside: Path | None = None
        self._repair_torn_tail()
        if self._rewrite is None:
            self._open()

    def _open(self) -> None:
        """Open the file for appending (unbuffered: a failed write leaves nothing in a buffer to land later) and
        take its length as the end of the last whole record."""
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._end = os.fstat(self._fd).st_size
        self._tail_dirty = False

    def append(self, record: dict[str, Any]) -> None:
        """Write one record and make it durable (fsync) before returning. A write or fsync the file system refuses
        (a full or read-only card, an I/O error) raises JournalWriteError, and the file is cut back to its records
        before this one: a part of the line never stays to be taken for a record (or to tear the next one). If even
        that cut fails, the next append makes it first."""
        line = encode_records([record])
        if "\n" in line[:-1]:
            raise JournalError(f"{self.path}: record would span lines: {line[:80]!r}")
        data = line.encode("utf-8")
        if self._rewrite is not None:
            try:
                self._replace_now()
            except OSError as e:
                raise JournalWriteError(self.path, e) from e
        try:
            if self._tail_dirty:
                self._cut_back()
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
            os.fsync(self._fd)
        except OSError as e:
            try:
                self._cut_back()
            except OSError:
                self._tail_dirty = True
            raise JournalWriteError(self.path, e) from e
        self._end += len(data)

    def _cut_back(self) -> None:
        os.ftruncate(self._fd, self._end)
        os.fsync(self._fd)
        self._tail_dirty = False

    @property
    def repair_pending(self) -> bool:
        """A repair (``replace``, a torn tail) the card has not taken yet: the file still holds the damage."""
        return self._rewrite is not None

    def replace(self, records: Sequence[dict[str, Any]], before: Callable[[Path], object] | None = None) -> Path | None:
        """Replace the journal with ``records`` (a damaged journal's repair): the file as it is is kept aside
        first (``keep_aside``), then ``before(aside)`` runs (e.g. a report of what the repair sets aside, written
        before the damage leaves the journal), then the new text replaces the file atomically. Returns the copy
        kept aside; None if the card refused (logged): the repair stays pending, the file untouched, and the next
        ``append`` makes it first (or raises JournalWriteError)."""
        self._rewrite = encode_records(list(records)).encode("utf-8")
        self._before_rewrite = before
        try:
            return self._replace_now()
        except OSError as e:
            log.error("%s: the repair of the journal waits for the card (%s); the game goes on in memory", self.path, e)
            return None

    def _replace_now(self) -> Path:
        assert self._rewrite is not None
        self.close()
        if self._aside is None:
            self._aside = keep_aside(self.path)
        if self._before_rewrite is not None:
            self._before_rewrite(self._aside)
        write_atomic(self.path, self._rewrite)
        aside, self._aside, self._rewrite, self._before_rewrite = self._aside, None, None, None
        self._open()
        return aside

    def rotate(self, first: Sequence[dict[str, Any]] = ()) -> Path | None:
        """Move this game's journal aside (``journal-<n>.jsonl``) and start the next one with the ``first`` records
        (its start), never an empty journal in between: the new file is written and fsynced first, the old one is
        linked to its archive name, then the new one replaces it. A power cut at any instant leaves the old game's
        journal (with its archive link, reused by the next rotation) or the new one with its first records."""
        self.close()
        archived = None
        tmp = self.path.with_name(self.path.name + ".next")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(encode_records(list(first)))
                f.flush()
                os.fsync(f.fileno())
            if self.path.exists() and self.path.stat().st_size:
                archived = self._archive_link()
            os.replace(tmp, self.path)
        except OSError as e:  # the card refused: this game's journal stays, open for its next line
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            self._open()
            raise JournalWriteError(self.path, e) from e
        _fsync_dir(self.path.parent)
        self._rewrite = self._before_rewrite = self._aside = None  # a repair still pending: archived as it was
        self._open()
        return archived

    def _archive_link(self) -> Path:
        """The journal's archive (a hard link to it, or a copy): the newest archive if it holds this file already (a
        power cut came after the link, before the new journal), else the next free ``journal-<n>.jsonl``."""
        n = 1
        newest = None
        while (candidate := self.path.with_name(f"{self.path.stem}-{n:04d}{self.path.suffix}")).exists():
            newest = candidate
            n += 1
        if newest is not None and filecmp.cmp(newest, self.path, shallow=False):
            return newest
        try:
            os.link(self.path, candidate)
        except OSError:  # a file system without hard links: a durable copy
            tmp = candidate.with_name(candidate.name + ".tmp")
            shutil.copyfile(self.path, tmp)
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            os.replace(tmp, candidate)
        _fsync_dir(self.path.parent)
        return candidate

    def records(self) -> list[dict[str, Any]]:
        return list(read_journal(self.path))

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _repair_torn_tail(self) -> None:
        """Cut a torn last line (no newline at the end) so new records start on a line of their own; the file as
        it was is kept aside first (``keep_aside``)."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            try:
                aside = keep_aside(self.path)
            except OSError as e:  # a full card: the cut waits (with its copy) for the next record, read skips it
                log.error("%s: a torn last record waits to be cut until the card takes a copy (%s)", self.path, e)
                self._rewrite = data[:keep]
                return
            log.warning(
                "%s: dropping a torn last record (%d bytes) left by a power cut; the file as it was is %s",
                self.path, len(data) - keep, aside.name,
            )  # fmt: skip
            with open(self.path, "r+b") as f:
                f.truncate(keep)
                f.flush()
                os.fsync(f.fileno())


@dataclass(frozen=True)
class Damage:
    """Where a journal stops being valid: the 1-based ``line`` and why (``torn``: a last line cut off by a power
    cut, never acted on; otherwise a complete line that is not a record, or one the ``accept`` check refused)."""

    line: int
    reason: str
    torn: bool = False

    def describe(self, path: str | os.PathLike[str]) -> str:
        return f"{path}:{self.line}: {self.reason}"


def _lines(raw: bytes) -> Iterator[tuple[int, dict[str, Any] | Damage]]:
    """Each non-blank line as ``(number, record)``, or ``(number, Damage)`` for a bad one."""
    lines = raw.split(b"\n")
    torn_tail = not raw.endswith(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        torn = torn_tail and number == len(lines)
        try:
            record = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            what = "last line cut off" if torn else "not a JSON record"
            yield number, Damage(number, f"{what} ({e})", torn)
            continue
        if not isinstance(record, dict):
            yield number, Damage(number, f"a record must be a JSON object, got {type(record).__name__}", torn)
            continue
        yield number, record


def read_journal(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Yield the records of a journal; a torn last line is skipped, any other bad line raises JournalError."""
    path = Path(path)
    if not path.exists():
        return
    for _number, item in _lines(path.read_bytes()):
        if isinstance(item, Damage):
            if item.torn:
                log.warning("%s: skipping a torn last record", item.describe(path))
                return
            raise JournalError(item.describe(path))
        yield item


def valid_prefix(
    path: str | os.PathLike[str], accept: Callable[[dict[str, Any]], object] | None = None
) -> tuple[list[dict[str, Any]], Damage | None]:
    """The longest valid prefix of a journal and where the damage starts (None: the whole file is valid).

    A line is valid if it is a JSON object and ``accept(record)`` (e.g. the game applying it) does not raise
    EngineError or ValueError; the first line that is not ends the prefix. Never raises for the content;
    OSError if the file cannot be read (a missing file is an empty journal).
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return [], None
    records: list[dict[str, Any]] = []
    for number, item in _lines(raw):
        if isinstance(item, Damage):
            return records, item
        if accept is not None:
            try:
                accept(item)
            except (EngineError, ValueError) as e:
                return records, Damage(number, f"refused: {e}")
        records.append(item)
    return records, None


@dataclass(frozen=True)
class SetAside:
    """A line a damaged journal's repair leaves out (``salvage``): where, what it was (the record's ``type``;
    None: not a record at all) and why."""

    line: int
    kind: str | None
    reason: str
    torn: bool = False
    """A last line cut off by a power cut: never acted on, nothing for the referee."""


def salvage(
    path: str | os.PathLike[str], accept: Callable[[dict[str, Any]], object]
) -> tuple[list[dict[str, Any]], list[SetAside]]:
    """Every record of a journal that still applies, and the lines set aside. A line that is not a JSON object,
    or a record ``accept`` (the game applying it) refuses with EngineError or ValueError, is set aside; the
    records after it are offered to ``accept`` in turn and kept if it takes them (a bad line in the middle
    costs the game that line, not the moves after it). Never raises for the content; OSError if the file cannot
    be read (a missing file is an empty journal)."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return [], []
    records: list[dict[str, Any]] = []
    set_aside: list[SetAside] = []
    for number, item in _lines(raw):
        if isinstance(item, Damage):
            set_aside.append(SetAside(number, None, item.reason, item.torn))
            continue
        try:
            accept(item)
        except (EngineError, ValueError) as e:
            kind = item.get("type")
            set_aside.append(SetAside(number, kind if isinstance(kind, str) else None, f"refused: {e}"))
            continue
        records.append(item)
    return records, set_aside


def keep_aside(path: str | os.PathLike[str]) -> Path:
    """Copy a journal, durably, to the next free ``<name>.damaged-N`` before it is repaired; returns the copy. The
    newest copy is reused if it holds this file already (a power cut came after the copy, before the repair)."""
    path = Path(path)
    n = 1
    newest = None
    while (aside := path.with_name(f"{path.name}.damaged-{n}")).exists():
        newest = aside
        n += 1
    if newest is not None and filecmp.cmp(newest, path, shallow=False):
        return newest
    tmp = aside.with_name(aside.name + ".tmp")
    with _removed_if_refused(tmp):
        shutil.copyfile(path, tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, aside)
    _fsync_dir(path.parent)
    return aside


@contextlib.contextmanager
def _removed_if_refused(tmp: Path) -> Iterator[None]:
    """A temp file the card refused part of (full) is removed: it would hold the space the retry needs."""
    try:
        yield
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


def encode_records(records: list[dict[str, Any]]) -> str:
    """Records as journal text, one JSON object per line (the form ``Journal.append`` writes)."""
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)


def write_atomic(path: str | os.PathLike[str], text: str | bytes) -> None:
    """Replace a small file atomically and durably (write a temp file, fsync, rename, fsync the folder)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with _removed_if_refused(tmp):
        with open(tmp, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
