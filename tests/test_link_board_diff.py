"""Board-to-move: diff_move between the board before a move and the stable board at the button press."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.board_link.board_diff import BoardDiffError, diff_move
from shared.errors import SharedError

EMPTY = tuple(tuple(None for _ in range(15)) for _ in range(15))


def grid(cells: dict[tuple[int, int], str]):
    return tuple(tuple(cells.get((r, c)) for c in range(15)) for r in range(15))


def test_nothing_changed_is_an_empty_move():
    g = grid({(7, 7): "A"})
    assert diff_move(g, g) == []
    assert diff_move(EMPTY, EMPTY) == []


def test_new_tiles_in_row_order_with_blank_as_question_mark():
    before = grid({(7, 7): "A"})
    after = grid({(7, 7): "A", (7, 8): "?", (6, 7): "Ř", (8, 7): "K"})
    assert diff_move(before, after) == [(6, 7, "Ř"), (7, 8, "?"), (8, 7, "K")]


def test_removed_and_changed_tiles_are_an_error_naming_the_cells():
    before = grid({(7, 7): "A", (7, 8): "B", (0, 0): "C"})
    after = grid({(7, 7): "Á", (0, 0): "C", (9, 9): "D"})
    with pytest.raises(BoardDiffError) as info:
        diff_move(before, after)
    assert info.value.cells == ((7, 7), (7, 8))
    assert "H8 A changed to Á" in str(info.value) and "I8 B removed" in str(info.value)
    assert isinstance(info.value, SharedError) and isinstance(info.value, ValueError)


def test_a_grid_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match="after grid is not 15x15"):
        diff_move(EMPTY, EMPTY[:14])


cells_st = st.dictionaries(
    st.tuples(st.integers(0, 14), st.integers(0, 14)), st.sampled_from(["A", "Č", "?", "Z"]), max_size=30
)


@given(before=cells_st, added=cells_st)
def test_adding_tiles_to_empty_cells_is_exactly_the_move(before, added):
    new = {k: v for k, v in added.items() if k not in before}
    move = diff_move(grid(before), grid({**before, **new}))
    assert {(r, c): x for r, c, x in move} == new
    assert move == sorted(move)
