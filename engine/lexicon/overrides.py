"""Word list files an organiser adds to the lexicon: plain UTF-8, one word a line.

A line ``word`` or ``+word`` adds the word, ``-word`` removes it; ``#`` starts a comment, blank lines are
ignored. Words are lowercased. Files are applied in the order given, line by line, so a later line wins over an
earlier one (``-kočka`` then ``+kočka`` leaves the word in).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .alphabet import Alphabet
from .errors import OverrideError

MIN_LENGTH = 2
MAX_LENGTH = 15
"""Words on a 15x15 board have 2..15 letters."""


@dataclass(frozen=True)
class Override:
    """One word to add (``add=True``) or remove, with where it was written."""

    word: str
    add: bool
    origin: str

    def line(self) -> str:
        """The line that writes this override."""
        return ("+" if self.add else "-") + self.word


def check_word(word: str, alphabet: Alphabet, origin: str) -> str:
    """The word lowercased; raises OverrideError naming ``origin`` if it is not a storable Scrabble word."""
    lowered = word.lower()
    if not MIN_LENGTH <= len(lowered) <= MAX_LENGTH:
        raise OverrideError(f"{origin}: {word!r} has {len(lowered)} letters; a word has {MIN_LENGTH}..{MAX_LENGTH}")
    foreign = alphabet.foreign_letters(lowered)
    if foreign:
        shown = ", ".join(repr(ch) for ch in dict.fromkeys(foreign))
        raise OverrideError(f"{origin}: {word!r} has characters that are not Czech tile letters: {shown}")
    return lowered


def without_comment(line: str) -> str:
    """A list file's line without its ``#`` comment and surrounding blanks ('' for a comment or blank line): the
    organiser's lists and a curated ``--source`` list read comments alike."""
    return line.split("#", 1)[0].strip()


def parse_overrides(text: str, source: str, alphabet: Alphabet) -> list[Override]:
    """The overrides of one file's text; raises OverrideError naming ``source`` and the line."""
    out: list[Override] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = without_comment(raw)
        if not line:
            continue
        origin = f"{source}:{number}"
        add = not line.startswith("-")
        word = line[1:].strip() if line[0] in "+-" else line
        if not word:
            raise OverrideError(f"{origin}: {raw.strip()!r} has a sign but no word")
        if len(word.split()) > 1:
            raise OverrideError(f"{origin}: {raw.strip()!r} holds more than one word; write one word a line")
        out.append(Override(check_word(word, alphabet, origin), add, origin))
    return out


def apply_overrides(codes: set[bytes], overrides: Iterable[Override], alphabet: Alphabet) -> set[bytes]:
    """Apply overrides in order to a set of code-byte words (changed in place and returned)."""
    for override in overrides:
        word = alphabet.encode(override.word)
        if word is None:
            raise OverrideError(f"{override.origin}: {override.word!r} has letters outside the alphabet")
        if override.add:
            codes.add(word)
        else:
            codes.discard(word)
    return codes
