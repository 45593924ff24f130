"""A round's pairing and a game's result: the value types the events, the state and the pairing share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tournament.errors import PairingError

GameKind = Literal["played", "forfeit", "bye", "void", "exclusion"]
"""What a result is: a game played to its end; a forfeit (a no-show: 100:0; both absent: 0:0 and no points); the
bye of an odd field; a void game (annulled by the chief referee: no points, no score, no game); a game ended by a
player's exclusion after the third warning (0:100, or 0:margin above 100)."""
GAME_KINDS: tuple[GameKind, ...] = ("played", "forfeit", "bye", "void", "exclusion")
Source = Literal["table", "manual"]
"""Where a result came from: a table unit's events, or the director typing it in."""
SOURCES: tuple[Source, ...] = ("table", "manual")


@dataclass(frozen=True)
class Pairing:
    """One game of a round: at ``table``, ``first`` starts (the first-named player, seed 004), ``second`` replies."""

    table: int
    first: str
    second: str

    def __post_init__(self) -> None:
        if self.table < 1:
            raise PairingError(f"table {self.table} must be 1 or more")
        if self.first == self.second:
            raise PairingError(f"table {self.table}: {self.first!r} cannot play themself")

    def players(self) -> tuple[str, str]:
        return self.first, self.second

    def opponent(self, player: str) -> str:
        """The other player of this game; raises PairingError if ``player`` is not at this table."""
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise PairingError(f"{player!r} does not play at table {self.table}")


@dataclass(frozen=True)
class RoundPairing:
    """A round's games in table order, and the player with the bye (None with an even field)."""

    pairings: tuple[Pairing, ...]
    bye: str | None = None

    def __post_init__(self) -> None:
        seen: set[str] = set()
        tables: set[int] = set()
        for p in self.pairings:
            if p.table in tables:
                raise PairingError(f"table {p.table} appears twice in a round")
            tables.add(p.table)
            for who in p.players():
                if who in seen:
                    raise PairingError(f"{who!r} is paired twice in a round")
                seen.add(who)
        if self.bye is not None and self.bye in seen:
            raise PairingError(f"{self.bye!r} has the bye and a game in the same round")

    def players(self) -> list[str]:
        """Everyone in the round: the players of each table in order, then the bye."""
        out = [who for p in self.pairings for who in p.players()]
        return out + ([self.bye] if self.bye is not None else [])

    def table_of(self, player: str) -> Pairing | None:
        """The game ``player`` plays in this round, or None (the bye, or not paired)."""
        for p in self.pairings:
            if player in (p.first, p.second):
                return p
        return None

    def by_table(self, table: int) -> Pairing | None:
        for p in self.pairings:
            if p.table == table:
                return p
        return None


MIN_SCORE, MAX_SCORE = -1000, 2000
"""A game's final score the desk and a tournament folder take (below zero after rack penalties, as six scoreless
turns can end); anything outside is a typing mistake."""

EXCLUSION_MIN = 100
"""The least margin an exclusion loses by (seed 004: 0:100)."""


def exclusion_score(excluded_score: int, other_score: int) -> tuple[int, int]:
    """The result of a game ended by a player's exclusion: (excluded player's score, opponent's). Seed 004: 0:100,
    or 0:the current difference when the players' scores differ by more than 100 (read as the absolute
    difference: the rule says "bodový rozdíl hráčů", not who leads)."""
    return 0, max(EXCLUSION_MIN, abs(other_score - excluded_score))
