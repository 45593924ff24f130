"""Teams in a doubles game (seed 003): two teams of two, the seating, and what belongs to the team.

Players are numbered in the seed's seating, which is also the playing order of Prague doubles: ``0`` plays the
first move, ``1`` sits to the left of ``0`` (the other team), ``2`` is the partner of ``0`` (opposite ``0``),
``3`` the partner of ``1``. So team ``t`` is players ``t`` and ``t + 2``; team 0 starts. Polish doubles use the
same numbering (team 0 starts; a team's first-listed player plays its first move unless the team says otherwise).

What belongs to the team: the crosses and the turns they cost, the running total on the sheet, the end-of-game
adjustment and the result. The engine keeps each player's own points too (``Game.scores``), for statistics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.tiles import TileSet

TEAMS = 2
TEAM_SIZE = 2


def team_of(player: int) -> int:
    """The team of a player (0 starts)."""
    return player % TEAMS


def partner(player: int) -> int:
    """The partner of a player (seated opposite in Prague doubles, beside in Polish doubles)."""
    return (player + TEAMS) % (TEAMS * TEAM_SIZE)


def members(team: int) -> tuple[int, int]:
    """The two players of a team, the first-listed first."""
    return team, team + TEAMS


def team_name(players: Sequence[str], team: int) -> str:
    """The team as people call it: both names (``Jana + Petr``)."""
    a, b = members(team)
    return f"{players[a]} + {players[b]}"


def end_adjustments(racks: Mapping[int, str], went_out: int | None, tiles: TileSet) -> dict[int, int]:
    """Points each player gains or loses at the end of a doubles game (seed 003 "Zavření").

    No one went out: every player loses the value of their rack. A player (Prague) or a team (Polish, both racks
    empty) went out: the team adds the value of both opponents' racks, credited to ``went_out``; the opponents
    subtract their own; the partner's rack is ignored ("Zásobník partnera hráče, který zavřel, se neřeší")."""
    values = {p: tiles.rack_value(rack) for p, rack in racks.items()}
    if went_out is None:
        return {p: -v for p, v in values.items()}
    team = team_of(went_out)
    out = {p: -v for p, v in values.items() if team_of(p) != team}
    out[went_out] = sum(values[p] for p in values if team_of(p) != team)
    out[partner(went_out)] = 0
    return out


def counted_racks(went_out: int | None) -> tuple[int, ...]:
    """The players whose end-of-game racks count: all four, or all but the partner of the player who closed."""
    return tuple(p for p in range(TEAMS * TEAM_SIZE) if went_out is None or p != partner(went_out))


@dataclass(frozen=True, slots=True)
class TeamResult:
    """The result of a doubles game per team: names, the final totals, the winners (both = a draw)."""

    names: tuple[str, str]
    final: tuple[int, int]

    @property
    def winners(self) -> tuple[int, ...]:
        best = max(self.final)
        return tuple(t for t, s in enumerate(self.final) if s == best)

    @property
    def draw(self) -> bool:
        return len(self.winners) > 1

    def to_dict(self) -> dict[str, Any]:
        return {"names": list(self.names), "final": list(self.final), "winners": list(self.winners)}


def team_totals(values: Sequence[int]) -> tuple[int, int]:
    """Per-player values summed per team."""
    return (values[0] + values[2], values[1] + values[3])


def fixed_result(team_values: tuple[int, int]) -> tuple[int, ...]:
    """A fixed team result (resignation, forfeit) as per-player values: the team's value on its first-listed
    player, 0 on the partner, so that ``team_totals`` gives it back."""
    return (team_values[0], team_values[1], 0, 0)
