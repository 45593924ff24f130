"""The host's copy of the board: each cell's letter and fault, updated by ``(cell, code)`` pairs.

A change report names a cell or two; the ``Grid`` value the table reads is 15 row tuples, and only the rows a change
touched are rebuilt (the other row tuples are shared with the previous grid), so applying a report costs the same
whatever else lies on the board.
"""

from __future__ import annotations

from collections.abc import Iterable

from firmware import tilecodes
from shared.board_link.events import CellFault, Grid

SIZE = 15
CELLS = SIZE * SIZE
_KEEP = object()  # a faulty cell keeps its last trusted letter
_FAULT_KINDS = {tilecodes.FAULT_OPEN: "open", tilecodes.FAULT_SHORT: "short", tilecodes.FAULT_BAND: "band"}


def _code_table() -> list[tuple[object, str | None]]:
    """For each byte value: (letter or None or _KEEP, fault kind or None)."""
    table: list[tuple[object, str | None]] = []
    for code in range(256):
        if code == tilecodes.EMPTY:
            table.append((None, None))
        elif code in _FAULT_KINDS:
            table.append((_KEEP, _FAULT_KINDS[code]))
        else:
            try:
                table.append((tilecodes.letter_of(code), None))
            except ValueError:  # a code this side does not know reads as out of band
                table.append((_KEEP, "band"))
    return table


_CODES = _code_table()
_EMPTY_ROW: tuple[str | None, ...] = (None,) * SIZE


def grid_from_letters(letters: list[str | None]) -> Grid:
    """225 cells in row order to a 15x15 grid."""
    return tuple(tuple(letters[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))


class BoardCopy:
    """Letters and faults of the 225 cells as the board last reported them (all empty, no fault, at first).

    ``apply(pairs, events)`` takes ``(cell, code)`` pairs (cell 0..224, code a byte of ``firmware/PROTOCOL.md``
    section 3): a tile code or EMPTY sets the cell's letter, a fault code keeps it; fault transitions are appended
    to ``events`` as ``CellFault``. ``grid`` is the current ``Grid``.
    """

    __slots__ = ("_rows", "_grid", "faults")

    def __init__(self) -> None:
        self._rows: list[tuple[str | None, ...]] = [_EMPTY_ROW] * SIZE
        self._grid: Grid | None = None
        self.faults: dict[int, str] = {}
        """Cells that read a fault now: cell -> "open", "short" or "band"."""

    @property
    def grid(self) -> Grid:
        grid = self._grid
        if grid is None:
            grid = self._grid = tuple(self._rows)
        return grid

    def letter(self, cell: int) -> str | None:
        return self._rows[cell // SIZE][cell % SIZE]

    def apply(self, pairs: Iterable[tuple[int, int]], events: list[object]) -> tuple[tuple[int, int], ...]:
        """Apply ``(cell, code)`` pairs in order; returns the ``(row, col)`` of each cell whose letter changed."""
        changed: list[tuple[int, int]] = []
        rows, faults = self._rows, self.faults
        for cell, code in pairs:
            letter, kind = _CODES[code]
            rc = _ROW_COL[cell]
            if letter is not _KEEP:
                r, c = rc
                row = rows[r]
                if row[c] != letter:
                    rows[r] = row[:c] + (letter,) + row[c + 1 :]  # type: ignore[operator]
                    changed.append(rc)
            if kind is None:
                if cell in faults:
                    del faults[cell]
                    events.append(CellFault(rc[0], rc[1], None))
            elif faults.get(cell) != kind:
                faults[cell] = kind
                events.append(CellFault(rc[0], rc[1], kind))
        if changed:
            self._grid = None
        return tuple(changed)

    def apply_changes(self, payload: bytes, events: list[object]) -> tuple[tuple[int, int], ...]:
        """Apply a CHANGES payload (pairs of cell, code bytes); returns the cells whose letter changed."""
        return self.apply(zip(payload[::2], payload[1::2], strict=True), events)  # an even length: checked

    def load(self, codes: bytes, events: list[object]) -> tuple[tuple[int, int], ...]:
        """Apply a whole snapshot (225 codes, cell 0 first); returns the cells whose letter changed."""
        return self.apply(enumerate(codes), events)


_ROW_COL = tuple(divmod(cell, SIZE) for cell in range(CELLS))
