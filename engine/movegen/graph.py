"""The word graph the move generator walks: the lexicon's DAWG index, read as it is on disk.

The index (:mod:`engine.lexicon.indexfile`) is a minimal DAWG whose nodes are runs of edges sorted by letter code.
The generator asks two things of a node: its children (letter code -> node) and whether a word ends there. Both are
answered from the two flat buffers of the index; a node's children are turned into a dict the first time they
are asked for and kept, so a generation pays the unpacking only for the nodes it visits.
"""

from __future__ import annotations

from array import array
from pathlib import Path

from engine.lexicon.errors import MalformedLexicon
from engine.lexicon.indexfile import read_index


class WordGraph:
    """A read-only DAWG: letter codes ``1..len(alphabet)`` (the n-th alphabet letter is code n).

    ``root`` is the root node; :meth:`children` maps a node to ``{code: child}``; :meth:`final` says whether a
    word ends at a node. Nodes are the index's packed references (ints).
    """

    __slots__ = ("_cache", "_labels", "_masks", "_targets", "alphabet", "cached", "cached_masks", "root", "source", "words")

    def __init__(
        self, alphabet: str, labels: bytes, targets: array[int], words: int, root: int, source: str
    ) -> None:
        self.alphabet = alphabet
        """The lowercase letters; code ``n`` is ``alphabet[n - 1]``."""
        self.source = source
        self.words = words
        self.root = root
        self._labels = labels
        self._targets = targets
        self._cache: dict[int, dict[int, int]] = {}
        self.cached = self._cache
        """The children of the nodes unpacked so far (``cached.get(node) or children(node)`` in a hot loop)."""
        self._masks: dict[int, int] = {}
        self.cached_masks = self._masks
        """The child masks computed so far (``cached_masks.get(node)``, else :meth:`child_mask`)."""

    @classmethod
    def load(cls, path: str | Path) -> WordGraph:
        """Read an index file (``partiar lexicon build``); raises OSError or MalformedLexicon."""
        path = Path(path)
        return cls.from_bytes(path.read_bytes(), str(path))

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "<bytes>") -> WordGraph:
        """A graph from index bytes; raises MalformedLexicon naming ``source``."""
        alphabet, labels, targets, words, root = read_index(data, source)
        return cls(alphabet, labels, targets, words, root, source)

    def children(self, node: int) -> dict[int, int]:
        """``{letter code: child node}`` of a node (shared: do not change it)."""
        kids = self._cache.get(node)
        if kids is None:
            first = node >> 7
            end = first + (node >> 1 & 63)
            if end > len(self._labels):
                raise MalformedLexicon(f"{self.source}: an edge points past the end of the index")
            kids = dict(zip(self._labels[first:end], self._targets[first:end], strict=True))
            self._cache[node] = kids
        return kids

    def child_mask(self, node: int) -> int:
        """Bit ``c`` set for every letter code ``c`` a node has a child for."""
        mask = self._masks.get(node)
        if mask is None:
            mask = 0
            for code in self.children(node):
                mask |= 1 << code
            self._masks[node] = mask
        return mask

    def buffers(self) -> tuple[bytes, array[int]]:
        """The index's two flat buffers as they are on disk: each edge's letter code, and the node it leads to
        (what the compiled search loop walks, :mod:`engine.movegen.fast`)."""
        return self._labels, self._targets

    @staticmethod
    def final(node: int) -> bool:
        """True if a word ends at this node."""
        return bool(node & 1)

    def walk(self, codes: list[int] | tuple[int, ...] | bytes, node: int | None = None) -> int | None:
        """The node reached from ``node`` (default: the root) by the letter codes, or None if there is none."""
        ref = self.root if node is None else node
        for code in codes:
            nxt = self.children(ref).get(code)
            if nxt is None:
                return None
            ref = nxt
        return ref

    def __contains__(self, word: object) -> bool:
        """``word in graph`` for a lowercase word (a letter outside the alphabet is never in it)."""
        if not isinstance(word, str) or not word:
            return False
        codes = []
        for ch in word:
            i = self.alphabet.find(ch)
            if i < 0:
                return False
            codes.append(i + 1)
        ref = self.walk(codes)
        return ref is not None and bool(ref & 1)

    def __repr__(self) -> str:
        return f"<WordGraph {self.source} words={self.words}>"
