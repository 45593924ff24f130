"""The search behind :meth:`MoveGenerator.best`: plays as *shapes* whose blanks are not yet named.

A blank scores nothing whatever letter it stands for, so every play that puts the same tiles on the same squares
(the blanks' letters aside) scores the same. The top-play search therefore generates shapes: it walks the
anchor algorithm of :mod:`engine.movegen.generator` with a *set* of word-graph nodes in place of one node, and a
blank moves the set to every child its square's cross-check allows, instead of trying each letter in turn (with
two blanks that is some forty times fewer branches, each a set operation). A shape is kept if some node of its set
ends a word, with its exact score, kept as the walk goes (new tiles' values times letter multipliers plus the
board's tiles in the main word, the word multiplier, and the cross words' total; the tests check it equals
:func:`engine.scoring.score_play` on every play). Only the shapes that reach the floor are turned into concrete plays
(:meth:`TopSearch.concrete`), which are then built and scored by the engine like every other play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.board import LETTER_MULTIPLIER, SIZE, WORD_MULTIPLIER
from engine.movegen.shapes import Bounds, Found, Line, Nodes, Part, Rack

if TYPE_CHECKING:
    from engine.movegen.graph import WordGraph

Shape = tuple[int, int, tuple[tuple[int, bool], ...], tuple[tuple[int, int, bool], ...]]
"""``(score, start, left part, right part)`` as in :data:`engine.movegen.generator.Found`, blanks as code 0."""


def give_back(prefix: tuple[tuple[int, bool], ...], counts: list[int], blanks: list[int]) -> None:
    """Put a left part's tiles (``(code, blank)`` each) back on a rack's letter counts and blank count."""
    for code, blank in prefix:
        if blank:
            blanks[0] += 1
        else:
            counts[code] += 1


class TopSearch:
    """One rack's shape search (see the module's doc). ``values`` is the face value of each letter code, ``floor``
    a shared one-item list: shapes scoring below ``floor[0]`` are dropped, and with ``tighten`` each shape found
    raises it to its score (right when only the best play is wanted)."""

    def __init__(
        self,
        graph: WordGraph,
        rack: Rack,
        values: list[int],
        bonus: int,
        rack_size: int,
        floor: list[int],
        tighten: bool,
    ) -> None:
        self.graph = graph
        self.counts = list(rack.counts)
        self.blanks = rack.blanks
        self.letters = [code for code, count in enumerate(rack.counts) if count]
        self.tiles = sum(rack.counts) + rack.blanks
        """How many of the rack's tiles can be played (blanks and letters of the lexicon's alphabet)."""
        self.values = values
        self.bonus = bonus
        self.rack_size = rack_size
        self.floor = floor
        self.tighten = tighten
        root = graph.root
        self._levels: list[list[Part]] = [[((root,), (), graph.child_mask(root), 0)]]
        self.cached = graph.cached
        self.children = graph.children
        self._steps: dict[tuple[int, int, int], Nodes] = {}
        self._masks: dict[int, int] = {}
        self._kept: list[Nodes] = []

    def step(self, nodes: Nodes, code: int, mask: int) -> Nodes:
        """The nodes reached from ``nodes`` by the letter ``code``, or (code 0) by every letter in ``mask``.

        Steps from a set of several nodes are remembered for the rest of the search (one rack on one board): the
        left parts' sets are shared by every anchor, so the same set takes the same step again and again."""
        if len(nodes) == 1:
            if code:
                node = nodes[0]
                kid = (self.cached.get(node) or self.children(node)).get(code)
                return (kid,) if kid else ()
            return self._step_uncached(nodes, 0, mask)
        key = (id(nodes), code, mask)
        out = self._steps.get(key)
        if out is None:
            known = self._masks.get(id(nodes)) if code else None
            if known is not None and not (known >> code) & 1:
                return ()  # no node of the set has that letter (its mask is known already)
            out = self._steps[key] = self._step_uncached(nodes, code, mask)
            self._kept.append(nodes)  # the key holds the set's id: the set must outlive the search
        return out

    def _step_uncached(self, nodes: Nodes, code: int, mask: int) -> Nodes:
        cached = self.cached
        children = self.children
        if code:
            out = set()
            for node in nodes:
                kid = (cached.get(node) or children(node)).get(code)
                if kid:
                    out.add(kid)
            return tuple(out)
        if len(nodes) == 1:
            return tuple(
                kid for c, kid in (cached.get(nodes[0]) or children(nodes[0])).items() if (mask >> c) & 1
            )
        return tuple(
            {kid for n in nodes for c, kid in (cached.get(n) or children(n)).items() if (mask >> c) & 1}
        )

    def _mask(self, nodes: Nodes) -> int:
        """The letters some node of the set has a child for (remembered for sets of several nodes, as steps)."""
        if len(nodes) == 1:
            mask = self.graph.cached_masks.get(nodes[0])
            return self.graph.child_mask(nodes[0]) if mask is None else mask
        key = id(nodes)
        out = self._masks.get(key)
        if out is None:
            out = self._masks[key] = self._mask_uncached(nodes)
            self._kept.append(nodes)
        return out

    def _mask_uncached(self, nodes: Nodes) -> int:
        masks = self.graph.cached_masks
        child_mask = self.graph.child_mask
        out = 0
        for node in nodes:
            mask = masks.get(node)
            out |= child_mask(node) if mask is None else mask
        return out

    def levels(self, k: int) -> list[list[Part]]:
        """Left parts of ``0..k`` (at least) rack tiles, by length, blanks unnamed."""
        counts = self.counts
        full = -1
        while len(self._levels) <= k:
            level: list[Part] = []
            for nodes, prefix, child_mask, used_blanks in self._levels[-1]:
                used: dict[int, int] = {}
                for code, blank in prefix:
                    if not blank:
                        used[code] = used.get(code, 0) + 1
                for code in self.letters:
                    if (child_mask >> code) & 1 and counts[code] > used.get(code, 0):
                        nxt = self.step(nodes, code, 0)
                        if nxt:
                            level.append((nxt, (*prefix, (code, False)), self._mask(nxt), used_blanks))
                if self.blanks > used_blanks:
                    nxt = self.step(nodes, 0, full)
                    if nxt:
                        level.append((nxt, (*prefix, (0, True)), self._mask(nxt), used_blanks + 1))
            self._levels.append(level)
        return self._levels

    def anchor(self, line: Line, anchor: int, length: int, future: Bounds | None = None) -> list[Shape]:
        """The shapes generated from ``anchor`` of ``line`` whose left part has ``length`` rack tiles (0 when the
        left part is tiles on the board) and whose score reaches the floor; with ``future`` (the line's), leaving
        out every branch whose bound is below the floor."""
        codes = line.codes
        masks = line.masks
        cross = line.cross
        values = line.values
        cells = line.cells
        lms = [LETTER_MULTIPLIER[i] for i in cells]
        wms = [WORD_MULTIPLIER[i] for i in cells]
        points = self.values
        counts = self.counts
        letters = self.letters
        floor = self.floor
        tighten = self.tighten
        bonus = self.bonus
        full = self.rack_size
        step = self.step
        cached = self.cached
        children = self.children
        tiles = self.tiles
        right: list[tuple[int, int, bool]] = []
        found: list[Shape] = []
        blanks = [self.blanks]

        def extend(
            nodes: Nodes,
            pos: int,
            start: int,
            prefix: tuple[tuple[int, bool], ...],
            main: int,
            mult: int,
            side: int,
        ) -> None:
            while pos < SIZE and codes[pos]:  # tiles on the board: follow them
                nodes = step(nodes, codes[pos], 0)
                if not nodes:
                    return
                main += values[pos]
                pos += 1
            used = len(prefix) + len(right)
            if (
                pos > anchor
                and used
                and pos - start >= 2
                and (nodes[0] & 1 if len(nodes) == 1 else any(node & 1 for node in nodes))
            ):
                score = main * mult + side + (bonus if used >= full else 0)
                if score >= floor[0]:
                    found.append((score, start, prefix, tuple(right)))
                    if tighten:
                        floor[0] = score
            if pos == SIZE:
                return
            if future is not None:
                fw, fmain, fside, room = future.row(pos, tiles - used)
                if (
                    mult * fw * (main + fmain) + side + fside + (bonus if used + room >= full else 0)
                    < floor[0]
                ):
                    return
            mask = masks[pos]
            lm = lms[pos]
            wm = wms[pos]
            across = cross[pos]
            kids = None
            if len(nodes) > 1:  # the letters some node of the set has a child for
                mask &= self._mask(nodes)
            else:  # one node: read its children here
                kids = cached.get(nodes[0]) or children(nodes[0])
            for code in letters:
                if counts[code] and (mask >> code) & 1:
                    if kids is None:
                        nxt = step(nodes, code, 0)
                    else:
                        kid = kids.get(code)
                        if kid is None:
                            continue
                        nxt = (kid,)
                    if nxt:
                        v = points[code] * lm
                        counts[code] -= 1
                        right.append((pos, code, False))
                        extend(
                            nxt,
                            pos + 1,
                            start,
                            prefix,
                            main + v,
                            mult * wm,
                            side if across is None else side + (across + v) * wm,
                        )
                        right.pop()
                        counts[code] += 1
            if blanks[0]:
                nxt = step(nodes, 0, mask)
                if nxt:
                    blanks[0] -= 1
                    right.append((pos, 0, True))
                    extend(
                        nxt,
                        pos + 1,
                        start,
                        prefix,
                        main,
                        mult * wm,
                        side if across is None else side + across * wm,
                    )
                    right.pop()
                    blanks[0] += 1

        start = anchor
        while start > 0 and codes[start - 1]:
            start -= 1
        root = (self.graph.root,)
        if start < anchor:  # the left part is the tiles on the board before the anchor
            extend(root, start, start, (), 0, 1, 0)
            return found
        start = anchor - length
        earlier = line.anchors
        if start < 0 or any(codes[p] or p in earlier for p in range(start, anchor)) or length >= self.tiles:
            return found  # a left part covers empty squares that are no anchors, back to the previous anchor
        anchor_mask = masks[anchor]
        natural_mask = anchor_mask & sum(1 << code for code in letters)
        mult = 1
        for pos in range(start, anchor):
            mult *= wms[pos]
        if future is not None:  # the branch bound of extend() at the anchor, worked out once for every left part
            fw, fmain, fside, room = future.row(anchor, tiles - length)
            reach = mult * fw
            fixed = reach * fmain + fside + (bonus if length + room >= full else 0)
        for nodes, prefix, child_mask, blanks_used in self.levels(length)[length]:
            # cheap test first: some child of the set may go on the anchor with the tiles left
            if not child_mask & (anchor_mask if self.blanks > blanks_used else natural_mask):
                continue
            main = 0
            for j, (code, blank) in enumerate(prefix):  # the left part's squares have no cross word
                if not blank:
                    main += points[code] * lms[start + j]
            if future is not None and reach * main + fixed < floor[0]:
                continue
            for code, blank in prefix:
                if blank:
                    blanks[0] -= 1
                else:
                    counts[code] -= 1
            extend(nodes, anchor, start, prefix, main, mult, 0)
            give_back(prefix, counts, blanks)
        return found

    def concrete(self, line: Line, shape: Shape) -> list[Found]:
        """Every play of a shape: each way of naming its blanks (as its squares' cross-checks allow) that spells a
        word along the line, as :meth:`MoveGenerator.anchor_plays` gives plays."""
        _score, start, prefix, right = shape
        codes = line.codes
        masks = line.masks
        children = self.graph.children
        new = {start + j: tile for j, tile in enumerate(prefix)}
        for pos, code, blank in right:
            new[pos] = (code, blank)
        end = max(new)
        while end < SIZE - 1 and codes[end + 1]:
            end += 1
        left_end = start + len(prefix)
        out: list[Found] = []
        chosen: list[tuple[int, int, bool]] = []

        def walk(node: int, pos: int) -> None:
            if pos > end:
                if node & 1:
                    out.append(
                        (
                            start,
                            tuple((code, blank) for p, code, blank in chosen if p < left_end),
                            tuple(t for t in chosen if t[0] >= left_end),
                        )
                    )
                return
            kids = children(node)
            if codes[pos]:
                nxt = kids.get(codes[pos])
                if nxt is not None:
                    walk(nxt, pos + 1)
                return
            code, blank = new[pos]
            if not blank:
                nxt = kids.get(code)
                if nxt is not None:
                    chosen.append((pos, code, False))
                    walk(nxt, pos + 1)
                    chosen.pop()
                return
            mask = masks[pos]
            for c, nxt in kids.items():
                if (mask >> c) & 1:
                    chosen.append((pos, c, True))
                    walk(nxt, pos + 1)
                    chosen.pop()

        walk(self.graph.root, start)
        return out
