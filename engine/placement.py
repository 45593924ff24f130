"""Placement validation: where new tiles may go, and which words a placement forms.

``validate(board, placements)`` either returns a ``Play`` (the main word first, then the cross words, each with its
squares and which of its tiles are new) or raises ``IllegalPlacement`` with a specific ``Reason``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import is_

from engine.board import CENTRE, SIZE, SQUARES, Board, Direction, Position, Square
from engine.errors import EngineError
from engine.tiles import BLANK, Tile
from engine.values import builder


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
        super().__init__(
            f"illegal placement: {reason.value}"
            + (f" at {where}" if where else "")
            + (f" ({detail})" if detail else "")
        )


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


def _word_through(cells: list[Tile | None], new: dict[int, Tile], lo: int, hi: int, direction: Direction) -> Word | None:
    """The word along ``direction`` over cells ``lo``..``hi`` (each one holds an old tile or one of ``new``),
    extended over the old and new tiles on both sides; None if shorter than 2."""
    if direction is _ACROSS:
        step = 1
        first = lo - lo % SIZE
        last = first + SIZE - 1
    else:
        step = SIZE
        first = lo % SIZE
        last = first + _LAST_ROW
    while lo > first and (cells[lo - step] is not None or lo - step in new):
        lo -= step
    while hi < last and (cells[hi + step] is not None or hi + step in new):
        hi += step
    if lo == hi:
        return None
    end = hi + 1
    tiles = cells[lo:end:step]  # a copy: the new tiles go where it holds None
    fresh = tuple(map(is_, tiles, _NONES))
    count = fresh.count(True)
    if count == len(new):  # every new tile lies on this word (a main word; a single tile's cross word)
        for j, tile in new.items():
            tiles[(j - lo) // step] = tile
    elif count == 1:
        k = fresh.index(True)
        tiles[k] = new[lo + k * step]
    else:
        for k in range(len(fresh)):
            if fresh[k]:
                tiles[k] = new[lo + k * step]
    return _make_word(SQUARES[lo:end:step], tuple(tiles), fresh, direction)


_NONES = (None,) * SIZE


def _new_tiles(cells: list[Tile | None], placements: tuple[Placement, ...]) -> dict[int, Tile]:
    """The new tiles by square index; raises IllegalPlacement for what cannot lie on a board at all."""
    if not placements:
        raise IllegalPlacement(Reason.NO_TILES)
    new: dict[int, Tile] = {}
    for p in placements:
        sq = p.square
        tile = p.tile
        if tile.letter == BLANK:  # not ``named``
            raise IllegalPlacement(Reason.BLANK_WITHOUT_LETTER, squares=[sq])
        i = sq.row * SIZE + sq.col
        if i in new:
            raise IllegalPlacement(Reason.DUPLICATE_SQUARE, squares=[sq])
        existing = cells[i]
        if existing is not None:
            raise IllegalPlacement(Reason.OCCUPIED, f"holds {existing.notation()}", squares=[sq])
        new[i] = tile
    return new


def validate(board: Board, placements: Iterable[Placement], direction: Direction | None = None) -> Play:
    """Check a placement against the board and return the words it forms.

    ``direction`` only matters for a single new tile that forms words both ways: it picks the main word
    (default: across). Raises IllegalPlacement with the specific reason.
    """
    placements = tuple(placements)
    cells = board.cells
    new = _new_tiles(cells, placements)
    order = sorted(new)
    lo, hi = order[0], order[-1]
    one_row = lo // SIZE == hi // SIZE  # sorted by index: the first and the last are in the same row
    if not one_row and len({i % SIZE for i in order}) > 1:
        raise IllegalPlacement(Reason.NOT_IN_LINE, squares=[p.square for p in placements])
    first_move = cells[_CENTRE] is None and board.is_empty()
    if first_move:
        if len(placements) == 1:
            raise IllegalPlacement(Reason.FIRST_ONE_TILE, squares=[placements[0].square])
        if _CENTRE not in new:
            raise IllegalPlacement(Reason.FIRST_NOT_CENTRE, squares=[p.square for p in placements])
    if len(placements) > 1:
        line = _ACROSS if one_row else _DOWN
        # contiguity along the line (existing tiles may fill the spaces between new ones)
        step = 1 if one_row else SIZE
        if (hi - lo) // step + 1 != len(order):
            holes = [SQUARES[j] for j in range(lo, hi + 1, step) if j not in new and cells[j] is None]
            if holes:
                raise IllegalPlacement(Reason.GAP, squares=holes)
    else:
        line = direction or _ACROSS
    main = _word_through(cells, new, lo, hi, line)
    if main is None and len(placements) == 1:
        line = line.other
        main = _word_through(cells, new, lo, hi, line)
    if main is None:
        raise IllegalPlacement(Reason.NOT_CONNECTED, squares=[placements[0].square])
    cross: list[Word] = []
    if line is _ACROSS:  # cross words read down: a new tile needs an old one above or below
        for i in order:
            if (i >= SIZE and cells[i - SIZE] is not None) or (i < _LAST_ROW and cells[i + SIZE] is not None):
                w = _word_through(cells, new, i, i, _DOWN)
                if w is not None:
                    cross.append(w)
    else:  # cross words read across: a new tile needs an old one left or right of it
        for i in order:
            c = i % SIZE
            if (c > 0 and cells[i - 1] is not None) or (c < SIZE - 1 and cells[i + 1] is not None):
                w = _word_through(cells, new, i, i, _ACROSS)
                if w is not None:
                    cross.append(w)
    if not first_move and len(main.tiles) == len(placements) and not cross:
        raise IllegalPlacement(Reason.NOT_CONNECTED, squares=[p.square for p in placements])
    return _make_play(placements, main, tuple(cross))


_ACROSS = Direction.ACROSS  # module constants: an enum member looked up on its class costs 8x more
_DOWN = Direction.DOWN
_make_word = builder(Word)
_make_play = builder(Play)
_CENTRE = CENTRE.index
_LAST_ROW = SIZE * (SIZE - 1)
"""Index of the first cell of the bottom row."""


GEOMETRY = frozenset({Reason.NOT_IN_LINE, Reason.GAP, Reason.FIRST_NOT_CENTRE, Reason.FIRST_ONE_TILE,
                      Reason.NOT_CONNECTED})  # fmt: skip
"""The placing rules an unchallenged play may break and still stand (004: "formálně neplatně zahraný tah, proti
jehož platnosti soupeř nepodal námitku, se v daném tahu a partii považuje za platný")."""


def irregular_play(board: Board, placements: Iterable[Placement]) -> Play:
    """A placement that breaks only the placing geometry (``GEOMETRY``), read as laid: its words are every run
    of two or more tiles through a new tile, across and down (the main word the one with the most new tiles); a new
    tile in no run is a one-letter word. Raises IllegalPlacement for what cannot lie on a board at all (an occupied
    or doubled square, a blank without a letter, no tiles)."""
    placements = tuple(placements)
    cells = board.cells
    new = _new_tiles(cells, placements)
    words: list[Word] = []
    seen: set[tuple[Square, ...]] = set()
    for i in sorted(new):
        for direction in (Direction.ACROSS, Direction.DOWN):
            w = _word_through(cells, new, i, i, direction)
            if w is not None and w.squares not in seen:
                seen.add(w.squares)
                words.append(w)
    in_words = {sq for w in words for sq in w.squares}
    for i in sorted(new):
        if SQUARES[i] not in in_words:
            words.append(Word((SQUARES[i],), (new[i],), (True,), Direction.ACROSS))
    words.sort(key=lambda w: -sum(w.new))
    return Play(placements, words[0], tuple(words[1:]))


def apply(board: Board, play: Play) -> None:
    """Put a validated play's tiles on the board (in place)."""
    cells = board.cells
    for p in play.placements:
        sq = p.square
        cells[sq.row * SIZE + sq.col] = p.tile


def _placement(i: int, text: str) -> Placement:
    """The placement of the tile written ``text`` (GCG style) on cell ``i``; shared, as placements are values
    (a record's replay places thousands). Raises UnknownLetter."""
    key = (i, text)
    placement = _PLACEMENTS.get(key)
    if placement is None:
        placement = Placement(SQUARES[i], Tile.from_notation(text))
        if len(_PLACEMENTS) < _PLACEMENTS_KEPT:
            _PLACEMENTS[key] = placement
    return placement


_PLACEMENTS: dict[tuple[int, str], Placement] = {}
_PLACEMENTS_KEPT = 32768
"""Enough for every letter of every tile set on every square."""


def placements_from_word(board: Board, position: Position, word: str) -> tuple[Placement, ...]:
    """New tiles for a word written in full at a position (GCG style: lowercase = blank, ``.`` = a tile already
    on the board; a letter where a tile already lies must match it and is treated as played through).

    Raises IllegalPlacement (OFF_BOARD, GAP for a ``.`` over an empty square, OCCUPIED for a letter that differs
    from the tile on its square) and UnknownLetter for a character that is not a tile."""
    across = position.direction is _ACROSS
    square = position.square
    r, c = square.row, square.col
    if (c if across else r) + len(word) > SIZE:
        raise IllegalPlacement(Reason.OFF_BOARD, f"word {word!r} at {position.notation()} runs off the board")
    step = 1 if across else SIZE
    cells = board.cells
    i = r * SIZE + c
    out = []
    for ch in word:
        existing = cells[i]
        if ch == ".":
            if existing is None:
                raise IllegalPlacement(
                    Reason.GAP, f"'.' in {word!r} over an empty square", squares=[SQUARES[i]]
                )
        elif existing is None:
            out.append(_PLACEMENTS.get((i, ch)) or _placement(i, ch))
        else:
            tile = Tile.from_notation(ch)
            if existing.letter != tile.letter:
                raise IllegalPlacement(
                    Reason.OCCUPIED,
                    f"{word!r} has {ch!r} where {existing.notation()!r} lies",
                    squares=[SQUARES[i]],
                )
        i += step
    return tuple(out)
