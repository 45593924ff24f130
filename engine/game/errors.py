"""Why the game refuses an event. Every refusal leaves the game state untouched."""

from __future__ import annotations

from engine.errors import EngineError


class GameError(EngineError, ValueError):
    """Base class: an event that is not allowed in the game's current state."""


class EventFormatError(GameError):
    """A serialised event (JSON) that does not describe an event."""


class NotStarted(GameError):
    """An event before the ``start`` event."""


class AlreadyStarted(GameError):
    """A second ``start`` event."""


class GameOver(GameError):
    """A turn, challenge or other game event after the game has ended."""


class GameNotOver(GameError):
    """A rack entry before the game has ended."""


class IllegalMove(GameError):
    """A play that breaks the placing rules, uses a tile the set does not have, or more tiles than the rack."""


class ExchangeNotAllowed(GameError):
    """An exchange with too few tiles in the bag, in round C of the playout, or of a wrong number of tiles."""


class ChallengePending(GameError):
    """A turn or a new challenge while a challenge waits for the referee's ruling."""


class NoOpenMove(GameError):
    """A challenge when no play is open to challenge."""


class UnknownWord(GameError):
    """A challenge of a word that the open play did not form."""


class AlreadyRuled(GameError):
    """A challenge of a word (or the score) that has already been ruled on."""


class NoChallenge(GameError):
    """A ruling with no challenge waiting for one."""


class NothingToAppeal(GameError):
    """An appeal with no ruling to appeal (or one already appealed, or the game moved on)."""


class PlayNotAllowed(GameError):
    """Playout rules: base game time expiry twice or under a ruleset without a playout."""


class BadRackEntry(GameError):
    """An end-of-game rack that does not fit: wrong count, tiles the set no longer has, or not needed."""


class BadPlayer(GameError):
    """A player number outside the game, or a forfeit of a player who has already played."""


class BadSetCheck(GameError):
    """A tile-set check after the game has begun, or one that does not fit the set."""


class StartRefused(GameError):
    """A tile drawn for who starts, or a starting order, that is not allowed now: a move made, doubles, the draw
    decided, another player's turn to draw, a tile the set has no more of."""
