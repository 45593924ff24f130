"""The seed's sanctions over the whole tournament (004, "Sankce hráčům v případě nedodržování hracího řádu"): each
player's warnings from every game the hub holds, and their exclusion, for the chief referee.

A table counts warnings within its game and asks "Vyloučení (HR)?" at the ruleset's ``warnings_to_disqualify``-th
(``engine.game.referee``). Whether warnings of earlier games count too the seed does not say ("po třetím napomenutí
vyloučen z další hry"), and "O vyloučení hráče z další hry vždy rozhoduje hlavní rozhodčí": so the hub decides
nothing. It shows each player's warnings of the tournament, flags a player whose warnings over several games reach
that number without an exclusion (``due``), and, since "Vyloučení se týká celého turnaje nebo utkání", flags every
game an excluded player plays in a later round (``played_after``): that game's result still counts in the
standings as the table recorded it until the chief referee rules on it at the table (a correction or a forfeit
there, journaled like any other ruling). Players are named by their id where the referee entered one, else by name,
as the standings name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.game import Game
from engine.game.events import RefereeWarning, Resign


@dataclass(frozen=True)
class Where:
    """A game of the tournament: its round, table and game id, and when it started (the table's clock; None before
    its start)."""

    round: int
    table: str
    game_id: str
    started: float | None = field(default=None, compare=False)

    def after(self, other: Where) -> bool:
        """A later round's game, or in the same round a game started later (a match's next game)."""
        if self.round != other.round:
            return self.round > other.round
        if self == other or self.started is None or other.started is None:
            return False
        return self.started > other.started

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "game": self.game_id}


@dataclass
class PlayerSanctions:
    """One player's sanctions over the tournament."""

    player_id: str
    player: str
    warnings: list[Where] = field(default_factory=list)
    excluded: Where | None = None
    played_after: list[Where] = field(default_factory=list)
    """Games after the exclusion's that the player played or plays (a later round, or the match's next game)."""
    limit: int = 0
    """The ruleset's ``warnings_to_disqualify`` (0: no such rule)."""

    @property
    def due(self) -> bool:
        """Warnings of more than one game reaching the limit, and no exclusion: the chief referee's question."""
        games = {(w.round, w.table, w.game_id) for w in self.warnings}
        return (
            bool(self.limit) and len(self.warnings) >= self.limit and len(games) > 1 and self.excluded is None
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.player_id,
            "player": self.player,
            "warnings": [w.to_dict() for w in self.warnings],
            "excluded": self.excluded.to_dict() if self.excluded else None,
            "played_after": [w.to_dict() for w in self.played_after],
            "limit": self.limit,
            "due": self.due,
        }


@dataclass(frozen=True)
class GameMarks:
    """What one game holds of sanctions: where it was, its players, each warning and exclusion (``"warning"`` or
    ``"exclusion"``, the player's index) in order, and its ruleset's ``warnings_to_disqualify``."""

    where: Where
    players: tuple[str, ...]
    marks: tuple[tuple[str, int], ...]
    limit: int


def game_marks(round_number: int, table: str, game_id: str, game: Game) -> GameMarks:
    """The sanctions of one game the engine rebuilt (a warning: ``RefereeWarning``; an exclusion: a ``Resign`` the
    chief referee's, ``disqualified``)."""
    marks = tuple(
        ("warning" if isinstance(e, RefereeWarning) else "exclusion", e.player)
        for e in game.events
        if (isinstance(e, RefereeWarning) or isinstance(e, Resign) and e.disqualified)
        and 0 <= e.player < len(game.players)
    )
    where = Where(round_number, table, game_id, game.started_at)
    return GameMarks(
        where, tuple(game.players), marks, game.ruleset.warnings_to_disqualify if game.players else 0
    )


def tournament_sanctions(games: Iterable[GameMarks], ids: Mapping[str, str]) -> list[PlayerSanctions]:
    """Every player with a warning or an exclusion, ordered by name, from every game's marks; ``ids`` maps a name
    to the referee's player id."""
    played: dict[str, list[Where]] = {}
    found: dict[str, PlayerSanctions] = {}
    for game in sorted(games, key=lambda g: (g.where.round, g.where.table, g.where.game_id)):
        key_of = [ids.get(name) or name for name in game.players]
        for key in key_of:
            played.setdefault(key, []).append(game.where)
        for kind, player in game.marks:
            key = key_of[player]
            line = found.setdefault(key, PlayerSanctions(key, game.players[player]))
            line.limit = game.limit
            if kind == "warning":
                line.warnings.append(game.where)
            elif line.excluded is None:
                line.excluded = game.where
    for key, line in found.items():
        if line.excluded is not None:
            line.played_after = [w for w in played.get(key, []) if w.after(line.excluded)]
    return sorted(found.values(), key=lambda s: (s.player.casefold(), s.player_id))
