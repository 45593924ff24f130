"""The lexicon's exceptions: one base class under :class:`engine.errors.EngineError`."""

from __future__ import annotations

from engine.errors import EngineError


class LexiconError(EngineError):
    """Base class of every error the lexicon package raises."""


class MalformedLexicon(LexiconError, ValueError):
    """An index file that is not a lexicon index, is cut short, corrupted or of an unknown version."""


class OverrideError(LexiconError, ValueError):
    """A line of a word list / override file that cannot be used (names the file and line)."""


class BuildError(LexiconError, ValueError):
    """Words handed to the builder that it cannot store (unsorted, duplicate, foreign letter, too many)."""
