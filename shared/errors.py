"""The errors of what the table unit, the hub and the referee's desk share: one base class, each subclassing the
fitting builtin."""

from __future__ import annotations


class SharedError(Exception):
    """Base class of every error the shared modules raise (the journal, the board link)."""


class JournalError(SharedError, ValueError):
    """A journal that cannot be read back (names the file and line)."""


class JournalWriteError(SharedError, OSError):
    """The file system refused a journal line (full, read-only, an I/O error): the record is not in the journal."""

    def __init__(self, path: object, cause: OSError) -> None:
        super().__init__(cause.errno, f"{path}: the record could not be written ({cause.strerror or cause})")
        self.path = path
