"""The top play only (``best``) against every play (``plays``): the same best play, by the seed's order, on random
positions of random games, with no, one and two blanks (fixed seeds and Hypothesis), and on the Czech index."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from small_lexicon import ENGLISH, small_graph, word_list

from engine.board import Board
from engine.lexicon import default_path
from engine.lexicon.alphabet import czech_alphabet
from engine.movegen import Move, MoveGenerator, WordGraph, rank_key
from engine.placement import apply
from engine.scoring import score_play
from engine.tiles import BLANK

pytestmark = pytest.mark.usefixtures("generator_kind")
"""Every test here runs on the compiled move generator and on the pure-Python one."""

@pytest.fixture(scope="module")
def czech_gen() -> MoveGenerator:
    from engine.tiles import tile_set

    return MoveGenerator(small_graph(word_list("movegen_words_cs.txt"), czech_alphabet()), tile_set("czech"))


@pytest.fixture(scope="module")
def english_gen() -> MoveGenerator:
    from engine.tiles import tile_set

    return MoveGenerator(small_graph(word_list("movegen_words_en.txt"), ENGLISH), tile_set("english"))


def position(gen: MoveGenerator, seed: int, turns: int) -> tuple[Board, list[str]]:
    """The board after ``turns`` random plays (one of the 8 best each time) of a seeded game, and the bag left."""
    rng = random.Random(seed)
    bag = list(gen.tiles.bag().elements())
    rng.shuffle(bag)
    board = Board()
    for _ in range(turns):
        rack = "".join(bag.pop() for _ in range(min(7, len(bag))))
        plays = gen.plays(board, rack)
        if not plays:
            bag[:0] = list(rack)
            continue
        apply(board, rng.choice(plays[:8]).play)
        bag[:0] = list(plays[0].leave(rack))  # the leave goes back: the next rack is drawn fresh
    return board, bag


def with_blanks(rng: random.Random, bag: list[str], blanks: int) -> str:
    letters = [t for t in bag if t != BLANK]
    return BLANK * blanks + "".join(rng.sample(letters, min(7 - blanks, len(letters))))


def assert_top_is_best(gen: MoveGenerator, board: Board, rack: str) -> None:
    every = gen.plays(board, rack)
    where = "\n".join(board.rows()) + f"\nrack {rack}"
    for n in (1, 3):
        top = gen.best(board, rack, n)
        assert top == every[:n], where
    if every:
        best: Move = gen.best(board, rack)[0]
        # the same score as the engine gives it, no play scores more, and it comes first in the seed's order
        assert best.score == score_play(best.play, gen.tiles, gen.rules).total
        assert best.score == max(m.score for m in every)
        assert rank_key(best, gen.tiles) == min(rank_key(m, gen.tiles) for m in every), where


@pytest.mark.parametrize("seed", range(6))
def test_top_play_is_the_best_of_all_plays_czech(czech_gen: MoveGenerator, seed: int) -> None:
    rng = random.Random(1000 + seed)
    board, bag = position(czech_gen, seed, 3 + seed % 4)
    for blanks in (0, 1, 2):
        assert_top_is_best(czech_gen, board, with_blanks(rng, bag, blanks))


@pytest.mark.parametrize("seed", range(4))
def test_top_play_is_the_best_of_all_plays_english(english_gen: MoveGenerator, seed: int) -> None:
    rng = random.Random(2000 + seed)
    board, bag = position(english_gen, 50 + seed, 2 + seed)
    for blanks in (0, 1, 2):
        assert_top_is_best(english_gen, board, with_blanks(rng, bag, blanks))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 7), blanks=st.integers(0, 2), czech=st.booleans())
def test_top_play_is_the_best_of_all_plays_and_bounds_hold_hypothesis(
    czech_gen: MoveGenerator, english_gen: MoveGenerator, seed: int, turns: int, blanks: int, czech: bool
) -> None:
    gen = czech_gen if czech else english_gen
    board, bag = position(gen, seed, turns)
    rack = with_blanks(random.Random(seed), bag, blanks)
    assert_top_is_best(gen, board, rack)
    assert_bounds_hold(gen, board, rack)


def test_equal_plays_with_blanks_on_other_squares_rank_alike(english_gen: MoveGenerator) -> None:
    """Two plays of one word on the same squares, a blank on one square or the other, may score the same; both
    ways of generating rank them in the same (blank squares') order."""
    board = Board()
    rack = "EE?NTRS"
    every = english_gen.plays(board, rack)
    keys = [rank_key(m, english_gen.tiles) for m in every]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert english_gen.best(board, rack, 10) == every[:10]


def test_top_play_on_the_czech_index() -> None:
    """On the referee's index, a mid-game board, racks with no, one and two blanks."""
    from engine.tiles import tile_set

    if not default_path().exists():
        pytest.skip(f"no Czech index at {default_path()} (partiar lexicon build)")
    gen = MoveGenerator(WordGraph.load(default_path()), tile_set("czech"))
    board = Board()
    for rack in ("KOČKAES", "CHLADNO", "DOMEČKY", "ŘEPAOST"):
        apply(board, gen.best(board, rack)[0].play)
    for rack in ("BÝÉÝÍSP", "ZŇĚMEÝT", "?AITODÁ", "?MÉVNŮŠ", "??EZENV", "??CÚSOC"):
        assert_top_is_best(gen, board, rack)
    for rack in ("ZŇĚMEÝT", "?MÉVNŮŠ"):  # the bounds on the real index, too
        assert assert_bounds_hold(gen, board, rack) > 0


def left_length(
    line_codes: list[int], anchor: int, found: tuple[int, tuple[object, ...], tuple[object, ...]]
) -> int:
    """The length of a found play's left part as the bounds count it (0 when it is the board's tiles)."""
    start, prefix, _right = found
    return 0 if start < anchor and line_codes[start] else len(prefix)


def assert_bounds_hold(gen: MoveGenerator, board: Board, rack: str) -> int:
    """Every play an anchor generates scores no more than the tight bound of its length of left part, which is no
    more than the cheap bound ``best`` starts from; a length with a play has both; a cheap bound said to be settled
    equals the tight one; the heap entries ``best`` builds line by line are those cheap bounds. Returns the plays
    checked."""
    from engine.movegen.generator import LeftParts

    parsed = gen.rack(rack)
    shadow = gen.shadow(board, parsed, [-1], False)
    full_lines = gen.lines(board)  # the rack-only cross-checks of ``shadow`` must not lose a play
    lefts = LeftParts(gen.graph, parsed)
    where = "\n".join(board.rows()) + f"\nrack {rack}"
    checked = 0
    for k, line in enumerate(full_lines):
        assert line.anchors == shadow.lines[k].anchors
        entries = []
        for anchor in line.anchors:
            settled: set[int] = set()
            cheap = shadow.cheap(k, anchor, settled)
            entries += [(-bound, k, anchor, length, length in settled) for length, bound in cheap.items()]
            for length in settled:  # a bound ``best`` does not tighten is what tightening would give
                assert shadow.tight(k, anchor, length) == cheap[length], where
            for found in gen.anchor_plays(line, anchor, parsed, lefts):
                score = gen._move(board, line, found, {}).score
                length = left_length(line.codes, anchor, found)
                assert length in cheap, where
                tight = shadow.tight(k, anchor, length)
                assert cheap[length] >= tight >= score, (k, anchor, length, where)
                checked += 1
        if line.anchors:
            assert sorted(shadow.entries(k)) == sorted(entries), (k, where)
    return checked


@pytest.mark.parametrize("seed", range(4))
def test_shadow_bounds_hold_czech(czech_gen: MoveGenerator, seed: int) -> None:
    rng = random.Random(3000 + seed)
    board, bag = position(czech_gen, 70 + seed, seed * 2)  # seed 0: the empty board (first move)
    assert (
        sum(assert_bounds_hold(czech_gen, board, with_blanks(rng, bag, blanks)) for blanks in (0, 1, 2)) > 0
    )


def test_shadow_bounds_at_the_board_edges(english_gen: MoveGenerator) -> None:
    """Words along the last row and column and ending on the right and bottom edges: no play escapes its bound,
    and the top play is the first of all plays, both ways."""
    from engine.board import Notation, Position
    from engine.placement import placements_from_word

    board = Board()
    for notation, word in (("15A", "TRADES"), ("O9", "TONES"), ("A1", "RATE")):
        for p in placements_from_word(board, Position.from_notation(notation, Notation.CLASSIC), word):
            board.put(p.square, p.tile)
    for rack in ("SATIRES", "AEIN?ST", "E??RSTA"):
        assert assert_bounds_hold(english_gen, board, rack) > 0
        assert_top_is_best(english_gen, board, rack)


def test_cross_checks_for_the_rack_letters_only(czech_gen: MoveGenerator) -> None:
    """``lines(board, letters)`` (what ``best`` uses for a rack without blanks) has the full cross-checks cut to
    those letters, and the same anchors and cross values."""
    board, _bag = position(czech_gen, 9, 6)
    letters = [czech_gen._code_of[ch] for ch in "AEKOS"]
    keep = sum(1 << code for code in letters)
    full = czech_gen.lines(board)
    part = czech_gen.lines(board, letters)
    assert any(mask not in (0, czech_gen._full) for line in full for mask in line.masks)
    for a, b in zip(full, part, strict=True):
        assert (a.anchors, a.cross, a.codes) == (b.anchors, b.cross, b.codes)
        for pos, mask in enumerate(a.masks):
            expected = mask if a.cross[pos] is None else mask & keep
            assert b.masks[pos] == expected, (pos, a.direction)


def test_remembered_steps_survive_reused_object_ids(czech_gen: MoveGenerator) -> None:
    """The search remembers the steps of node sets by the sets' identity; sets built and dropped one after the
    other (whose ids Python may reuse) still get their own steps."""
    from engine.movegen.top import TopSearch

    parsed = czech_gen.rack("??AEKOS")
    search = TopSearch(czech_gen.graph, parsed, czech_gen._value, 50, 7, [-1], True)
    fresh = TopSearch(czech_gen.graph, parsed, czech_gen._value, 50, 7, [-1], True)
    groups = [nodes for level in search.levels(3) for nodes, _prefix, _mask, _used in level if len(nodes) > 1]
    assert len(groups) > 10
    for code in range(1, len(czech_gen.graph.alphabet) + 1):
        for nodes in groups:
            copy = tuple(list(nodes))  # a new object each time, dropped after the step
            assert set(search.step(copy, code, 0)) == set(fresh._step_uncached(nodes, code, 0))
            assert search._mask(copy) == fresh._mask_uncached(nodes)
