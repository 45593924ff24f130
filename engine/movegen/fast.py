"""The compiled search loop's Python side: every legal play of a rack from ``_fastgen`` (C, built by the project's
set-up where a compiler is), as moves whose engine Play is built only when asked for.

``_fastgen.generate`` runs the generator's algorithm (Appel and Jacobson's anchors on the packed DAWG, cross-checks,
left parts, extension), scores each play as :mod:`engine.scoring` does and ranks them as
:func:`engine.movegen.move.rank_key` does (the letters' alphabetical ranks handed in); here a play becomes a
:class:`FoundMove` only when it is looked at (:class:`FoundPlays`), its Play built by
:func:`engine.placement.validate` on a copy of the board the first time it is asked for. A machine without the
compiled module, a ruleset with premiums for every tile (alternative rule 2 of seed 001, which the C scorer does
not know) and ``PARTIAR_PURE_MOVEGEN=1`` in the environment use the pure-Python generator, with the same results
(the tests run both).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import cast, overload

from engine.board import LETTER_MULTIPLIER, SIZE, SQUARES, WORD_MULTIPLIER, Board, Direction, Position
from engine.collation import czech_key
from engine.movegen.graph import WordGraph
from engine.movegen.move import Move
from engine.placement import Placement, Play, validate
from engine.rules import RuleOptions
from engine.tiles import Tile, TileSet

PURE_ENV = "PARTIAR_PURE_MOVEGEN"
"""Set to 1: the pure-Python generator even where the compiled loop is built (to compare, or to rule it out)."""
MAX_CODES = 64
"""The compiled loop keeps a letter set in 64 bits: an alphabet of more letters uses the pure-Python generator."""

_fastgen: ModuleType | None
try:
    from engine.movegen import _fastgen  # type: ignore[attr-defined, no-redef]
except ImportError:  # no compiler at set-up: the pure-Python generator
    _fastgen = None

_LETTER_MULT = bytes(LETTER_MULTIPLIER)
_WORD_MULT = bytes(WORD_MULTIPLIER)
_DIRECTIONS = (Direction.ACROSS, Direction.DOWN)

Raw = tuple[int, int, int, int, int, bytes, bytes]
"""A play as the compiled loop gives it: ``(score, direction, line, start, end, placed, word)`` (see its source)."""


def compiled_available() -> bool:
    """Whether the compiled search loop was built and loads here."""
    return _fastgen is not None


def usable(graph: WordGraph, rules: RuleOptions) -> bool:
    """Whether the compiled loop serves this graph and rules (and the environment does not ask for pure Python)."""
    return (
        _fastgen is not None
        and os.environ.get(PURE_ENV, "") in ("", "0")
        and not rules.premiums_for_all
        and len(graph.alphabet) < MAX_CODES
    )


class FoundMove(Move):
    """A play the compiled loop found: score, position, word and placements at once; the engine's Play the first
    time :attr:`play` is asked for."""

    __slots__ = ("_board", "_direction", "_placements", "_square", "_word")

    def __init__(
        self, score: int, board: Board, square: int, direction: Direction, placements: tuple[Placement, ...],
        word: str,
    ) -> None:  # fmt: skip
        self.score = score
        self._play = None  # type: ignore[assignment]
        self._board = board
        self._square = square
        self._direction = direction
        self._placements = placements
        self._word = word

    @property
    def play(self) -> Play:
        if self._play is None:
            self._play = validate(self._board, self._placements, self._direction)
        return self._play

    @property
    def position(self) -> Position:
        return Position(SQUARES[self._square], self._direction)

    @property
    def word(self) -> str:
        return self._word

    @property
    def placements(self) -> tuple[Placement, ...]:
        return self._placements


class FoundPlays(Sequence[Move]):
    """Every play of a rack, best first, as the compiled loop ranked them: a move object is made for a play only
    when it is looked at (by index, slice or iteration), and kept."""

    __slots__ = ("_made", "_raw", "_search", "_snapshot")

    def __init__(self, raw: list[Raw], search: FastSearch, snapshot: Board) -> None:
        self._raw = raw
        self._search = search
        self._snapshot = snapshot
        self._made: list[FoundMove | None] = [None] * len(raw)

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._raw)))]
        move = self._made[index]
        if move is None:
            move = self._made[index] = self._search.move(self._raw[index], self._snapshot)
        return move

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self._raw)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<FoundPlays of {len(self._raw)} plays>"


def letter_ranks(tiles: TileSet, letter: str) -> tuple[int, int]:
    """A letter's alphabetical ranks as :meth:`TileSet.sort_key` orders words: primary and accent (Czech,
    :func:`engine.collation.czech_key`), or the set's letter order and 0."""
    if tiles.language == "cs":
        (first,), (accent,) = czech_key(letter)
        return first, accent
    return cast(int, tiles.sort_key(letter)[0]), 0


class FastSearch:
    """The compiled loop for one generator: its graph's buffers, the letter values by code, and each letter's
    alphabetical ranks (:meth:`engine.tiles.TileSet.sort_key` letter by letter, the Czech ``ch`` as one)."""

    def __init__(self, graph: WordGraph, tiles: TileSet, rules: RuleOptions) -> None:
        assert _fastgen is not None
        self._generate: Callable[..., list[Raw]] = _fastgen.generate
        self.labels, self.targets = graph.buffers()
        self.root = graph.root
        self.tiles = tiles
        self.rules = rules
        letters = [ch.upper() for ch in graph.alphabet]
        self.letters = [""] + letters
        self.code_of = {letter: code for code, letter in enumerate(letters, 1)}
        values = [0] + [tiles.points.get(letter, 0) for letter in letters]
        self.letter_values = bytes(values + [0] * (MAX_CODES - len(values)))
        self.tile = [Tile("A")] + [Tile(letter) for letter in letters]
        self.blank = [Tile("A", blank=True)] + [Tile(letter, blank=True) for letter in letters]
        primary = array("H", [0] * MAX_CODES)
        secondary = bytearray(MAX_CODES)
        for code, letter in enumerate(letters, 1):
            primary[code], secondary[code] = letter_ranks(tiles, letter)
        self.primary = primary.tobytes()
        self.secondary = bytes(secondary)
        ch = (self.code_of.get("C"), self.code_of.get("H"))
        if tiles.language == "cs" and ch[0] is not None and ch[1] is not None:
            self.digraph = (czech_key("CH")[0][0], ch[0], ch[1])  # "ch" is one letter of the Czech alphabet
        else:
            self.digraph = (-1, -1, -1)

    def run(self, board: Board, counts: list[int], blanks: int, keep: int) -> list[Raw]:
        """The plays of a rack (``counts`` per letter code, ``blanks``) on ``board``, best first: all of them
        (``keep`` 0) or the ``keep`` best."""
        cells = board.cells
        code_of = self.code_of
        points = self.tiles.points
        codes = bytes([0 if t is None else code_of.get(t.letter, 255) for t in cells])
        blank_tiles = bytes([0 if t is None or not t.blank else 1 for t in cells])
        values = bytes([0 if t is None or t.blank else points.get(t.letter, 0) for t in cells])
        rack = bytes(counts[:MAX_CODES] + [0] * (MAX_CODES - len(counts)))
        return self._generate(
            self.labels, self.targets, self.root, codes, blank_tiles, values, _LETTER_MULT, _WORD_MULT,
            self.letter_values, rack, blanks, self.rules.rack_size, self.rules.bingo_bonus, keep,
            self.primary, self.secondary, *self.digraph,
        )  # fmt: skip

    def plays(self, board: Board, counts: list[int], blanks: int) -> FoundPlays:
        """Every play, best first, made into moves as they are looked at."""
        return FoundPlays(self.run(board, counts, blanks, 0), self, board.copy())

    def best(self, board: Board, counts: list[int], blanks: int, n: int) -> list[Move]:
        """The ``n`` best plays, best first."""
        snapshot = board.copy()
        return [self.move(raw, snapshot) for raw in self.run(board, counts, blanks, n)]

    def move(self, raw: Raw, board: Board) -> FoundMove:
        """The move of one play the loop found on ``board`` (a snapshot nobody changes)."""
        score, direction, line, start, _end, placed, word_codes = raw
        letters = self.letters
        word = "".join(letters[c & 127].lower() if c & 128 else letters[c & 127] for c in word_codes)
        tile, blank = self.tile, self.blank
        placements = []
        for k in range(0, len(placed), 3):
            pos, code, is_blank = placed[k], placed[k + 1], placed[k + 2]
            index = line * SIZE + pos if direction == 0 else pos * SIZE + line
            placements.append(Placement(SQUARES[index], blank[code] if is_blank else tile[code]))
        square = line * SIZE + start if direction == 0 else start * SIZE + line
        return FoundMove(score, board, square, _DIRECTIONS[direction], tuple(placements), word)
