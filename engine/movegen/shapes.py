"""The shapes the move generator's parts share (:mod:`engine.movegen.generator`, :mod:`engine.movegen.shadow`,
:mod:`engine.movegen.top`): a prepared line of the board, a rack as letter counts, a play as found, a left part's
graph nodes, and what a search needs of the shadow's bounds. Its own module so that the parts import one way
(generator -> shadow -> top -> shapes) and none back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.board import Direction


@dataclass(slots=True)
class Line:
    """One row (across) or column (down) prepared for generation."""

    direction: Direction
    cells: tuple[int, ...]
    """Board index of each of the 15 squares, in reading order."""
    codes: list[int]
    """Letter code of the tile on each square (0 = empty)."""
    masks: list[int]
    """Cross-check set of each empty square as a bit mask over letter codes (0 on occupied squares)."""
    cross: list[int | None]
    """Face value of the perpendicular tiles next to each empty square, None where there are none."""
    values: list[int]
    """Face value of the tile on each square (0 on empty squares and for blanks)."""
    anchors: list[int]
    """Positions (0-14) of the anchors, in reading order."""


Found = tuple[int, tuple[tuple[int, bool], ...], tuple[tuple[int, int, bool], ...]]
"""A play as the generator finds it: see :meth:`MoveGenerator.anchor_plays`."""


class Rack:
    """A rack as counts per letter code plus blanks; letters outside the lexicon's alphabet are kept aside."""

    __slots__ = ("blanks", "counts", "size", "unplayable", "values")

    def __init__(self, counts: list[int], blanks: int, unplayable: int, values: list[int]) -> None:
        self.counts = counts
        self.blanks = blanks
        self.unplayable = unplayable
        self.values = values
        """Face values of every tile on the rack (blanks 0), highest first."""
        self.size = sum(counts) + blanks + unplayable


Nodes = tuple[int, ...]
"""A set of word-graph nodes (no node twice)."""

Part = tuple[Nodes, tuple[tuple[int, bool], ...], int, int]
"""``(nodes, prefix, child mask, blanks used)``: a left part whose blanks (``(0, True)``) are not named."""


class Bounds(Protocol):
    """What :class:`engine.movegen.top.TopSearch` asks of :class:`engine.movegen.shadow.Future`: the bounds on the
    rest of a play from an empty square with at most ``m`` more tiles (see ``Future.row``)."""

    def row(self, pos: int, m: int) -> tuple[int, int, int, int]: ...
