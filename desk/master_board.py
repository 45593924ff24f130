"""The duplicate referee's master board: an instrumented board (the table's board and its firmware, on its serial
link) on which the referee lays each move's top play, checked against the game's own board.

In duplicate Scrabble every player copies the top play from the referee's board onto their own (seed 001, item 9):
a tile laid wrong there is copied by the whole room. ``partiar duplicate --board URL`` reads the board through the
table's own ``BoardLink`` and, before each draw and at the end, says which squares do not read what the game holds.
"""

from __future__ import annotations

import threading
import time

from engine.board import Board
from shared.board_link.board_diff import differing_cells, grid_of
from shared.board_link.events import BoardChanged, Snapshot
from shared.board_link.reader import BoardLink

SETTLE_S = 1.0
"""After the referee says the board is ready, how long a reading that still differs waits for the board's next
report (a tile laid a moment ago is reported after two stable scans: tens of milliseconds)."""
SETTLE_LIMIT_S = 5.0
"""The longest a check goes on reading a board that keeps reporting (a flickering tile): then it says what it read."""
CONNECT_S = 5.0
"""How long the start waits for the board's first snapshot (a board answers within a second)."""

Difference = tuple[int, int, str | None, str | None]
"""A square whose tile is not the game's: ``(row, col, should, reads)``, None for empty."""


class MasterBoard:
    """The instrumented master board on ``url`` (any pyserial URL, e.g. ``/dev/ttyACM0``): started at once."""

    def __init__(self, url: str) -> None:
        self._changed = threading.Condition()
        self._reports = 0
        self.link = BoardLink(url, self._on_event)
        self.link.start()
        with self._changed:
            self._changed.wait_for(lambda: self._reports > 0, CONNECT_S)

    def _on_event(self, event: object) -> None:
        if isinstance(event, Snapshot | BoardChanged):
            with self._changed:
                self._reports += 1
                self._changed.notify_all()

    def differences(self, board: Board) -> list[Difference] | None:
        """The squares that do not read what ``board`` holds (blanks read ``?``), or None while the link is down.
        A reading that differs is read again after each report of the board, until it matches or the board has
        said nothing new for ``SETTLE_S`` (tiles laid a moment before may be reported in more than one frame), at
        most ``SETTLE_LIMIT_S`` in all."""
        deadline = time.monotonic() + SETTLE_LIMIT_S
        while True:
            with self._changed:
                seen = self._reports
            found = self._read(board)
            wait = min(SETTLE_S, deadline - time.monotonic())
            if not found or wait <= 0:
                return found
            if not self._reported_since(seen, wait):
                return found

    def _reported_since(self, seen: int, timeout: float) -> bool:
        """Wait up to ``timeout`` for a report after the ``seen``-th; True if one came."""
        with self._changed:
            return self._changed.wait_for(lambda: self._reports > seen, timeout)

    def _read(self, board: Board) -> list[Difference] | None:
        grid = self.link.grid
        if grid is None or not self.link.up:
            return None
        return differing_cells(grid_of(board), grid)

    def stop(self) -> None:
        self.link.stop()
