"""The engine's exceptions: one base class, each subclassing the fitting builtin."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises."""


class UnknownTileSet(EngineError, LookupError):
    """A tile set name that has no data file."""


class UnknownLetter(EngineError, ValueError):
    """A letter that the tile set does not hold (and is not on a blank); ``letter`` and ``tile_set`` name them
    where the raiser knows them (else "")."""

    def __init__(self, message: str, letter: str = "", tile_set: str = "") -> None:
        super().__init__(message)
        self.letter = letter
        self.tile_set = tile_set


class NotationError(EngineError, ValueError):
    """A square or move position that does not parse in the notation asked for."""
