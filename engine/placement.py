"""Placement validation: where new tiles may go, and which words a placement forms.

``validate(board, placements)`` either returns a ``Play`` (the main word first, then the cross words, each with its
squares and which of its tiles are new) or raises ``IllegalPlacement`` with a specific ``Reason``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.board import CENTRE, SIZE, Board, Direction, Position, Square
from engine.errors import EngineError
from engine.tiles import Tile


class Reason(Enum):
    """Why a placement is illegal."""

    NO_TILES = "no tiles placed"
    DUPLICATE_SQUARE = "two tiles on one square"
    OFF_BOARD = "tile off the board"
    OCCUPIED = "square already occupied"
    NOT_IN_LINE = "tiles not in one row or column"
    GAP = "gap between tiles"
    FIRST_NOT_CENTRE = "first move does not cover the centre square"
    FIRST_ONE_TILE = "first move of a single tile"
    NOT_CONNECTED = "no new tile touches a tile on the board"
    BLANK_WITHOUT_LETTER = "blank without a letter"


class IllegalPlacement(EngineError, ValueError):
    """A placement that breaks the placing rules; ``reason`` says which, ``squares`` where."""

    def __init__(self, reason: Reason, detail: str = "", squares: Sequence[Square] = ()) -> None:
        self.reason = reason
        self.squares = tuple(squares)
        where = ", ".join(s.classic() for s in self.squares)
        super().__init__(f"illegal placement: {reason.value}" + (f" at {where}" if where else "") + (f" ({detail})" if detail else ""))


@dataclass(frozen=True, slots=True)
class Placement:
    """One new tile on one square."""

    square: Square
    tile: Tile

    @classmethod
    def at(cls, row: int, col: int, tile: Tile | str) -> Placement:
        """Convenience: ``Placement.at(7, 7, "A")``; a lowercase letter is a blank."""
        if isinstance(tile, str):
            tile = Tile.from_notation(tile)
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise IllegalPlacement(Reason.OFF_BOARD, f"row {row}, col {col}")
        return cls(Square(row, col), tile)


@dataclass(frozen=True, slots=True)
class Word:
    """A word formed by a play: its squares in reading order, its tiles, and which of them are new."""

    squares: tuple[Square, ...]
    tiles: tuple[Tile, ...]
    new: tuple[bool, ...]
    direction: Direction

    @property
    def text(self) -> str:
        """The word's letters (blanks as the letters they stand for)."""
        return "".join(t.letter for t in self.tiles)

    @property
    def position(self) -> Position:
        return Position(self.squares[0], self.direction)

    def notation(self) -> str:
        """The word with blanks in lowercase (GCG style)."""
        return "".join(t.notation() for t in self.tiles)


@dataclass(frozen=True, slots=True)
class Play:
    """A legal placement with the words it forms (main word first)."""

    placements: tuple[Placement, ...]
    main: Word
    cross: tuple[Word, ...]

    @property
    def words(self) -> tuple[Word, ...]:
        return (self.main, *self.cross)

    @property
    def direction(self) -> Direction:
        return self.main.direction

    @property
    def position(self) -> Position:
        return self.main.position

    @property
    def tile_count(self) -> int:
        return len(self.placements)


def _word_through(cells: list[Tile | None], new: dict[int, Tile], row: int, col: int, direction: Direction) -> Word | None:
    """The maximal run through (row, col) in a direction, with new tiles overlaid; None if shorter than 2."""
    dr, dc = direction.step

    def at(r: int, c: int) -> Tile | None:
        if 0 <= r < SIZE and 0 <= c < SIZE:
            i = r * SIZE + c
            return new.get(i) or cells[i]
        return None

    r, c = row, col
    while at(r - dr, c - dc) is not None:
        r, c = r - dr, c - dc
    squares, tiles, fresh = [], [], []
    while (t := at(r, c)) is not None:
        i = r * SIZE + c
        squares.append(Square(r, c))
        tiles.append(t)
        fresh.append(i in new)
        r, c = r + dr, c + dc
    if len(tiles) < 2:
        return None
    return Word(tuple(squares), tuple(tiles), tuple(fresh), direction)


def validate(board: Board, placements: Iterable[Placement], direction: Direction | None = None) -> Play:
    """Check a placement against the board and return the words it forms.

    ``direction`` only matters for a single new tile that forms words both ways: it picks the main word
    (default: across). Raises IllegalPlacement with the specific reason.
    """
    placements = tuple(placements)
    if not placements:
        raise IllegalPlacement(Reason.NO_TILES)
    cells = board.cells
    new: dict[int, Tile] = {}
    for p in placements:
        sq = p.square
        if not p.tile.named:
            raise IllegalPlacement(Reason.BLANK_WITHOUT_LETTER, squares=[sq])
        i = sq.index
        if i in new:
            raise IllegalPlacement(Reason.DUPLICATE_SQUARE, squares=[sq])
        if cells[i] is not None:
            raise IllegalPlacement(Reason.OCCUPIED, f"holds {cells[i].notation()}", squares=[sq])
        new[i] = p.tile
    rows = {p.square.row for p in placements}
    cols = {p.square.col for p in placements}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlacement(Reason.NOT_IN_LINE, squares=[p.square for p in placements])
    first_move = board.is_empty()
    if first_move:
        if len(placements) == 1:
            raise IllegalPlacement(Reason.FIRST_ONE_TILE, squares=[placements[0].square])
        if CENTRE.index not in new:
            raise IllegalPlacement(Reason.FIRST_NOT_CENTRE, squares=[p.square for p in placements])
    if len(placements) > 1:
        line = Direction.ACROSS if len(rows) == 1 else Direction.DOWN
    else:
        line = direction or Direction.ACROSS
    # contiguity along the line (existing tiles may fill the spaces between new ones)
    if len(placements) > 1:
        if line is Direction.ACROSS:
            r = next(iter(rows))
            lo, hi = min(cols), max(cols)
            holes = [Square(r, c) for c in range(lo, hi + 1) if (r * SIZE + c) not in new and cells[r * SIZE + c] is None]
        else:
            c = next(iter(cols))
            lo, hi = min(rows), max(rows)
            holes = [Square(r, c) for r in range(lo, hi + 1) if (r * SIZE + c) not in new and cells[r * SIZE + c] is None]
        if holes:
            raise IllegalPlacement(Reason.GAP, squares=holes)
    first = placements[0].square
    main = _word_through(cells, new, first.row, first.col, line)
    if main is None and len(placements) == 1:
        main = _word_through(cells, new, first.row, first.col, line.other)
        line = line.other
    cross: list[Word] = []
    for p in sorted(placements, key=lambda p: p.square):
        w = _word_through(cells, new, p.square.row, p.square.col, line.other)
        if w is not None:
            cross.append(w)
    if main is None:
        raise IllegalPlacement(Reason.NOT_CONNECTED, squares=[first])
    if not first_move:
        touches = len(main.tiles) > len(placements) or any(len(w.tiles) > 1 for w in cross)
        if not touches:
            raise IllegalPlacement(Reason.NOT_CONNECTED, squares=[p.square for p in placements])
    return Play(placements, main, tuple(cross))


def apply(board: Board, play: Play) -> None:
    """Put a validated play's tiles on the board (in place)."""
    for p in play.placements:
        board.put(p.square, p.tile)


def placements_from_word(board: Board, position: Position, word: str) -> tuple[Placement, ...]:
    """New tiles for a word written in full at a position (GCG style: lowercase = blank, ``.`` = a tile already
    on the board; a letter where a tile already lies must match it and is treated as played through)."""
    dr, dc = position.direction.step
    r, c = position.square.row, position.square.col
    out = []
    for k, ch in enumerate(word):
        rr, cc = r + dr * k, c + dc * k
        if not (0 <= rr < SIZE and 0 <= cc < SIZE):
            raise IllegalPlacement(Reason.OFF_BOARD, f"word {word!r} at {position.notation()} runs off the board")
        existing = board.cells[rr * SIZE + cc]
        if ch == ".":
            if existing is None:
                raise IllegalPlacement(Reason.GAP, f"'.' in {word!r} over an empty square", squares=[Square(rr, cc)])
            continue
        tile = Tile.from_notation(ch)
        if existing is not None:
            if existing.letter != tile.letter:
                raise IllegalPlacement(Reason.OCCUPIED, f"{word!r} has {ch!r} where {existing.notation()!r} lies", squares=[Square(rr, cc)])
            continue
        out.append(Placement(Square(rr, cc), tile))
    return tuple(out)
