"""The top play only (``best``) against every play (``plays``): the same best play, by the seed's order, on random
positions of random games, with no, one and two blanks (fixed seeds and Hypothesis), and on the Czech index."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_lexicon import ENGLISH, small_graph, word_list

from engine.board import Board
from engine.lexicon import default_path
from engine.lexicon.alphabet import czech_alphabet
from engine.movegen import Move, MoveGenerator, WordGraph, rank_key
from engine.placement import apply
from engine.scoring import score_play
from engine.tiles import BLANK


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


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 6), blanks=st.integers(0, 2), czech=st.booleans())
def test_top_play_is_the_best_of_all_plays_hypothesis(
    czech_gen: MoveGenerator, english_gen: MoveGenerator, seed: int, turns: int, blanks: int, czech: bool
) -> None:
    gen = czech_gen if czech else english_gen
    board, bag = position(gen, seed, turns)
    assert_top_is_best(gen, board, with_blanks(random.Random(seed), bag, blanks))


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
