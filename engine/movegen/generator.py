"""Every legal play of a rack on a position: Appel and Jacobson's anchor algorithm on the lexicon's DAWG.

For each direction the board is read as 15 lines (rows across, columns down). In a line:

- an *anchor* is an empty square next to a tile (on the empty board: the centre); every play covers at least
  one anchor, and is generated from the leftmost anchor it covers;
- each empty square has a *cross-check set*: the letters that make a word with the tiles above and below it (all
  letters where there are none), found once per square by walking the DAWG through the tiles above, then each
  child through the tiles below;
- a play is a *left part* (tiles already on the board left of the anchor, or rack tiles on the empty non-anchor
  squares before it, as far as the previous anchor) followed by an extension to the right through the anchor,
  both walking the DAWG so only prefixes of words are tried.

Every play found becomes an engine :class:`~engine.placement.Play` through :func:`engine.placement.validate` and is
scored by :func:`engine.scoring.play_total` (the total of :func:`engine.scoring.score_play`): the engine's one
scorer. The generator's own arithmetic serves only
:meth:`MoveGenerator.best`: the *shadow bounds* of :mod:`engine.movegen.shadow`, upper bounds that let it skip
anchors and branches, and the running score of :mod:`engine.movegen.top`, which picks the plays worth building.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heapify, heappop, heappush

from engine.board import CENTRE, SIZE, SQUARES, Board, Direction
from engine.errors import UnknownLetter
from engine.movegen.fast import FastSearch, usable
from engine.movegen.graph import WordGraph
from engine.movegen.move import Move, rank_key
from engine.movegen.shadow import Prefixes, Shadow
from engine.movegen.shapes import Found, Line, Rack
from engine.movegen.top import TopSearch, give_back
from engine.placement import Placement, Play, Word
from engine.rules import RuleOptions
from engine.scoring import play_total
from engine.tiles import BLANK, Tile, TileSet

FOREIGN = 255
"""Code of a board tile whose letter is not in the lexicon's alphabet: no edge carries it."""

ACROSS_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)
)
DOWN_LINES: tuple[tuple[int, ...], ...] = tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))


PREFIX_BUDGET = 2000
""":meth:`MoveGenerator.best` reads the rack's left parts one level deeper for its bounds while a level reaches at
most this many graph nodes (with two blanks they soon number tens of thousands and allow nearly every letter)."""

def _cross_word(cells: list[Tile | None], i: int, tile: Tile, direction: Direction) -> Word:
    """The word across ``direction`` through the new ``tile`` on empty board index ``i`` (tiles on both sides)."""
    step = 1 if direction is Direction.ACROSS else SIZE
    lo_limit = i - i % SIZE if step == 1 else i % SIZE
    hi_limit = lo_limit + SIZE - 1 if step == 1 else lo_limit + SIZE * (SIZE - 1)
    lo = i
    while lo - step >= lo_limit and cells[lo - step] is not None:
        lo -= step
    hi = i
    while hi + step <= hi_limit and cells[hi + step] is not None:
        hi += step
    span = range(lo, hi + step, step)
    return Word(
        tuple([SQUARES[j] for j in span]),
        tuple([tile if j == i else cells[j] for j in span]),  # type: ignore[misc]  # a tile on every square
        tuple([j == i for j in span]),
        direction,
    )


LeftPart = tuple[int, tuple[tuple[int, bool], ...], int, int]
"""``(node, prefix, child mask, blanks used)``: see :class:`LeftParts`."""


class LeftParts:
    """The left parts a rack can make: prefixes of words of rack tiles, by length, built as far as asked for.

    Level ``k`` lists ``(node, prefix, child mask, blanks used)`` for every prefix of ``k`` rack tiles (``(code,
    blank)`` each) that leads somewhere in the graph; the child mask has bit ``c`` set when the node has a child
    with code ``c``. Every anchor with room for ``k`` tiles before it uses the same level."""

    __slots__ = ("_graph", "_rack", "_levels", "tiles")

    def __init__(self, graph: WordGraph, rack: Rack) -> None:
        self._graph = graph
        self._rack = rack
        self.tiles = sum(rack.counts) + rack.blanks
        """How many of the rack's tiles can be played (blanks and letters of the lexicon's alphabet)."""
        self._levels: list[list[LeftPart]] = [[(graph.root, (), graph.child_mask(graph.root), 0)]]

    def levels(self, k: int) -> list[list[LeftPart]]:
        """Levels ``0..k`` (at least)."""
        graph = self._graph
        children = graph.children
        cached = graph.cached
        child_mask = graph.child_mask
        masks = graph.cached_masks
        counts = self._rack.counts
        blanks = self._rack.blanks
        letters = [code for code, count in enumerate(counts) if count]
        while len(self._levels) <= k:
            level: list[LeftPart] = []
            append = level.append
            for node, prefix, _mask, used_blanks in self._levels[-1]:
                kids = cached.get(node) or children(node)
                used: dict[int, int] = {}
                for code, blank in prefix:
                    if not blank:
                        used[code] = used.get(code, 0) + 1
                if blanks > used_blanks:
                    for code, child in kids.items():
                        mask = masks.get(child)
                        if mask is None:
                            mask = child_mask(child)
                        if counts[code] > used.get(code, 0):
                            append((child, (*prefix, (code, False)), mask, used_blanks))
                        append((child, (*prefix, (code, True)), mask, used_blanks + 1))
                    continue
                for code in letters:
                    if code in kids and counts[code] > used.get(code, 0):
                        child = kids[code]
                        mask = masks.get(child)
                        if mask is None:
                            mask = child_mask(child)
                        append((child, (*prefix, (code, False)), mask, used_blanks))
            self._levels.append(level)
        return self._levels


class MoveGenerator:
    """Generates plays on a lexicon's graph with a tile set's points and the rules' bingo bonus."""

    def __init__(
        self, graph: WordGraph, tiles: TileSet, rules: RuleOptions | None = None, compiled: bool | None = None
    ) -> None:
        self.graph = graph
        self.tiles = tiles
        self.rules = rules or RuleOptions()
        if compiled and not usable(graph, self.rules):
            raise RuntimeError("the compiled move generator is not available here (engine/movegen/fast.py)")
        self.fast = FastSearch(graph, tiles, self.rules) if compiled is not False and usable(graph, self.rules) else None
        """The compiled search loop, where it is built and serves these rules (``compiled``: None = use it where it
        can be used, False = pure Python, True = it or an error); None: the pure-Python generator."""
        letters = [ch.upper() for ch in graph.alphabet]
        self._code_of = {letter: code for code, letter in enumerate(letters, 1)}
        self._tile = [Tile("A")] + [Tile(letter) for letter in letters]
        self._blank = [Tile("A", blank=True)] + [Tile(letter, blank=True) for letter in letters]
        self._full = (1 << (len(letters) + 1)) - 2
        # face value of each code when played from the rack (a letter outside the tile set only as a blank)
        self._value = [0] + [tiles.points.get(letter, 0) for letter in letters]

    @property
    def foreign_letters(self) -> str:
        """The lexicon's letters the tile set has no tile for (upper case, in the lexicon's order): only a blank can
        play them, so any at all means the lexicon is most likely of another language than the tiles (a word list
        of the set's own language may lack some of the set's letters, never the other way round)."""
        return "".join(ch.upper() for ch in self.graph.alphabet if ch.upper() not in self.tiles.points)

    # ----------------------------------------------------------------------------------------------- input
    def rack(self, rack: str) -> Rack:
        """Parse a rack written as letters with ``?`` for blanks (any case); raises UnknownLetter."""
        counts = [0] * (len(self._tile))
        blanks = unplayable = 0
        values: list[int] = []
        for ch in rack.strip():
            if ch == BLANK:
                blanks += 1
                values.append(0)
                continue
            letter = ch.upper()
            if letter not in self.tiles.points:
                raise UnknownLetter(
                    f"letter {ch!r} of rack {rack!r} is not in the {self.tiles.name} tile set"
                )
            values.append(self.tiles.points[letter])
            code = self._code_of.get(letter)
            if code is None:
                unplayable += 1
            else:
                counts[code] += 1
        if blanks + sum(counts) + unplayable > SIZE:
            raise ValueError(f"rack {rack!r} has more than {SIZE} tiles")
        values.sort(reverse=True)
        return Rack(counts, blanks, unplayable, values)

    def _code(self, tile: Tile) -> int:
        return self._code_of.get(tile.letter, FOREIGN)

    def lines(self, board: Board, letters: list[int] | None = None) -> list[Line]:
        """The 30 lines of a board (15 across, then 15 down) with codes, cross-checks and anchors. With
        ``letters`` (letter codes), the cross-check sets are only worked out for those letters: the others' bits
        are 0 (enough for a rack without blanks, which puts down no other letter)."""
        codes = [0 if t is None else self._code(t) for t in board.cells]
        values = [0 if t is None or t.blank else self.tiles.points.get(t.letter, 0) for t in board.cells]
        empty_board = not any(codes)
        full = self._full
        cross_check = self._cross_check
        last = SIZE - 1
        out: list[Line] = []
        for direction, lines, step in (
            (Direction.ACROSS, ACROSS_LINES, SIZE),
            (Direction.DOWN, DOWN_LINES, 1),
        ):
            # which lines of this direction hold a tile: a line with none, between two lines with none, has no
            # anchor and no cross-check (unless the board is empty)
            held = [any(codes[i] for i in cells) for cells in lines]
            for k, cells in enumerate(lines):
                line_codes = [codes[i] for i in cells]
                cross: list[int | None] = [None] * SIZE
                anchors: list[int] = []
                lo, hi = k > 0, k < last
                if not empty_board and not (held[k] or (lo and held[k - 1]) or (hi and held[k + 1])):
                    out.append(Line(direction, cells, line_codes, [full] * SIZE, cross, [0] * SIZE, anchors))
                    continue
                masks = [0] * SIZE
                # the perpendicular line of square ``pos`` is square ``pos`` of the other direction's lines:
                # its neighbours there are ``i - step`` and ``i + step`` (none past the board's edge)
                for pos, i in enumerate(cells):
                    if line_codes[pos]:
                        continue
                    if (lo and codes[i - step]) or (hi and codes[i + step]):
                        masks[pos], cross[pos] = cross_check(codes, values, i, step, letters)
                        if not empty_board:
                            anchors.append(pos)
                        continue
                    masks[pos] = full
                    if empty_board:
                        if i == CENTRE.index:
                            anchors.append(pos)
                    elif (pos > 0 and line_codes[pos - 1]) or (pos < last and line_codes[pos + 1]):
                        anchors.append(pos)
                out.append(
                    Line(direction, cells, line_codes, masks, cross, [values[i] for i in cells], anchors)
                )
        return out

    def _cross_check(
        self, codes: list[int], values: list[int], i: int, step: int, letters: list[int] | None = None
    ) -> tuple[int, int | None]:
        """Cross-check mask and perpendicular face value at empty board index ``i``; ``step`` is 15 for the
        column through ``i`` (plays across) and 1 for its row (plays down). With ``letters``, only those letter
        codes are tried (the mask's other bits are 0)."""
        if step == 1:
            lo_limit, hi_limit = i - i % SIZE, i - i % SIZE + SIZE - 1
        else:
            lo_limit, hi_limit = i % SIZE, i % SIZE + SIZE * (SIZE - 1)
        before: list[int] = []
        j = i - step
        while j >= lo_limit and codes[j]:
            before.append(j)
            j -= step
        after: list[int] = []
        j = i + step
        while j <= hi_limit and codes[j]:
            after.append(j)
            j += step
        if not before and not after:
            return self._full, None
        value = sum(values[j] for j in before) + sum(values[j] for j in after)
        graph = self.graph
        node = graph.walk([codes[j] for j in reversed(before)])
        if node is None:
            return 0, value
        children = graph.children
        cached = graph.cached
        mask = 0
        kids = children(node)
        pairs = kids.items() if letters is None else [(code, kids.get(code, 0)) for code in letters]
        if not after:
            for code, child in pairs:
                if child & 1:
                    mask |= 1 << code
            return mask, value
        tail = [codes[j] for j in after]
        for code, child in pairs:
            if not child:
                continue
            for c in tail:
                child = (cached.get(child) or children(child)).get(c, 0)
                if not child:
                    break
            if child & 1:
                mask |= 1 << code
        return mask, value

    # ------------------------------------------------------------------------------------------ generation
    def anchor_plays(
        self, line: Line, anchor: int, rack: Rack, lefts: LeftParts, length: int | None = None
    ) -> list[Found]:
        """Every play generated from one anchor of a line, as ``(start, left part, right part)``: the left part
        is the ``(code, blank)`` of the rack tiles put before the anchor from ``start`` on, the right part the
        ``(position, code, blank)`` of the rack tiles put from the anchor on. ``lefts`` holds the left parts of
        the rack (shared by every anchor). ``length``: only the plays whose left part has that many rack tiles."""
        graph = self.graph
        children = graph.children
        codes = line.codes
        masks = line.masks
        counts = rack.counts
        rack_codes = [code for code, count in enumerate(counts) if count]
        rack_mask = sum(1 << code for code in rack_codes)
        right: list[tuple[int, int, bool]] = []
        found: list[Found] = []
        blanks = [rack.blanks]

        def extend(node: int, pos: int, start: int, prefix: tuple[tuple[int, bool], ...]) -> None:
            while pos < SIZE and codes[pos]:  # tiles on the board: follow them
                node = children(node).get(codes[pos], 0)
                if not node:
                    return
                pos += 1
            if node & 1 and pos > anchor and (right or prefix) and pos - start >= 2:
                found.append((start, prefix, tuple(right)))
            if pos == SIZE:
                return
            mask = masks[pos]
            kids = children(node)
            if blanks[0]:
                for code, child in kids.items():
                    if not (mask >> code) & 1:
                        continue
                    if counts[code]:
                        counts[code] -= 1
                        right.append((pos, code, False))
                        extend(child, pos + 1, start, prefix)
                        right.pop()
                        counts[code] += 1
                    blanks[0] -= 1
                    right.append((pos, code, True))
                    extend(child, pos + 1, start, prefix)
                    right.pop()
                    blanks[0] += 1
            elif mask & rack_mask:
                for code in rack_codes:
                    if counts[code] and (mask >> code) & 1:
                        nxt = kids.get(code)
                        if nxt is not None:
                            counts[code] -= 1
                            right.append((pos, code, False))
                            extend(nxt, pos + 1, start, prefix)
                            right.pop()
                            counts[code] += 1

        start = anchor
        while start > 0 and codes[start - 1]:
            start -= 1
        if start < anchor:  # the left part is the tiles on the board before the anchor
            extend(graph.root, start, start, ())
            return found
        earlier = set(line.anchors)
        limit = 0
        pos = anchor - 1
        while pos >= 0 and not codes[pos] and pos not in earlier:
            limit += 1
            pos -= 1
        limit = min(limit, rack.size - 1)
        if length is not None:
            if length > limit:
                return found
            limit = length

        parts = lefts.levels(limit)
        anchor_mask = masks[anchor]
        natural_mask = anchor_mask & rack_mask
        for k in range(limit + 1) if length is None else (length,):
            start = anchor - k
            for node, prefix, child_mask, blanks_used in parts[k]:
                # cheap test first: some child of the node may go on the anchor with the tiles left
                if not child_mask & (anchor_mask if rack.blanks > blanks_used else natural_mask):
                    continue
                for code, blank in prefix:
                    if blank:
                        blanks[0] -= 1
                    else:
                        counts[code] -= 1
                extend(node, anchor, start, prefix)
                give_back(prefix, counts, blanks)
        return found

    def _move(
        self, board: Board, line: Line, found: Found, cross_words: dict[tuple[int, str, bool, bool], Word]
    ) -> Move:
        """The engine's Play of a found play (built as :func:`engine.placement.validate` would: main word first,
        then the cross words in board order) and its score from :func:`engine.scoring.play_total`."""
        start, prefix, right = found
        cells = line.cells
        tile_of = self._tile
        blank_of = self._blank
        new: dict[int, Tile] = {}
        for j, (code, blank) in enumerate(prefix):
            new[start + j] = blank_of[code] if blank else tile_of[code]
        for pos, code, blank in right:
            new[pos] = blank_of[code] if blank else tile_of[code]
        end = right[-1][0] if right else start + len(prefix) - 1
        board_cells = board.cells
        while end < SIZE - 1 and board_cells[cells[end + 1]] is not None:
            end += 1
        span = range(start, end + 1)
        tiles = tuple([new[p] if p in new else board_cells[cells[p]] for p in span])
        main = Word(
            tuple([SQUARES[cells[p]] for p in span]),
            tiles,  # type: ignore[arg-type]  # every square of the span holds a tile
            tuple([p in new for p in span]),
            line.direction,
        )
        cross = []
        placements = []
        other = line.direction.other
        for pos, tile in new.items():
            i = cells[pos]
            placements.append(Placement(SQUARES[i], tile))
            if line.cross[pos] is None:
                continue
            key = (i, tile.letter, tile.blank, other is Direction.ACROSS)
            word = cross_words.get(key)
            if word is None:
                word = _cross_word(board_cells, i, tile, other)
                cross_words[key] = word
            cross.append(word)
        play = Play(tuple(placements), main, tuple(cross))
        return Move(play, play_total(play, self.tiles, self.rules))

    def anagram_exists(self, rack: Rack, extra: int = 0) -> bool:
        """False if no word is made of exactly the rack's tiles (blanks as any letter) plus the letter ``extra``
        (a code; 0: none): a necessary condition for a bingo. Racks with letters outside the lexicon's alphabet
        make no such word; with two blanks it answers True without searching."""
        if rack.unplayable:
            return False
        if rack.blanks >= 2:
            return True  # not worth the search: with two blanks nearly every rack makes a word
        counts = list(rack.counts)
        if extra:
            if extra >= len(counts):
                return False
            counts[extra] += 1
        left = sum(counts) + rack.blanks
        codes = [code for code, count in enumerate(counts) if count]
        children = self.graph.children
        blanks = [rack.blanks]

        def walk(node: int, left: int) -> bool:
            if not left:
                return bool(node & 1)
            kids = children(node)
            for code in codes:
                if counts[code]:
                    nxt = kids.get(code)
                    if nxt is not None:
                        counts[code] -= 1
                        found = walk(nxt, left - 1)
                        counts[code] += 1
                        if found:
                            return True
            if blanks[0]:
                blanks[0] -= 1
                try:
                    return any(walk(nxt, left - 1) for nxt in kids.values())
                finally:
                    blanks[0] += 1
            return False

        return walk(self.graph.root, left)

    def _caps(self, line: Line, rack: Rack) -> list[int]:
        """The highest value a rack tile may have on each square of a line (-1: no rack tile may go there)."""
        value = self._value
        allowed = sorted(
            ((value[code], code) for code, count in enumerate(rack.counts) if count), reverse=True
        )
        blank = 0 if rack.blanks else -1
        top = max(allowed[0][0], blank) if allowed else blank
        full = self._full
        codes = line.codes
        caps = [-1] * SIZE
        for pos, mask in enumerate(line.masks):
            if codes[pos] or not mask:
                continue
            if mask == full:
                caps[pos] = top
                continue
            best = blank
            for v, code in allowed:  # highest value first
                if (mask >> code) & 1:
                    best = max(best, v)
                    break
            caps[pos] = best
        return caps

    @staticmethod
    def _keep(line: Line, found: Found) -> bool:
        """False for a one-tile play found down that the across pass has already found: a tile with an across
        neighbour (a cross word of the down line) has its across run as its main word."""
        if line.direction is Direction.ACROSS:
            return True
        start, prefix, right = found
        if len(prefix) + len(right) != 1:
            return True
        return line.cross[right[0][0] if right else start] is None

    # --------------------------------------------------------------------------------------------- public
    def plays(self, board: Board, rack: str) -> list[Move]:
        """Every legal play of ``rack`` on ``board``, best first (see :func:`engine.movegen.move.rank_key`)."""
        parsed = self.rack(rack)
        if self.fast is not None:
            return self.fast.plays(board, parsed.counts, parsed.blanks)  # type: ignore[return-value]
        moves: list[Move] = []
        lefts = LeftParts(self.graph, parsed)
        cross_words: dict[tuple[int, str, bool, bool], Word] = {}
        for line in self.lines(board):
            for anchor in line.anchors:
                for found in self.anchor_plays(line, anchor, parsed, lefts):
                    if self._keep(line, found):
                        moves.append(self._move(board, line, found, cross_words))
        moves.sort(key=lambda m: rank_key(m, self.tiles))
        return moves

    def shadow(self, board: Board, parsed: Rack, floor: list[int], tighten: bool) -> Shadow:
        """What :meth:`best` bounds and searches with, for one rack on one board (nothing is kept across calls):
        the lines (cross-checks only for the rack's letters when it has no blank), the shape search sharing
        ``floor`` (see :class:`~engine.movegen.top.TopSearch`), and the shadow bounds of every anchor."""
        bonus = self.rules.bingo_bonus if parsed.size >= self.rules.rack_size else 0
        # without a blank only the rack's letters can go down: their cross-checks are all that is needed
        lines = self.lines(
            board, None if parsed.blanks else [c for c, count in enumerate(parsed.counts) if count]
        )
        anagram: list[bool] = []

        def bingo_possible(through: list[int]) -> bool:
            # only a 7-letter bingo of the rack alone is ruled out (one search per call); through board letters
            # it is assumed possible
            if through:
                return True
            if not anagram:
                anagram.append(self.anagram_exists(parsed))
            return anagram[0]

        rack_size = self.rules.rack_size
        search = TopSearch(self.graph, parsed, self._value, bonus, rack_size, floor, tighten)
        levels = search.levels(0)
        depth = 0
        while (
            depth < parsed.size and levels[depth] and sum(len(p[0]) for p in levels[depth]) <= PREFIX_BUDGET
        ):
            depth += 1
            levels = search.levels(depth)
        allowed = (
            self._full
            if parsed.blanks
            else sum(1 << code for code, count in enumerate(parsed.counts) if count)
        )
        prefixes = Prefixes(levels[: depth + 1], self._full, search.step, self.graph.root, allowed)
        caps = [self._caps(line, parsed) if line.anchors else [] for line in lines]
        return Shadow(lines, search, prefixes, caps, parsed.values, bonus, rack_size, bingo_possible)

    def best(self, board: Board, rack: str, n: int = 1) -> list[Move]:
        """The ``n`` best plays, best first (the same as ``plays(board, rack)[:n]``): every anchor and length of
        left part gets a cheap shadow bound; the best bound is taken off a heap, a cheap one is tightened
        (:meth:`Shadow.tight`) and put back, a tight one is searched for shapes with unnamed blanks
        (:class:`~engine.movegen.top.TopSearch`), until the best bound left is below the n-th best score found.
        Only the shapes that reach that score are named, built and scored by the engine."""
        if n < 1:
            return []
        parsed = self.rack(rack)
        if self.fast is not None:
            return self.fast.best(board, parsed.counts, parsed.blanks, n)
        floor = [-1]  # the n-th best score so far, once there are n plays (with n = 1: the best so far)
        shadow = self.shadow(board, parsed, floor, n == 1)
        lines = shadow.lines
        search = shadow.search
        heap: list[tuple[int, int, int, int, bool]] = []  # (-bound, line, anchor, length, tight)
        for k, line in enumerate(lines):
            if line.anchors:
                heap += shadow.entries(k)
        heapify(heap)
        cross_words: dict[tuple[int, str, bool, bool], Word] = {}
        key: Callable[[Move], tuple[object, ...]] = lambda m: rank_key(m, self.tiles)  # noqa: E731
        ranked: list[tuple[tuple[object, ...], Move]] = []
        while heap and -heap[0][0] >= floor[0]:
            _bound, k, anchor, length, tight = heappop(heap)
            line = lines[k]
            if not tight:
                bound = shadow.tight(k, anchor, length)
                if bound >= floor[0]:
                    heappush(heap, (-bound, k, anchor, length, True))
                continue
            future = shadow.future(k)
            added = False
            for shape in search.anchor(line, anchor, length, future):
                if shape[0] < floor[0]:
                    continue
                for found in search.concrete(line, shape):
                    if self._keep(line, found):
                        move = self._move(board, line, found, cross_words)
                        ranked.append((key(move), move))
                        added = True
            if added:
                ranked.sort(key=lambda pair: pair[0])
                del ranked[n:]
                if len(ranked) >= n:
                    floor[0] = max(floor[0], ranked[-1][1].score)
        return [move for _key, move in ranked]
