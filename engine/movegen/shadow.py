"""Shadow bounds: an upper bound on the score of every play generated from one anchor.

The idea is wolges' "shadow play" (also in MAGPIE): before generating, walk the squares a play from the anchor
could cover without asking the lexicon, and bound its score by putting the rack's most valuable tiles on the squares
that multiply them most. :meth:`MoveGenerator.best` then generates anchors best bound first and stops when the
next bound is below the n-th best score found. The bound ignores cross-checks other than empty sets, so it may be
loose but never too low.

For a span of squares (the main word) with new squares ``i``, word multiplier ``W`` (the product over new
squares), each new tile of value ``v`` on square ``i`` adds ``v * (lm_i * W + lm_i * wm_i [if a cross word]))``;
the board's tiles add ``W * (main word tiles) + sum(wm_i * cross tiles at i)``; the bingo bonus is added for a full
rack. Pairing the highest values with the highest coefficients (rearrangement inequality) gives the maximum.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.board import LETTER_MULTIPLIER, SIZE, WORD_MULTIPLIER

if TYPE_CHECKING:
    from engine.movegen.generator import Line


def anchor_bound(line: Line, anchor: int, rack_values: list[int], bonus: int, rack_size: int) -> int | None:
    """Upper bound on the score of a play from ``anchor`` (a position in ``line``) with a rack whose tile values
    are ``rack_values`` (highest first); None if no tile can go on the anchor."""
    codes = line.codes
    masks = line.masks
    n = len(rack_values)
    if not masks[anchor] or n == 0:
        return None
    start = anchor
    while start > 0 and codes[start - 1]:
        start -= 1
    if start < anchor:
        starts = [start]
    else:
        earlier = set(line.anchors)
        starts = [anchor]
        pos = anchor - 1
        while pos >= 0 and not codes[pos] and pos not in earlier and len(starts) < n:
            starts.append(pos)
            pos -= 1
    cells = line.cells
    cross = line.cross
    values = line.values
    best: int | None = None
    for s in starts:
        fixed = 0
        word_mult = 1
        cross_fixed = 0
        squares: list[tuple[int, int, bool]] = []
        for e in range(s, SIZE):
            if codes[e]:
                fixed += values[e]
            else:
                if not masks[e] or len(squares) == n:
                    break
                i = cells[e]
                wm = WORD_MULTIPLIER[i]
                word_mult *= wm
                c = cross[e]
                if c is not None:
                    cross_fixed += c * wm
                squares.append((LETTER_MULTIPLIER[i], wm, c is not None))
            if e < anchor or (e < SIZE - 1 and codes[e + 1]):
                continue
            coefs = sorted(
                (lm * word_mult + (lm * wm if has_cross else 0) for lm, wm, has_cross in squares), reverse=True
            )
            total = fixed * word_mult + cross_fixed + sum(v * c for v, c in zip(rack_values, coefs, strict=False))
            if len(squares) >= rack_size:
                total += bonus
            if best is None or total > best:
                best = total
    return best
