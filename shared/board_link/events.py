"""What the board link reports to the table: link up/down, trusted board states, cell faults.

A grid is 15 rows of 15 cells, each a tile letter, ``"?"`` for a blank, or None for an empty cell. A cell the
board reports as faulty (open, short, out of band) keeps its last trusted letter in the grid (None if it never
had one); the fault itself arrives as a ``CellFault``.
"""

from __future__ import annotations

from dataclasses import dataclass

Grid = tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True)
class LinkUp:
    """The board answered the handshake: its id and firmware version."""

    board_id: str
    version: int


@dataclass(frozen=True)
class LinkDown:
    """The link was lost (serial error, end of file, heartbeat timeout, incompatible board); ``reason`` says which."""

    reason: str


@dataclass(frozen=True)
class Snapshot:
    """A full trusted board state: after the handshake and whenever trust is regained after a lost frame."""

    grid: Grid


@dataclass(frozen=True)
class BoardChanged:
    """The trusted board changed: ``grid`` after the change and the ``(row, col)`` cells that changed."""

    grid: Grid
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CellFault:
    """A cell's sensing fault: ``kind`` is "open", "short" or "band"; None when the fault has cleared."""

    row: int
    col: int
    kind: str | None
