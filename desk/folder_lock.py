"""One ``partiar duplicate`` per game folder: a lock the operating system holds for the program while it runs.

Two programs on one folder would both append to the journal, and the resume after them fails (a draw journaled
twice). The lock is ``flock`` on ``FOLDER/partiar-duplicate.lock``: the system releases it when the program ends in
any way (a ``kill -9`` or a power cut included), so a stale lock never blocks the resume. The file holds the
holder's process id and host name, for the message the second program gives.
"""

from __future__ import annotations

import fcntl
import os
import socket
from pathlib import Path

LOCK_FILE = "partiar-duplicate.lock"


class FolderBusy(OSError):
    """Another program holds the folder's lock: ``holder`` says which (its process id and host, as it wrote)."""

    def __init__(self, folder: Path, holder: str) -> None:
        super().__init__(f"{folder}: another partiar duplicate runs on this folder ({holder or 'unknown'})")
        self.folder = folder
        self.holder = holder


class FolderLock:
    """The lock of ``folder`` (created if missing), taken at once; raises :class:`FolderBusy` if another program
    holds it. ``release()`` (or the program's end) gives it back."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / LOCK_FILE
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self._fd, 200, 0).decode("utf-8", "replace").strip()
            os.close(self._fd)
            raise FolderBusy(folder, holder) from None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"PID {os.getpid()}, {socket.gethostname()}\n".encode(), 0)

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = -1
