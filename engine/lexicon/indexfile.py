"""The on-disk layout of a lexicon index (a minimal DAWG), shared by the builder and the reader.

Layout (all integers little-endian)::

    magic      8 bytes  b"PARTIDAW"
    version    u16      1
    alph_len   u16      length of the alphabet in UTF-8 bytes
    edges      u32      number of edges E
    words      u32      number of words
    root       u32      the root node as a packed node reference (below)
    crc32      u32      CRC-32 of labels + targets
    alphabet   alph_len bytes, UTF-8
    labels     E bytes: the letter code of each edge
    targets    E u32: the packed node reference each edge leads to

The body is stored uncompressed (about 5 bytes an edge; 1.5 MB for the full Czech list) so that loading is a
read, a checksum and a copy, also on a Pi Zero.

A node is a run of consecutive edges, sorted by label. A *packed node reference* is
``first_edge << 7 | edge_count << 1 | final``: where the node's edges start, how many there are (0..63) and
whether a word may end at the node. Edge ``i`` leads with letter code ``labels[i]`` to node ``targets[i]``.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array

from .errors import MalformedLexicon

MAGIC = b"PARTIDAW"
VERSION = 1
HEADER = struct.Struct("<8sHHIIII")
MAX_EDGES = (1 << 25) - 1
"""``first_edge`` has 25 bits in a packed reference."""


def pack_node(first_edge: int, edge_count: int, final: bool) -> int:
    """The packed reference of a node (see the module docstring)."""
    return first_edge << 7 | edge_count << 1 | int(final)


def write_index(alphabet: str, labels: bytes, targets: array[int], words: int, root: int) -> bytes:
    """The bytes of an index file."""
    if len(labels) != len(targets):
        raise ValueError(f"{len(labels)} labels but {len(targets)} targets")
    little = array("I", targets)
    if sys.byteorder == "big":
        little.byteswap()
    body = bytes(labels) + little.tobytes()
    alph = alphabet.encode("utf-8")
    header = HEADER.pack(MAGIC, VERSION, len(alph), len(labels), words, root, zlib.crc32(body))
    return header + alph + body


def read_index(data: bytes, source: str) -> tuple[str, bytes, array[int], int, int]:
    """Parse index bytes into ``(alphabet, labels, targets, words, root)``; raises MalformedLexicon naming source."""
    if len(data) < HEADER.size:
        raise MalformedLexicon(f"{source}: not a lexicon index: {len(data)} bytes, shorter than the header")
    magic, version, alph_len, edges, words, root, crc = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise MalformedLexicon(f"{source}: not a lexicon index: starts with {magic!r}, expected {MAGIC!r}")
    if version != VERSION:
        raise MalformedLexicon(f"{source}: index version {version}, this reader knows version {VERSION}")
    start = HEADER.size + alph_len
    if len(data) < start:
        raise MalformedLexicon(f"{source}: cut short inside the alphabet")
    try:
        alphabet = data[HEADER.size : start].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedLexicon(f"{source}: alphabet is not UTF-8: {exc}") from None
    body = memoryview(data)[start:]  # no copy of the 1.5 MB body before the two parts are taken out
    if len(body) != 5 * edges:
        raise MalformedLexicon(
            f"{source}: {len(body)} bytes after the header, {5 * edges} expected for {edges} edges"
            " (cut short or damaged)"
        )
    if zlib.crc32(body) != crc:
        raise MalformedLexicon(f"{source}: checksum mismatch; the file is damaged")
    labels = bytes(body[:edges])
    targets = array("I")
    targets.frombytes(body[edges:])
    if sys.byteorder == "big":
        targets.byteswap()
    if (root >> 7) + (root >> 1 & 63) > edges:
        raise MalformedLexicon(f"{source}: root reference {root:#x} points past the {edges} edges")
    # bytes.translate deleting every valid code leaves exactly the invalid labels (C speed, unlike min/max).
    if not alphabet or len(alphabet) > 63 or labels.translate(None, bytes(range(1, len(alphabet) + 1))):
        raise MalformedLexicon(f"{source}: edge labels do not fit the {len(alphabet)}-letter alphabet")
    return alphabet, labels, targets, words, root
