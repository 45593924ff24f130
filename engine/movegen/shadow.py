"""Shadow bounds: an upper bound on the score of every play generated from one anchor.

The idea is wolges' "shadow play" (also in MAGPIE): before generating, walk the squares a play from the anchor
could cover without asking the lexicon for every play, and bound its score by putting the rack's most valuable
tiles on the squares that multiply them most. :meth:`MoveGenerator.best` then generates anchors best bound first
and stops when the next bound is below the n-th best score found.

For a span of squares (the main word) with new squares ``i``, word multiplier ``W`` (the product over new
squares), each new tile of value ``v`` on square ``i`` adds ``v * (lm_i * W + lm_i * wm_i [if a cross word]))``;
the board's tiles add ``W * (main word tiles) + sum(wm_i * cross tiles at i)``; the bingo bonus is added for a full
rack, but only where :meth:`MoveGenerator.anagram_exists` does not rule it out. Pairing the highest values with the
highest coefficients (rearrangement inequality) bounds the sum; so does giving each square the highest value a rack
tile allowed there has (its cross-check set); the smaller of the two is the bound of the span.

That bound only grows when a span from the same start gets longer (one more square adds a tile of value >= 0, a
coefficient, and multiplies ``W``), so the bound of a start is the bound of its longest possible span: one
evaluation per start. What makes spans short is the lexicon, read cheaply from the rack's left parts
(:class:`Prefixes`): a run of rack tiles at the start of a word must be a prefix of a word the rack can spell, so it
is no longer than the rack's longest such prefix, each of its tiles must be a letter that can follow the run so far
(and pass the square's cross-check), the board letter that ends the run must be able to follow it, and a play of
rack tiles only must end where the run spells a whole word.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import mul
from typing import TYPE_CHECKING

from engine.board import LETTER_MULTIPLIER, SIZE, WORD_MULTIPLIER
from engine.movegen.shapes import Line, Nodes, Part

if TYPE_CHECKING:
    from engine.movegen.top import TopSearch


FRONTIER_LIMIT = 64
"""The bounds follow at most this many word-graph nodes along a span; past that they stop reading the lexicon."""


class Prefixes:
    """What the lexicon allows a rack to spell, read cheaply for the bounds.

    From the rack's left parts (:meth:`engine.movegen.top.TopSearch.levels`: sets of graph nodes, blanks unnamed,
    levels ``0..k``), about a run of ``j`` rack tiles at the start of a word: bit masks of the letter codes a rack
    tile may add to such a run (``next[j]``) and of those a board letter after it may have (``follow[j]``), whether
    the run can be a whole word (``word[j]``), and the graph nodes such runs reach (``nodes[j]``). Past level ``k``
    nothing is known (everything allowed), unless level ``k`` is empty: then no longer run exists. ``step`` is
    :meth:`engine.movegen.top.TopSearch.step`, ``root`` the graph's root, ``allowed`` the mask of the letters the
    rack can put down (every letter with a blank)."""

    __slots__ = ("_after", "_step", "allowed", "follow", "next", "nodes", "root", "word")

    def __init__(
        self,
        levels: list[list[Part]],
        full: int,
        step: Callable[[Nodes, int, int], Nodes],
        root: int,
        allowed: int,
    ) -> None:
        self._step = step
        self.root = root
        self.allowed = allowed
        follow: list[int] = []
        nexts: list[int] = []
        word: list[bool] = []
        nodes: list[Nodes | None] = []
        for j, level in enumerate(levels):
            mask = last = 0
            reached: set[int] = set()
            for part_nodes, prefix, child_mask, _used in level:
                mask |= child_mask
                reached.update(part_nodes)
                if j:
                    code = prefix[-1][0]
                    # a named letter, or a blank: any letter that may follow a run one shorter
                    last |= (1 << code) if code else follow[j - 1]
            follow.append(mask)
            word.append(any(node & 1 for node in reached))
            if j:
                nexts.append(last)
            nodes.append(tuple(reached) if len(reached) <= FRONTIER_LIMIT else None)
        unknown = bool(levels[-1])
        more = SIZE + 1 - len(levels)
        self.follow = follow + [full if unknown else 0] * more
        self.next = nexts + [full if unknown else 0] * (more + 1)
        self.word = word + [unknown] * more
        self.nodes = nodes + [None if unknown else ()] * more
        self._after: dict[tuple[int, int], Nodes | None] = {}

    def after(self, j: int, code: int) -> Nodes | None:
        """The nodes a run of ``j`` rack tiles then the board letter ``code`` reaches (None: not followed)."""
        key = (j, code)
        if key in self._after:
            return self._after[key]
        nodes = self.nodes[j]
        out = None if nodes is None else self.step(nodes, code, 0)
        self._after[key] = out
        return out

    def step(self, frontier: Nodes, code: int, mask: int) -> Nodes:
        """The nodes reached from ``frontier`` by the board letter ``code`` (``mask`` 0), or by any rack letter
        the cross-check ``mask`` allows (its letters' counts not checked)."""
        if not mask:
            return self._step(frontier, code, 0)
        return self._step(frontier, 0, mask & self.allowed)


Square = tuple[int, int, int, int]


def square(line: Line, e: int) -> Square:
    """Of empty square ``e`` of a line: its letter and word multipliers, what the cross word through it scores
    without the new tile (the perpendicular tiles' values times the word multiplier) and the new tile's extra
    coefficient there (``lm * wm``); both 0 where no cross word forms."""
    i = line.cells[e]
    lm = LETTER_MULTIPLIER[i]
    wm = WORD_MULTIPLIER[i]
    c = line.cross[e]
    return (lm, wm, 0, 0) if c is None else (lm, wm, c * wm, lm * wm)


def squares(line: Line) -> list[Square]:
    """:func:`square` of every square of a line (worked out once per line and rack, read by every bound)."""
    return [square(line, e) for e in range(SIZE)]


def start_bounds(
    line: Line,
    anchor: int,
    rack_values: list[int],
    caps: list[int],
    bonus: int,
    rack_size: int,
    bingo_possible: Callable[[list[int]], bool],
    prefixes: Prefixes | None = None,
    follow: bool = True,
    table: list[Square] | None = None,
    only: int | None = None,
    settled: set[int] | None = None,
) -> dict[int, int]:
    """Upper bounds on the score of the plays from ``anchor`` by the length of their left part (rack tiles put
    before the anchor; 0 when the left part is tiles on the board): ``{length: bound}``. For a play from ``anchor``
    (a position in ``line``) with a rack whose tile values are ``rack_values`` (highest first); ``caps`` is the
    highest value a rack tile may have on each square of the line (its cross-check allows it; -1 where none may
    go). ``bingo_possible(codes)`` says whether a word of the whole rack and the board letters ``codes`` of a span
    can exist (a necessary condition is enough). ``prefixes`` (optional) lets the lexicon shorten the spans;
    without ``follow`` it does not follow sets of graph nodes through rack letters (a looser bound, cheaper by
    far, to be tightened later length by length). Lengths that cannot make a play are left out; empty if no tile
    can go on the anchor. ``table``: :func:`squares` of the line, if already worked out; ``only``: that length
    alone; ``settled`` (without ``follow``) gets the lengths whose bound following would not tighten (no set of
    nodes was left unfollowed)."""
    codes = line.codes
    n = len(rack_values)
    if caps[anchor] < 0 or n == 0:
        return {}
    starts = _starts(line, anchor, n, line.anchors)
    if only is not None:
        starts = [s for s in starts if (0 if codes[s] else anchor - s) == only]
    if table is None:
        table = squares(line)
    bounds: dict[int, int] = {}
    for s in starts:
        bound, loose = _start_bound(
            line, s, anchor, rack_values, caps, bonus, rack_size, bingo_possible, prefixes, follow, table
        )
        if bound >= 0:
            length = 0 if codes[s] else anchor - s
            bounds[length] = bound
            if settled is not None and not loose:
                settled.add(length)
    return bounds


def _starts(line: Line, anchor: int, n: int, anchors: list[int] | set[int]) -> list[int]:
    """Where the plays from ``anchor`` with at most ``n`` rack tiles may start: the board tiles right before it, or
    the anchor and the empty squares before it that are no anchors (``anchors``: the line's), at most ``n - 1``."""
    codes = line.codes
    start = anchor
    while start > 0 and codes[start - 1]:
        start -= 1
    if start < anchor:
        return [start]
    starts = [anchor]
    pos = anchor - 1
    while pos >= 0 and not codes[pos] and pos not in anchors and len(starts) < n:
        starts.append(pos)
        pos -= 1
    return starts


def _start_bound(
    line: Line,
    s: int,
    anchor: int,
    rack_values: list[int],
    caps: list[int],
    bonus: int,
    rack_size: int,
    bingo_possible: Callable[[list[int]], bool],
    prefixes: Prefixes | None,
    follow: bool,
    table: list[Square],
) -> tuple[int, bool]:
    """The bound of the plays from ``s`` through ``anchor`` (-1: there are none): the bound of the longest span
    they can cover (see the module's doc), with at most ``len(rack_values)`` rack tiles, none on a square no rack
    tile may go on. With ``prefixes`` the main word must also be spelt along the graph: a run of rack tiles from
    an empty ``s`` as the rack's left parts allow, then the graph's nodes followed through board letters and rack
    letters (while they are few) to a word's end."""
    codes = line.codes
    masks = line.masks
    values = line.values
    n = len(rack_values)
    tiles = 0
    fixed = 0  # face values of the board's tiles in the span
    word_mult = 1
    cross_fixed = 0  # the perpendicular tiles' values, times the word multiplier of their square
    new: list[int] = []  # the span's empty squares
    through = 0
    last: tuple[int, int, int, int, int] | None = None  # the sums at the last square the span may end on
    run = -1  # rack tiles from an empty s on before any board letter; -1 once past one (or not followed)
    frontier: Nodes | None = None  # the graph nodes the span so far may have reached; None: not followed
    loose = False  # without ``follow``: a set of nodes was left unfollowed
    follows: list[int] = []
    nexts: list[int] = []
    words: list[bool] = []
    if prefixes is not None:
        follows, nexts, words = prefixes.follow, prefixes.next, prefixes.word
        if codes[s]:
            frontier = (prefixes.root,)
        else:
            run = 0
    e = s
    while e < SIZE:
        code = codes[e]
        if code:
            fixed += values[e]
            through += 1
            if run >= 0:
                if not (follows[run] >> code) & 1:
                    break
                frontier = prefixes.after(run, code)  # type: ignore[union-attr]  # run >= 0: prefixes given
                run = -1
                if frontier is not None and not frontier:
                    break
            elif frontier is not None:
                frontier = prefixes.step(frontier, code, 0)  # type: ignore[union-attr]
                if not frontier:
                    break
        else:
            if caps[e] < 0 or tiles == n:
                break
            if run >= 0:
                if not nexts[run] & masks[e]:
                    break
                run += 1
            elif frontier is not None:
                if follow:
                    frontier = prefixes.step(frontier, 0, masks[e])  # type: ignore[union-attr]
                else:
                    frontier = None
                    loose = True
                if frontier is not None:
                    if not frontier:
                        break
                    if len(frontier) > FRONTIER_LIMIT:
                        frontier = None
            tiles += 1
            _lm, wm, fixed_here, _coef = table[e]
            word_mult *= wm
            cross_fixed += fixed_here
            new.append(e)
        if e >= anchor and (e == SIZE - 1 or not codes[e + 1]):
            if run >= 0:
                ends = words[run]
            else:
                ends = frontier is None or any(node & 1 for node in frontier)
            if ends:
                last = (tiles, fixed, word_mult, cross_fixed, through)
        e += 1
    if last is None:
        return -1, loose
    tiles, fixed, word_mult, cross_fixed, through = last
    coefs = []
    capped = 0
    for e in new[:tiles]:
        lm, _wm, _fixed_here, coef = table[e]
        c = lm * word_mult + coef
        coefs.append(c)
        capped += c * caps[e]
    coefs.sort(reverse=True)
    total = fixed * word_mult + cross_fixed + min(capped, sum(map(mul, rack_values, coefs)))
    if tiles >= rack_size and bingo_possible([code for code in codes[s : s + tiles + through] if code]):
        total += bonus
    return total, loose


class Future:
    """Bounds on what the rest of a play can add, for pruning a search branch by branch (:mod:`engine.movegen.top`).

    For a branch at empty square ``pos`` of the line with main-word sum ``main`` (new tiles' values times letter
    multipliers, plus the board's tiles), word multiplier ``W`` and cross-word total ``C`` so far, any play it
    leads to with at most ``m`` more rack tiles scores at most ``W * FW * (main + FB + P1) + C + FX + P2`` (plus
    the bonus if the rack can be played out), where the rest covers at most the next ``m`` empty squares from
    ``pos`` (no further than a square no rack tile may go on) and the board tiles among and right after them:
    ``FW`` their word multipliers' product, ``FB`` the board tiles' values, ``FX`` the perpendicular tiles' values
    times word multiplier, ``P1`` and ``P2`` the rack's ``m`` highest values paired with those squares' letter
    multipliers and with their cross-word coefficients (``lm * wm`` where a cross word forms), each sorted (the
    pairing of a sum is at most the sum of the pairings). Each bound only grows with ``m``."""

    __slots__ = ("_rows", "caps", "line", "rack_values", "table")

    def __init__(
        self, line: Line, rack_values: list[int], caps: list[int], table: list[Square] | None = None
    ) -> None:
        self.line = line
        self.rack_values = rack_values
        self.caps = caps
        self.table = squares(line) if table is None else table
        self._rows: dict[int, tuple[int, int, int, int]] = {}

    def row(self, pos: int, m: int) -> tuple[int, int, int, int]:
        """``(FW, FB + P1, FX + P2, squares)`` for at most ``m`` more tiles from empty square ``pos``, where
        ``squares`` is how many of them fit."""
        key = pos * 16 + m
        row = self._rows.get(key)
        if row is not None:
            return row
        line = self.line
        codes = line.codes
        values = line.values
        caps = self.caps
        table = self.table
        word_mult = 1
        board = 0
        fixed_cross = 0
        lms: list[int] = []
        extra: list[int] = []
        capped_main = capped_side = 0  # each square's highest allowed value instead of the rack's sorted ones
        e = pos
        while e < SIZE and len(lms) < m:
            if codes[e]:
                board += values[e]
            elif caps[e] < 0:
                break
            else:
                lm, wm, fixed_here, coef = table[e]
                word_mult *= wm
                fixed_cross += fixed_here
                lms.append(lm)
                extra.append(coef)
                capped_main += caps[e] * lm
                capped_side += caps[e] * coef
            e += 1
        while e < SIZE and codes[e]:
            board += values[e]
            e += 1
        lms.sort(reverse=True)
        extra.sort(reverse=True)
        rack_values = self.rack_values
        row = (
            word_mult,
            board + min(capped_main, sum(map(mul, rack_values, lms))),
            fixed_cross + min(capped_side, sum(map(mul, rack_values, extra))),
            len(lms),
        )
        self._rows[key] = row
        return row


class Shadow:
    """The shadow bounds of one rack on one board, for :meth:`engine.movegen.MoveGenerator.best` (built by
    :meth:`~engine.movegen.MoveGenerator.shadow`; nothing in it outlives the call). ``caps[k]`` is
    :meth:`~engine.movegen.MoveGenerator._caps` of line ``k`` (empty for a line without anchors)."""

    __slots__ = (
        "_futures",
        "_tables",
        "bingo_possible",
        "bonus",
        "caps",
        "lines",
        "prefixes",
        "rack_size",
        "rack_values",
        "search",
    )

    def __init__(
        self,
        lines: list[Line],
        search: TopSearch,
        prefixes: Prefixes,
        caps: list[list[int]],
        rack_values: list[int],
        bonus: int,
        rack_size: int,
        bingo_possible: Callable[[list[int]], bool],
    ) -> None:
        self.lines = lines
        self.search = search
        self.prefixes = prefixes
        self.caps = caps
        self.rack_values = rack_values
        self.bonus = bonus
        self.rack_size = rack_size
        self.bingo_possible = bingo_possible
        self._tables: dict[int, list[Square]] = {}
        self._futures: dict[int, Future] = {}

    def table(self, k: int) -> list[Square]:
        """:func:`squares` of line ``k``."""
        table = self._tables.get(k)
        if table is None:
            table = self._tables[k] = squares(self.lines[k])
        return table

    def cheap(self, k: int, anchor: int, settled: set[int] | None = None) -> dict[int, int]:
        """``{length of left part: bound}`` of an anchor of line ``k``: :func:`start_bounds` without following
        sets of graph nodes through rack letters (cheap; never below :meth:`tight`). ``settled`` gets the lengths
        whose bound is already what :meth:`tight` would give."""
        return self._bounds(k, anchor, False, None, settled)

    def entries(self, k: int) -> list[tuple[int, int, int, int, bool]]:
        """The heap entries of every anchor of line ``k`` by their :meth:`cheap` bounds: ``(-bound, k, anchor,
        length of left part, settled)``, settled when the bound is already what :meth:`tight` would give (the same
        bounds as :meth:`cheap`, anchor after anchor, with what they share worked out once for the line)."""
        line = self.lines[k]
        codes = line.codes
        caps = self.caps[k]
        rack_values = self.rack_values
        n = len(rack_values)
        out: list[tuple[int, int, int, int, bool]] = []
        if not n:
            return out
        anchors = set(line.anchors)
        table = self.table(k)
        bonus, rack_size, bingo_possible, prefixes = self.bonus, self.rack_size, self.bingo_possible, self.prefixes
        for anchor in line.anchors:
            if caps[anchor] < 0:
                continue
            for s in _starts(line, anchor, n, anchors):
                bound, loose = _start_bound(
                    line, s, anchor, rack_values, caps, bonus, rack_size, bingo_possible, prefixes, False, table
                )
                if bound >= 0:
                    out.append((-bound, k, anchor, 0 if codes[s] else anchor - s, not loose))
        return out

    def tight(self, k: int, anchor: int, length: int) -> int:
        """The bound of one anchor and length of left part (-1: no play), the graph's nodes followed through rack
        letters too, while they are few."""
        return self._bounds(k, anchor, True, length, None).get(length, -1)

    def _bounds(
        self, k: int, anchor: int, follow: bool, only: int | None, settled: set[int] | None
    ) -> dict[int, int]:
        return start_bounds(
            self.lines[k],
            anchor,
            self.rack_values,
            self.caps[k],
            self.bonus,
            self.rack_size,
            self.bingo_possible,
            self.prefixes,
            follow,
            self.table(k),
            only,
            settled,
        )

    def future(self, k: int) -> Future:
        """The :class:`Future` of line ``k`` (built once)."""
        future = self._futures.get(k)
        if future is None:
            future = self._futures[k] = Future(self.lines[k], self.rack_values, self.caps[k], self.table(k))
        return future
