"""The bare position: a 15x15 grid of tiles over the standard premium layout, and squares in both notations.

Rows and columns are 0-based internally; row 0 is the top row. Two text conventions exist:
- classic (GCG, older Czech boards): columns are letters A-O, rows numbers 1-15; square ``H8``.
- czech (newer Czech boards): rows are letters A-O, columns numbers 1-15; square ``H8`` is row H, column 8.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from engine.errors import NotationError
from engine.tiles import Tile

SIZE = 15
CENTRE_INDEX = 7
LETTERS = "ABCDEFGHIJKLMNO"


class Premium(Enum):
    """A premium square: letter multiplier and word multiplier."""

    NONE = (1, 1)
    DL = (2, 1)
    TL = (3, 1)
    DW = (1, 2)
    TW = (1, 3)

    @property
    def letter_multiplier(self) -> int:
        return self.value[0]

    @property
    def word_multiplier(self) -> int:
        return self.value[1]


_LAYOUT = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
_CODES = {".": Premium.NONE, "d": Premium.DL, "t": Premium.TL, "D": Premium.DW, "T": Premium.TW}
PREMIUMS: tuple[Premium, ...] = tuple(_CODES[ch] for row in _LAYOUT for ch in row)
"""The standard premium layout, indexed by ``row * 15 + col``."""


def premium_rows() -> list[str]:
    """The premium squares as 15 strings: ``.`` none, ``d``/``t`` double/triple letter, ``D``/``T`` word (what
    the pages draw their boards from)."""
    return list(_LAYOUT)

LETTER_MULTIPLIER: tuple[int, ...] = tuple(p.letter_multiplier for p in PREMIUMS)
WORD_MULTIPLIER: tuple[int, ...] = tuple(p.word_multiplier for p in PREMIUMS)
PREMIUM_FACTORS: tuple[tuple[int, int], ...] = tuple(p.value for p in PREMIUMS)
"""(letter multiplier, word multiplier) by ``row * 15 + col``: one lookup per new tile when scoring."""


class Direction(Enum):
    """The direction a word reads: left to right or top to bottom."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """(row, col) step to the next square of a word in this direction."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


_SQUARE_RE = re.compile(r"^([A-Oa-o])(1[0-5]|[1-9])$")


class Notation(Enum):
    """How a move's position is written.

    - CLASSIC: GCG and older Czech boards. Horizontal row first (``8H``), vertical column first (``H8``).
    - CZECH: newer Czech boards (rows lettered). Horizontal row first (``H8``), vertical column first (``8H``).
    - CAS: ČAS duplicate: row letter, column number, direction V (vodorovně) or S (svisle): ``H8V``.
    """

    CLASSIC = "classic"
    CZECH = "czech"
    CAS = "cas"

    @classmethod
    def for_language(cls, language: str) -> Notation:
        """The notation players read in a language: ČAS (rows lettered, ``H8V``) in Czech, classic in English.

        Every display (LCD, pages, score sheet) formats squares and positions with this one choice; GCG files
        keep the classic notation whatever the language."""
        return cls.CAS if language == "cs" else cls.CLASSIC



@dataclass(frozen=True, slots=True, order=True)
class Square:
    """One cell of the board, 0-based (row 0 is the top row, col 0 the left column)."""

    row: int
    col: int

    def __post_init__(self) -> None:
        if not (0 <= self.row < SIZE and 0 <= self.col < SIZE):
            raise NotationError(f"square off the board: row {self.row}, col {self.col}")

    @property
    def index(self) -> int:
        return self.row * SIZE + self.col

    @classmethod
    def from_index(cls, index: int) -> Square:
        """The square at ``row * 15 + col``; raises NotationError off the board."""
        if 0 <= index < SIZE * SIZE:
            return SQUARES[index]
        return cls(*divmod(index, SIZE))

    @property
    def premium(self) -> Premium:
        return PREMIUMS[self.index]

    def transposed(self) -> Square:
        return Square(self.col, self.row)

    # classic: column letter, row number ("H8")
    def classic(self) -> str:
        return f"{LETTERS[self.col]}{self.row + 1}"

    @classmethod
    def from_classic(cls, text: str) -> Square:
        m = _SQUARE_RE.match(text.strip())
        if not m:
            raise NotationError(f"not a square in classic notation (column A-O, row 1-15): {text!r}")
        return cls(int(m.group(2)) - 1, LETTERS.index(m.group(1).upper()))

    # czech (newer boards): row letter, column number ("H8")
    def czech(self) -> str:
        return f"{LETTERS[self.row]}{self.col + 1}"

    def notation(self, style: Notation = Notation.CLASSIC) -> str:
        """The square as written in ``style``: classic ``H8`` (column H, row 8), Czech and ČAS ``H8`` (row H,
        column 8)."""
        return self.classic() if style is Notation.CLASSIC else self.czech()

    @classmethod
    def from_czech(cls, text: str) -> Square:
        m = _SQUARE_RE.match(text.strip())
        if not m:
            raise NotationError(f"not a square in Czech notation (row A-O, column 1-15): {text!r}")
        return cls(LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1)


SQUARES: tuple[Square, ...] = tuple(Square(r, c) for r in range(SIZE) for c in range(SIZE))
"""Every square, indexed by ``row * 15 + col`` (shared instances for the hot paths)."""
CENTRE = SQUARES[CENTRE_INDEX * SIZE + CENTRE_INDEX]


_NUM_FIRST = re.compile(r"^(1[0-5]|[1-9])([A-Oa-o])$")
_LETTER_FIRST = re.compile(r"^([A-Oa-o])(1[0-5]|[1-9])$")
_CAS_RE = re.compile(r"^([A-Oa-o])(1[0-5]|[1-9])([VSvs])$")


@dataclass(frozen=True, slots=True)
class Position:
    """Where a move starts and which way it reads."""

    square: Square
    direction: Direction

    def notation(self, style: Notation = Notation.CLASSIC) -> str:
        r, c = self.square.row, self.square.col
        across = self.direction is Direction.ACROSS
        if style is Notation.CLASSIC:
            return f"{r + 1}{LETTERS[c]}" if across else f"{LETTERS[c]}{r + 1}"
        if style is Notation.CZECH:
            return f"{LETTERS[r]}{c + 1}" if across else f"{c + 1}{LETTERS[r]}"
        return f"{LETTERS[r]}{c + 1}{'V' if across else 'S'}"

    @classmethod
    def from_notation(cls, text: str, style: Notation = Notation.CLASSIC) -> Position:
        """Parse a move position; raises NotationError naming the text and the notation expected."""
        t = text.strip()
        if style is Notation.CAS:
            m = _CAS_RE.match(t)
            if not m:
                raise NotationError(f"not a position in ČAS notation (e.g. H8V, H8S): {text!r}")
            direction = Direction.ACROSS if m.group(3).upper() == "V" else Direction.DOWN
            return cls(Square(LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1), direction)
        num_first = _NUM_FIRST.match(t)
        letter_first = _LETTER_FIRST.match(t)
        if style is Notation.CLASSIC:
            if num_first:  # row number, column letter: horizontal
                return cls(
                    Square(int(num_first.group(1)) - 1, LETTERS.index(num_first.group(2).upper())),
                    Direction.ACROSS,
                )
            if letter_first:  # column letter, row number: vertical
                return cls(
                    Square(int(letter_first.group(2)) - 1, LETTERS.index(letter_first.group(1).upper())),
                    Direction.DOWN,
                )
            raise NotationError(f"not a position in classic notation (e.g. 8H across, H8 down): {text!r}")
        if letter_first:  # row letter, column number: horizontal
            return cls(
                Square(LETTERS.index(letter_first.group(1).upper()), int(letter_first.group(2)) - 1),
                Direction.ACROSS,
            )
        if num_first:  # column number, row letter: vertical
            return cls(
                Square(LETTERS.index(num_first.group(2).upper()), int(num_first.group(1)) - 1), Direction.DOWN
            )
        raise NotationError(f"not a position in Czech notation (e.g. H8 across, 8H down): {text!r}")

    def transposed(self) -> Position:
        return Position(self.square.transposed(), self.direction.other)


class Board:
    """A 15x15 grid of tiles (None = empty). The bare position: no players, no scores, no history."""

    __slots__ = ("cells",)

    def __init__(self, cells: Iterable[Tile | None] | None = None) -> None:
        self.cells: list[Tile | None] = [None] * (SIZE * SIZE) if cells is None else list(cells)
        if len(self.cells) != SIZE * SIZE:
            raise ValueError(f"a board has {SIZE * SIZE} cells, got {len(self.cells)}")

    def __getitem__(self, square: Square) -> Tile | None:
        return self.cells[square.index]

    def get(self, row: int, col: int) -> Tile | None:
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return self.cells[row * SIZE + col]
        return None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    def __hash__(self) -> int:  # pragma: no cover - boards are mutable; hashing is refused
        raise TypeError("Board is mutable and unhashable")

    def copy(self) -> Board:
        return Board(self.cells)

    def is_empty(self) -> bool:
        return not any(self.cells)

    def tile_count(self) -> int:
        return sum(1 for t in self.cells if t is not None)

    def put(self, square: Square, tile: Tile) -> None:
        self.cells[square.index] = tile

    def clear(self, square: Square) -> None:
        self.cells[square.index] = None

    def occupied(self) -> Iterator[tuple[Square, Tile]]:
        for i, tile in enumerate(self.cells):
            if tile is not None:
                yield Square.from_index(i), tile

    def transposed(self) -> Board:
        return Board(self.cells[c * SIZE + r] for r in range(SIZE) for c in range(SIZE))

    def rows(self) -> list[str]:
        """Text diagram rows: letters, lowercase for blanks, ``.`` for empty squares."""
        return [
            "".join(t.notation() if t else "." for t in self.cells[r * SIZE : (r + 1) * SIZE])
            for r in range(SIZE)
        ]

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Board:
        """Inverse of ``rows()``."""
        rows = list(rows)
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise ValueError("a board diagram has 15 rows of 15 characters")
        return cls(None if ch == "." else Tile.from_notation(ch) for row in rows for ch in row)
