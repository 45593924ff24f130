"""Ranking the letters for a blank: the letters that make every word of the move acceptable come first."""

from __future__ import annotations

from engine.blanks import rank_blank_letters
from engine.board import Board, Position, Square
from engine.placement import Placement, placements_from_word
from engine.tiles import Tile, tile_set

LETTERS = tuple(tile_set("czech").letters)


def split(placements):
    """The named placements and the squares of the blanks (lowercase letters) of a word's placements."""
    named = [p for p in placements if not p.tile.blank]
    blanks = [p.square for p in placements if p.tile.blank]
    return named, blanks


def test_one_blank_the_accepted_letter_first_then_the_rest_in_order() -> None:
    words = {"KOČKA", "KOZA"}
    named, blanks = split(placements_from_word(Board(), Position.from_notation("8D"), "KOčKA"))
    ranking = rank_blank_letters(Board(), named, blanks, LETTERS, words.__contains__)
    assert ranking.likely == ("Č",)
    assert ranking.letters[0] == "Č" and sorted(ranking.letters) == sorted(LETTERS)
    assert ranking.others == tuple(ch for ch in LETTERS if ch != "Č")


def test_cross_words_count_too() -> None:
    board = Board()
    for p in placements_from_word(board, Position.from_notation("8D"), "KOZA"):
        board.put(p.square, p.tile)
    # a blank under the Z and an A under the A: the main word ?A across row 9, the cross words Z? and AA
    named = [Placement(Square(8, 6), Tile("A"))]
    blank = [Square(8, 5)]
    accepted = {"ZE", "EA", "ZU", "UA", "ZO", "AA"}  # ZO would do, but OA is not accepted
    ranking = rank_blank_letters(board, named, blank, LETTERS, accepted.__contains__)
    assert ranking.likely == ("E", "U")


def test_two_blanks_a_letter_is_likely_if_some_naming_of_both_works() -> None:
    named, blanks = split(placements_from_word(Board(), Position.from_notation("8H"), "PeS"))
    named2, blanks2 = split(placements_from_word(Board(), Position.from_notation("8H"), "peS"))
    assert rank_blank_letters(Board(), named, blanks, LETTERS, {"PES", "PAS"}.__contains__).likely == ("A", "E")
    ranking = rank_blank_letters(Board(), named2, blanks2, LETTERS, {"PES", "LES"}.__contains__)
    assert ranking.likely == ("E", "L", "P")


def test_nothing_to_rank_keeps_the_order() -> None:
    named, _ = split(placements_from_word(Board(), Position.from_notation("8H"), "PES"))
    assert rank_blank_letters(Board(), named, [], LETTERS, lambda w: True).likely == ()
    # tiles that form no legal placement (not through the centre): no guess, the order stays
    off = [Placement(Square(0, 0), Tile("P"))]
    ranking = rank_blank_letters(Board(), off, [Square(0, 1)], LETTERS, lambda w: True)
    assert ranking.likely == () and ranking.others == LETTERS
