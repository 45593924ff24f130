"""Shadow bounds: an upper bound on the score of every play generated from one anchor.

The idea is wolges' "shadow play" (also in MAGPIE): before generating, walk the squares a play from the anchor
could cover without asking the lexicon, and bound its score by putting the rack's most valuable tiles on the squares
that multiply them most. :meth:`MoveGenerator.best` then generates anchors best bound first and stops when the
next bound is below the n-th best score found. The bound ignores cross-checks other than empty sets, so it may be
loose but never too low.

For a span of squares (the main word) with new squares ``i``, word multiplier ``W`` (the product over new
squares), each new tile of value ``v`` on square ``i`` adds ``v * (lm_i * W + lm_i * wm_i [if a cross word]))``;
the board's tiles add ``W * (main word tiles) + sum(wm_i * cross tiles at i)``; the bingo bonus is added for a full
rack, but only where :meth:`MoveGenerator.bingo_possible` does not rule it out. Pairing the highest values with the highest coefficients (rearrangement inequality) bounds the sum; so
does giving each square the highest value a rack tile allowed there has (its cross-check set); the smaller of the
two is the bound.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.board import LETTER_MULTIPLIER, SIZE, WORD_MULTIPLIER

if TYPE_CHECKING:
    from engine.movegen.generator import Line


def start_bounds(
    line: Line,
    anchor: int,
    rack_values: list[int],
    caps: list[int],
    bonus: int,
    rack_size: int,
    bingo_possible: Callable[[list[int]], bool],
) -> dict[int, int]:
    """Upper bounds on the score of the plays from ``anchor`` by the length of their left part (rack tiles put
    before the anchor; 0 when the left part is tiles on the board): ``{length: bound}``. For a play from ``anchor`` (a position in ``line``) with a rack whose tile values
    are ``rack_values`` (highest first); ``caps`` is the highest value a rack tile may have on each square of the
    line (its cross-check allows it; -1 where none may go). ``bingo_possible(codes)`` says whether a word of the
    whole rack and the board letters ``codes`` of a span can exist (a necessary condition is enough). Empty if no
    tile can go on the anchor."""
    codes = line.codes
    n = len(rack_values)
    if caps[anchor] < 0 or n == 0:
        return {}
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
    bounds: dict[int, int] = {}
    for s in starts:
        best = -1
        fixed = 0
        through: list[int] = []
        word_mult = 1
        cross_fixed = 0
        squares: list[tuple[int, int, bool, int]] = []
        for e in range(s, SIZE):
            if codes[e]:
                fixed += values[e]
                through.append(codes[e])
            else:
                if caps[e] < 0 or len(squares) == n:
                    break
                i = cells[e]
                wm = WORD_MULTIPLIER[i]
                word_mult *= wm
                c = cross[e]
                if c is not None:
                    cross_fixed += c * wm
                squares.append((LETTER_MULTIPLIER[i], wm, c is not None, caps[e]))
            if e < anchor or (e < SIZE - 1 and codes[e + 1]):
                continue
            coefs = [lm * word_mult + (lm * wm if has_cross else 0) for lm, wm, has_cross, _cap in squares]
            capped = sum(c * sq[3] for c, sq in zip(coefs, squares, strict=True))
            coefs.sort(reverse=True)
            paired = sum(v * c for v, c in zip(rack_values, coefs, strict=False))
            total = fixed * word_mult + cross_fixed + min(paired, capped)
            if len(squares) >= rack_size and bingo_possible(through):
                total += bonus
            if total > best:
                best = total
        if best >= 0:
            bounds[0 if codes[s] else anchor - s] = best
    return bounds


def play_bound(
    line: Line,
    found: tuple[int, tuple[tuple[int, bool], ...], tuple[tuple[int, int, bool], ...]],
    values: list[int],
    bonus: int,
    rack_size: int,
) -> int:
    """An upper bound on the score of one found play (see :meth:`MoveGenerator.anchor_plays`), from the same
    premium tables and face values as the engine's scorer, so that :meth:`MoveGenerator.best` need not build and
    score plays that cannot reach the n-th best score. It is never reported: returned plays are scored by
    :func:`engine.scoring.score_play`. ``values`` is the face value of each letter code."""
    start, prefix, right = found
    cells = line.cells
    codes = line.codes
    cross = line.cross
    board_values = line.values
    new = {start + j: 0 if blank else values[code] for j, (code, blank) in enumerate(prefix)}
    for pos, code, blank in right:
        new[pos] = 0 if blank else values[code]
    end = max(new)
    while end < SIZE - 1 and codes[end + 1]:
        end += 1
    main = 0
    word_mult = 1
    cross_total = 0
    for pos in range(start, end + 1):
        v = new.get(pos)
        if v is None:
            main += board_values[pos]
            continue
        i = cells[pos]
        lm = LETTER_MULTIPLIER[i]
        wm = WORD_MULTIPLIER[i]
        main += v * lm
        word_mult *= wm
        c = cross[pos]
        if c is not None:
            cross_total += (c + v * lm) * wm
    return main * word_mult + cross_total + (bonus if len(new) >= rack_size else 0)
