"""A real full card for the tests: a small tmpfs mounted on a test's folder and filled to the last page, so that the
file system itself refuses writes with ENOSPC (a new file, a file's next page) while a write into a page a file
already has still lands, as on an SD card. Mounting needs root; the tests that use it skip without it."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

FILLER = ".filler"


class FullCard:
    """A tmpfs at ``path``: ``fill()`` takes every free page, ``free()`` gives them back."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fill(self) -> None:
        chunk = b"\0" * 4096
        fd = os.open(self.path / FILLER, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            while True:
                try:
                    os.write(fd, chunk)
                except OSError as e:
                    if e.errno != errno.ENOSPC:
                        raise
                    break
        finally:
            os.close(fd)

    def free(self) -> None:
        for p in self.path.glob(f"{FILLER}*"):
            p.unlink()

    @property
    def full(self) -> bool:
        try:
            (self.path / ".probe").write_bytes(b"x")
        except OSError as e:
            if e.errno == errno.ENOSPC:
                return True
            raise
        (self.path / ".probe").unlink()
        return False


@contextlib.contextmanager
def full_card(path: Path, size_kb: int = 512) -> Iterator[FullCard]:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("a real full card needs root (mount -t tmpfs)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield FullCard(path)
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)
