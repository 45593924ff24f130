"""Racks in duplicate Scrabble (seed 001, items 6 and 10): vowels and consonants, and the rack rule.

In the first fifteen moves a rack must hold at least two vowels and two consonants, from the sixteenth on at least
one of each; a blank counts as both. A rack that fails goes back to the bag whole (all seven tiles) and a new one
is drawn. Where the bag and the kept tiles together no longer hold enough vowels or consonants for the rule, the
rule asks for what they hold (the seed does not say; the game ends only when none is left, item 11).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.tiles import BLANK, TileSet

VOWELS: dict[str, str] = {
    "czech": "AÁEÉĚIÍOÓUÚŮYÝ",
    "english": "AEIOU",
    "polish": "AĄEĘIOÓUY",
}
"""The vowels of each tile set (every other letter is a consonant)."""

STRICT_MOVES = 15
"""Moves 1-15 need two vowels and two consonants; later moves one of each."""


def vowels_of(tiles: TileSet) -> str:
    """The vowels of a tile set; raises KeyError naming a set without a vowel list."""
    try:
        return VOWELS[tiles.name]
    except KeyError:
        raise KeyError(f"no vowel list for the {tiles.name} tile set") from None


@dataclass(frozen=True, slots=True)
class Mix:
    """Vowels, consonants and blanks among some tiles."""

    vowels: int
    consonants: int
    blanks: int

    @classmethod
    def of(cls, rack: str, tiles: TileSet) -> Mix:
        """Count a rack written with ``?`` for blanks."""
        vowels = vowels_of(tiles)
        v = sum(1 for ch in rack if ch != BLANK and ch in vowels)
        b = rack.count(BLANK)
        return cls(v, len(rack) - v - b, b)

    def meets(self, need: int) -> bool:
        """At least ``need`` vowels and ``need`` consonants, a blank counting as both."""
        return self.vowels + self.blanks >= need and self.consonants + self.blanks >= need


def required(move: int) -> int:
    """How many vowels and how many consonants the rack of ``move`` (1-based) must hold."""
    return 2 if move <= STRICT_MOVES else 1


def requirement(move: int, remaining: Counter[str], tiles: TileSet) -> int:
    """The rule for ``move`` given the tiles still to play (bag and kept tiles): :func:`required`, lowered to what
    they can still give."""
    mix = Mix.of("".join(remaining.elements()), tiles)
    return min(required(move), mix.vowels + mix.blanks, mix.consonants + mix.blanks)


def exhausted(remaining: Counter[str], tiles: TileSet) -> bool:
    """True when the tiles still to play hold no vowel or no consonant (blanks count as both): the game is over."""
    return not Mix.of("".join(remaining.elements()), tiles).meets(1)
