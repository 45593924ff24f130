"""Board-to-move: the difference between the board before a move and the stable board when the button is pressed.

New tiles on empty cells are the move. A tile removed from, or changed under, a cell that held one before is not
a move but an error the table shows (``BoardDiffError`` lists the cells).
"""

from __future__ import annotations

from engine.board import Board
from shared.board_link.events import Grid
from shared.errors import SharedError

SIZE = 15
_COLUMNS = "ABCDEFGHIJKLMNO"


def cell_name(row: int, col: int) -> str:
    """A cell in classic notation: column letter, row number (``H8``)."""
    return f"{_COLUMNS[col]}{row + 1}"


class BoardDiffError(SharedError, ValueError):
    """Tiles removed or changed under existing tiles; ``cells`` holds their ``(row, col)``."""

    def __init__(self, message: str, cells: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> None:
        self.cells = tuple(cells)
        super().__init__(message)


def grid_of(board: Board) -> Grid:
    """What the physical board should read for a game board: a blank reads ``?``."""
    return tuple(
        tuple((t.rack_letter if t else None) for t in board.cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)
    )


def differing_cells(expected: Grid, physical: Grid) -> list[tuple[int, int, str | None, str | None]]:
    """Every cell where the physical board does not read what it should: ``(row, col, should, reads)`` in row order
    (None: empty). Raises ValueError for a grid that is not 15x15."""
    _check(expected, "expected")
    _check(physical, "physical")
    return [
        (r, c, expected[r][c], physical[r][c])
        for r in range(SIZE)
        for c in range(SIZE)
        if expected[r][c] != physical[r][c]
    ]


def _check(grid: Grid, name: str) -> None:
    if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
        raise ValueError(f"diff_move: {name} grid is not {SIZE}x{SIZE}")


def diff_move(before: Grid, after: Grid) -> list[tuple[int, int, str]]:
    """The tiles in ``after`` on cells empty in ``before``, ``(row, col, letter)`` in row order (a blank's letter
    is ``?``); an empty list when nothing changed.

    Raises BoardDiffError naming every cell whose tile was removed or changed, and ValueError for a grid that
    is not 15x15.
    """
    _check(before, "before")
    _check(after, "after")
    new: list[tuple[int, int, str]] = []
    bad: list[tuple[int, int]] = []
    notes: list[str] = []
    for r in range(SIZE):
        b_row, a_row = before[r], after[r]
        if b_row == a_row:
            continue
        for c in range(SIZE):
            b, a = b_row[c], a_row[c]
            if b == a:
                continue
            if b is None:
                new.append((r, c, a))  # type: ignore[arg-type]
            else:
                bad.append((r, c))
                what = "removed" if a is None else f"changed to {a}"
                notes.append(f"{cell_name(r, c)} {b} {what}")
    if bad:
        raise BoardDiffError(f"tiles removed or changed under existing tiles: {', '.join(notes)}", bad)
    return new
