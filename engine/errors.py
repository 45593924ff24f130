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


class BadRack(EngineError, ValueError):
    """A rack that no bag of the tile set can give: ``kind`` is ``"letter"`` (``letter`` is not in the set),
    ``"size"`` (more than ``limit`` tiles), ``"count"`` (more of ``letter``, ``?`` for blanks, than the set's
    ``limit``) or ``"unseen"`` (more than the ``limit`` left off the board); ``rack`` as typed, ``tile_set`` (its name) and ``count`` (tiles, or copies of ``letter``) name the
    fault for a message."""

    def __init__(
        self, message: str, kind: str, rack: str, tile_set: str, letter: str = "", count: int = 0, limit: int = 0
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.tile_set = tile_set
        self.rack = rack
        self.letter = letter
        self.count = count
        self.limit = limit


class NotationError(EngineError, ValueError):
    """A square or move position that does not parse in the notation asked for."""
