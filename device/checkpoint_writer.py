"""The clock checkpoint's writer: a thread of its own that makes the latest checkpoint durable, so the table's loop
never waits for a fsync (two per write: the file and its folder; p99 15-17 ms, up to 33 ms on a disk, far more on
an SD card) between a deadline and the LCD write that shows it.

The loop hands over a checkpoint and goes on (``submit``); the writer writes the newest one it holds: a checkpoint
handed over while another is being written replaces any older one still waiting (latest wins: never a queue that
grows). Writes land in the order the checkpoints were taken, so an older one never overwrites a newer one (a
checkpoint of the previous game never lands after the new game's). Where the loop needs the checkpoint on disk
before it goes on (a paused or stopped clock, the end of a game, the shutdown, before the journal rotates) it
waits (``wait``), bounded: a disk that hangs is logged and the game goes on.

The thread inherits the priority of the thread that starts it: the table starts it before its loop raises its own
(``Table.run``), so it runs at the daemon's (``device.realtime.DAEMON_PRIORITY``) like every daemon thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

WAIT_S = 2.0
"""The longest the loop waits for a checkpoint it needs on disk; past it the log says the disk hangs and the game
goes on (the write still lands when the disk answers)."""


class CheckpointWriter:
    """Writes ``(path, text)`` with ``write`` (an atomic, durable write) on its own thread, the latest first."""

    def __init__(
        self,
        write: Callable[[Path, str], None],
        name: str = "clock-checkpoint",
        tag: int = 0,
        on_outcome: Callable[[OSError | None], object] | None = None,
        failing: bool = False,
    ) -> None:
        self._write = write
        self._on_outcome = on_outcome
        """Told (on the writer's thread) of every failed write (the error) and of the first success after one
        (None): the table shows that checkpoints cannot be written, and stops the move time a restart would give
        back."""
        self._failing = failing
        """The last write failed (``failing``: the writes before this writer's did)."""
        self._cond = threading.Condition()
        self._slot: tuple[Path, str, int] | None = None
        self.written_tag = tag
        """The ``tag`` of the last checkpoint whose write ended (or failed): the table's journal length in it."""
        self._submitted = 0
        """Checkpoints handed over so far (a superseded one counts as written when its successor is)."""
        self._written = 0
        """``_submitted`` as it was when the write that ended last was taken from the slot."""
        self._closing = False
        self._stuck_at: int | None = None
        """``_submitted`` of a wait that ran out: later waits do not wait again until the writer moves on."""
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def idle(self) -> bool:
        """Nothing waits to be written and nothing is being written."""
        with self._cond:
            return self._written == self._submitted

    def submit(self, path: Path, text: str, tag: int = 0) -> None:
        """Hand over the newest checkpoint (replaces one still waiting); returns at once."""
        with self._cond:
            self._slot = (path, text, tag)
            self._submitted += 1
            self._cond.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every checkpoint handed over so far is written (or its write failed and was logged); False
        (and an error in the log) if the disk has not answered within ``timeout`` (default ``WAIT_S``)."""
        timeout = WAIT_S if timeout is None else timeout
        with self._cond:
            target = self._submitted
            if self._stuck_at is not None and self._written < self._stuck_at:
                return False  # still hung since the last wait ran out: the loop does not wait again
            if self._cond.wait_for(lambda: self._written >= target, timeout):
                return True
            self._stuck_at = target
        log.error("the clock checkpoint has not been written within %.1f s: the disk hangs? the game goes on", timeout)
        return False

    def close(self, timeout: float | None = None) -> bool:
        """Write what is waiting, then end the thread (bounded by ``timeout``, default ``WAIT_S``); True if it
        ended."""
        timeout = WAIT_S if timeout is None else timeout
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.error("the clock checkpoint writer has not ended within %.1f s: the disk hangs?", timeout)
            return False
        return True

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._slot is not None or self._closing)
                if self._slot is None:
                    return
                (path, text, tag), self._slot = self._slot, None
                taken = self._submitted
            error: OSError | None = None
            try:
                self._write(path, text)
            except OSError as e:
                log.error("cannot write the clock checkpoint %s: %s", path, e)
                error = e
            except Exception:  # the thread must live on: the next checkpoint may be written
                log.exception("the clock checkpoint %s could not be written", path)
            finally:
                if self._on_outcome is not None and (error is not None or self._failing):
                    self._on_outcome(error)  # every failure (no move time may run on), the first success after one;
                self._failing = error is not None  # told before ``wait`` returns
                with self._cond:
                    self._written, self.written_tag = taken, tag
                    if self._stuck_at is not None and taken >= self._stuck_at:
                        log.warning("the clock checkpoint is written again: the disk answered")
                        self._stuck_at = None
                    self._cond.notify_all()
