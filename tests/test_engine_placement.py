"""Placement validation: every failure reason, and the words a legal placement forms."""

from __future__ import annotations

import re

import pytest

from engine.board import CENTRE, Board, Direction, Notation, Position, Square
from engine.errors import UnknownLetter
from engine.placement import (
    IllegalPlacement,
    Placement,
    Reason,
    apply,
    placement_of,
    placements_from_word,
    validate,
    validate_word,
)
from engine.tiles import Tile


def at(pos: str) -> Position:
    return Position.from_notation(pos, Notation.CLASSIC)


def lay(board: Board, pos: str, word: str) -> None:
    """Play a word GCG style and put it on the board (must be legal)."""
    apply(board, validate(board, placements_from_word(board, at(pos), word), at(pos).direction))


def tiles(*cells: tuple[int, int, str]) -> list[Placement]:
    return [Placement.at(r, c, t) for r, c, t in cells]


@pytest.fixture
def board() -> Board:
    """COP across the centre (8G), as the first move in seed 001."""
    b = Board()
    lay(b, "8G", "COP")
    return b


def reason_of(board: Board, placements: list[Placement]) -> Reason:
    with pytest.raises(IllegalPlacement) as info:
        validate(board, placements)
    assert info.value.reason.value in str(info.value)
    return info.value.reason


def test_no_tiles() -> None:
    assert reason_of(Board(), []) is Reason.NO_TILES


def test_occupied_square(board: Board) -> None:
    assert reason_of(board, tiles((7, 7, "A"), (8, 7, "B"))) is Reason.OCCUPIED


def test_two_tiles_on_one_square(board: Board) -> None:
    assert reason_of(board, tiles((8, 7, "A"), (8, 7, "B"))) is Reason.DUPLICATE_SQUARE


def test_off_the_board() -> None:
    with pytest.raises(IllegalPlacement) as info:
        Placement.at(7, 15, "A")
    assert info.value.reason is Reason.OFF_BOARD
    with pytest.raises(IllegalPlacement) as info:
        placements_from_word(Board(), at("8L"), "KOČKA")  # L..P: one square too many
    assert info.value.reason is Reason.OFF_BOARD


def test_not_in_one_line(board: Board) -> None:
    assert reason_of(board, tiles((8, 6, "A"), (9, 7, "B"))) is Reason.NOT_IN_LINE


def test_gap_names_the_empty_squares(board: Board) -> None:
    with pytest.raises(IllegalPlacement) as info:
        validate(board, tiles((8, 6, "A"), (8, 9, "B")))
    assert info.value.reason is Reason.GAP
    assert info.value.squares == (Square(8, 7), Square(8, 8))


def test_played_through_tiles_close_a_gap(board: Board) -> None:
    play = validate(board, tiles((7, 5, "S"), (7, 9, "Y")))  # S COP Y: old tiles fill the space
    assert play.main.text == "SCOPY"
    assert play.main.new == (True, False, False, False, True)


def test_first_move_must_cover_the_centre() -> None:
    assert reason_of(Board(), tiles((0, 0, "A"), (0, 1, "B"))) is Reason.FIRST_NOT_CENTRE


def test_first_move_of_one_tile() -> None:
    assert reason_of(Board(), tiles((7, 7, "A"))) is Reason.FIRST_ONE_TILE


def test_not_touching(board: Board) -> None:
    assert reason_of(board, tiles((0, 0, "A"), (0, 1, "B"))) is Reason.NOT_CONNECTED
    assert reason_of(board, tiles((9, 9, "A"))) is Reason.NOT_CONNECTED  # diagonal to P does not count
    assert reason_of(board, tiles((8, 9, "A"), (8, 10, "B"))) is Reason.NOT_CONNECTED


def test_blank_without_a_letter(board: Board) -> None:
    assert reason_of(board, [Placement(Square(8, 7), Tile("?", blank=True))]) is Reason.BLANK_WITHOUT_LETTER


def test_a_blank_may_stand_for_a_letter_outside_the_set(board: Board) -> None:
    play = validate(board, tiles((6, 8, "w"), (8, 8, "ö")))
    assert play.main.notation() == "wPö"
    assert play.main.tiles[0] == Tile("W", blank=True)


def test_words_formed_main_then_cross(board: Board) -> None:
    # EMU-like parallel play under C O P: forms the main word and three cross words
    play = validate(board, tiles((8, 6, "E"), (8, 7, "M"), (8, 8, "U")))
    assert play.main.text == "EMU"
    assert play.main.direction is Direction.ACROSS
    assert [w.text for w in play.cross] == ["CE", "OM", "PU"]
    assert all(w.direction is Direction.DOWN for w in play.cross)
    assert play.cross[0].squares == (Square(7, 6), Square(8, 6))
    assert play.cross[0].new == (False, True)
    assert play.position == Position(Square(8, 6), Direction.ACROSS)


def test_single_tile_main_word_follows_the_direction_asked(board: Board) -> None:
    lay(board, "H8", ".K")  # O K down from the centre
    placement = tiles((8, 8, "A"))  # next to K (across) and under P (down)
    across = validate(board, placement, Direction.ACROSS)
    down = validate(board, placement, Direction.DOWN)
    assert (across.main.text, [w.text for w in across.cross]) == ("KA", ["PA"])
    assert (down.main.text, [w.text for w in down.cross]) == ("PA", ["KA"])


def test_single_tile_with_a_word_only_the_other_way(board: Board) -> None:
    play = validate(board, tiles((8, 7, "K")), Direction.ACROSS)
    assert play.main.text == "OK"
    assert play.main.direction is Direction.DOWN
    assert play.cross == ()


def test_placements_from_word_letters_or_dots_for_played_through(board: Board) -> None:
    with_dot = placements_from_word(board, at("G8"), ".LO")
    with_letter = placements_from_word(board, at("g8"), "CLO")
    assert with_dot == with_letter == tuple(tiles((8, 6, "L"), (9, 6, "O")))


def test_placements_from_word_refuses_a_wrong_letter_or_dot(board: Board) -> None:
    with pytest.raises(IllegalPlacement) as info:
        placements_from_word(board, at("G8"), "XLO")
    assert info.value.reason is Reason.OCCUPIED and "'X'" in str(info.value)
    with pytest.raises(IllegalPlacement) as info:
        placements_from_word(board, at("G9"), ".A")
    assert info.value.reason is Reason.GAP
    with pytest.raises(UnknownLetter):
        placements_from_word(board, at("G8"), "C1")


def test_error_message_names_the_squares(board: Board) -> None:
    with pytest.raises(IllegalPlacement, match=r"occupied at H8 \(holds O\)"):
        validate(board, tiles((7, 7, "A")))
    assert CENTRE == Square(7, 7)


def _two_steps(board: Board, pos: str, word: str) -> object:
    """What placements_from_word then validate give: the play, or the error's type and text."""
    try:
        return validate(board, placements_from_word(board, at(pos), word), at(pos).direction)
    except (IllegalPlacement, UnknownLetter) as exc:
        return type(exc), str(exc)


def _one_walk(board: Board, pos: str, word: str) -> object:
    try:
        return validate_word(board, at(pos), word)
    except (IllegalPlacement, UnknownLetter) as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize(
    ("pos", "word"),
    [
        ("8G", "COPE"),  # extends COP
        ("G8", "CLO"),  # through C, letter written
        ("G8", ".LO"),  # through C, dot
        ("G8", "cLO"),  # through C written as a blank's letter: the two steps decide
        ("H7", "AO"),  # one new tile through O
        ("8F", "SCOP"),  # one new tile before COP
        ("9G", "AX"),  # two cross words
        ("8L", "KOČKA"),  # off the board
        ("G9", ".A"),  # a dot over an empty square
        ("G8", "XLO"),  # a wrong letter over C
        ("G9", "?A"),  # a blank without its letter
        ("G9", "L1"),  # not a tile
        ("A1", "AB"),  # not connected
        ("G9", "A"),  # a single letter: its main word may read the other way
        ("H9", "A"),
        ("8G", "COP"),  # no new tile
        ("G8", ""),  # no letter at all
    ],
)
def test_validate_word_is_placements_from_word_then_validate(board: Board, pos: str, word: str) -> None:
    assert _one_walk(board, pos, word) == _two_steps(board, pos, word)


@pytest.mark.parametrize(("pos", "word"), [("8A", "KOČKA"), ("8D", "KOČKA"), ("8H", "A"), ("H8", "PES")])
def test_validate_word_on_the_first_move(pos: str, word: str) -> None:
    assert _one_walk(Board(), pos, word) == _two_steps(Board(), pos, word)


def test_placement_of_is_the_placement_and_shared() -> None:
    for args in ((7, 7, "A", False), (0, 14, "Č", True), (14, 0, "W", True), (3, 4, "?", True)):
        row, col, letter, blank = args
        expected = Placement(Square(row, col), Tile(letter, blank))
        assert placement_of(*args) == expected
        if letter != "?":  # a blank without its letter is refused by validation: not shared
            assert placement_of(*args) is placement_of(*args)
    assert placement_of(7, 7, "A", True).tile == Tile("A", blank=True)


@pytest.mark.parametrize(
    "args", [(15, 0, "A", False), (0, -1, "A", False), (1, 1, "a", False), (1, 1, "a", True), (1, 1, "?", False),
             (1, 1, "AB", False), (1, 1, "", True)],
)  # fmt: skip
def test_placement_of_raises_what_square_and_tile_raise(args: tuple[int, int, str, bool]) -> None:
    placement_of(7, 7, "A", False)
    placement_of(1, 1, "A", True)  # the shared placements of "a" exist: a lowercase letter is still refused
    row, col, letter, blank = args
    with pytest.raises(Exception) as expected:
        Placement(Square(row, col), Tile(letter, blank))
    with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
        placement_of(*args)
