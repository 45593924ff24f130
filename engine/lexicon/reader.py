"""The lexicon the table asks at a challenge: a pure-Python reader of the DAWG index file.

The whole index lives in two flat buffers (the edge labels as a ``str`` and an ``array('I')`` of packed edge
targets, see :mod:`engine.lexicon.indexfile`), so loading is a read, a checksum and two copies. The labels are
decoded to their letters at load time (one C call), so a lookup only lowercases the word, finds the node of its
first three letters in a small dict and then does one ``str.find`` per letter over the current node's few edges. No compiled extension is needed, so the same code
runs on a Raspberry Pi of any CPU.
"""

from __future__ import annotations

import codecs
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from .alphabet import Alphabet
from .errors import MalformedLexicon
from .indexfile import read_index

Status = Literal["known", "unknown"]
KNOWN: Status = "known"
UNKNOWN: Status = "unknown"

_MAX_DEPTH = 64
"""No stored word is longer; a longer path means a damaged (cyclic) index."""

PREFIX_DEPTH = 3
"""Nodes reached by every prefix of up to this many letters are looked up in a dict built at load time."""


class Lexicon:
    """A read-only word set loaded from an index file. It flags words; it never decides a challenge.

    ``word in lexicon`` is case-insensitive (as ``str.lower`` folds case); a word with a character outside the
    alphabet is not in it.
    """

    def __init__(self, alphabet: str, labels: bytes, targets: array[int], words: int, root: int, source: str) -> None:
        self.alphabet = Alphabet(alphabet)
        self.source = source
        # Labels decoded to the letters themselves (one C call through a code -> letter table): a lookup searches
        # them with the lowercased word, no translation of the word to codes.
        decoding = ["\ufffe"] * 256  # undefined: a code outside the alphabet
        for code, letter in enumerate(self.alphabet.letters, 1):
            decoding[code] = letter
        try:
            self._labels = codecs.charmap_decode(labels, "strict", "".join(decoding))[0]
        except UnicodeDecodeError as exc:
            raise MalformedLexicon(f"{source}: edge label {labels[exc.start]} outside the alphabet") from None
        self._targets = targets
        self._words = words
        self._root = root
        try:
            self._prefixes = self._prefix_nodes(PREFIX_DEPTH)
        except IndexError:
            raise MalformedLexicon(f"{source}: an edge points past the end of the index") from None
        # What a lookup needs, in one attribute: unpacking a tuple beats three attribute loads per call.
        self._lookup = (self._prefixes, self._labels.find, targets)

    def _prefix_nodes(self, depth: int) -> dict[str, int]:
        """The node reference reached by every code prefix of 1..depth letters that leads somewhere."""
        labels = self._labels
        targets = self._targets
        out: dict[str, int] = {}
        stack: list[tuple[int, str]] = [(self._root, "")]
        while stack:
            ref, prefix = stack.pop()
            if prefix:
                out[prefix] = ref
            if len(prefix) < depth:
                first = ref >> 7
                for i in range(first, first + (ref >> 1 & 63)):
                    stack.append((targets[i], prefix + labels[i]))
        return out

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
        alphabet, labels, targets, words, root = read_index(data, source)
        try:
            return cls(alphabet, labels, targets, words, root, source)
        except ValueError as exc:
            raise MalformedLexicon(f"{source}: bad alphabet: {exc}") from None

    def __len__(self) -> int:
        return self._words

    def __repr__(self) -> str:
        return f"<Lexicon {self.source} words={self._words} edges={len(self._labels)}>"

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        prefixes, find, targets = self._lookup
        letters = word.lower()  # a character outside the alphabet matches no label
        if len(letters) <= PREFIX_DEPTH:
            return bool(prefixes.get(letters, 0) & 1)
        ref = prefixes.get(letters[:PREFIX_DEPTH])
        if ref is None:
            return False
        try:
            for letter in letters[PREFIX_DEPTH:]:
                first = ref >> 7
                i = find(letter, first, first + (ref >> 1 & 63))
                if i < 0:
                    return False
                ref = targets[i]
        except IndexError:
            raise MalformedLexicon(f"{self.source}: an edge points past the end of the index") from None
        return bool(ref & 1)

    def status(self, word: str) -> Status:
        """``"known"`` if the word is in the lexicon, else ``"unknown"`` (for the referee to look up)."""
        if not isinstance(word, str):
            raise TypeError(f"a word must be a str, not {type(word).__name__}")
        return KNOWN if word in self else UNKNOWN

    def __iter__(self) -> Iterator[str]:
        """Every word, in alphabet order (for tests and exports; not fast)."""
        labels = self._labels
        targets = self._targets
        stack: list[tuple[int, str]] = [(self._root, "")]
        while stack:
            ref, prefix = stack.pop()
            if ref & 1 and prefix:
                yield prefix
            if len(prefix) >= _MAX_DEPTH:
                raise MalformedLexicon(f"{self.source}: a path longer than {_MAX_DEPTH} letters (a cycle?)")
            first = ref >> 7
            for i in range(first + (ref >> 1 & 63) - 1, first - 1, -1):
                stack.append((targets[i], prefix + labels[i]))

    def node_count(self) -> int:
        """Number of distinct nodes reachable from the root (the root included)."""
        seen = {self._root}
        stack = [self._root]
        targets = self._targets
        while stack:
            ref = stack.pop()
            first = ref >> 7
            for i in range(first, first + (ref >> 1 & 63)):
                child = targets[i]
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        return len(seen)
