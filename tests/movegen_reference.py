"""The brute-force reference move generator for the tests: slow and obviously right.

For every line, every span of squares bounded by empty squares or the edge, and every word of the word list that
fits the span's tiles and whose missing letters the rack has (blanks for the rest), it asks
:func:`engine.placement.validate` and keeps the placement if every word it forms is in the list; then every way of
taking those letters from the rack (each subset of them may be blanks) is a play.
Scores come from :func:`engine.scoring.score_play`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations

from engine.board import CENTRE, SIZE, SQUARES, Board
from engine.placement import IllegalPlacement, Placement, Play, validate
from engine.rules import RuleOptions
from engine.scoring import score_play
from engine.tiles import Tile, TileSet

PlayKey = frozenset[tuple[int, str, bool]]


def play_key(play: Play) -> PlayKey:
    """What makes a play: the new tiles and where they lie."""
    return frozenset((p.square.index, p.tile.letter, p.tile.blank) for p in play.placements)


def reference_plays(
    board: Board, rack: str, words: Iterable[str], tiles: TileSet, rules: RuleOptions | None = None
) -> dict[PlayKey, tuple[Play, int]]:
    """Every legal play of ``rack`` (``?`` = blank) on ``board`` with words from ``words`` (lowercase)."""
    rules = rules or RuleOptions()
    lexicon = set(words)
    have = Counter(ch for ch in rack.upper() if ch != "?")
    blanks = rack.count("?")
    size = len(rack)

    def short(letters: Iterable[str]) -> int:
        """How many blanks the letters need beyond the rack's tiles."""
        used: dict[str, int] = {}
        missing = 0
        for ch in letters:
            n = used[ch] = used.get(ch, 0) + 1
            if n > have[ch]:
                missing += 1
        return missing

    # candidates: by length (every word the rack alone can make) and by (length, offset, letter)
    from_rack: dict[int, list[str]] = {}
    by_letter: dict[tuple[int, int, str], list[str]] = {}
    for w in lexicon:
        word = w.upper()
        if short(word) <= blanks:
            from_rack.setdefault(len(word), []).append(word)
        for k, ch in enumerate(word):
            by_letter.setdefault((len(word), k, ch), []).append(word)
    cells = board.cells
    empty_board = board.is_empty()
    found: dict[PlayKey, tuple[Play, int]] = {}
    lines = [([r * SIZE + c for c in range(SIZE)], SIZE) for r in range(SIZE)]
    lines += [([r * SIZE + c for r in range(SIZE)], 1) for c in range(SIZE)]
    for line, across_step in lines:
        # an empty square touches a tile across the line (then a play through it forms a cross word)
        touching = [
            cells[i] is None
            and any(
                0 <= j < SIZE * SIZE
                and cells[j] is not None
                and (across_step == SIZE or j // SIZE == i // SIZE)
                for j in (i - across_step, i + across_step)
            )
            for i in line
        ]
        for s in range(SIZE):
            if s > 0 and cells[line[s - 1]] is not None:
                continue
            for e in range(s + 1, SIZE):
                if e < SIZE - 1 and cells[line[e + 1]] is not None:
                    continue
                span = line[s : e + 1]
                empties = [k for k, i in enumerate(span) if cells[i] is None]
                if not empties or len(empties) > size:
                    continue
                fixed = [k for k, i in enumerate(span) if cells[i] is not None]
                if empty_board:
                    if CENTRE.index not in span:
                        continue
                elif not fixed and not any(touching[s + k] for k in empties):
                    continue  # touches nothing: never connected
                if fixed:
                    first = fixed[0]
                    candidates = by_letter.get((len(span), first, cells[span[first]].letter), [])  # type: ignore[union-attr]
                else:
                    candidates = from_rack.get(len(span), [])
                for word in candidates:
                    if any(cells[span[k]].letter != word[k] for k in fixed):  # type: ignore[union-attr]
                        continue
                    need = [word[k] for k in empties]
                    if short(need) > blanks:
                        continue
                    # legality does not depend on which tiles are blanks: check the word once, then each way
                    try:
                        play = validate(board, [Placement(SQUARES[span[k]], Tile(word[k])) for k in empties])
                    except IllegalPlacement:
                        continue
                    if not all(w.text.lower() in lexicon for w in play.words):
                        continue
                    for n_blank in range(min(blanks, len(empties)) + 1):
                        for blanked in combinations(range(len(empties)), n_blank):
                            natural = Counter(need[j] for j in range(len(need)) if j not in blanked)
                            if natural - have:
                                continue
                            placements = [
                                Placement(SQUARES[span[k]], Tile(word[k], blank=j in blanked))
                                for j, k in enumerate(empties)
                            ]
                            play = validate(board, placements)
                            found[play_key(play)] = (play, score_play(play, tiles, rules).total)
    return found
