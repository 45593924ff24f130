"""Tile sets as data and the tiles that lie on a board.

A tile set is read from a TOML file in ``engine/tilesets/`` (adding a language is a new file, not code).
A blank may stand for any letter, also one outside the set (W, Q, Ö in a Czech game).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from engine.collation import czech_key
from engine.errors import BadRack, UnknownLetter, UnknownTileSet

BLANK = "?"
"""How a blank is written on a rack (GCG convention)."""


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile as it lies on the board: its letter, and whether it is a blank standing for that letter."""

    letter: str
    blank: bool = False

    def __post_init__(self) -> None:
        if self.letter == BLANK and self.blank:
            return  # a blank whose letter has not been named yet (placement validation refuses it)
        if len(self.letter) != 1 or not self.letter.isalpha() or not self.letter.isupper():
            raise UnknownLetter(f"a tile needs one uppercase letter, got {self.letter!r}", self.letter)

    @property
    def named(self) -> bool:
        """False for a blank whose letter has not been named yet."""
        return self.letter != BLANK

    def notation(self) -> str:
        """GCG style: a blank is written in lowercase (an unnamed blank as ``?``)."""
        return self.letter.lower() if self.blank else self.letter

    @classmethod
    def from_notation(cls, text: str) -> Tile:
        """Parse one tile written GCG style (lowercase = blank, ``?`` = unnamed blank); raises UnknownLetter.

        Tiles are immutable values, so parsed tiles are shared (the placement path parses many)."""
        tile = _TILE_CACHE.get(text)
        if tile is not None:
            return tile
        if text == BLANK:
            tile = cls(BLANK, blank=True)
        elif len(text) != 1 or not text.isalpha():
            raise UnknownLetter(f"not a tile: {text!r}", text)
        else:
            tile = cls(text.upper(), blank=text.islower())
        if len(_TILE_CACHE) < 4096:
            _TILE_CACHE[text] = tile
        return tile

    @property
    def rack_letter(self) -> str:
        """The letter this tile takes on a rack: ``?`` for a blank."""
        return BLANK if self.blank else self.letter


_TILE_CACHE: dict[str, Tile] = {}


@dataclass(frozen=True)
class TileSet:
    """The letters of one language's set with their counts and points, in drawing (alphabet) order."""

    name: str
    language: str
    letters: tuple[str, ...]
    counts: dict[str, int] = field(hash=False)
    points: dict[str, int] = field(hash=False)
    blanks: int = 2

    @property
    def size(self) -> int:
        """Number of tiles in the set, blanks included."""
        return sum(self.counts.values()) + self.blanks

    def value(self, tile: Tile) -> int:
        """Face value of a tile on the board: 0 for a blank."""
        if tile.blank:
            return 0
        try:
            return self.points[tile.letter]
        except KeyError:
            raise UnknownLetter(
                f"letter {tile.letter!r} is not in the {self.name} tile set", tile.letter, self.name
            ) from None

    def rack_value(self, rack: str) -> int:
        """Sum of face values of a rack written as letters with ``?`` for blanks."""
        total = 0
        for letter in rack:
            if letter == BLANK:
                continue
            if letter not in self.points:
                raise UnknownLetter(
                    f"letter {letter!r} in rack {rack!r} is not in the {self.name} tile set", letter, self.name
                )
            total += self.points[letter]
        return total

    def bag(self) -> Counter[str]:
        """All tiles of the set as a multiset of rack letters (blanks as ``?``)."""
        bag = Counter(self.counts)
        bag[BLANK] = self.blanks
        return bag

    def check_rack(self, rack: str, size: int, laid: Iterable[Tile] = ()) -> str:
        """A rack as typed (any case, ``?`` = blank) in uppercase; raises :class:`BadRack` for a letter the set does
        not hold, more than ``size`` tiles, or more of a letter (or of blanks) than the whole set has (kind
        ``count``), or than the set has off the board when ``laid`` gives the tiles on it (kind ``unseen``: a
        third blank, a second Ď when the only Ď is down; ``limit`` is how many are left off the board)."""
        upper = rack.upper()
        for letter in upper:
            if letter != BLANK and letter not in self.counts:
                raise BadRack(
                    f"letter {letter!r} of rack {rack!r} is not in the {self.name} tile set", "letter", rack, self.name, letter
                )
        if len(upper) > size:
            raise BadRack(
                f"rack {rack!r} has {len(upper)} tiles, at most {size}", "size", rack, self.name, "", len(upper), size
            )
        bag = self.bag()
        for letter, count in sorted(Counter(upper).items()):
            if count > bag[letter]:
                raise BadRack(
                    f"rack {rack!r} has {count} x {letter}, the {self.name} set only {bag[letter]}",
                    "count",
                    rack,
                    self.name,
                    letter,
                    count,
                    bag[letter],
                )
        on_board = Counter(tile.rack_letter for tile in laid)
        for letter, count in sorted(Counter(upper).items()):
            left = bag[letter] - on_board[letter]
            if count > left:
                raise BadRack(
                    f"rack {rack!r} has {count} x {letter}, but {on_board[letter]} of the {self.name} set's "
                    f"{bag[letter]} are on the board: {max(left, 0)} left",
                    "unseen",
                    rack,
                    self.name,
                    letter,
                    count,
                    max(left, 0),
                )
        return upper

    def order(self, letter: str) -> int:
        """Position of a letter in drawing order (a < á < b ...); a blank sorts after every letter."""
        if letter == BLANK:
            return len(self.letters)
        try:
            return self.letters.index(letter)
        except ValueError:
            raise UnknownLetter(
                f"letter {letter!r} is not in the {self.name} tile set", letter, self.name
            ) from None

    def sort_key(self, word: str) -> tuple[object, ...]:
        """Key that sorts words in this set's language's alphabetical order: Czech collation for a Czech set
        (``ch`` after ``h``, accents at the second level: :mod:`engine.collation`), else the set's letter order
        (letters outside the set last)."""
        if self.language == "cs":
            return czech_key(word)
        n = len(self.letters)
        return tuple(self.letters.index(ch) if ch in self.counts else n + ord(ch) for ch in word.upper())

    def check_square(self) -> list[str]:
        """The 100 tiles in the order they are laid out in the 10x10 check square (row by row)."""
        square = [letter for letter in self.letters for _ in range(self.counts[letter])]
        return square + [BLANK] * self.blanks


def available_tile_sets() -> list[str]:
    """Names of the tile sets that have a data file."""
    folder = resources.files("engine") / "tilesets"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def tile_set(name: str = "czech") -> TileSet:
    """Load a tile set by name (``czech`` is the default)."""
    path = resources.files("engine") / "tilesets" / f"{name}.toml"
    if not path.is_file():
        raise UnknownTileSet(f"unknown tile set {name!r}; known: {', '.join(available_tile_sets())}")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    letters = tuple(entry[0] for entry in data["letters"])
    return TileSet(
        name=data["name"],
        language=data["language"],
        letters=letters,
        counts={entry[0]: int(entry[1]) for entry in data["letters"]},
        points={entry[0]: int(entry[2]) for entry in data["letters"]},
        blanks=int(data.get("blanks", 2)),
    )
