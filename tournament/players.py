"""Players (or doubles pairs) of a tournament, keyed by their ČAS id.

A player's ``id`` is the key everywhere: pairings, results, standings and the ladder name players by it; the name is
only shown. ``rating`` is the ladder strength (žebříček) the director imports; None for a newcomer, who is seeded
with ``NEWCOMER_RATING`` (a setting, ``TournamentSettings.newcomer_rating``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournament.errors import TournamentError

NEWCOMER_RATING = 1000
"""The strength a player without a ladder rating is seeded with. The ČAS pages found give no figure; the ladder's
strengths run to about 2000 at the top, so 1000 seeds a newcomer in the bottom half of a usual field, as a new
player usually is. A setting (``TournamentSettings.newcomer_rating``); the ladder rates a newcomer from their
results (docs/tournament.md)."""


@dataclass(frozen=True)
class Player:
    """One entrant: a player, or a doubles pair (``members`` names its two players' ids)."""

    id: str
    name: str = ""
    club: str = ""
    rating: int | None = None
    members: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.id or self.id != self.id.strip():
            raise TournamentError(f"player id {self.id!r} must be non-empty, without surrounding spaces")
        if self.rating is not None and not isinstance(self.rating, int):
            raise TournamentError(f"player {self.id!r}: rating {self.rating!r} must be a whole number")

    def strength(self, newcomer: int = NEWCOMER_RATING) -> int:
        """The strength the pairing seeds by: the rating, or ``newcomer`` if the player has none."""
        return newcomer if self.rating is None else self.rating

    @property
    def label(self) -> str:
        """The name if known, else the id."""
        return self.name or self.id


def pair_strength(ratings: Sequence[int | None], newcomer: int = NEWCOMER_RATING) -> int:
    """A doubles pair's strength: the average of its players' strengths, rounded half up (seed 003: "Žebříčková
    síla dvojice je tvořena průměrem aktuální síly obou hráčů"); a player without a rating counts as ``newcomer``.
    Raises TournamentError for no players."""
    if not ratings:
        raise TournamentError("a doubles pair needs its players' ratings")
    total = sum(newcomer if r is None else r for r in ratings)
    return (2 * total + len(ratings)) // (2 * len(ratings))


def doubles_pair(pair_id: str, members: Sequence[Player], name: str = "", club: str = "",
                 newcomer: int = NEWCOMER_RATING) -> Player:
    """The entrant for a doubles pair of ``members``: its rating is their average strength, its name the members'
    names joined by " + " unless ``name`` is given."""
    if len(members) != 2:
        raise TournamentError(f"doubles pair {pair_id!r} must have two players, got {len(members)}")
    rating = pair_strength([m.rating for m in members], newcomer)
    return Player(pair_id, name or " + ".join(m.label for m in members), club, rating,
                  tuple(m.id for m in members))
