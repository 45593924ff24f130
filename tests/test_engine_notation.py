"""Squares and move positions in the classic, Czech and ČAS notations: parsers, formatters, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.board import SIZE, SQUARES, Direction, Notation, Position, Square
from engine.errors import NotationError

squares = st.builds(Square, st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))
positions = st.builds(Position, squares, st.sampled_from(Direction))


@given(squares)
def test_square_round_trips_in_both_notations(square: Square) -> None:
    assert Square.from_classic(square.classic()) == square
    assert Square.from_czech(square.czech()) == square
    assert Square.from_classic(square.classic().lower()) == square


@given(positions, st.sampled_from(Notation))
def test_position_round_trips_in_every_notation(position: Position, style: Notation) -> None:
    text = position.notation(style)
    assert Position.from_notation(text, style) == position
    assert Position.from_notation(text.lower(), style) == position


@given(positions)
def test_transposing_twice_is_identity(position: Position) -> None:
    assert position.transposed().transposed() == position
    assert position.transposed().direction is not position.direction


@pytest.mark.parametrize(
    ("text", "style", "row", "col", "direction"),
    [
        ("8H", Notation.CLASSIC, 7, 7, Direction.ACROSS),  # GCG: number first = horizontal
        ("H8", Notation.CLASSIC, 7, 7, Direction.DOWN),  # letter first = vertical
        ("8d", Notation.CLASSIC, 7, 3, Direction.ACROSS),  # old Quackle lowercase
        ("A15", Notation.CLASSIC, 14, 0, Direction.DOWN),
        ("15O", Notation.CLASSIC, 14, 14, Direction.ACROSS),
        ("B3", Notation.CZECH, 1, 2, Direction.ACROSS),  # newer Czech boards: row letter B, column 3
        ("3B", Notation.CZECH, 1, 2, Direction.DOWN),
        ("H8V", Notation.CAS, 7, 7, Direction.ACROSS),  # ČAS: vodorovně
        ("A12S", Notation.CAS, 0, 11, Direction.DOWN),  # ČAS: svisle
    ],
)
def test_known_positions(text: str, style: Notation, row: int, col: int, direction: Direction) -> None:
    position = Position.from_notation(text, style)
    assert position == Position(Square(row, col), direction)
    assert position.notation(style) == text.upper()


def test_squares_are_named_in_both_conventions() -> None:
    square = Square(1, 2)  # second row, third column
    assert square.classic() == "C2"
    assert square.czech() == "B3"
    assert SQUARES[square.index] == square == Square.from_index(square.index)


@pytest.mark.parametrize("text", ["", "8", "H", "16A", "A16", "8P", "P8", "0A", "H8X", "8H8", "HH"])
@pytest.mark.parametrize("style", list(Notation))
def test_bad_positions_name_the_text_and_notation(text: str, style: Notation) -> None:
    with pytest.raises(NotationError) as info:
        Position.from_notation(text, style)
    assert repr(text) in str(info.value)
    assert style.value.replace("cas", "ČAS").lower() in str(info.value).lower()


@pytest.mark.parametrize("text", ["P1", "A0", "A16", "1A", ""])
def test_bad_squares_raise(text: str) -> None:
    with pytest.raises(NotationError):
        Square.from_classic(text)
    with pytest.raises(NotationError):
        Square.from_czech(text)


def test_square_off_the_board_is_refused() -> None:
    with pytest.raises(NotationError):
        Square(15, 0)
    with pytest.raises(NotationError):
        Square.from_index(225)
