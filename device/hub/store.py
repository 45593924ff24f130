"""What the hub knows: per table its status and retained state, per game the deduplicated events (by ``seq``)
rebuilt into an ``engine.game.Game``, and the round the chief referee is running. Thread-safe; every change
bumps the ``ChangeFeed`` key of the table (``table:<id>``) or ``round``.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import dataclass, field, fields
from typing import Any

from device.hub.feed import ChangeFeed
from device.publish.topics import SchemaError, check_table_id
from engine.errors import EngineError
from engine.game import Game
from engine.game.events import EVENT_TYPES, event_from_json

log = logging.getLogger(__name__)

ROUND_KEY = "round"
RESEND_AFTER = 2.0
"""Seconds before the hub asks a table again for the events of a gap."""


def table_key(table_id: str) -> str:
    return f"table:{table_id}"


def game_event(data: dict[str, Any]) -> Any:
    """The engine event in a published event object (the daemon's own fields dropped); raises EngineError."""
    cls = EVENT_TYPES.get(data.get("type", ""))
    if cls is None:
        return event_from_json(data)  # raises, naming the unknown type
    names = {f.name for f in fields(cls)} | {"type"}
    return event_from_json({k: v for k, v in data.items() if k in names})


@dataclass
class GameRecord:
    """One game at one table: its events by seq and the game rebuilt from the ones received in a row."""

    table: str
    game_id: str
    round: int
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    sent: dict[int, float] = field(default_factory=dict)
    game: Game = field(default_factory=Game)
    applied: int = 0
    error: str | None = None
    duplicates: int = 0

    def missing_from(self) -> int | None:
        """The first seq not received while later ones were (or the start missing), else None."""
        if not self.events:
            return None
        return self.applied if max(self.events) >= self.applied else None

    def advance(self) -> None:
        """Apply every event received in a row after the ones applied."""
        while self.applied in self.events:
            data = self.events[self.applied]
            self.applied += 1
            if self.error is not None:
                continue
            try:
                self.game.apply(game_event(data))
            except EngineError as exc:
                self.error = f"table {self.table}, game {self.game_id}, event {self.applied - 1}: {exc}"
                log.error("%s", self.error)


@dataclass
class TableRecord:
    """One table: online flag, the retained state, the game it is playing."""

    table: str
    online: bool | None = None
    state: dict[str, Any] | None = None
    game_id: str | None = None
    updated: float = 0.0


@dataclass
class RoundState:
    """The round the chief referee runs: number, stage (idle, running, warning, playout) and commands sent."""

    number: int = 0
    stage: str = "idle"
    commands: list[dict[str, Any]] = field(default_factory=list)


_STAGES = {"start_round": "running", "warning": "warning", "end_base_time": "playout"}


class HubStore:
    """Tables, games and the round, fed by the hub's MQTT link (or the table daemon itself)."""

    def __init__(self, feed: ChangeFeed | None = None) -> None:
        self.feed = feed or ChangeFeed()
        self._lock = threading.RLock()
        self.tables: dict[str, TableRecord] = {}
        self.games: dict[tuple[str, str], GameRecord] = {}
        self.round = RoundState()
        self.received = 0
        self.duplicates = 0
        self._asked: dict[tuple[str, str], float] = {}

    def _resend_from(self, key: tuple[str, str], start: int) -> tuple[str, int] | None:
        """``(game_id, start)`` unless the table was asked for this game less than RESEND_AFTER ago."""
        now = time.monotonic()
        if now - self._asked.get(key, -RESEND_AFTER) < RESEND_AFTER:
            return None
        self._asked[key] = now
        return key[1], start

    def _table(self, table_id: str) -> TableRecord:
        record = self.tables.get(table_id)
        if record is None:
            record = self.tables[table_id] = TableRecord(check_table_id(table_id))
        return record

    # ------------------------------------------------------------------------------------------- input
    def add_event(self, payload: dict[str, Any]) -> tuple[str, int] | None:
        """Store one published event (duplicates dropped). Returns ``(game_id, seq)`` of a gap the table should
        resend from (at most every RESEND_AFTER seconds), else None. Raises SchemaError for a bad payload."""
        table_id, game_id, seq, event = (payload.get(k) for k in ("table", "game", "seq", "event"))
        if not isinstance(game_id, str) or isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise SchemaError(f"event of table {table_id!r} needs a game id and a seq >= 0: {payload!r:.120}")
        if not isinstance(event, dict):
            raise SchemaError(f"event of table {table_id!r} seq {seq} is not an object: {event!r:.80}")
        with self._lock:
            table = self._table(str(table_id))
            key = (table.table, game_id)
            record = self.games.get(key)
            if record is None or table.game_id is None:
                table.game_id = game_id  # a game not seen before is the table's current game
            if record is None:
                number = event.get("round")
                number = number if isinstance(number, int) and not isinstance(number, bool) else self.round.number
                record = self.games[key] = GameRecord(table.table, game_id, number)
            self.received += 1
            if seq in record.events:
                record.duplicates += 1
                self.duplicates += 1
                return None
            record.events[seq] = event
            sent = payload.get("sent")
            record.sent[seq] = sent if isinstance(sent, float | int) else time.time()
            record.advance()
            table.updated = time.time()
            gap = record.missing_from()
            result = self._resend_from(key, gap) if gap is not None else None
        self.feed.bump(table_key(table.table))
        return result

    def set_state(self, payload: dict[str, Any]) -> tuple[str, int] | None:
        """Store a table's retained state (``payload["state"]``). Returns ``(game_id, seq)`` to ask the table to
        resend from when the state is ahead of the events received (the hub started after them), else None.
        Raises SchemaError if the state is not an object."""
        state = payload.get("state")
        if not isinstance(state, dict):
            raise SchemaError(f"state of table {payload.get('table')!r} is not an object: {state!r:.80}")
        game_id, seq = payload.get("game"), payload.get("seq")
        result = None
        with self._lock:
            table = self._table(str(payload.get("table")))
            table.state = state
            if isinstance(game_id, str):
                table.game_id = game_id
                record = self.games.get((table.table, game_id))
                have = record.applied if record is not None else 0
                if isinstance(seq, int) and not isinstance(seq, bool) and seq >= have:
                    result = self._resend_from((table.table, game_id), have)
            table.updated = time.time()
        self.feed.bump(table_key(table.table))
        return result

    def set_status(self, payload: dict[str, Any]) -> None:
        """A table went online or offline."""
        with self._lock:
            table = self._table(str(payload.get("table")))
            table.online = bool(payload.get("online"))
        self.feed.bump(table_key(table.table))

    def round_command(self, command: dict[str, Any]) -> None:
        """Record a round command the hub sent (the stage and the round games are assigned to)."""
        with self._lock:
            self.round.number = command["round"]
            self.round.stage = _STAGES[command["command"]]
            self.round.commands.append(command)
        self.feed.bump(ROUND_KEY)

    # ------------------------------------------------------------------------------------------- views
    def table_ids(self) -> list[str]:
        with self._lock:
            return sorted(self.tables, key=_natural)

    def current_game(self, table_id: str) -> GameRecord | None:
        with self._lock:
            table = self.tables.get(table_id)
            if table is None or table.game_id is None:
                return None
            return self.games.get((table_id, table.game_id))

    def table_view(self, table_id: str, full: bool = True) -> dict[str, Any] | None:
        """A table for the pages: the state it published (or the game rebuilt from its events), status, the last
        event received in a row (``seq``, ``sent``). ``full`` False leaves out the move history."""
        with self._lock:
            table = self.tables.get(table_id)
            if table is None:
                return None
            record = self.current_game(table_id)
            state = dict(table.state) if table.state is not None else {}
            if "game" not in state and record is not None:
                state["game"] = record.game.to_dict()
            game = dict(state.get("game") or {})
            if not full:
                history = game.pop("history", None) or []
                game["last_move"] = history[-1] if history else None
                state["game"] = game
            seq = record.applied - 1 if record is not None else -1
            return {
                "table": table_id,
                "online": table.online,
                "state": state,
                "game_id": table.game_id,
                "round": record.round if record is not None else None,
                "seq": seq,
                "sent": record.sent.get(seq) if record is not None else None,
                "error": record.error if record is not None else None,
            }

    def round_view(self) -> dict[str, Any]:
        with self._lock:
            return {"number": self.round.number, "stage": self.round.stage,
                    "last": self.round.commands[-1] if self.round.commands else None}  # fmt: skip

    def games_of_round(self, number: int) -> list[GameRecord]:
        """The games assigned to round ``number``, by table."""
        with self._lock:
            return sorted((g for g in self.games.values() if g.round == number), key=lambda g: _natural(g.table))

    def rounds(self) -> list[int]:
        with self._lock:
            return sorted({g.round for g in self.games.values()})


def _natural(name: str) -> tuple[Any, ...]:
    """Sort key putting table 2 before table 10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))
