"""Building a minimal DAWG from a word list: the incremental algorithm for sorted input.

Daciuk, Mihov, Watson and Watson, "Incremental construction of minimal acyclic finite-state automata"
(Computational Linguistics 26(1), 2000). Words are added in increasing order of their code bytes; after each
word, the nodes of the previous word that are no longer on the common prefix can never change again, so each is
replaced by an equivalent node already in the register (same finality, same labelled edges to the same nodes)
or registered as new. The result is the minimal automaton for the word set.

A node is written to the edge arrays the moment it is registered: children are always registered before their
parents, so every edge target is known when its node is written.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable

from .alphabet import Alphabet
from .errors import BuildError
from .indexfile import MAX_EDGES, pack_node, write_index


class DawgBuilder:
    """Accumulates code-byte words in strictly increasing order and writes the minimal DAWG."""

    def __init__(self, alphabet: Alphabet) -> None:
        self.alphabet = alphabet
        self.labels = bytearray()
        self.targets = array("I")
        self.words = 0
        self.nodes = 0
        """Distinct nodes registered so far (the root counts once :meth:`finish` has run)."""
        self._register: dict[tuple[object, ...], int] = {}
        # The path of the last word: each entry [final, [label, child, label, child, ...]]; the last child of
        # every node but the deepest is the next node on the path (None until it is frozen).
        self._path: list[list] = [[False, []]]  # type: ignore[type-arg]
        self._previous = b""
        self._root: int | None = None

    def add(self, codes: bytes) -> None:
        """Add one word given as code bytes; it must sort after the previous word."""
        if self._root is not None:
            raise BuildError("the DAWG is finished; no more words can be added")
        if not codes:
            raise BuildError("the empty word cannot be stored")
        if codes <= self._previous:
            word = self.alphabet.decode(codes)
            before = self.alphabet.decode(self._previous)
            what = "twice" if codes == self._previous else f"after {before!r}"
            raise BuildError(f"words must be added in alphabet order without repeats: {word!r} came {what}")
        previous = self._previous
        common = 0
        limit = min(len(previous), len(codes))
        while common < limit and previous[common] == codes[common]:
            common += 1
        self._freeze_below(common)
        path = self._path
        for code in codes[common:]:
            path[-1][1].extend((code, None))
            path.append([False, []])
        path[-1][0] = True
        self._previous = codes
        self.words += 1

    def _freeze_below(self, depth: int) -> None:
        """Register (or replace by an equal registered node) every path node deeper than ``depth``."""
        path = self._path
        while len(path) > depth + 1:
            final, edges = path.pop()
            ref = self._intern(final, edges)
            path[-1][1][-1] = ref

    def _intern(self, final: bool, edges: list) -> int:  # type: ignore[type-arg]
        key = (final, *edges)
        ref = self._register.get(key)
        if ref is None:
            first = len(self.labels)
            count = len(edges) // 2
            if first + count > MAX_EDGES:
                raise BuildError(f"too many edges for the index format (more than {MAX_EDGES})")
            self.labels.extend(edges[0::2])
            self.targets.extend(edges[1::2])
            ref = pack_node(first, count, final)
            self._register[key] = ref
            self.nodes += 1
        return ref

    def finish(self) -> int:
        """Register the remaining path and return the root's packed reference."""
        if self._root is None:
            self._freeze_below(0)
            final, edges = self._path[0]
            self._root = self._intern(final, edges)
            self._register.clear()
        return self._root

    def to_bytes(self) -> bytes:
        """The index file's bytes (finishes the DAWG first)."""
        root = self.finish()
        return write_index(self.alphabet.letters, bytes(self.labels), self.targets, self.words, root)


PROGRESS_STEP = 65_536
"""Words added between two calls of ``build_index``'s ``progress``."""


def build_index(
    codes: Iterable[bytes], alphabet: Alphabet, progress: Callable[[int], object] | None = None
) -> tuple[bytes, int]:
    """The index bytes and node count of a minimal DAWG holding ``codes`` (words as code bytes, see
    :meth:`Alphabet.encode`; any order, repeats allowed). ``progress(n)`` is told every ``PROGRESS_STEP`` words
    (and the rest at the end) how many more were added: for a progress bar."""
    builder = DawgBuilder(alphabet)
    previous: bytes | None = None
    add = builder.add
    done = 0
    for word in sorted(codes):
        if word != previous:
            add(word)
            previous = word
        done += 1
        if progress is not None and done == PROGRESS_STEP:
            progress(done)
            done = 0
    if progress is not None and done:
        progress(done)
    data = builder.to_bytes()
    return data, builder.nodes


def encode_words(words: Iterable[str], alphabet: Alphabet) -> set[bytes]:
    """Lowercase words as code bytes; raises BuildError naming a word with a letter outside the alphabet."""
    out: set[bytes] = set()
    for word in words:
        codes = alphabet.encode(word)
        if codes is None:
            bad = "".join(alphabet.foreign_letters(word))
            raise BuildError(f"word {word!r} has letters outside the alphabet: {bad!r}")
        out.add(codes)
    return out
