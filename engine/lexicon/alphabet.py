"""The letters a lexicon word may use and their one-byte codes in the index.

Words are stored as bytes: the n-th letter of the alphabet (Czech tile order, ``a`` < ``á`` < ``b`` ...) is
byte ``n + 1``. Sorting the encoded bytes therefore sorts words in the tile set's alphabet order, which is the
order the DAWG builder needs. Code 0 is never used.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.tiles import tile_set

MAX_LETTERS = 63
"""An index stores letter codes in 6 bits."""

_FOREIGN = "\x7f"


@dataclass(frozen=True)
class Alphabet:
    """A lowercase alphabet with a word <-> code-bytes mapping."""

    letters: str
    _codes: dict[int, int] = field(init=False, repr=False, compare=False, hash=False)
    _table: dict[int, str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.letters or len(self.letters) > MAX_LETTERS:
            raise ValueError(f"an alphabet needs 1..{MAX_LETTERS} letters, got {len(self.letters)}")
        if len(set(self.letters)) != len(self.letters) or self.letters != self.letters.lower():
            raise ValueError(f"alphabet letters must be distinct and lowercase: {self.letters!r}")
        codes = {ord(ch): i + 1 for i, ch in enumerate(self.letters)}
        object.__setattr__(self, "_codes", codes)
        # encode() translates letters to code characters and every other ASCII character to _FOREIGN; a
        # non-ASCII character that is no letter stays as it is. Either way the result is then not pure codes.
        table = {c: _FOREIGN for c in range(128)}
        table.update((char, chr(code)) for char, code in codes.items())
        object.__setattr__(self, "_table", table)

    def __contains__(self, letter: object) -> bool:
        return isinstance(letter, str) and len(letter) == 1 and ord(letter) in self._codes

    def foreign_letters(self, word: str) -> list[str]:
        """The characters of ``word`` (already lowercase) that are not letters of this alphabet."""
        return [ch for ch in word if ord(ch) not in self._codes]

    def encode(self, word: str) -> bytes | None:
        """The code bytes of a lowercase word, or None if a character is not in the alphabet."""
        coded = word.translate(self._table)
        if not coded.isascii() or _FOREIGN in coded:
            return None
        return coded.encode("ascii")

    def decode(self, codes: bytes) -> str:
        """The word that :meth:`encode` turned into ``codes``."""
        letters = self.letters
        return "".join(letters[c - 1] for c in codes)


def czech_alphabet() -> Alphabet:
    """The 39 letters of the Czech tile set, lowercase, in the tile set's alphabet order."""
    return Alphabet("".join(tile_set("czech").letters).lower())
