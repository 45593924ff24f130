"""The on-disk layout of a lexicon index (a minimal DAWG and its lookup table), shared by the builder and the
readers.

Layout (all integers little-endian)::

    magic      8 bytes  b"PARTIDAW"
    version    u16      2
    alph_len   u16      length of the alphabet in UTF-8 bytes
    edges      u32      number of edges E
    words      u32      number of words
    root       u32      the root node as a packed node reference (below)
    crc32      u32      CRC-32 of everything after the alphabet
    slots      u32      number of lookup slots S                        (version 2)
    start      u32      the lookup's start state                        (version 2)
    alphabet   alph_len bytes, UTF-8
    labels     E bytes: the letter code of each edge
    targets    E u32: the packed node reference each edge leads to
    slots      S u32: the lookup's slots, ``next base << 8 | check byte``  (version 2)

The body is stored uncompressed (5 bytes an edge plus 4 a slot; 2.76 MB for the full Czech list) so that
loading is a read, a checksum and a few copies, also on a Pi Zero.

A node is a run of consecutive edges, sorted by label. A *packed node reference* is
``first_edge << 7 | edge_count << 1 | final``: where the node's edges start, how many there are (0..63) and
whether a word may end at the node. Edge ``i`` leads with letter code ``labels[i]`` to node ``targets[i]``. The
move generator walks these runs (:func:`read_index`).

The lookup table (version 2) is the same automaton as a double array over the words' UTF-8 bytes
(:mod:`engine.lexicon.doublearray`), what the referee's :class:`~engine.lexicon.Lexicon` asks. A version 1 file
(no lookup table) still gives the move generator its DAWG; the lexicon asks for it to be rebuilt.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from typing import NamedTuple

from .doublearray import MAX_SLOTS, SPAN, DoubleArray, build_double_array
from .errors import MalformedLexicon

MAGIC = b"PARTIDAW"
VERSION = 2
OLDEST_VERSION = 1
"""Version 1 files (no lookup table) are still read for their DAWG."""
HEADER = struct.Struct("<8sHHIIII")
LOOKUP_HEADER = struct.Struct("<II")
"""Slots and start state of the lookup table, right after the header (version 2)."""
MAX_EDGES = (1 << 25) - 1
"""``first_edge`` has 25 bits in a packed reference."""


def pack_node(first_edge: int, edge_count: int, final: bool) -> int:
    """The packed reference of a node (see the module docstring)."""
    return first_edge << 7 | edge_count << 1 | int(final)


class IndexContents(NamedTuple):
    """What an index file holds; ``lookup`` is None in a version 1 file."""

    alphabet: str
    labels: bytes
    targets: array[int]
    words: int
    root: int
    lookup: DoubleArray | None


def _little(values: array[int]) -> bytes:
    little = array("I", values)
    if sys.byteorder == "big":
        little.byteswap()
    return little.tobytes()


def write_index(
    alphabet: str, labels: bytes, targets: array[int], words: int, root: int, lookup: DoubleArray | None = None
) -> bytes:
    """The bytes of an index file; its lookup table is built from the DAWG unless given."""
    if len(labels) != len(targets):
        raise ValueError(f"{len(labels)} labels but {len(targets)} targets")
    if lookup is None:
        lookup = build_double_array(alphabet, labels, targets, root)
    slots = len(lookup.slots)
    if slots < SPAN or slots > MAX_SLOTS or lookup.start > slots - SPAN:
        raise ValueError(f"a lookup table of {slots} slots starting at {lookup.start} does not fit")
    body = bytes(labels) + _little(targets) + _little(lookup.slots)
    alph = alphabet.encode("utf-8")
    header = HEADER.pack(MAGIC, VERSION, len(alph), len(labels), words, root, zlib.crc32(body))
    return header + LOOKUP_HEADER.pack(slots, lookup.start) + alph + body


def read_index_file(data: bytes, source: str, lookup: bool = True) -> IndexContents:
    """Parse index bytes (version 1 or 2), with the lookup table unless ``lookup`` is False; raises
    MalformedLexicon naming ``source``."""
    if len(data) < HEADER.size:
        raise MalformedLexicon(f"{source}: not a lexicon index: {len(data)} bytes, shorter than the header")
    magic, version, alph_len, edges, words, root, crc = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise MalformedLexicon(f"{source}: not a lexicon index: starts with {magic!r}, expected {MAGIC!r}")
    if not OLDEST_VERSION <= version <= VERSION:
        raise MalformedLexicon(
            f"{source}: index version {version}, this reader knows versions {OLDEST_VERSION} to {VERSION}"
            " (rebuild it with `partiar lexicon build`)"
        )
    slots = start = 0
    position = HEADER.size
    if version >= 2:
        if len(data) < position + LOOKUP_HEADER.size:
            raise MalformedLexicon(f"{source}: cut short inside the header")
        slots, start = LOOKUP_HEADER.unpack_from(data, position)
        position += LOOKUP_HEADER.size
    end = position + alph_len
    if len(data) < end:
        raise MalformedLexicon(f"{source}: cut short inside the alphabet")
    try:
        alphabet = data[position:end].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedLexicon(f"{source}: alphabet is not UTF-8: {exc}") from None
    body = memoryview(data)[end:]  # no copy of the body before its parts are taken out
    if len(body) != 5 * edges + 4 * slots:
        raise MalformedLexicon(
            f"{source}: {len(body)} bytes after the header, {5 * edges + 4 * slots} expected for {edges} edges"
            f" and {slots} lookup slots (cut short or damaged)"
        )
    if zlib.crc32(body) != crc:
        raise MalformedLexicon(f"{source}: checksum mismatch; the file is damaged")
    labels = bytes(body[:edges])
    targets = array("I")
    targets.frombytes(body[edges : 5 * edges])
    if sys.byteorder == "big":
        targets.byteswap()
    if (root >> 7) + (root >> 1 & 63) > edges:
        raise MalformedLexicon(f"{source}: root reference {root:#x} points past the {edges} edges")
    # bytes.translate deleting every valid code leaves exactly the invalid labels (C speed, unlike min/max).
    if not alphabet or len(alphabet) > 63 or labels.translate(None, bytes(range(1, len(alphabet) + 1))):
        raise MalformedLexicon(f"{source}: edge labels do not fit the {len(alphabet)}-letter alphabet")
    table = None
    if version >= 2:
        if slots < SPAN or start > slots - SPAN:
            raise MalformedLexicon(f"{source}: lookup start {start} outside its {slots} slots")
    if version >= 2 and lookup:
        entries = array("I")
        entries.frombytes(body[5 * edges :])
        if sys.byteorder == "big":
            entries.byteswap()
        table = DoubleArray(entries, start)
    return IndexContents(alphabet, labels, targets, words, root, table)


def read_index(data: bytes, source: str) -> tuple[str, bytes, array[int], int, int]:
    """Parse index bytes into the DAWG's ``(alphabet, labels, targets, words, root)``; raises MalformedLexicon
    naming source."""
    contents = read_index_file(data, source, lookup=False)
    return contents.alphabet, contents.labels, contents.targets, contents.words, contents.root
