"""Putting a lexicon together: the cleaned source, then the ČAS lists, then the organiser's lists."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .alphabet import Alphabet
from .cas import cas_overrides
from .overrides import Override, apply_overrides
from .wordfilter import FilterReport, filter_words


@dataclass
class Composition:
    """The words of a lexicon (as code bytes, see :meth:`Alphabet.encode`) and how they came about."""

    codes: set[bytes]
    alphabet: Alphabet
    report: FilterReport
    added: int
    """Words that the ČAS lists and organiser lists brought in."""
    removed: int
    """Words that they took out."""

    def words(self) -> set[str]:
        """The words as text (decodes every word: for tests and small lists)."""
        return {self.alphabet.decode(codes) for codes in self.codes}


def compose_words(
    source: Iterable[str],
    alphabet: Alphabet,
    extra: Sequence[Sequence[Override]] = (),
    abbreviations: Collection[str] = frozenset(),
    heuristics: bool = True,
) -> Composition:
    """Filter ``source`` (see :mod:`engine.lexicon.wordfilter`), apply the ČAS lists, then each of ``extra``
    (parsed organiser files) in order; later changes win over earlier ones."""
    codes, report = filter_words(source, alphabet, abbreviations, heuristics)
    changes = [cas_overrides(alphabet), *extra]
    touched = {alphabet.encode(o.word) for overrides in changes for o in overrides}
    before = {c for c in touched if c in codes}
    for overrides in changes:
        apply_overrides(codes, overrides, alphabet)
    after = {c for c in touched if c in codes}
    return Composition(codes, alphabet, report, len(after - before), len(before - after))
