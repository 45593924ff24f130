"""Czech alphabetical order for plays of equal score (issue 29, item 5): ``ch`` after ``h``, accents only at the
second level (engine/collation.py)."""

from __future__ import annotations

from small_lexicon import generator

from engine.board import Board
from engine.collation import czech_key
from engine.lexicon.alphabet import czech_alphabet
from engine.tiles import tile_set


def test_ch_is_one_letter_after_h() -> None:
    assert sorted(["CHATĚ", "DĚĎ", "HRA", "IKRA", "CESTA", "ČAS"], key=czech_key) == [
        "CESTA", "ČAS", "DĚĎ", "HRA", "CHATĚ", "IKRA",
    ]


def test_accents_count_only_between_words_equal_without_them() -> None:
    # the first level ignores á é ě í ó ú ů ý ď ť ň: MYTI < MYTY, so MÝTÍ comes before MYTÝ
    assert sorted(["MYTÝ", "MÝTÍ"], key=czech_key) == ["MÝTÍ", "MYTÝ"]
    # equal at the first level: the first accent from the left decides, the plain letter first
    assert sorted(["MÝTI", "MYTÍ", "MÝTÍ", "MYTI"], key=czech_key) == ["MYTI", "MYTÍ", "MÝTI", "MÝTÍ"]
    assert sorted(["UDAT", "ŮDAJ", "ÚDAJ"], key=czech_key) == ["ÚDAJ", "ŮDAJ", "UDAT"]
    assert sorted(["PĚT", "PÉT", "PET"], key=czech_key) == ["PET", "PÉT", "PĚT"]
    # č ř š ž are letters of their own
    assert sorted(["ŘEKA", "RYBA", "ŽÁBA", "ZUBY", "ŠUM", "SUMA"], key=czech_key) == [
        "RYBA", "ŘEKA", "SUMA", "ŠUM", "ZUBY", "ŽÁBA",
    ]


def test_a_blanks_lowercase_letter_sorts_as_the_letter() -> None:
    assert czech_key("MýTÍ") == czech_key("MÝTÍ")


def test_the_czech_set_sorts_words_in_czech_order() -> None:
    czech = tile_set("czech")
    assert czech.sort_key("DĚĎ") < czech.sort_key("CHATĚ")
    assert czech.sort_key("MÝTÍ") < czech.sort_key("MYTÝ")


def test_the_top_play_of_a_tie_is_the_word_first_in_czech_order() -> None:
    """MYTÝ and MÝTÍ score 18 on the empty board from MYTÍÝ: the top play is MÝTÍ (the set's letter order, Y
    before Ý, put MYTÝ first), and every tie among all plays is in Czech order."""
    gen = generator(["mytý", "mýtí"], czech_alphabet(), "czech")
    plays = gen.plays(Board(), "MYTÍÝ")
    assert {m.word for m in plays if m.score == 18} == {"MYTÝ", "MÝTÍ"}
    assert gen.best(Board(), "MYTÍÝ", 1)[0].word == "MÝTÍ"
    assert plays[0].word == "MÝTÍ"
    words_at_18 = [m.word for m in plays if m.score == 18]
    assert words_at_18 == sorted(words_at_18, key=czech_key)
