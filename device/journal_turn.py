"""Which turn a game journal's record was written at: the table stamps it, a repair checks it.

The game engine numbers nothing: a play is the player's on move when it is applied. A journal that lost a line
(``device.journal.salvage``) would therefore hand every later move to the other player and a challenge to the move
before the one it was made against. So the table writes each record with ``turn``: how many turns the game's
history held when it was recorded (a challenge's is the count with the challenged move in it). Replaying a record
at another turn is refused (ValueError: ``salvage`` sets it aside and the referee is shown it). A record without
the key (a journal written before it existed) is replayed as before. The engine's decoding skips the key
(``engine.game.events.JOURNAL_TURN``).
"""

from __future__ import annotations

from typing import Any

from engine import game as g
from engine.game.events import JOURNAL_TURN as TURN_KEY


def stamped(event: g.Event, game: g.Game) -> dict[str, Any]:
    """The journal record of ``event`` about to be applied to ``game``."""
    return {**event.to_json(), TURN_KEY: len(game.history)}


def replay_record(game: g.Game, record: dict[str, Any]) -> list[g.Output]:
    """Apply a journal record to ``game``; ValueError if it was written at another turn than the game is at (the
    game untouched), EngineError (or ValueError) if the game refuses the event."""
    turn = record.get(TURN_KEY)
    if turn is not None:
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise ValueError(f"turn {turn!r} is not a count")
        if turn != len(game.history):
            raise ValueError(f"written at turn {turn + 1}, the game is at turn {len(game.history) + 1}")
    return game.apply(g.event_from_json(record))
