"""The host's copy of the board (shared/board_link/grid.py): letters and faults from (cell, code) pairs."""

from __future__ import annotations

from firmware import tilecodes
from shared.board_link.events import CellFault
from shared.board_link.grid import BoardCopy, grid_from_letters

A = tilecodes.code_of("A")
K = tilecodes.code_of("K")


def test_a_change_rebuilds_only_its_row() -> None:
    board = BoardCopy()
    before = board.grid
    events: list[object] = []
    assert board.apply_changes(bytes((7 * 15 + 7, A)), events) == ((7, 7),)
    after = board.grid
    assert after[7][7] == "A" and before[7][7] is None
    assert all(after[r] is before[r] for r in range(15) if r != 7)  # the other rows are the same objects
    assert events == []


def test_the_grid_is_the_letters_in_row_order() -> None:
    board = BoardCopy()
    codes = bytes(A if cell % 7 == 0 else K if cell % 11 == 0 else tilecodes.EMPTY for cell in range(225))
    changed = board.load(codes, [])
    letters = ["A" if c == A else "K" if c == K else None for c in codes]
    assert board.grid == grid_from_letters(letters)
    assert changed == tuple(divmod(cell, 15) for cell in range(225) if letters[cell] is not None)
    assert board.load(codes, []) == ()  # the same snapshot again changes nothing


def test_a_fault_keeps_the_letter_and_is_reported_once_until_it_clears() -> None:
    board = BoardCopy()
    board.apply_changes(bytes((3, A)), [])
    events: list[object] = []
    assert board.apply_changes(bytes((3, tilecodes.FAULT_OPEN)), events) == ()
    assert board.grid[0][3] == "A" and events == [CellFault(0, 3, "open")]
    assert board.apply_changes(bytes((3, tilecodes.FAULT_OPEN)), events) == ()
    assert events == [CellFault(0, 3, "open")]
    assert board.apply_changes(bytes((3, tilecodes.EMPTY)), events) == ((0, 3),)
    assert events == [CellFault(0, 3, "open"), CellFault(0, 3, None)] and board.faults == {}
    assert board.grid[0][3] is None


def test_an_unknown_code_reads_as_a_band_fault() -> None:
    board = BoardCopy()
    events: list[object] = []
    board.apply_changes(bytes((224, 200, 224, 200)), events)
    assert events == [CellFault(14, 14, "band")] and board.faults == {224: "band"}
