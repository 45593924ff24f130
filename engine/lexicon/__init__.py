"""The Czech lexicon for the referee: a compact word index the table asks at a challenge.

It only flags a word as known or unknown; the referee, with the printed sources (Prameny), decides.
Build an index with ``partiar lexicon build`` (see docs/lexicon.md), load it with :meth:`Lexicon.load`.
"""

from __future__ import annotations

from .alphabet import Alphabet, czech_alphabet
from .errors import BuildError, LexiconError, MalformedLexicon, OverrideError
from .paths import data_dir, default_path
from .reader import KNOWN, UNKNOWN, Lexicon, Status

__all__ = [
    "KNOWN",
    "UNKNOWN",
    "Alphabet",
    "BuildError",
    "Lexicon",
    "LexiconError",
    "MalformedLexicon",
    "OverrideError",
    "Status",
    "czech_alphabet",
    "data_dir",
    "default_path",
]
