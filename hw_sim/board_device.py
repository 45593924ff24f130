"""The simulated board device: the real firmware (Scanner + BoardApp) reading a VirtualBoard, behind a pty.

``BoardDevice.start()`` opens a pseudo-terminal and runs the firmware's scan loop on a thread, writing the real
protocol into the pty's master side. ``port_path`` is a symlink (in a private temp dir) to the pty's slave, the
path a pyserial reader opens; it stays valid across ``unplug()``/``replug()`` (a replug is a new pty, and the
symlink is re-pointed), like a udev ``/dev/serial/by-id`` name. While unplugged the symlink is gone.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import tempfile
import threading
import time
import tty
from typing import Any

from firmware.board_app import BoardApp
from firmware.scanner import Scanner

log = logging.getLogger(__name__)

SIM_LINK_TIMEOUT_S = 10.0
"""The simulated board's link timeout (``[sim] link_timeout`` in the daemon's config the sim writes).

The device thread here and the daemon's reader are ordinary threads of two processes on a PC that may be busy
(tests, builds, a browser): a stall of a few seconds is normal there, and must not flash "Deska odpojena" at a
player. Pulling the simulated cable (``unplug``) closes the pty, which the reader notices at once, so the longer
timeout hides no fault anybody asked for. The real table keeps its 1.5 s (``device.hardware.LINK_TIMEOUT_S``)."""


class BoardDevice:
    """The instrumented board as a serial device: ``start``, ``unplug``, ``replug``, ``stop``, ``port_path``.

    ``identified`` (a threading.Event) is set and ``identify_count`` counted each time the host sends IDENTIFY
    (where the Pico would blink its LED). Raises ValueError for a non-positive scan period.
    """

    def __init__(
        self,
        board: Any,
        *,
        scan_period_s: float = 0.02,
        stable_scans: int = 3,
        board_id: str = "sim-board",
        snapshot_period_ms: int = 1000,
        heartbeat_ms: int = 250,
    ) -> None:
        if scan_period_s <= 0:
            raise ValueError(f"scan period must be positive, got {scan_period_s!r} s")
        self.board = board
        self.scan_period_s = scan_period_s
        self.stable_scans = stable_scans
        self.board_id = board_id
        self.snapshot_period_ms = snapshot_period_ms
        self.heartbeat_ms = heartbeat_ms
        self._dir = tempfile.mkdtemp(prefix="partiar-board-")
        self.port_path = os.path.join(self._dir, "ttyBOARD")
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._halt = threading.Event()
        self.app: BoardApp | None = None
        self.scans = 0
        self.overruns = 0  # scans that started after their deadline had passed by a whole period
        self.dropped_bytes = 0  # bytes the pty would not take (no reader draining it)
        self.identified = threading.Event()  # set when the host asks the board to identify itself
        self.identify_count = 0

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    # -------------------------------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Plug the device in: a new pty, the symlink pointed at it, the firmware running on a thread."""
        if self._thread is not None:
            raise RuntimeError("board device already running")
        os.makedirs(self._dir, exist_ok=True)  # (again, after a stop())
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        tmp = self.port_path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port_path)
        scanner = Scanner(self.board.read_raw, stable_scans=self.stable_scans)
        self.app = BoardApp(
            scanner,
            self._write,
            self._read,
            lambda: int(time.monotonic() * 1000),
            board_id=self.board_id,
            snapshot_period_ms=self.snapshot_period_ms,
            heartbeat_ms=self.heartbeat_ms,
            on_identify=self._on_identify,
        )
        self._halt = threading.Event()
        self._thread = threading.Thread(
            target=self._loop, args=(self.app, self._halt), name="board-device", daemon=True
        )
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the pty closes (the reader gets errors), the symlink goes."""
        if self._thread is None:
            return
        self._halt.set()
        self._thread.join(2.0)
        self._thread = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port_path)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def replug(self) -> None:
        """Plug the cable back in: the board boots afresh on a new pty behind the same ``port_path``."""
        self.unplug()
        self.start()

    def stop(self) -> None:
        """Unplug for good and remove the temp dir."""
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> BoardDevice:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _on_identify(self) -> None:
        self.identify_count += 1
        self.identified.set()

    # ------------------------------------------------------------------------------------------- I/O
    def _write(self, data: bytes) -> None:
        """Write to the pty master; what the pty will not take is lost (as when no host drains the port)."""
        fd = self._master
        if fd is None:
            return
        try:
            n = os.write(fd, data)
        except BlockingIOError:
            n = 0
        except OSError as e:
            if e.errno not in (errno.EIO, errno.EBADF):
                log.warning("board device: write failed: %s", e)
            n = 0
        self.dropped_bytes += len(data) - n

    def _read(self) -> bytes:
        fd = self._master
        if fd is None:
            return b""
        try:
            return os.read(fd, 4096)
        except (BlockingIOError, OSError):  # nothing there, or no reader has the slave open (EIO)
            return b""

    def _loop(self, app: BoardApp, halt: threading.Event) -> None:
        """Scan every ``scan_period_s`` on absolute monotonic deadlines (late scans do not shift later ones)."""
        period = self.scan_period_s
        deadline = time.monotonic()
        while not halt.is_set():
            try:
                app.poll()
            except Exception:  # a firmware bug must show, not silently stop the board
                log.exception("board device: firmware poll failed")
                raise
            self.scans += 1
            deadline += period
            now = time.monotonic()
            if now - deadline > period:  # fell behind by more than a period: skip the missed scans
                self.overruns += 1
                deadline = now
            halt.wait(max(0.0, deadline - now))
