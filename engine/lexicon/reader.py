"""The lexicon the table asks at a challenge: a pure-Python reader of the index file.

A lookup walks the index's lookup table (:mod:`engine.lexicon.doublearray`), a double array over the UTF-8 bytes
of the words: ``word.encode()`` (one C call), the state after the first ``PREFIX_BYTES`` bytes from a dict, then
one array read, a mask and a comparison per remaining byte, no search. Upper case goes the slow way (lowercased,
walked again) only when the fast walk fails. The DAWG's edge runs serve listing the words. No compiled extension
is needed, so the same code runs on a Raspberry Pi of any CPU.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from .alphabet import Alphabet
from .doublearray import DoubleArray
from .errors import MalformedLexicon
from .indexfile import read_index_file

Status = Literal["known", "unknown"]
KNOWN: Status = "known"
UNKNOWN: Status = "unknown"

_MAX_DEPTH = 64
"""No stored word is longer; a longer path means a damaged (cyclic) index."""

PREFIX_BYTES = 4
"""The lookup state after a word's first bytes (up to this many) is remembered in a dict the first time a word
with that prefix is looked up: at most one entry per prefix the index holds (17,887 of 4 bytes, about 2 MB, for
the Czech index), so the dict stays bounded whatever is asked."""


class Lexicon:
    """A read-only word set loaded from an index file. It flags words; it never decides a challenge.

    ``word in lexicon`` is case-insensitive (as ``str.lower`` folds case); a word with a character outside the
    alphabet is not in it.
    """

    def __init__(
        self,
        alphabet: str,
        labels: bytes,
        targets: array[int],
        words: int,
        root: int,
        lookup: DoubleArray,
        source: str,
    ) -> None:
        self.alphabet = Alphabet(alphabet)
        self.source = source
        self._labels = labels
        self._targets = targets
        self._words = words
        self._root = root
        self._start = lookup.start
        self._prefixes: dict[bytes, int] = {}
        # What a lookup needs, in one attribute: unpacking a tuple beats two attribute loads per call.
        self._lookup = (self._prefixes, lookup.slots)

    @classmethod
    def load(cls, path: str | Path) -> Lexicon:
        """Read an index file written by ``partiar lexicon build``.

        Raises OSError if the file cannot be read and MalformedLexicon if it is not a valid index.
        """
        path = Path(path)
        return cls.from_bytes(path.read_bytes(), str(path))

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "<bytes>") -> Lexicon:
        """A lexicon from index bytes; ``source`` names them in error messages."""
        alphabet, labels, targets, words, root, lookup = read_index_file(data, source)
        if lookup is None:
            raise MalformedLexicon(
                f"{source}: an index of version 1, without the lookup table this reader needs:"
                " rebuild it with `partiar lexicon build`"
            )
        try:
            return cls(alphabet, labels, targets, words, root, lookup, source)
        except ValueError as exc:
            raise MalformedLexicon(f"{source}: bad alphabet: {exc}") from None

    def __len__(self) -> int:
        return self._words

    def __repr__(self) -> str:
        return f"<Lexicon {self.source} words={self._words} edges={len(self._labels)}>"

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        prefixes, slots = self._lookup
        try:
            codes = word.encode()
        except UnicodeEncodeError:  # a lone surrogate: no letter
            return False
        state = prefixes.get(codes[:PREFIX_BYTES])
        if state is None:  # a prefix not seen yet, or none the index has, or upper case
            return self._walk(word.lower())
        try:
            for byte in codes[PREFIX_BYTES:]:
                entry = slots[state + byte]
                if entry & 255 != byte:
                    lower = word.lower()  # only a lowercase word is in the index
                    return lower != word and self._walk(lower)
                state = entry >> 8
        except IndexError:
            raise MalformedLexicon(f"{self.source}: a lookup slot past the end of the index") from None
        return state & 1 == 1

    def _walk(self, word: str) -> bool:
        """Whether the lowercase ``word`` is in the index, walked from the start state; remembers the state after
        its first ``PREFIX_BYTES`` bytes if the index has that prefix."""
        prefixes, slots = self._lookup
        try:
            codes = word.encode()
        except UnicodeEncodeError:
            return False
        state = self._start
        try:
            for depth, byte in enumerate(codes):
                if depth == PREFIX_BYTES:
                    prefixes[codes[:PREFIX_BYTES]] = state
                entry = slots[state + byte]
                if entry & 255 != byte:
                    return False
                state = entry >> 8
        except IndexError:
            raise MalformedLexicon(f"{self.source}: a lookup slot past the end of the index") from None
        if len(codes) <= PREFIX_BYTES:
            prefixes[codes] = state
        return state & 1 == 1

    def status(self, word: str) -> Status:
        """``"known"`` if the word is in the lexicon, else ``"unknown"`` (for the referee to look up)."""
        if not isinstance(word, str):
            raise TypeError(f"a word must be a str, not {type(word).__name__}")
        return KNOWN if word in self else UNKNOWN

    def __iter__(self) -> Iterator[str]:
        """Every word, in alphabet order (for tests and exports; not fast). Raises MalformedLexicon on an edge
        past the end or a cycle."""
        letters = " " + self.alphabet.letters  # letter code n is letters[n]
        labels = self._labels
        targets = self._targets
        stack: list[tuple[int, str]] = [(self._root, "")]
        try:
            while stack:
                ref, prefix = stack.pop()
                if ref & 1 and prefix:
                    yield prefix
                if len(prefix) >= _MAX_DEPTH:
                    raise MalformedLexicon(f"{self.source}: a path longer than {_MAX_DEPTH} letters (a cycle?)")
                first = ref >> 7
                for i in range(first + (ref >> 1 & 63) - 1, first - 1, -1):
                    stack.append((targets[i], prefix + letters[labels[i]]))
        except IndexError:
            raise MalformedLexicon(f"{self.source}: an edge points past the end of the index") from None

    def node_count(self) -> int:
        """Number of distinct nodes reachable from the root (the root included)."""
        seen = {self._root}
        stack = [self._root]
        targets = self._targets
        try:
            while stack:
                ref = stack.pop()
                first = ref >> 7
                for i in range(first, first + (ref >> 1 & 63)):
                    child = targets[i]
                    if child not in seen:
                        seen.add(child)
                        stack.append(child)
        except IndexError:
            raise MalformedLexicon(f"{self.source}: an edge points past the end of the index") from None
        return len(seen)
