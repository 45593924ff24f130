"""Games put aside: what a table's credentials send beyond the table's real game (a leaked table password used
to flood the hub with made-up game ids) is kept apart where the referees see it and can clear it or take a game
in, and never takes the table away for the rest of the tournament.

**Which new game the hub takes in** (``admission``), for table T and the game's round R:

1. If the round's pairing says who plays at T (``HubStore.expected_players(T, R)`` is not None): a game whose
   start names exactly those players (by name or registered player id) is taken in, whatever else the table
   sent; any other game (or one whose start has not come yet) goes aside. A put-aside game whose start comes
   later and matches is taken in then.
2. Without a pairing: a game of a round after the running one goes aside (a table plays the round the chief
   referee started, or finishes an earlier one), and so does a game beyond ``GAMES_PER_ROUND`` games of T in R
   (a real table restarts a game a few times at most). Every round starts afresh: a flood in round 3 never
   touches round 4.

The table's page shows its current game, which only a game taken in can become. Games aside are kept in memory
only, ``ASIDE_GAMES`` per table (beyond, the one with the fewest events goes: a flood's games have one, a real
game grows) with at most ``ASIDE_EVENTS`` events each; they are not in the live pages, the standings or the
exports. The status page lists them; a referee takes one in (``release``: it becomes the table's game, its events
are stored) or clears them (``clear``). A real game cleared or lost to a restart comes back: its next event is a
new game again, and the hub asks the table to resend it from the start.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

GAMES_PER_ROUND = 6
"""Games of one table in one round taken in without a pairing."""
ASIDE_GAMES = 20
"""Games kept aside per table."""
ASIDE_EVENTS = 1000
"""Events kept of one game aside (a game has a few hundred)."""


@dataclass
class AsideGame:
    """A game put aside: its events by seq (with the time the table stamped each), why, when first seen."""

    table: str
    game_id: str
    round: int
    reason: str
    """Why, in English (the log); ``code`` names it for the pages (``not_paired``, ``no_start``, ``ahead``,
    ``round_full``, ``table_full``)."""
    first: float
    code: str = ""
    events: dict[int, tuple[dict[str, Any], float | None]] = field(default_factory=dict)
    dropped: int = 0

    def players(self) -> list[str] | None:
        start = self.events.get(0)
        players = start[0].get("players") if start else None
        return [p for p in players if isinstance(p, str)] if isinstance(players, list) else None

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "game": self.game_id, "round": self.round, "reason": self.reason,
                "code": self.code, "first": self.first, "events": len(self.events), "players": self.players()}  # fmt: skip


def admission(
    players: Collection[str] | None,
    expected: Collection[str] | None,
    ids: dict[str, str],
    number: int,
    running: int,
    taken: int,
) -> str | None:
    """Why a new game of round ``number`` goes aside, as ``"code: text"`` (None: it is taken in). ``players``: its start's players
    (None before its start came); ``expected``: the pairing's players for the table (None: no pairing);
    ``ids``: registered player ids by name; ``running``: the round the chief referee runs (0: none);
    ``taken``: games of the table already taken in for that round."""
    if expected is not None:
        if players is None:
            return "no_start: the round's pairing names this table's players: waiting for the game's start"
        wanted = set(expected)
        if len(players) == len(wanted) and all(p in wanted or ids.get(p) in wanted for p in players):
            return None
        return f"not_paired: players {', '.join(players)} are not the pairing's ({', '.join(sorted(wanted))})"
    if running and number > running:
        return f"ahead: round {number} has not started (round {running} runs)"
    if taken >= GAMES_PER_ROUND:
        return f"round_full: already {taken} games of round {number} at this table"
    return None


class Aside:
    """The games put aside, per table (not thread-safe: used under the store's lock)."""

    def __init__(self) -> None:
        self.games: dict[tuple[str, str], AsideGame] = {}
        self.put_aside = 0
        """Games ever put aside (since the hub started)."""

    def get(self, key: tuple[str, str]) -> AsideGame | None:
        return self.games.get(key)

    def add(self, table: str, game_id: str, number: int, reason: str) -> AsideGame:
        """``reason``: ``"code: text"`` as ``admission`` gives it."""
        """A new game aside (the table's game with the fewest events goes if it has ASIDE_GAMES already)."""
        mine = [g for g in self.games.values() if g.table == table]
        if len(mine) >= ASIDE_GAMES:
            smallest = min(mine, key=lambda g: (len(g.events), g.first))
            del self.games[(table, smallest.game_id)]
        self.put_aside += 1
        code, _, text = reason.partition(": ")
        game = self.games[(table, game_id)] = AsideGame(table, game_id, number, text, time.time(), code)
        return game

    def keep(self, game: AsideGame, seq: int, event: dict[str, Any], sent: float | None) -> None:
        if seq in game.events or len(game.events) < ASIDE_EVENTS:
            game.events.setdefault(seq, (event, sent))
        else:
            game.dropped += 1

    def take(self, table: str, game_id: str) -> AsideGame | None:
        return self.games.pop((table, game_id), None)

    def clear(self, table: str | None = None) -> int:
        """Drop the games aside of ``table`` (every table's with None); how many."""
        keys = [k for k in self.games if table is None or k[0] == table]
        for key in keys:
            del self.games[key]
        return len(keys)

    def view(self) -> dict[str, Any]:
        """For the status page: per table the games aside (newest first, at most 10 listed) and their count."""
        tables: dict[str, list[AsideGame]] = {}
        for game in self.games.values():
            tables.setdefault(game.table, []).append(game)
        return {"put_aside": self.put_aside, "tables": {
            t: {"count": len(gs), "games": [g.to_dict() for g in sorted(gs, key=lambda g: -g.first)[:10]]}
            for t, gs in tables.items()}}  # fmt: skip
