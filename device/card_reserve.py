"""Space kept on the card for the table's small state files (the clock checkpoint, ``pending.json``).

Each of them is replaced atomically (``device.journal.write_atomic``: a new file, then a rename), so a write needs
a free page for the moment between the two, and gives one back with the rename. On a full card that page is not
there: the checkpoint that keeps the game time would not land, and a restart would give back all the time since
the last one that did (issue 34: 29-60 s of game time). So the table keeps a file of ``RESERVE_BYTES`` next to the
journal while the card has room (``ensure``); a state file the card refuses is written again from it (``write``):
the reserve is emptied, the file written, and the reserve taken back from the pages the rename freed. The write
then still raises ``WrittenFromReserve`` (an ENOSPC OSError): the file landed, but the card is full and the table
says so. The journal never writes into the reserve: a record makes the journal grow, the reserve would be gone.
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

RESERVE_NAME = "card-reserve"
RESERVE_BYTES = 64 * 1024
"""Enough for both state files several times over (a clock checkpoint is about 1.5 kB, one page)."""

FULL = (errno.ENOSPC, errno.EDQUOT)


class WrittenFromReserve(OSError):
    """The card refused the write for want of space; it landed from the reserve (the card is still full)."""


def reserve_path(folder: Path) -> Path:
    return folder / RESERVE_NAME


def ensure(folder: Path) -> bool:
    """Make the reserve its full size (best effort: a full card leaves it as it is); True if it is."""
    path = reserve_path(folder)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    except OSError as e:
        log.warning("no reserve for the state files on the card (%s)", e)
        return False
    try:
        if os.fstat(fd).st_size >= RESERVE_BYTES:
            return True
        os.posix_fallocate(fd, 0, RESERVE_BYTES)
        os.fsync(fd)
        return True
    except OSError as e:
        log.warning("the reserve for the state files is not whole (%s)", e)
        return False
    finally:
        os.close(fd)


def write(write_atomic: Callable[[Path, str], None], path: Path, text: str) -> None:
    """``write_atomic(path, text)``; if the card refuses it for want of space and the reserve holds pages, again
    from the reserve, then raises ``WrittenFromReserve``. Any other error, or no reserve: raised as it came."""
    try:
        write_atomic(path, text)
        return
    except OSError as e:
        if e.errno not in FULL:
            raise
        first = e
    reserve = reserve_path(path.parent)
    try:
        if reserve.stat().st_size == 0:
            raise first
        os.truncate(reserve, 0)
    except FileNotFoundError:
        raise first from None
    write_atomic(path, text)  # refused even so: raised as it comes
    ensure(path.parent)  # the pages the rename freed
    raise WrittenFromReserve(first.errno, f"{os.strerror(first.errno)} (written from the card's reserve)", str(path))
