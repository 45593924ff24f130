"""Naming a blank quickly: which letters make every word of a move valid, so the table can offer them first.

``rank_blank_letters(board, placements, blanks, letters, accepts)`` is pure: the board before the move, the move's
named tiles, the squares of its still unnamed blanks, the letters a blank may stand for and a word check (e.g. a
lexicon's ``in``). It returns the letters that make every word the move forms acceptable (usually one), then all
the others in their given order. It only orders the choice: the player names the blank and the referee rules on
a challenge, as ever.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from engine.board import Board, Square
from engine.placement import IllegalPlacement, Placement, validate
from engine.tiles import Tile

MAX_UNNAMED = 2
"""A move with more unnamed blanks than this is not ranked (the Czech set has two blanks)."""


@dataclass(frozen=True, slots=True)
class BlankRanking:
    """The letters to offer for a move's unnamed blanks: ``likely`` (every word valid) first, then ``others``."""

    likely: tuple[str, ...]
    others: tuple[str, ...]

    @property
    def letters(self) -> tuple[str, ...]:
        return self.likely + self.others


def rank_blank_letters(
    board: Board,
    placements: Iterable[Placement],
    blanks: Sequence[Square],
    letters: Sequence[str],
    accepts: Callable[[str], bool],
) -> BlankRanking:
    """Order ``letters`` for the unnamed blanks on ``blanks``, given the move's other (named) ``placements``.

    A letter is likely if some naming of the move's unnamed blanks that gives one of them this letter makes every
    word the move forms acceptable to ``accepts`` (called with the word's letters, blanks as their letters). With
    no unnamed blank, more than ``MAX_UNNAMED`` of them, or tiles that do not form a legal placement, nothing is
    likely and the letters keep their order.
    """
    fixed = tuple(placements)
    order = tuple(dict.fromkeys(letters))
    if not blanks or len(blanks) > MAX_UNNAMED:
        return BlankRanking((), order)
    checked: dict[str, bool] = {}

    def word_ok(word: str) -> bool:
        if word not in checked:
            checked[word] = bool(accepts(word))
        return checked[word]

    likely: set[str] = set()
    for naming in product(order, repeat=len(blanks)):
        if set(naming) <= likely:
            continue  # nothing new to learn from this naming
        move = fixed + tuple(Placement(sq, Tile(ch, blank=True)) for sq, ch in zip(blanks, naming, strict=True))
        try:
            play = validate(board, move)
        except IllegalPlacement:
            return BlankRanking((), order)
        if all(word_ok(w.text) for w in play.words):
            likely.update(naming)
    first = tuple(ch for ch in order if ch in likely)
    return BlankRanking(first, tuple(ch for ch in order if ch not in likely))
