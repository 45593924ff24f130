"""The tournament package's errors: one base class that is also a ValueError, a subclass per kind of mistake.

Every message names the input it refused: the event (its type, round, table or player) or the field."""

from __future__ import annotations


class TournamentError(ValueError):
    """Base of every error the tournament core raises."""


class DecodeError(TournamentError):
    """A deník entry (a JSON-able dict) that is not a valid event; the message names the field."""


class UnknownPlayer(TournamentError):
    """An event names a player id that is not registered (or no longer exists after an id change)."""


class DuplicatePlayer(TournamentError):
    """A registration or id change would give two players the same id."""


class PlayerNotActive(TournamentError):
    """A withdrawn or excluded player is paired, or withdrawn/excluded again."""


class PairingError(TournamentError):
    """A pairing that cannot stand: a player twice in a round, a round out of order, a change after publishing,
    or no pairing possible at all."""


class AllRoundsPlayed(PairingError):
    """The next round would come after the planned last one (``TournamentSettings.rounds``): the event is over."""


class ResultError(TournamentError):
    """A result that does not fit the round's pairing, a second result for a game without a correction, or
    scores that do not fit the result's kind."""


class RoundIncomplete(TournamentError):
    """A round closed while a game has neither a result nor a ruling; or the next round paired before it."""


class SettingsError(TournamentError):
    """A setting with a value it cannot take."""


class PairError(TournamentError):
    """A pair (doubles team) that cannot stand: in a singles tournament, members who are not registered players
    of the tournament, a player in two pairs, a strength that is not its members' average; or a change of the
    tournament's kind (singles or pairs) once anyone is registered."""
