"""The DAWG builder and the pure-Python reader: exact membership, minimality, the index file's errors."""

from __future__ import annotations

import itertools
import struct
import zlib
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.lexicon import Alphabet, BuildError, Lexicon, MalformedLexicon, czech_alphabet, default_path
from engine.lexicon.builder import DawgBuilder, build_index, encode_words
from engine.lexicon.doublearray import SPAN, DoubleArray
from engine.lexicon.indexfile import HEADER, LOOKUP_HEADER, MAGIC, pack_node, read_index, write_index

SMALL = Alphabet("abčř")
"""A four-letter alphabet (with two Czech letters) small enough to check every string up to length 5."""

small_words = st.sets(st.text(alphabet=SMALL.letters, min_size=1, max_size=5), max_size=40)


def build(words: set[str], alphabet: Alphabet = SMALL) -> tuple[Lexicon, int]:
    data, nodes = build_index(encode_words(words, alphabet), alphabet)
    return Lexicon.from_bytes(data, "test"), nodes


def minimal_state_count(words: set[str]) -> int:
    """Reference minimisation (Myhill-Nerode): the minimal trimmed automaton has one state per distinct
    non-empty right language {s : p + s in words} over the prefixes p of the words (the empty prefix too)."""
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    residuals = {frozenset(w[len(p) :] for w in words if w.startswith(p)) for p in prefixes}
    return len(residuals) if words else 1


@settings(max_examples=150, deadline=None)
@given(small_words)
def test_membership_is_exactly_the_word_set(words: set[str]) -> None:
    lexicon, _ = build(words)
    every_string = ("".join(t) for n in range(6) for t in itertools.product(SMALL.letters, repeat=n))
    assert {s for s in every_string if s in lexicon} == words
    assert list(lexicon) == sorted(words, key=SMALL.encode)  # type: ignore[arg-type]
    assert len(lexicon) == len(words)


@settings(max_examples=150, deadline=None)
@given(small_words)
def test_dawg_is_minimal(words: set[str]) -> None:
    lexicon, nodes = build(words)
    assert nodes == minimal_state_count(words)
    assert lexicon.node_count() == minimal_state_count(words)


def test_suffixes_are_shared() -> None:
    # kočka/kočky/myška/myšky: a trie needs 13 nodes; after koč- and myš- the rest (-ka/-ky) is one path.
    words = {"kočka", "kočky", "myška", "myšky"}
    lexicon, nodes = build(words, czech_alphabet())
    assert nodes == minimal_state_count(words) == 8
    assert set(lexicon) == words


def test_lookup_is_case_insensitive_and_rejects_foreign_text() -> None:
    lexicon, _ = build({"kočka", "žluťoučký", "ch"}, czech_alphabet())
    assert "KOČKA" in lexicon and "Kočka" in lexicon and "ŽLUŤOUČKÝ" in lexicon
    assert lexicon.status("kočKA") == "known"
    for word in ("", "k", "kočk", "kočkaa", "kocka", "kočka ", "kočka\x00", "w", "ch\x05", "kočka€", "ĉh"):
        assert word not in lexicon
        assert lexicon.status(word) == "unknown"
    assert 42 not in lexicon
    with pytest.raises(TypeError, match="must be a str"):
        lexicon.status(b"ch")  # type: ignore[arg-type]


def test_control_characters_never_match_letter_codes() -> None:
    # letter codes are 1..39; a word made of those raw characters must not pass for the letters.
    lexicon, _ = build({"ab"}, SMALL)
    assert "\x01\x02" not in lexicon and "ab" in lexicon


def test_load_reads_a_file(tmp_path) -> None:
    data, _ = build_index(encode_words({"pes", "psa", "psi"}, czech_alphabet()), czech_alphabet())
    path = tmp_path / "lexicon.dawg"
    path.write_bytes(data)
    lexicon = Lexicon.load(path)
    assert "psa" in lexicon and "pso" not in lexicon
    assert lexicon.source == str(path)
    with pytest.raises(FileNotFoundError):
        Lexicon.load(tmp_path / "missing.dawg")


def test_builder_refuses_unsorted_repeated_and_foreign_words() -> None:
    alphabet = czech_alphabet()
    builder = DawgBuilder(alphabet)
    builder.add(alphabet.encode("pes"))  # type: ignore[arg-type]
    with pytest.raises(BuildError, match="'pes' came twice"):
        builder.add(alphabet.encode("pes"))  # type: ignore[arg-type]
    with pytest.raises(BuildError, match="'kos' came after 'pes'"):
        builder.add(alphabet.encode("kos"))  # type: ignore[arg-type]
    with pytest.raises(BuildError, match="empty word"):
        builder.add(b"")
    builder.finish()
    with pytest.raises(BuildError, match="finished"):
        builder.add(alphabet.encode("psa"))  # type: ignore[arg-type]
    with pytest.raises(BuildError, match="'whisky' has letters outside the alphabet: 'w'"):
        encode_words(["whisky"], alphabet)


def index_bytes(words: set[str] = frozenset({"ab", "ač"})) -> bytes:  # type: ignore[assignment]
    return build_index(encode_words(words, SMALL), SMALL)[0]


def with_header(data: bytes, **changes: int | bytes) -> bytes:
    fields = dict(zip(("magic", "version", "alph", "edges", "words", "root", "crc"), HEADER.unpack_from(data), strict=True))
    fields.update(changes)
    return HEADER.pack(*fields.values()) + data[HEADER.size :]


def with_start(data: bytes, start: int) -> bytes:
    slots, _start = LOOKUP_HEADER.unpack_from(data, HEADER.size)
    return data[: HEADER.size] + LOOKUP_HEADER.pack(slots, start) + data[HEADER.size + LOOKUP_HEADER.size :]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d[:10], "shorter than the header"),
        (lambda d: b"NOTADAWG" + d[8:], "starts with b'NOTADAWG'"),
        (lambda d: with_header(d, version=7), "index version 7"),
        (lambda d: d[:-3], "cut short or damaged"),
        (lambda d: d + b"\0", "cut short or damaged"),
        (lambda d: d[:-1] + bytes([d[-1] ^ 0x40]), "checksum mismatch"),
        (lambda d: with_header(d, alph=65_000), "cut short inside the alphabet"),
        (lambda d: d[: HEADER.size + 3], "cut short inside the header"),
        (lambda d: with_start(d, 10_000), "lookup start 10000 outside its"),
        (lambda d: with_header(d, root=pack_node(1000, 2, False)), "root reference"),
        (lambda d: HEADER.pack(MAGIC, 1, 1, 0, 0, 0, 0) + b"\xff", "alphabet is not UTF-8"),
    ],
)
def test_malformed_index_raises_a_specific_error(damage, message: str) -> None:
    with pytest.raises(MalformedLexicon, match=message) as info:
        Lexicon.from_bytes(damage(index_bytes()), "table.dawg")
    assert "table.dawg" in str(info.value)
    assert isinstance(info.value, ValueError)


NO_LOOKUP = DoubleArray(array("I", bytes(4 * SPAN)), 0)
"""A lookup table without a word, for hand-made DAWGs the double-array builder cannot take."""


def test_labels_outside_the_alphabet_are_refused() -> None:
    data = write_index("ab", b"\x05", array("I", [pack_node(0, 0, True)]), 1, pack_node(0, 1, False), NO_LOOKUP)
    with pytest.raises(MalformedLexicon, match="labels do not fit the 2-letter alphabet"):
        Lexicon.from_bytes(data, "x.dawg")


def test_an_edge_past_the_end_is_refused_not_crashed_on() -> None:
    # a consistent checksum but an edge whose target node lies beyond the edges: found when the DAWG is walked
    data = write_index("ab", b"\x01", array("I", [pack_node(500, 3, True)]), 1, pack_node(0, 1, False), NO_LOOKUP)
    lexicon = Lexicon.from_bytes(data, "x.dawg")
    with pytest.raises(MalformedLexicon, match="x.dawg: an edge points past the end"):
        list(lexicon)
    with pytest.raises(MalformedLexicon, match="x.dawg: an edge points past the end"):
        lexicon.node_count()


def test_a_lookup_slot_past_the_end_is_refused_not_crashed_on() -> None:
    # a consistent checksum but a lookup table where "a" loops and "b" leads to a base past the table
    slots = array("I", bytes(4 * SPAN))
    slots[97] = 0 << 8 | 97
    slots[98] = 5_000 << 8 | 98
    data = write_index("ab", b"", array("I"), 0, pack_node(0, 0, False), DoubleArray(slots, 0))
    lexicon = Lexicon.from_bytes(data, "x.dawg")
    assert "x" not in lexicon and "aaaab" not in lexicon  # a base past the end is only read by a further step
    for word in ("aaaabb", "aaaabb", "AAAABB"):  # from the start, from the remembered prefix "aaaa", upper case
        with pytest.raises(MalformedLexicon, match="x.dawg: a lookup slot past the end"):
            _ = word in lexicon


def test_a_cyclic_index_is_reported_when_listed() -> None:
    # node 0 has one edge 'a' back to itself: every a...a is "in" it; listing must stop, not loop forever.
    data = write_index("ab", b"\x01", array("I", [pack_node(0, 1, True)]), 1, pack_node(0, 1, False))
    lexicon = Lexicon.from_bytes(data, "loop.dawg")
    assert "a" in lexicon and "aaaaaaaaaa" in lexicon and "b" not in lexicon  # the lookup table loops too
    with pytest.raises(MalformedLexicon, match="cycle"):
        list(lexicon)


def test_header_layout_is_little_endian() -> None:
    data = index_bytes({"ab"})
    magic, version, alph_len, edges, words, _root, _crc, slots, _start = struct.unpack_from("<8sHHIIIIII", data)
    assert (magic, version, words) == (MAGIC, 2, 1)
    assert data[HEADER.size + 8 : HEADER.size + 8 + alph_len].decode() == SMALL.letters
    assert len(data) == HEADER.size + 8 + alph_len + 5 * edges + 4 * slots


def version_1(data: bytes) -> bytes:
    """The same index in the layout of version 1: the DAWG without the lookup table."""
    _magic, _version, alph_len, edges, words, root, _crc = HEADER.unpack_from(data)
    start = HEADER.size + LOOKUP_HEADER.size
    body = data[start + alph_len : start + alph_len + 5 * edges]
    return HEADER.pack(MAGIC, 1, alph_len, edges, words, root, zlib.crc32(body)) + data[start : start + alph_len] + body


def test_a_version_1_index_serves_the_dawg_and_asks_for_a_rebuild() -> None:
    data = index_bytes({"ab", "bač"})
    old = version_1(data)
    assert read_index(old, "old.dawg") == read_index(data, "new.dawg")  # what the move generator reads
    with pytest.raises(MalformedLexicon, match="old.dawg: an index of version 1.*rebuild it with `partiar lexicon build`"):
        Lexicon.from_bytes(old, "old.dawg")


MULTIBYTE = Alphabet("aḁḃčř")
"""Letters of one, two and three UTF-8 bytes; ḁ and ḃ share two bytes, č and ř none."""
FOREIGN = "ḅċžA"
"""Characters sharing leading bytes with the letters above (ḅ two, ċ one), a Czech letter not in MULTIBYTE, and
upper case."""


@settings(max_examples=150, deadline=None)
@given(st.sets(st.text(alphabet=MULTIBYTE.letters, min_size=1, max_size=4), max_size=40))
def test_lookup_is_exact_over_multibyte_letters(words: set[str]) -> None:
    lexicon, _ = build(words, MULTIBYTE)
    every_string = ["".join(t) for n in range(5) for t in itertools.product(MULTIBYTE.letters + FOREIGN, repeat=n)]
    assert {s for s in every_string if s in lexicon} == words | {s for s in every_string if s.lower() in words}
    assert {s for s in every_string if s in lexicon} == {s for s in every_string if s in lexicon}  # cached now
    assert set(lexicon) == words


def test_default_path_follows_the_environment(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PARTIAR_DATA", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "lexicon.dawg"
    monkeypatch.delenv("PARTIAR_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "partiar" / "lexicon.dawg"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "share" / "partiar" / "lexicon.dawg"


def test_an_unusable_alphabet_is_refused() -> None:
    data = write_index("aA", b"\x01", array("I", [pack_node(0, 0, True)]), 1, pack_node(0, 1, False))
    with pytest.raises(MalformedLexicon, match="x.dawg: bad alphabet: .*lowercase"):
        Lexicon.from_bytes(data, "x.dawg")
