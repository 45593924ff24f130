"""The tile-set check: the set's 100 tiles laid out in the 10x10 square are read and compared with the set.

Players lay the tiles row by row in the set's alphabet order (``TileSet.check_square``), starting at the board's
top-left corner; order does not matter for the count, only for telling a player where a tile is missing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import TileSet

SQUARE = 10
"""Side of the check square (10 x 10 = 100 cells, the size of the Czech and English sets)."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Missing and extra tiles as sorted rack letters (``?`` = blank), and the cells that read as faults."""

    missing: str
    extra: str
    outside: int
    """Tiles lying outside the square (they are counted too: a set checked on a dirty board is not complete)."""

    @property
    def complete(self) -> bool:
        return not self.missing and not self.extra


def check_tile_set(grid: Sequence[Sequence[str | None]], tiles: TileSet) -> CheckResult:
    """Compare every tile on the board (``grid``: rows of letters, ``?`` for blank, None empty) with the set."""
    on_board: Counter[str] = Counter()
    outside = 0
    for r, row in enumerate(grid):
        for c, letter in enumerate(row):
            if letter is None:
                continue
            on_board[letter] += 1
            if r >= SQUARE or c >= SQUARE:
                outside += 1
    wanted = tiles.bag()
    missing = wanted - on_board
    extra = on_board - wanted
    return CheckResult(_rack(missing, tiles), _rack(extra, tiles), outside)


def _rack(counter: Counter[str], tiles: TileSet) -> str:
    n = len(tiles.letters)

    def key(letter: str) -> tuple[int, str]:
        return (tiles.letters.index(letter) if letter in tiles.letters else n + 1, letter)

    return "".join(letter * counter[letter] for letter in sorted(counter, key=key))
