"""Who floated in a round and why: the players paired against someone with other points (the higher one floats
down, the lower one up), the figures a Swiss pairing is judged by (floats, the sum of point gaps, the largest gap,
repeats), and the explanation the deník keeps with each ``RoundPaired`` (docs/tournament.md, "Floats").

A float's ``why`` (the player's score group: the active players with their points, the bye's player left out):
- ``odd_group``: the group had an odd number of players and this was its only float;
- ``met``: every other player who left the group had already played this one;
- ``starts``: pairing this one with any other who left the group, not played yet, would take a starts balance
  beyond -1..+1 in the last round or beyond -2..+2 in any;
- ``elsewhere``: pairing inside the group was possible, but would have paired others across larger point gaps, or
  floated more players, elsewhere (the order the pairing minimises: ``pairing.PairError``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tournament.games import RoundPairing
from tournament.state import Tournament

WHY_TEXT = {
    "odd_group": ("lichý počet ve skupině", "odd score group"),
    "met": ("se zbylými ze skupiny už hrál", "had met the others who left the group"),
    "starts": ("začínání a odpovědi", "starts and replies"),
    "elsewhere": ("jinak větší rozdíly bodů nebo víc hráčů mimo skupinu jinde",
                  "else larger point gaps or more floats elsewhere"),
}
"""Each reason in words, (Czech, English): the deník's text (``tournament.report``)."""
WHY = tuple(WHY_TEXT)


@dataclass(frozen=True)
class Float:
    """One player paired out of their score group in round ``round``."""

    player: str
    points: float
    opponent: str
    opponent_points: float
    why: str

    @property
    def down(self) -> bool:
        return self.points > self.opponent_points

    def as_data(self) -> dict[str, Any]:
        """The deník's form (``RoundPaired.floats``)."""
        return {"player": self.player, "points": self.points, "opponent": self.opponent,
                "opponent_points": self.opponent_points, "why": self.why}


def floats_of(tournament: Tournament, pairing: RoundPairing,
              can_meet: Callable[[str, str], bool] | None = None) -> list[Float]:
    """The floats of ``pairing`` drawn on ``tournament`` as it stood before the round (points and meetings so far),
    in table order. ``can_meet(a, b)`` says whether ``a`` and ``b`` could be paired without a hard starts error
    (``pairing`` passes it; without it only the meetings are checked)."""
    points = {p: tournament.points(p) for g in pairing.pairings for p in g.players()}
    groups: dict[float, list[str]] = {}
    for p, pts in points.items():
        groups.setdefault(pts, []).append(p)
    left = {p for g in pairing.pairings for p in g.players() if points[g.opponent(p)] != points[p]}
    out = []
    for g in pairing.pairings:
        for p in g.players():
            if p not in left:
                continue
            q = g.opponent(p)
            group = groups[points[p]]
            others = [r for r in group if r in left and r != p]
            if not others and len(group) % 2:
                why = "odd_group"
            elif all(r in tournament.paired_with(p) for r in others):
                why = "met"
            elif can_meet is not None and not any(can_meet(p, r) for r in others
                                                  if r not in tournament.paired_with(p)):
                why = "starts"
            else:
                why = "elsewhere"
            out.append(Float(p, points[p], q, points[q], why))
    return out


@dataclass(frozen=True)
class RoundQuality:
    """How a round's pairing measures: players floated, the sum and the largest of the point gaps of its games (in
    points), and games of two players who had met before."""

    floats: int
    gap_sum: float
    worst_gap: float
    repeats: int


def quality_of(tournament: Tournament, pairing: RoundPairing) -> RoundQuality:
    """The figures of ``pairing`` drawn on ``tournament`` as it stood before the round."""
    gaps = [abs(tournament.points(g.first) - tournament.points(g.second)) for g in pairing.pairings]
    return RoundQuality(floats=2 * sum(1 for x in gaps if x), gap_sum=sum(gaps), worst_gap=max(gaps, default=0.0),
                        repeats=sum(1 for g in pairing.pairings if g.second in tournament.paired_with(g.first)))
