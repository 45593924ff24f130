"""The replay's hot path against straightforward references: ``validate_word`` against placements_from_word then
validate on random boards (edges, played-through tiles, blanks, errors), ``score_word`` against the rules' own
arithmetic on every word of the corpus, ``builder`` against the class's own constructor, and the went-out rack
against a multiset difference."""

from __future__ import annotations

import csv
import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import PREMIUMS, SIZE, Board, Direction, Position, Premium, Square
from engine.errors import UnknownLetter
from engine.gcg import decode_gcg, read_gcg
from engine.placement import IllegalPlacement, Play, Word, placements_from_word, validate, validate_word
from engine.replay import Step, _unseen, infer_going_out, replay
from engine.rules import RuleOptions
from engine.scoring import score_word
from engine.tiles import BLANK, Tile, TileSet, tile_set
from engine.values import builder

CORPUS = Path(__file__).parent / "data" / "gcg"
with (CORPUS / "SOURCES.tsv").open(encoding="utf-8") as _fh:
    LANGUAGES = {row["file"]: row["language"] for row in csv.DictReader(_fh, delimiter="\t")}
ENGLISH = tile_set("english")
CZECH = tile_set("czech")
ON_BOARD = st.sampled_from(["A", "E", "O", "S", "T", "Q", "a", "e", "w"])
WRITTEN = st.sampled_from([*"AEOSTAEOSTae", ".", "?", "1"])


def _outcome(call: object) -> object:
    """What a call gives: the play, or the error's type and text."""
    try:
        return call()  # type: ignore[operator]
    except (IllegalPlacement, UnknownLetter) as exc:
        return type(exc), str(exc)


@st.composite
def boards_and_words(draw: st.DrawFn) -> tuple[Board, Position, str]:
    """A board with tiles scattered near a line (often on an edge row or column) and a word written along it."""
    row = draw(st.sampled_from([0, 1, 7, 13, 14]) | st.integers(0, SIZE - 1))
    col = draw(st.integers(0, SIZE - 1))
    board = Board()
    if draw(st.integers(0, 3)):  # else (one time in four) the first move
        for _ in range(draw(st.integers(1, 14))):
            r = draw(st.integers(max(0, row - 1), min(SIZE - 1, row + 1)))
            c = draw(st.integers(max(0, col - 2), SIZE - 1))
            board.put(Square(r, c), Tile.from_notation(draw(ON_BOARD)))
        for index in draw(st.lists(st.integers(0, SIZE * SIZE - 1), max_size=12)):  # anywhere: a wrapped index shows
            board.cells[index] = Tile.from_notation(draw(ON_BOARD))
    length = draw(st.integers(2, 6) | st.integers(0, SIZE - col + 1))  # up to one more than fits
    word = "".join(draw(st.lists(WRITTEN, min_size=length, max_size=length)))
    cells = board.cells
    through = draw(st.booleans())  # "." or the letter over a tile already there, as GCG files write them
    word = "".join(
        ch if ch in "?1" or col + k >= SIZE or cells[row * SIZE + col + k] is None
        else "." if not through else cells[row * SIZE + col + k].letter  # type: ignore[union-attr]
        for k, ch in enumerate(word)
    )
    position = Position(Square(row, col), Direction.ACROSS)
    if draw(st.booleans()):  # the same down a column
        board = board.transposed()
        position = position.transposed()
    return board, position, word


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards_and_words())
def test_validate_word_is_the_two_steps_on_random_boards(case: tuple[Board, Position, str]) -> None:
    board, position, word = case
    cells = list(board.cells)
    one_walk = _outcome(lambda: validate_word(board, position, word))
    two_steps = _outcome(lambda: validate(board, placements_from_word(board, position, word), position.direction))
    assert one_walk == two_steps
    assert board.cells == cells  # validation never touches the board


def test_the_random_boards_reach_legal_plays_with_cross_words_on_the_edges() -> None:
    """The property above is not vacuous: plays on the edge rows and columns with cross words are legal."""
    board = Board()
    for sq, letter in ((Square(1, 3), "A"), (Square(1, 4), "T"), (Square(3, 13), "O"), (Square(4, 13), "E")):
        board.put(sq, Tile(letter))
    for sq in (Square(14, 5), Square(3, 0)):  # where a wrapped index
        board.put(sq, Tile("Q"))  # would look for a neighbour off the edge
    play = validate_word(board, Position(Square(0, 3), Direction.ACROSS), "TOE")  # row 0: nothing above
    assert [w.text for w in play.words] == ["TOE", "TA", "OT"]
    play = validate_word(board, Position(Square(2, 14), Direction.DOWN), "ATS")  # column 14: nothing right
    assert [w.text for w in play.words] == ["ATS", "OT", "ES"]
    play = validate_word(board, Position(Square(2, 13), Direction.DOWN), "S.EA")  # through O, E written
    assert [(w.text, w.new) for w in play.words] == [("SOEA", (True, False, False, True))]


@pytest.mark.parametrize("cls", [Word, Play, Step])
def test_builder_gives_what_the_constructor_gives(cls: type) -> None:
    values = [object() for _ in dataclasses.fields(cls)]
    built = builder(cls)(*values)
    assert type(built) is cls
    assert built == cls(*values)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.__setattr__(dataclasses.fields(cls)[0].name, None)


def test_builder_refuses_what_it_cannot_build() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True, slots=True, weakref_slot=True)
    class Weak:
        x: int

    @dataclasses.dataclass(frozen=True)
    class Plain:
        x: int

    for cls in (Checked, Weak, Plain):
        with pytest.raises(TypeError, match=cls.__name__):
            builder(cls)


def _unseen_reference(board: Board, tiles: object) -> str:
    """The set's tiles minus the board's (a blank counts as ``?``), in drawing order, blanks last."""
    bag = tiles.bag()  # type: ignore[attr-defined]
    on_board = Counter(BLANK if t.blank else t.letter for t in board.cells if t is not None)
    order = {letter: k for k, letter in enumerate((*tiles.letters, BLANK))}  # type: ignore[attr-defined]
    return "".join(sorted((bag - on_board).elements(), key=order.__getitem__))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["A", "Á", "Č", "Z", "E", "a", "č", "w", "q"]), max_size=SIZE * SIZE), st.booleans())
def test_the_went_out_rack_is_the_bag_minus_the_board(letters: list[str], czech: bool) -> None:
    tiles = CZECH if czech else ENGLISH
    letters = [ch for ch in letters if czech or ch.upper() in ENGLISH.counts]  # a tile outside the set is never laid
    board = Board([Tile.from_notation(ch) for ch in letters] + [None] * (SIZE * SIZE - len(letters)))
    assert _unseen(board, tiles) == _unseen_reference(board, tiles)


def _score_reference(word: Word, tiles: TileSet, every: bool) -> int:
    """A word's score as RULES.md says it: face values (a blank 0), letter premiums under new tiles, then the
    word premiums under new tiles multiplied together (``every``: under every tile)."""
    letters = 0
    factor = 1
    for square, tile, new in zip(word.squares, word.tiles, word.new, strict=True):
        premium = PREMIUMS[square.index] if new or every else Premium.NONE
        letters += (0 if tile.blank else tiles.points[tile.letter]) * premium.letter_multiplier
        factor *= premium.word_multiplier
    return letters * factor


def test_every_word_of_the_corpus_scores_as_the_reference() -> None:
    checked = 0
    for path in sorted(CORPUS.glob("*.gcg")):
        game = read_gcg(decode_gcg(path.read_bytes(), path.name), path.name)
        tiles = tile_set("polish" if "polish" in LANGUAGES.get(path.name, "").lower() else "english")
        for step in replay(game, tiles, RuleOptions(going_out=infer_going_out(game, tiles) or "2x")):
            for word in step.play.words if step.play else ():
                for every in (False, True):
                    assert score_word(word, tiles, every) == _score_reference(word, tiles, every)
                checked += 1
    assert checked > 1500
