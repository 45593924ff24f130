"""The move generator against the brute-force reference, on positions of random games (Czech and English)."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from movegen_reference import play_key, reference_plays
from small_lexicon import ENGLISH, small_graph, word_list

from engine.board import CENTRE, SIZE, Board, Direction, Notation, Position
from engine.lexicon import default_path
from engine.lexicon.alphabet import Alphabet, czech_alphabet
from engine.movegen import Move, MoveGenerator, WordGraph, rank_key
from engine.movegen.generator import LeftParts
from engine.movegen.top import TopSearch
from engine.placement import apply, placements_from_word, validate
from engine.scoring import score_play
from engine.tiles import TileSet, tile_set

pytestmark = pytest.mark.usefixtures("generator_kind")
"""Every test here runs on the compiled move generator and on the pure-Python one."""

@pytest.fixture(scope="module")
def czech_words() -> list[str]:
    return word_list("movegen_words_cs.txt")


@pytest.fixture(scope="module")
def english_words() -> list[str]:
    return word_list("movegen_words_en.txt")


def assert_same(board: Board, rack: str, gen: MoveGenerator, words: list[str]) -> list[Move]:
    """The generator's plays equal the reference's, play for play (the engine's Play objects) and score for score."""
    fast = gen.plays(board, rack)
    slow = reference_plays(board, rack, words, gen.tiles, gen.rules)
    fast_keys = {play_key(m.play): m for m in fast}
    assert len(fast_keys) == len(fast), "a play was generated twice"
    missing = set(slow) - set(fast_keys)
    extra = set(fast_keys) - set(slow)
    where = "\n".join(board.rows()) + f"\nrack {rack}"
    assert not missing, f"missed {[slow[k][0].main.notation() for k in missing]}\n{where}"
    assert not extra, f"invented {[fast_keys[k].word for k in extra]}\n{where}"
    for key, move in fast_keys.items():
        play, score = slow[key]
        assert move.play == play, where
        assert move.score == score, f"{move.word}: {move.score} != {score}\n{where}"
    assert fast == sorted(fast, key=lambda m: rank_key(m, gen.tiles))
    best = gen.best(board, rack, 3)
    assert best == fast[:3], where
    assert_shape_scores_exact(board, rack, gen)
    return fast


def assert_shape_scores_exact(board: Board, rack: str, gen: MoveGenerator) -> None:
    """The score ``best`` keeps as its search grows (a shape: blanks unnamed) is the engine's score of every play
    of that shape, and the shapes name, between them, exactly the plays ``plays`` finds."""
    parsed = gen.rack(rack)
    bonus = gen.rules.bingo_bonus if parsed.size >= gen.rules.rack_size else 0
    search = TopSearch(gen.graph, parsed, gen._value, bonus, gen.rules.rack_size, [-1], False)
    lefts = LeftParts(gen.graph, parsed)
    for line in gen.lines(board):
        for anchor in line.anchors:
            named = []
            for length in range(SIZE):  # lengths a left part cannot have give nothing
                for shape in search.anchor(line, anchor, length):
                    for found in search.concrete(line, shape):
                        assert gen._move(board, line, found, {}).score == shape[0]
                        named.append(found)
                if anchor and line.codes[anchor - 1]:
                    break  # the left part is the board's tiles: one length only
            assert sorted(named) == sorted(gen.anchor_plays(line, anchor, parsed, lefts))


def random_game(gen: MoveGenerator, words: list[str], seed: int, turns: int) -> int:
    """Play a random game, checking every position against the reference with the drawn rack and with one
    and two of its tiles turned into blanks. Returns how many positions were checked."""
    rng = random.Random(seed)
    bag = list(gen.tiles.bag().elements())
    rng.shuffle(bag)
    board = Board()
    rack: list[str] = []
    checked = 0
    for turn in range(turns):
        while len(rack) < 7 and bag:
            rack.append(bag.pop())
        if not rack:
            break
        text = "".join(rack)
        variants = [text]
        if turn % 3 == 1:
            variants.append("?" + text[1:])
        if turn % 3 == 2:
            variants.append("??" + text[2:6])
        for variant in variants:
            assert_same(board, variant, gen, words)
            checked += 1
        plays = gen.plays(board, text)
        if not plays:  # exchange everything
            bag.extend(rack)
            rng.shuffle(bag)
            rack = []
            continue
        move = rng.choice(plays[:8])
        apply(board, move.play)
        rack = list(move.leave(text))
    return checked


GAMES = int(os.environ.get("PARTIAR_MOVEGEN_GAMES", "5"))
"""Random games per tile set (each checks about 16 positions); set PARTIAR_MOVEGEN_GAMES=40 for a long run."""


@pytest.mark.parametrize("seed", range(GAMES))
def test_czech_random_games_agree_with_brute_force(czech_words: list[str], seed: int) -> None:
    gen = MoveGenerator(small_graph(czech_words, czech_alphabet()), tile_set("czech"))
    assert random_game(gen, czech_words, seed, turns=10) >= 10


@pytest.mark.parametrize("seed", range(GAMES))
def test_english_random_games_agree_with_brute_force(english_words: list[str], seed: int) -> None:
    gen = MoveGenerator(small_graph(english_words, ENGLISH), tile_set("english"))
    assert random_game(gen, english_words, 100 + seed, turns=10) >= 10


def test_first_move_covers_the_centre_and_needs_two_tiles(english_words: list[str]) -> None:
    gen = MoveGenerator(small_graph(english_words, ENGLISH), tile_set("english"))
    plays = assert_same(Board(), "QUIZERS", gen, english_words)
    assert plays
    for m in plays:
        assert CENTRE in m.play.main.squares
        assert len(m.placements) >= 2
    assert {m.position.direction for m in plays} == {Direction.ACROSS, Direction.DOWN}


def test_board_edges_and_a_full_rack_bingo() -> None:
    words = [
        "cat",
        "cats",
        "scatter",
        "at",
        "ta",
        "tea",
        "eat",
        "seat",
        "east",
        "teas",
        "rate",
        "rates",
        "tears",
    ]
    gen = MoveGenerator(small_graph(words, ENGLISH), tile_set("english"))
    board = Board()
    # CAT down in the last column, touching the bottom edge
    for p in placements_from_word(board, Position.from_notation("O13", Notation.CLASSIC), "CAT"):
        board.put(p.square, p.tile)
    plays = assert_same(board, "SCATTER", gen, words)
    assert any(m.word == "CATS" for m in plays) is False  # CATS would run off the bottom edge
    # words across that end on the right edge through C, A or T (EAT, SEAT, ... ending in T on O15)
    assert any(m.position.direction is Direction.ACROSS and m.play.main.squares[-1].col == 14 for m in plays)
    bingo = Board()
    plays = assert_same(bingo, "SCATTER", gen, words)
    top = plays[0]
    assert top.word == "SCATTER" and len(top.placements) == 7
    # S1 + C3 twice on H4's double letter + A1 T1 T1 E1 R1, doubled on the centre, + 50; of the plays scoring
    # as much, the one starting nearest the top (H3 down) ranks first
    assert top.score == score_play(top.play, gen.tiles).total == (1 + 2 * 3 + 5) * 2 + 50 == 74
    assert top.notation() == "H3" and top.position.direction is Direction.DOWN


def test_rack_letters_outside_the_lexicon_are_kept_but_never_played() -> None:
    gen = MoveGenerator(small_graph(["ab", "ba"], Alphabet("ab")), tile_set("english"))
    plays = gen.plays(Board(), "ABZ")
    assert {m.word for m in plays} == {"AB", "BA"}
    assert plays[0].leave("ABZ") == "Z"


@pytest.fixture(scope="module")
def czech_index() -> WordGraph:
    path = default_path()
    if not path.exists():
        pytest.skip(f"no Czech index at {path} (partiar lexicon build)")
    return WordGraph.load(path)


def test_real_czech_index_plays_are_legal_and_complete(
    czech_index: WordGraph, czech_words: list[str]
) -> None:
    """On the full index: every play the generator returns is valid with every word in the referee's index, and
    every play the brute force finds with a sample of the same index is among them."""
    from engine.lexicon import Lexicon

    lexicon = Lexicon.load(default_path())
    tiles = tile_set("czech")
    gen = MoveGenerator(czech_index, tiles)
    board = Board()
    for rack in ("KOČKAES", "CHLADNO", "DOMEČKY"):
        apply(board, gen.best(board, rack)[0].play)
    assert board.tile_count() >= 15
    for rack in ("ŘEPAOST", "CHUŤ?IE"):
        plays = gen.plays(board, rack)
        assert plays
        for m in plays[:: max(1, len(plays) // 300)]:
            again = validate(board, m.placements, m.position.direction)
            assert again == m.play
            assert m.score == score_play(again, tiles).total
            assert all(w.text.lower() in lexicon for w in m.play.words), m.word
        keys = {play_key(m.play) for m in plays}
        sample = reference_plays(board, rack, czech_words, tiles)
        assert set(sample) <= keys
        assert gen.best(board, rack, 5) == plays[:5]


def test_czech_ch_is_two_tiles(czech_index: WordGraph) -> None:
    """The Czech set has no CH tile: CH (the letter name the ČAS lists admit) is laid as C then H."""
    tiles: TileSet = tile_set("czech")
    assert "CH" not in tiles.points
    plays = MoveGenerator(czech_index, tiles).plays(Board(), "CHXXXXX")
    assert any(m.word == "CH" and m.used() == "CH" for m in plays)


def test_the_compiled_loop_gives_the_pure_generators_plays_in_its_order(
    czech_index: WordGraph, generator_kind: str
) -> None:
    """On seeded mid-game positions, racks with no, one and two blanks: the same plays, scores and order (the
    engine's Play objects compared), and the same n best."""
    if generator_kind == "pure":
        pytest.skip("compares the two generators: once is enough")
    tiles = tile_set("czech")
    compiled = MoveGenerator(czech_index, tiles, compiled=True)
    pure = MoveGenerator(czech_index, tiles, compiled=False)
    rng = random.Random(2026)
    for game in range(3):
        board = Board()
        for _ in range(6 + 3 * game):
            bag = list((tiles.bag() - board_tiles(board)).elements())
            rng.shuffle(bag)
            top = pure.best(board, "".join(bag[:7]))
            if top:
                apply(board, top[0].play)
        letters = [t for t in (tiles.bag() - board_tiles(board)).elements() if t != "?"]
        rng.shuffle(letters)
        for blanks in (0, 1, 2):
            rack = "".join(letters[: 7 - blanks]) + "?" * blanks
            expected = pure.plays(board, rack)
            got = compiled.plays(board, rack)
            assert len(got) == len(expected), (rack, game)
            assert [(m.score, m.play) for m in got] == [(m.score, m.play) for m in expected], (rack, game)
            assert compiled.best(board, rack, 4) == pure.best(board, rack, 4) == expected[:4]


def board_tiles(board: Board) -> Counter[str]:
    return Counter("?" if t.blank else t.letter for t in board.cells if t is not None)
