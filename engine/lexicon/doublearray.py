"""The lookup table of an index: the DAWG again, as a double array over the UTF-8 bytes of its words.

The DAWG's edge runs (:mod:`engine.lexicon.indexfile`) are what the move generator enumerates; a membership test
only ever asks "has this node an edge for this letter?", which on edge runs costs a search per letter. The double
array (Aoe, "An efficient digital search algorithm by using a double-array structure", IEEE TSE 15(9), 1989; the
label check of darts-clone) answers it with one array read and no search::

    entry = slots[base + byte]
    if entry & 255 != byte: no such edge
    base = entry >> 8

Every state has a ``base``; its edge for ``byte`` sits in slot ``base + byte``, whose low byte (the *check*) holds
the byte and whose upper 24 bits hold the base of the state the edge leads to; a free slot is 0. Bases are
distinct, so a slot whose check equals the byte can only be the edge of this state: the lookup is exact. A
state's base is odd exactly when a word ends there, so finality costs nothing extra.

The labels are the UTF-8 bytes of the letters, so a lookup walks ``word.encode()`` (one C call) instead of
translating the word to letter codes; a two-byte letter (á, č, ř ...) passes through one intermediate state per
distinct group of continuation bytes. UTF-8 is self-synchronising, so only the bytes of a word made of the
alphabet's letters can spell a path.

Placing the states is first-fit over the free slots (a regular expression per label pattern finds candidate
positions at C speed), in depth-first order from the start state, looking back at most ``WINDOW`` slots from the
end of the filled part: about 97 % of the slots hold an edge for the Czech index, and the placement takes a few
seconds.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from typing import NamedTuple

from .errors import BuildError

SPAN = 256
"""A state's slots lie in ``base .. base + 255``; the table is padded so that every base has all of them."""
MAX_SLOTS = 1 << 24
"""A slot holds a base in 24 bits."""
WINDOW = 4096
"""How far behind the end of the filled part the placement still looks for free slots."""


Edges = list[list[tuple[int, int]]]
"""Per state, its ``(byte, state)`` edges."""


class DoubleArray(NamedTuple):
    """A double array: ``slots`` (``next base << 8 | check byte`` each, 0 = free), at least ``SPAN`` past the
    highest base, and the start state's base."""

    slots: array[int]
    start: int


def utf8_states(
    alphabet: str, labels: bytes, targets: Sequence[int], root: int
) -> tuple[Edges, list[bool]]:
    """The DAWG rooted at packed reference ``root`` as an automaton over UTF-8 bytes.

    Returns ``(edges, final)``: state 0 is the root; ``edges[s]`` is the sorted ``[(byte, state), ...]`` of state
    ``s``, ``final[s]`` whether a word ends there. The DAWG's nodes come first (breadth first from the root), then
    the intermediate states inside multi-byte letters, each distinct one once. Raises IndexError if an edge
    points outside ``labels`` or a label outside the alphabet.
    """
    encoded = [b""] + [letter.encode() for letter in alphabet]
    ids = {root: 0}
    nodes = [root]
    k = 0
    while k < len(nodes):  # number the nodes
        ref = nodes[k]
        k += 1
        first = ref >> 7
        for child in targets[first : first + (ref >> 1 & 63)]:
            if child not in ids:
                ids[child] = len(nodes)
                nodes.append(child)
    edges: Edges = []
    final = [bool(ref & 1) for ref in nodes]
    inner: dict[tuple[tuple[int, int], ...], int] = {}  # the edges of an intermediate state -> the state

    def edges_of(branch: dict[int, object]) -> list[tuple[int, int]]:
        """The sorted edges of a trie branch (byte -> state, or byte -> a deeper branch made a state once)."""
        out = []
        for byte, sub in branch.items():
            out.append((byte, sub if isinstance(sub, int) else state_of(sub)))  # type: ignore[arg-type]
        return sorted(out)

    def state_of(branch: dict[int, object]) -> int:
        out = tuple(edges_of(branch))
        state = inner.get(out)
        if state is None:
            state = inner[out] = len(nodes) + len(inner)
        return state

    for ref in nodes:
        first = ref >> 7
        trie: dict[int, object] = {}
        for i in range(first, first + (ref >> 1 & 63)):
            code = encoded[labels[i]]
            branch = trie
            for byte in code[:-1]:
                branch = branch.setdefault(byte, {})  # type: ignore[assignment]
            branch[code[-1]] = ids[targets[i]]
        edges.append(edges_of(trie))
    edges.extend(list(out) for out in inner)  # dicts keep insertion order: state len(nodes) + n is the n-th
    final.extend(False for _ in inner)
    return edges, final


def depth_first(edges: Edges, final: list[bool]) -> tuple[Edges, list[bool]]:
    """The same automaton with its states renumbered in depth-first preorder from state 0 (edges in byte order):
    placed in that order, the slots a word's walk visits lie close together (fewer cache misses per lookup, and
    a denser table than breadth-first order)."""
    number = [-1] * len(edges)
    order: list[int] = []
    stack = [0]
    while stack:
        state = stack.pop()
        if number[state] >= 0:
            continue
        number[state] = len(order)
        order.append(state)
        stack.extend(child for _, child in reversed(edges[state]) if number[child] < 0)
    return [[(byte, number[child]) for byte, child in edges[state]] for state in order], [final[s] for s in order]


def _pattern(bytes_: list[int]) -> re.Pattern[bytes]:
    """A regular expression matching free slots (zero bytes) at the offsets of ``bytes_`` from the first one."""
    parts = [b"\\x00"]
    for before, byte in zip(bytes_, bytes_[1:], strict=False):
        if byte - before > 1:
            parts.append(b".{%d}" % (byte - before - 1))
        parts.append(b"\\x00")
    return re.compile(b"".join(parts), re.DOTALL)


def place(edges: Edges, final: list[bool]) -> list[int]:
    """A base for every state: distinct, odd exactly for final states, each state's slots free of other edges."""
    used = bytearray(1 << 16)  # 1: the slot holds an edge
    taken = bytearray(1 << 16)  # 1: the position is some state's base
    bases = [-1] * len(edges)
    searches: dict[tuple[bytes, bool], tuple[re.Pattern[bytes], int]] = {}
    first_free = 0
    end = 0  # one past the highest slot in use
    for state, out in enumerate(edges):
        if not out:
            continue  # based later, anywhere: it has no slot
        labels = [byte for byte, _ in out]
        parity = final[state]
        key = (bytes(labels), parity)
        found = searches.get(key)
        pattern, pos = found if found is not None else (_pattern(labels), 0)
        # a pattern's earlier candidates stay unusable (slots only fill up): go on from its last position
        pos = max(pos, first_free, end - WINDOW, labels[0])
        while True:
            if pos + 2 * SPAN > len(used):
                used.extend(bytes(len(used)))
                taken.extend(bytes(len(taken)))
            match = pattern.search(used, pos)
            assert match is not None  # the zero bytes past ``end`` always match
            pos = match.start()
            base = pos - labels[0]
            if (base & 1) == parity and not taken[base]:
                break
            pos += 1
        searches[key] = (pattern, pos + 1)
        bases[state] = base
        taken[base] = 1
        for byte in labels:
            used[base + byte] = 1
        end = max(end, base + labels[-1] + 1)
        if used[first_free]:
            first_free = used.find(0, first_free)
    spare = 0
    for state, base in enumerate(bases):
        if base < 0:  # a state without edges (the DAWG's one sink): any base of its parity nobody has
            while spare < len(taken) and taken[spare] or (spare & 1) != final[state]:
                spare += 1
            if spare == len(taken):
                taken.extend(bytes(len(taken)))
            bases[state] = spare
            taken[spare] = 1
    return bases


def build_double_array(alphabet: str, labels: bytes, targets: Sequence[int], root: int) -> DoubleArray:
    """The double array of the DAWG rooted at ``root`` (see the module docstring); raises BuildError if it needs
    more than ``MAX_SLOTS`` slots."""
    edges, final = depth_first(*utf8_states(alphabet, labels, targets, root))
    bases = place(edges, final)
    size = max(bases) + SPAN
    if size > MAX_SLOTS:
        raise BuildError(f"the lookup table needs {size} slots, more than the index format's {MAX_SLOTS}")
    slots = array("I", bytes(4 * size))
    for state, out in enumerate(edges):
        base = bases[state]
        for byte, child in out:
            slots[base + byte] = bases[child] << 8 | byte
    return DoubleArray(slots, bases[0])
