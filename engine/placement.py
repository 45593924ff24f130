"""Placement validation: where new tiles may go, and which words a placement forms.

``validate(board, placements)`` either returns a ``Play`` (the main word first, then the cross words, each with its
squares and which of its tiles are new) or raises ``IllegalPlacement`` with a specific ``Reason``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter, is_

from engine.board import CENTRE, SIZE, SQUARES, Board, Direction, Position, Square
from engine.errors import EngineError, UnknownLetter
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
        tiles = self.tiles
        if any(map(_IS_BLANK, tiles)):
            return "".join([t.letter.lower() if t.blank else t.letter for t in tiles])
        return "".join(map(_LETTER, tiles))


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


def _word_through(cells: list[Tile | None], laid: list[Tile | None], i: int, direction: Direction) -> Word | None:
    """The run of tiles through cell ``i`` along ``direction`` on ``laid`` (the board with a placement's tiles put
    on it as laid), new where ``cells`` are empty; None if shorter than 2 (``irregular_play``: new tiles may lie
    anywhere)."""
    run = _main_word(laid, (), i, i, direction)
    if run is None:
        return None
    step = 1 if direction is _ACROSS else SIZE
    lo = run.squares[0].index
    fresh = tuple(map(is_, cells[lo : lo + len(run.tiles) * step : step], _NONES))
    return _make_word(run.squares, run.tiles, fresh, direction)


def _main_word(
    cells: list[Tile | None], news: Iterable[tuple[int, Tile]], lo: int, hi: int, direction: Direction
) -> Word | None:
    """The word along ``direction`` through every new tile (``news``: cell and tile): ``lo`` and ``hi`` are cells
    on its line with every new tile between them and no empty cell (``validate`` checked the gaps), so the word
    extends over old tiles only. None if shorter than 2."""
    step, first, last = (_ROW_OF if direction is _ACROSS else _COLUMN_OF)[lo]
    while lo > first and cells[lo - step] is not None:
        lo -= step
    while hi < last and cells[hi + step] is not None:
        hi += step
    if lo == hi:
        return None
    end = hi + 1
    tiles = cells[lo:end:step]  # a copy: the new tiles go where it holds None
    fresh = tuple(map(is_, tiles, _NONES))
    for j, tile in news:
        tiles[(j - lo) // step] = tile
    return _make_word(SQUARES[lo:end:step], tuple(tiles), fresh, direction)


def _cross_words(cells: list[Tile | None], news: Iterable[tuple[int, Tile]], line: Direction) -> tuple[Word, ...]:
    """The cross words of a play whose main word reads along ``line``: through each new tile (``news``, in board
    order) that has an old tile next to it across the line."""
    cross = []
    if line is _ACROSS:  # cross words read down: a new tile needs an old one above or below
        for i, tile in news:
            if (i >= SIZE and cells[i - SIZE] is not None) or (i < _LAST_ROW and cells[i + SIZE] is not None):
                cross.append(_cross_word(cells, i, tile, *_COLUMN_OF[i], _DOWN))
    else:  # cross words read across: a new tile needs an old one left or right of it
        for i, tile in news:
            c = i % SIZE
            if (c and cells[i - 1] is not None) or (c < SIZE - 1 and cells[i + 1] is not None):
                cross.append(_cross_word(cells, i, tile, *_ROW_OF[i], _ACROSS))
    return tuple(cross)


def _cross_word(cells: list[Tile | None], i: int, tile: Tile, step: int, first: int, last: int, direction: Direction) -> Word:
    """The cross word through the one new tile on cell ``i``, read along ``direction`` (``step`` 1 or 15 between
    cells ``first`` and ``last`` of its line); the caller has seen an old tile next to it."""
    lo = hi = i
    while lo > first and cells[lo - step] is not None:
        lo -= step
    while hi < last and cells[hi + step] is not None:
        hi += step
    end = hi + 1
    tiles = cells[lo:end:step]
    k = (i - lo) // step
    tiles[k] = tile
    return _make_word(SQUARES[lo:end:step], tuple(tiles), _ONE_NEW[len(tiles)][k], direction)


def _play(placements: tuple[Placement, ...], main: Word, cross: tuple[Word, ...], first_move: bool) -> Play:
    """The play, once it is known to connect: on the first move, or through an old tile, or with a cross word."""
    if not cross and not first_move and len(main.tiles) == len(placements):
        raise IllegalPlacement(Reason.NOT_CONNECTED, squares=[p.square for p in placements])
    return _make_play(placements, main, cross)


_NONES = (None,) * SIZE
_ROW_OF = tuple((1, i - i % SIZE, i - i % SIZE + SIZE - 1) for i in range(SIZE * SIZE))
"""By cell: the step to the next cell of its row, and the row's first and last cells."""
_COLUMN_OF = tuple((SIZE, i % SIZE, i % SIZE + SIZE * (SIZE - 1)) for i in range(SIZE * SIZE))
"""By cell: the step to the next cell of its column, and the column's first and last cells."""
_ONE_NEW = tuple(tuple(tuple(j == k for j in range(n)) for k in range(n)) for n in range(SIZE + 1))
"""``_ONE_NEW[n][k]``: the ``new`` flags of a word of ``n`` tiles whose ``k``-th tile alone is new."""


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


def _new_flags(n: int, olds: int) -> tuple[bool, ...]:
    """The ``new`` flags of a word of ``n`` tiles whose old tiles are the bits of ``olds``, kept in ``_NEW_FLAGS``
    (the walk looks there first)."""
    flags = _NEW_FLAGS[olds << 4 | n] = tuple(not olds >> k & 1 for k in range(n))
    return flags


_NEW_FLAGS: dict[int, tuple[bool, ...]] = {}
"""``_new_flags`` by ``olds << 4 | n``: at most a few hundred patterns turn up."""


def validate(board: Board, placements: Iterable[Placement], direction: Direction | None = None) -> Play:
    """Check a placement against the board and return the words it forms.

    ``direction`` only matters for a single new tile that forms words both ways: it picks the main word
    (default: across). Raises IllegalPlacement with the specific reason.
    """
    placements = tuple(placements)
    cells = board.cells
    new = _new_tiles(cells, placements)
    news = sorted(new.items())  # board order (cells differ: the tiles are never compared)
    count = len(news)
    lo = news[0][0]
    hi = news[-1][0]
    one_row = lo // SIZE == hi // SIZE  # in board order: the first and the last are in the same row
    if not one_row and ((hi - lo) % SIZE or len({i % SIZE for i in new}) > 1):
        raise IllegalPlacement(Reason.NOT_IN_LINE, squares=[p.square for p in placements])
    first_move = cells[_CENTRE] is None and board.is_empty()
    if first_move:
        if count == 1:
            raise IllegalPlacement(Reason.FIRST_ONE_TILE, squares=[placements[0].square])
        if _CENTRE not in new:
            raise IllegalPlacement(Reason.FIRST_NOT_CENTRE, squares=[p.square for p in placements])
    if count > 1:
        line = _ACROSS if one_row else _DOWN
        # contiguity along the line (existing tiles may fill the spaces between new ones)
        step = 1 if one_row else SIZE
        if (hi - lo) // step + 1 != count:
            holes = [SQUARES[j] for j in range(lo, hi + 1, step) if j not in new and cells[j] is None]
            if holes:
                raise IllegalPlacement(Reason.GAP, squares=holes)
        main = _main_word(cells, news, lo, hi, line)
    else:
        line = direction or _ACROSS
        main = _main_word(cells, news, lo, hi, line)
        if main is None:
            line = line.other
            main = _main_word(cells, news, lo, hi, line)
    if main is None:
        raise IllegalPlacement(Reason.NOT_CONNECTED, squares=[placements[0].square])
    return _play(placements, main, _cross_words(cells, news, line), first_move)


def validate_word(board: Board, position: Position, word: str) -> Play:
    """``validate(board, placements_from_word(board, position, word), position.direction)`` in one walk over the
    word: the same play, the same errors (a record's replay validates every play this way).

    The walk handles a word of two or more letters whose new tiles are named tiles on empty squares and whose
    other letters match the tiles they play through; anything else (an error to report, a single letter, a
    letter not placed before, the first move's rules, a play that touches nothing) takes the two steps. While it
    walks it gathers the new placements, the main word's tiles and the new tiles with a neighbour across the line
    (the cross words), so nothing is walked twice."""
    square = position.square
    row = square.row
    col = square.col
    i = row * SIZE + col
    cells = board.cells
    n = len(word)
    if position.direction is _ACROSS:  # side: the step to a neighbour across the line; before, after: one there
        step = 1
        side = SIZE
        room = SIZE - col
        before = row > 0
        after = row < SIZE - 1
        bounds = _ROW_OF[i]
    else:
        step = SIZE
        side = 1
        room = SIZE - row
        before = col > 0
        after = col < SIZE - 1
        bounds = _COLUMN_OF[i]
    if 1 < n <= room:
        placed: list[Placement] = []
        line: list[Tile] = []  # the tiles of the written span, new ones included
        olds = 0  # a bit for each old tile in the span, by its place in it
        crossing: list[int] = []  # cells of the new tiles with a tile next to them across the line
        j = i
        try:
            for ch in word:
                tile = cells[j]
                if tile is None:
                    p = _PLACED[ch][j]  # KeyError: not a letter placed before (or "." or "?"): two steps
                    if p is None:
                        p = _placement(j, ch)
                    placed.append(p)
                    line.append(p.tile)
                    if (before and cells[j - side] is not None) or (after and cells[j + side] is not None):
                        crossing.append(j)
                elif ch == tile.letter or ch == ".":
                    olds |= 1 << len(line)
                    line.append(tile)
                else:
                    break  # a blank's letter, or a wrong one
                j += step
            else:
                count = len(placed)
                first_move = cells[_CENTRE] is None and board.is_empty()
                if count and not (first_move and (count == 1 or _CENTRE not in range(i, j, step))):
                    # the main word: the written span, and any old tiles just before or after it
                    lo = i
                    hi = j - step
                    first = bounds[1]
                    last = bounds[2]
                    while lo != first and cells[lo - step] is not None:
                        lo -= step
                    while hi != last and cells[hi + step] is not None:
                        hi += step
                    end = hi + 1
                    tiles: tuple[Tile | None, ...]  # every square of the word holds a tile
                    if lo == i and end == j - step + 1:
                        tiles = tuple(line)
                        fresh = _NEW_FLAGS.get(olds << 4 | n) or _new_flags(n, olds)
                    else:
                        tiles = (*cells[lo:i:step], *line, *cells[j:end:step])
                        fresh = tuple(map(is_, cells[lo:end:step], _NONES))
                    if crossing or first_move or len(tiles) > count:  # else it touches nothing: two steps
                        cross = []
                        if crossing:
                            other = _DOWN if step == 1 else _ACROSS
                            lines = _COLUMN_OF if step == 1 else _ROW_OF
                            for k in crossing:
                                bounds = lines[k]
                                tile = line[(k - i) // step]
                                cross.append(_cross_word(cells, k, tile, side, bounds[1], bounds[2], other))
                        main = _make_word(SQUARES[lo:end:step], tiles, fresh, position.direction)
                        return _make_play(tuple(placed), main, tuple(cross))
        except KeyError:
            pass
    return validate(board, placements_from_word(board, position, word), position.direction)


_LETTER = attrgetter("letter")
_IS_BLANK = attrgetter("blank")
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
    laid = list(cells)
    for i, tile in new.items():
        laid[i] = tile
    for i in sorted(new):
        for direction in (Direction.ACROSS, Direction.DOWN):
            w = _word_through(cells, laid, i, direction)
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
    row = _PLACED.get(text)
    if row is None:
        tile = Tile.from_notation(text)
        if not tile.named:  # a blank without its letter: validation refuses it, nothing to share
            return Placement(SQUARES[i], tile)
        row = [None] * (SIZE * SIZE)
        if len(_PLACED) < _PLACED_KEPT:
            _PLACED[text] = row
    placement = row[i]
    if placement is None:
        placement = row[i] = Placement(SQUARES[i], Tile.from_notation(text))
    return placement


def placement_of(row: int, col: int, letter: str, blank: bool) -> Placement:
    """``Placement(Square(row, col), Tile(letter, blank))``, shared like the placements of a written word (a
    journal's replay reads thousands); raises what Square and Tile raise."""
    if 0 <= row < SIZE and 0 <= col < SIZE:
        cells = _PLACED.get(letter.lower() if blank else letter)
        if cells is not None:
            placement = cells[row * SIZE + col]
            if placement is not None and placement.tile.letter == letter:  # not "a" for a tile that is not blank
                return placement
    square = Square(row, col)
    tile = Tile(letter, blank)
    text = tile.notation()
    if tile.named and _round_trips(tile, text):
        return _placement(square.row * SIZE + square.col, text)
    return Placement(square, tile)


def _round_trips(tile: Tile, text: str) -> bool:
    """True if ``text`` reads back as ``tile`` (it does for every letter of a tile set)."""
    try:
        return Tile.from_notation(text) == tile
    except UnknownLetter:
        return False


_PLACED: dict[str, list[Placement | None]] = {}
"""The shared placements of each named tile (as written, GCG style) by cell, filled as they are asked for."""
_PLACED_KEPT = 256
"""Enough for both cases of every letter of every tile set."""


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
            row = _PLACED.get(ch)
            out.append((None if row is None else row[i]) or _placement(i, ch))
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
