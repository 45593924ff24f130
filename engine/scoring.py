"""Scoring of a validated play, and the end-of-game rack adjustments.

Letter and word premiums count only under new tiles; word multipliers compound; a blank is worth 0; each word is
scored on its own; the bingo bonus is added after all multipliers when a full rack of tiles is placed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import PREMIUM_FACTORS, SIZE, Direction
from engine.placement import Play, Word
from engine.rules import RuleOptions
from engine.tiles import TileSet
from engine.values import builder


@dataclass(frozen=True, slots=True)
class WordScore:
    word: Word
    score: int


@dataclass(frozen=True, slots=True)
class PlayScore:
    """A play's score: each word's score, the bingo bonus, and the total."""

    words: tuple[WordScore, ...]
    bingo: int
    total: int


def score_word(word: Word, tiles: TileSet, premiums_for_all: bool = False) -> int:
    """Score one word: premiums under its new tiles only (under every tile with ``premiums_for_all``, 001).
    Raises UnknownLetter for a letter outside the set."""
    points = tiles.points
    start = word.squares[0]
    i = start.row * SIZE + start.col
    step = 1 if word.direction is _ACROSS else SIZE  # a word's squares follow each other along its direction
    fresh = word.new
    if premiums_for_all:
        fresh = (True,) * len(fresh)
    base = 0
    multiplier = 1
    k = 0
    try:
        for tile in word.tiles:
            value = 0 if tile.blank else points[tile.letter]
            if fresh[k]:
                premium = _PREMIUM_AT[i]
                if premium is not None:
                    value *= premium[0]
                    multiplier *= premium[1]
            base += value
            i += step
            k += 1
    except KeyError:
        for tile in word.tiles:
            tiles.value(tile)  # raises UnknownLetter with the set's name
        raise
    return base * multiplier


def score_play(play: Play, tiles: TileSet, rules: RuleOptions | None = None) -> PlayScore:
    """Score a validated play (the board it was validated against is already reflected in its words)."""
    if rules is None:
        rules = _DEFAULT_RULES
    every = rules.premiums_for_all
    words = tuple([_word_score(w, score_word(w, tiles, every)) for w in (play.main, *play.cross)])
    bingo = bingo_bonus(play, rules)
    total = bingo
    for w in words:
        total += w.score
    return _play_score(words, bingo, total)


def play_total(play: Play, tiles: TileSet, rules: RuleOptions | None = None) -> int:
    """``score_play(play, tiles, rules).total`` without the breakdown (replays need only the total)."""
    if rules is None:
        rules = _DEFAULT_RULES
    every = rules.premiums_for_all
    total = bingo_bonus(play, rules) + score_word(play.main, tiles, every)
    for w in play.cross:
        total += score_word(w, tiles, every)
    return total


def bingo_bonus(play: Play, rules: RuleOptions) -> int:
    """The bingo bonus a play earns: ``rules.bingo_bonus`` for a full rack of tiles placed, else 0."""
    return rules.bingo_bonus if len(play.placements) == rules.rack_size else 0


_DEFAULT_RULES = RuleOptions()
_ACROSS = Direction.ACROSS
_PREMIUM_AT = tuple(None if factors == (1, 1) else factors for factors in PREMIUM_FACTORS)
"""By cell: (letter multiplier, word multiplier) of a premium square, None on a plain one (most new tiles)."""
_word_score = builder(WordScore)
_play_score = builder(PlayScore)


def end_adjustments(
    racks: dict[int, str], went_out: int | None, tiles: TileSet, rules: RuleOptions | None = None
) -> dict[int, int]:
    """Points each player gains or loses at the end of the game.

    ``racks`` maps a player to the tiles left on their rack (``?`` = blank). Every player with tiles loses their
    value; under the 1x convention the player who went out gains the sum, under 2x they gain twice the sum and the
    others lose nothing (the English tournament record convention).
    """
    rules = rules or RuleOptions()
    values = {p: tiles.rack_value(rack) for p, rack in racks.items()}
    out: dict[int, int] = {}
    if went_out is None:
        return {p: -v for p, v in values.items()}
    others = sum(v for p, v in values.items() if p != went_out)
    for p, v in values.items():
        if p == went_out:
            out[p] = others * (2 if rules.going_out == "2x" else 1)
        else:
            out[p] = 0 if rules.going_out == "2x" else -v
    return out
