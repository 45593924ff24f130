"""Small lexicons for the move generator's tests, built by the project's own index builder."""

from __future__ import annotations

from pathlib import Path

from engine.lexicon.alphabet import Alphabet
from engine.lexicon.builder import build_index, encode_words
from engine.movegen import MoveGenerator, WordGraph
from engine.tiles import tile_set

DATA = Path(__file__).parent / "data"
ENGLISH = Alphabet("abcdefghijklmnopqrstuvwxyz")
CAT_WORDS = [
    "cat",
    "cats",
    "act",
    "at",
    "ta",
    "tea",
    "eat",
    "ate",
    "seat",
    "east",
    "sat",
    "as",
    "es",
    "set",
    "axe",
]
"""A tiny English list for rack CATSEAX (TAXES is not in it)."""


def word_list(name: str) -> list[str]:
    """The words of a list in tests/data (``#`` lines are comments)."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [w for w in lines if w and not w.startswith("#")]


def index_bytes(words: list[str], alphabet: Alphabet = ENGLISH) -> bytes:
    data, _nodes = build_index(encode_words(words, alphabet), alphabet)
    return data


def small_graph(words: list[str], alphabet: Alphabet = ENGLISH) -> WordGraph:
    return WordGraph.from_bytes(index_bytes(words, alphabet), "<test words>")


def generator(words: list[str], alphabet: Alphabet = ENGLISH, tiles: str = "english") -> MoveGenerator:
    return MoveGenerator(small_graph(words, alphabet), tile_set(tiles))


def write_index(path: Path, words: list[str], alphabet: Alphabet = ENGLISH) -> Path:
    path.write_bytes(index_bytes(words, alphabet))
    return path
