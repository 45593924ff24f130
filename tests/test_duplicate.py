"""Duplicate Scrabble rules: the rack rule, slips, the top play's tie-breaks, the end, the results."""

from __future__ import annotations

import csv
import io
import random
from collections import Counter

import pytest
from small_lexicon import CAT_WORDS, ENGLISH, generator, word_list

from engine.board import Board, Direction, Notation, Square
from engine.duplicate import DuplicateError, DuplicateGame, Mix, ScoreRuleUndecided, Verdict, required
from engine.duplicate.game import END_ALL_TILES, END_EXHAUSTED, END_NO_PLAY
from engine.duplicate.racks import exhausted, requirement
from engine.duplicate.results import render_csv, render_html, standings, status_line
from engine.errors import BadRack
from engine.lexicon.alphabet import czech_alphabet
from engine.movegen import MoveGenerator, rank_key
from engine.tiles import tile_set


@pytest.fixture(scope="module")
def czech() -> MoveGenerator:
    return generator(word_list("movegen_words_cs.txt"), czech_alphabet(), "czech")


@pytest.fixture(scope="module")
def english() -> MoveGenerator:
    return generator(CAT_WORDS, ENGLISH, "english")


def test_rack_rule_counts_a_blank_as_both() -> None:
    cz = tile_set("czech")
    assert Mix.of("KOČKA?X", cz) == Mix(2, 4, 1)
    assert Mix.of("KRT?ŠAB", cz).meets(2)  # one vowel + the blank
    assert not Mix.of("KRTŠABC", cz).meets(2)
    assert Mix.of("KRTŠABC", cz).meets(1)
    assert Mix.of("??", cz).meets(2)
    assert [required(m) for m in (1, 15, 16, 30)] == [2, 2, 1, 1]


def test_requirement_is_lowered_to_what_is_left_and_exhaustion_ends() -> None:
    cz = tile_set("czech")
    assert requirement(3, Counter("AKRTS"), cz) == 1
    assert requirement(3, Counter("AEKRTS"), cz) == 2
    assert exhausted(Counter("KRTS"), cz) and not exhausted(Counter("KRTS?"), cz)
    assert exhausted(Counter("AEIO"), cz)


def test_a_rack_that_breaks_the_rule_goes_back_whole(english: MoveGenerator) -> None:
    game = DuplicateGame(["Ann", "Bob"], english)
    before = +game.bag
    game.apply({"type": "draw", "tiles": "BCDFGHT"})  # no vowel
    assert game.waiting_for == "draw" and game.current is None
    assert game.bag == before and game.kept == "" and game.refused == ["BCDFGHT"]
    game.apply({"type": "draw", "tiles": "CATSEAX"})
    assert game.current is not None and game.current.rack == "CATSEAX"
    assert game.current.refused == ["BCDFGHT"]
    game.apply(slip("Ann", "8H", "CAT", 10))
    with pytest.raises(BadRack, match="the english set only 1"):
        DuplicateGame(["Ann"], english).apply({"type": "draw", "tiles": "ZZZZZZZ"})
    game.apply({"type": "close"})
    # issue 29, item 7: the results list the racks returned to the bag, on the row of the move they were drawn for
    rows = list(csv.reader(io.StringIO(render_csv(game, "en"))))
    assert rows[0][:3] == ["Move", "Rack", "Returned to the bag"]
    assert rows[1][:3] == ["1", "CATSEAX", "BCDFGHT"] and rows[1][-2:] == ["10", "0"]
    with pytest.raises(DuplicateError, match="the bag has no X"):
        game.apply({"type": "draw", "tiles": "X"})  # the set's only X is on the board or kept on the rack
    with pytest.raises(DuplicateError, match="7 tiles are to be drawn"):
        DuplicateGame(["Ann"], english).apply({"type": "draw", "tiles": "CAT"})


def test_top_play_tie_breaks_follow_the_seed() -> None:
    """Equal scores: earlier in the alphabet, then nearer the top, then nearer the left, then across."""
    gen = generator(["ab", "ba"], ENGLISH, "english")
    plays = gen.plays(Board(), "AB")
    assert {m.score for m in plays} == {8}
    order = [(m.word, m.position.square.row, m.position.square.col, m.position.direction) for m in plays]
    assert order == [
        ("AB", 6, 7, Direction.DOWN),
        ("AB", 7, 6, Direction.ACROSS),
        ("AB", 7, 7, Direction.ACROSS),
        ("AB", 7, 7, Direction.DOWN),
        ("BA", 6, 7, Direction.DOWN),
        ("BA", 7, 6, Direction.ACROSS),
        ("BA", 7, 7, Direction.ACROSS),
        ("BA", 7, 7, Direction.DOWN),
    ]
    assert plays == sorted(reversed(plays), key=lambda m: rank_key(m, gen.tiles))
    game = DuplicateGame(["Ann"], gen)
    game.apply({"type": "draw", "tiles": "ABCDEIO"})
    assert game.current is not None and game.current.top == plays[0]


def slip_game(english: MoveGenerator, strict: bool) -> DuplicateGame:
    game = DuplicateGame(["Ann", "Bob", "Cid", "Dee"], english)
    game.apply({"type": "rules", "strict_scores": strict})
    game.apply({"type": "draw", "tiles": "CATSEAX"})
    return game


def slip(
    player: str, position: str, word: str, claimed: int, accept: bool | None = None
) -> dict[str, object]:
    return {
        "type": "slip",
        "player": player,
        "position": position,
        "word": word,
        "claimed": claimed,
        "accept_unknown": accept,
    }


def test_slips_are_checked_and_credited(english: MoveGenerator) -> None:
    game = slip_game(english, strict=False)
    top = game.current.top  # type: ignore[union-attr]
    assert top is not None
    game.apply(slip("Ann", top.notation(Notation.CLASSIC), top.word, top.score))
    game.apply(slip("Bob", "8H", "CAT", 99))  # wrong score, lenient rule: the right score
    game.apply(slip("Cid", "8A", "CAT", 10))  # not through the centre
    game.apply(slip("Dee", "8H", "TAXES", 30, accept=False))  # unknown word refused by the referee
    results = game.current.results  # type: ignore[union-attr]
    assert results["Ann"].verdict is Verdict.CREDITED and results["Ann"].score == top.score
    assert results["Bob"].verdict is Verdict.CREDITED and results["Bob"].score == (3 + 1 + 1) * 2
    assert results["Cid"].verdict is Verdict.WRONG_POSITION and results["Cid"].score == 0
    assert results["Dee"].verdict is Verdict.UNKNOWN_WORD and results["Dee"].score == 0
    with pytest.raises(DuplicateError, match="cannot change"):
        game.apply({"type": "rules", "strict_scores": True})
    with pytest.raises(DuplicateError, match="the referee must decide"):
        game.apply(slip("Dee", "8H", "TAXES", 30))
    game.apply(slip("Dee", "8H", "TAXES", 30, accept=True))  # the referee's ruling overrides the lexicon
    assert game.current.results["Dee"].verdict is Verdict.CREDITED  # type: ignore[union-attr]
    game.apply({"type": "close"})
    assert game.board.tile_count() == len(top.placements)
    assert game.kept == top.leave("CATSEAX")
    assert game.rounds[0].results["Ann"].score == top.score


def test_the_referee_chooses_the_wrong_score_rule_at_the_latest_at_the_first_wrong_score(
    english: MoveGenerator,
) -> None:
    """Seed 001, item 8: a wrong score refuses the slip unless the referee waives it, deciding at the latest at the
    first player whose score is wrong. The game never chooses for the referee: it asks (ScoreRuleUndecided) and
    keeps the choice fixed once it has judged a wrong score."""
    game = DuplicateGame(["Ann", "Bob", "Cid"], english)
    game.apply({"type": "draw", "tiles": "CATSEAX"})
    assert game.strict_scores is None
    assert "nikdo se nepřepočítal" in status_line(game, "cs")
    game.apply(slip("Ann", "8H", "CAT", 10))  # right score: no rule needed
    game.apply(slip("Cid", "8A", "CAT", 3))  # wrong position: not a score fault either
    with pytest.raises(ScoreRuleUndecided, match="Bob claims 9, the play scores 10"):
        game.apply(slip("Bob", "8H", "CAT", 9))
    with pytest.raises(ScoreRuleUndecided):  # an unknown word the referee accepts, with a wrong score
        game.apply(slip("Bob", "8H", "TAXES", 99, accept=True))
    assert set(game.current.results) == {"Ann", "Cid"}  # type: ignore[union-attr]
    game.apply({"type": "rules", "strict_scores": True})  # still open: nobody's wrong score was judged
    game.apply({"type": "rules", "strict_scores": False})
    game.apply(slip("Bob", "8H", "CAT", 9))
    bob = game.current.results["Bob"]  # type: ignore[union-attr]
    assert bob.verdict is Verdict.CREDITED and bob.score == 10
    game.apply({"type": "rules", "strict_scores": False})  # the same choice again changes nothing
    with pytest.raises(DuplicateError, match="cannot change"):
        game.apply({"type": "rules", "strict_scores": True})
    assert game.strict_scores is False and "připsány správné body" in status_line(game, "cs")


def test_a_game_made_with_a_rule_needs_no_decision(english: MoveGenerator) -> None:
    game = DuplicateGame(["Ann"], english, strict_scores=False)  # an earlier version's journal: lenient
    game.apply({"type": "draw", "tiles": "CATSEAX"})
    game.apply(slip("Ann", "8H", "CAT", 9))
    assert game.current.results["Ann"].score == 10  # type: ignore[union-attr]


def test_strict_rule_refuses_a_wrong_score_and_tiles_not_on_the_rack(english: MoveGenerator) -> None:
    game = slip_game(english, strict=True)
    game.apply(slip("Ann", "8H", "CAT", 9))
    game.apply(slip("Bob", "8H", "CAT", 10))
    game.apply(slip("Cid", "8H", "CATS", 12))
    game.apply(slip("Dee", "H8", "EAST", 1))
    results = game.current.results  # type: ignore[union-attr]
    assert results["Ann"].verdict is Verdict.WRONG_SCORE and results["Ann"].score == 0
    assert results["Bob"].verdict is Verdict.CREDITED and results["Bob"].score == 10
    assert results["Cid"].verdict is Verdict.CREDITED
    assert results["Dee"].verdict is Verdict.WRONG_SCORE
    game2 = slip_game(english, strict=False)
    game2.apply(slip("Ann", "8H", "SEATS", 14))
    assert game2.current.results["Ann"].verdict is Verdict.NOT_ON_RACK  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_ends_by_the_seeds_conditions(czech: MoveGenerator, seed: int) -> None:
    rng = random.Random(seed)
    game = DuplicateGame(["Eva", "Jan"], czech)
    rounds = 0
    while game.waiting_for != "over" and rounds < 120:
        if game.waiting_for == "draw":
            game.apply(game.random_draw(rng))
            if game.current:
                assert Mix.of(game.current.rack, game.tiles).meets(game.requirement())
            continue
        top = game.current.top  # type: ignore[union-attr]
        if top is not None:
            game.apply(slip("Eva", top.notation(Notation.CAS), top.word, top.score))
        game.apply({"type": "close"})
        rounds += 1
    assert game.over in (END_ALL_TILES, END_EXHAUSTED, END_NO_PLAY)
    if game.over == END_ALL_TILES:
        assert game.board.tile_count() == 100
    if game.over == END_EXHAUSTED:
        assert exhausted(game.remaining(), game.tiles)
    totals = game.totals()
    assert totals["Eva"] == game.top_total() and totals["Jan"] == 0
    assert [s.player for s in standings(game)] == ["Eva", "Jan"]
    assert standings(game)[0].percent == pytest.approx(100.0)
    rows = list(csv.reader(io.StringIO(render_csv(game))))
    assert rows[0] == ["Tah", "Zásobník", "Vráceno do sáčku", "Nejlepší tah", "Body", "Eva", "Jan"]
    assert rows[-2] == ["Celkem", "", "", "", str(game.top_total()), str(totals["Eva"]), "0"]
    assert rows[-1][-2:] == ["100,0", "0,0"]  # the decimal comma, as the sheet writes it (it used to be a point)
    assert list(csv.reader(io.StringIO(render_csv(game, "en"))))[-1][-2:] == ["100.0", "0.0"]
    page = render_html(game)
    assert "Opisovaný Scrabble: výsledky" in page and "% maxima" in page
    assert "Duplicate Scrabble: results" in render_html(game, "en")
    assert "<td>100,0</td>" in page and "<td>0,0</td>" in page and "100.0" not in page  # the Czech decimal comma
    assert "<td>100.0</td>" in render_html(game, "en")


def test_refusals_are_explained_to_the_referee_in_czech(english: MoveGenerator) -> None:
    from desk.referee_texts import describe

    game = slip_game(english, strict=True)
    game.apply(slip("Ann", "8A", "CAT", 10))
    game.apply(slip("Bob", "8H", "CAT", 9))
    game.apply(slip("Cid", "8H", "SEATS", 14))
    game.apply(slip("Dee", "8G", "TAXES", 30, accept=True))  # admitted by the referee, but the score is wrong
    results = game.current.results  # type: ignore[union-attr]
    text = {p: describe(r.check, "cs", Notation.CLASSIC) for p, r in results.items() if r.check}
    assert text["Ann"] == "první tah nevede přes střed"
    assert text["Bob"] == "napsáno 9, správně 10"
    assert text["Cid"] == "S"
    assert results["Dee"].verdict is Verdict.WRONG_SCORE and text["Dee"].startswith("napsáno 30, správně ")
    assert describe(results["Bob"].check, "en", Notation.CLASSIC) == "claimed 9, right 10"  # type: ignore[arg-type]


def test_a_czech_slip_in_the_seeds_own_notation_is_read(czech: MoveGenerator) -> None:
    """Seed 001, item 7: across the row number first (8H), down the column letter first (H8); ČAS H8V too."""
    game = DuplicateGame(["Eva", "Jan", "Ota"], czech)
    game.apply({"type": "draw", "tiles": "KOČKAE?"})
    top = game.current.top  # type: ignore[union-attr]
    assert top is not None
    game.apply(slip("Eva", top.notation(Notation.CAS), top.word, top.score))
    game.apply(slip("Jan", top.notation(Notation.CLASSIC), top.word, top.score))
    # the same word down from the centre, in the seed's notation: column letter first, no direction letter
    game.apply(slip("Ota", "H8", top.word, top.score))
    results = game.current.results  # type: ignore[union-attr]
    assert results["Eva"].verdict is Verdict.CREDITED and results["Eva"].score == top.score
    assert results["Jan"].verdict is Verdict.CREDITED and results["Jan"].score == top.score
    assert results["Ota"].check is not None and results["Ota"].check.play is not None
    assert results["Ota"].check.play.main.position.direction is Direction.DOWN
    assert results["Ota"].check.play.main.position.square == Square(7, 7)


def test_the_results_name_the_words_refused_as_not_allowed(english: MoveGenerator) -> None:
    """Seed 001, item 8: the referee tells the players which words were refused; the sheet names them."""
    game = slip_game(english, strict=False)
    game.apply(slip("Ann", "8H", "TAXES", 30, accept=False))
    game.apply(slip("Bob", "8A", "CAT", 10))
    game.apply({"type": "close"})
    page, page_en = render_html(game), render_html(game, "en")
    assert "0 (nepřípustné slovo TAXES)" in page and "0 (word not allowed TAXES)" in page_en
    assert "0 (špatné umístění)" in page


def test_a_rack_with_no_play_ends_the_game_or_goes_back_as_the_referee_rules(english: MoveGenerator) -> None:
    """The seed does not rule a rack that cannot be played: the referee ends the game or has it redrawn whole."""
    game = DuplicateGame(["Ann", "Bob"], english)
    game.apply({"type": "draw", "tiles": "QZJKUUV"})  # no word of the small list
    assert game.current is not None and game.current.top is None
    game.apply(slip("Ann", "8H", "QUA", 13, accept=True))
    before = +game.bag
    game.apply({"type": "close", "no_play": "redraw"})
    assert game.waiting_for == "draw" and game.move == 1 and game.rounds == [] and game.over is None
    assert game.bag == before + Counter("QZJKUUV") and game.kept == "" and game.refused == ["QZJKUUV"]
    game.apply({"type": "draw", "tiles": "QZJKUUV"})
    with pytest.raises(DuplicateError, match="no_play must be"):
        game.apply({"type": "close", "no_play": "maybe"})
    game.apply({"type": "close", "no_play": "end"})
    assert game.over == END_NO_PLAY and game.rounds[0].refused == ["QZJKUUV"]
    assert list(csv.reader(io.StringIO(render_csv(game))))[1][:4] == ["1", "QZJKUUV", "QZJKUUV", "žádný tah"]


def test_the_csv_writes_a_name_a_spreadsheet_would_run_as_a_formula_as_text() -> None:
    """A player entered as ``=HYPERLINK(...)`` or ``-1+1``: the results CSV names them with a leading ``'`` (CSV
    injection), the scores stay numbers."""
    game = DuplicateGame(["=HYPERLINK(\"http://x\")", "-1+1", "Eva"], generator(CAT_WORDS))
    header = next(csv.reader(io.StringIO(render_csv(game))))
    assert header[-3:] == ["'=HYPERLINK(\"http://x\")", "'-1+1", "Eva"]
