"""What the hub knows: per table its status and the parts of its state the pages show, per game the events by
``seq`` (deduplicated) and the ``engine.game.Game`` rebuilt from them, the round the chief referee runs, the
players and the results. Events, games, results and the round are written to the ``Database`` as they arrive
and read back when the hub starts, so a restart (even ``kill -9``) loses nothing.

The events are the truth: the pages show the game the engine rebuilt from them, never the scores a table
claims in its state. A table whose claimed scores disagree with its events is flagged (``disagreement``).
Thread-safe; every change bumps the ``ChangeFeed`` key of the table (``table:<id>``) or ``round``.
"""

from __future__ import annotations

import collections
import functools
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, fields
from typing import Any

from engine.errors import EngineError
from engine.game import Game
from engine.game.events import EVENT_TYPES, event_from_json
from hub.db import Database
from hub.errors import MessageError
from hub.feed import ChangeFeed
from hub.quarantine import Aside, AsideGame, admission
from hub.sanctions import GameMarks, PlayerSanctions, game_marks, tournament_sanctions
from hub.schema import MAX_ROUND, EventMessage, StateMessage, StatusMessage, validate
from tablelink.rounds import STAGES

log = logging.getLogger(__name__)

ROUND_KEY = "round"
ACKS_KEY = "acks"
"""The ``ChangeFeed`` key bumped when a table acknowledges the desk's pairing."""
ACKS_SCHEMA = """CREATE TABLE IF NOT EXISTS pairing_acks(
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, unit TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY(round, tbl))"""
STATUS_KEY = "status"
RESEND_AFTER = 2.0
"""Seconds before the hub asks a table again for the events of a gap."""
MAX_AHEAD = 1000
"""An event at most this many seqs after the last one applied in a row is kept (a game has a few hundred events
and a table sends them in order): one far in the future would take the place of the real event to come."""
MAX_GAMES_PER_TABLE = 500
"""Games the hub takes in per table (a tournament of 99 rounds with a few restarted games each stays far below):
beyond, new games go aside (``hub.quarantine``), so a table making up a new game id per message cannot fill the
hub's memory and file."""
REJECTED_KEPT = 50
"""Bad messages listed on the status page (the count covers all)."""

_STAGES = STAGES  # tablelink.rounds


def table_key(table_id: str) -> str:
    return f"table:{table_id}"


@functools.cache
def _event_fields(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls)) | {"type"}


def game_event(data: dict[str, Any]) -> Any:
    """The engine event in a published event object (the daemon's own fields dropped); raises EngineError."""
    cls = EVENT_TYPES.get(data.get("type", "")) if isinstance(data.get("type"), str) else None
    if cls is None:
        return event_from_json(data)  # raises, naming the unknown type
    names = _event_fields(cls)
    return event_from_json({k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class GameResult:
    """One finished game: round, table, players in playing order (names and ids), final scores (with the
    end-of-game rack adjustments), how it ended, and whether it is void (0:0 by kontumace, no points: a double no-show, or the
    referee's 0:0 in a dispute, 004 E)."""

    round: int
    table: str
    game_id: str
    players: tuple[str, ...]
    player_ids: tuple[str, ...]
    scores: tuple[int, ...]
    end: str
    forfeit_all: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "game": self.game_id, "players": list(self.players),
                "player_ids": list(self.player_ids), "scores": list(self.scores), "end": self.end,
                "forfeit_all": self.forfeit_all}  # fmt: skip


@dataclass
class GameRecord:
    """One game at one table: its events by seq and the game rebuilt from the ones received in a row."""

    table: str
    game_id: str
    round: int
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    sent: dict[int, float] = field(default_factory=dict)
    received: dict[int, float] = field(default_factory=dict)
    """When this hub run got each event (its wall clock; none for the events read back at start-up)."""
    game: Game = field(default_factory=Game)
    applied: int = 0
    error: str | None = None
    duplicates: int = 0
    _dicts: tuple[int, dict[bool, dict[str, Any]]] | None = None
    _marks: tuple[int, GameMarks] | None = None

    def marks(self) -> GameMarks:
        """The game's warnings and exclusions (``hub.sanctions``), kept until it applies another event."""
        if self._marks is None or self._marks[0] != self.applied:
            self._marks = (self.applied, game_marks(self.round, self.table, self.game_id, self.game))
        return self._marks[1]

    def missing_from(self) -> int | None:
        """The first seq not received while later ones were (or the start missing), else None."""
        if not self.events:
            return None
        return self.applied if max(self.events) >= self.applied else None

    def advance(self) -> bool:
        """Apply every event received in a row after the ones applied; True if any was."""
        moved = False
        while self.applied in self.events:
            data = self.events[self.applied]
            self.applied += 1
            moved = True
            if self.error is not None:
                continue
            try:
                self.game.apply(game_event(data))
            except (EngineError, ValueError, TypeError, KeyError) as exc:
                self.error = f"table {self.table}, game {self.game_id}, event {self.applied - 1}: {exc}"
                log.error("%s", self.error)
        return moved

    def game_dict(self, full: bool) -> dict[str, Any]:
        """``Game.to_dict()``, cached per event count; the summary (``full`` False) leaves out the history
        (``Game.to_dict(history=False)`` names the last move only), and is all most pages ever ask for."""
        if self._dicts is None or self._dicts[0] != self.applied:
            self._dicts = (self.applied, {})
        made = self._dicts[1]
        if full not in made:
            whole = self.game.to_dict(history=full)
            if not full:
                del whole["history"]
            made[full] = whole
        return made[full]

    def filed_round(self) -> int:
        """The round the game belongs to: its pairing's (the desk's number, in the game's header) for a game
        started from the hub's pairing, else the round it was filed under when it came in."""
        round_text = str(self.game.info.get("round") or "")
        paired = self.game.info.get("player_ids") or ()
        return int(round_text) if round_text.isdigit() and len(round_text) <= 3 and paired else self.round

    def result(self, ids: dict[str, str]) -> GameResult | None:
        """The result of a finished game (None while it runs or racks are still to be entered)."""
        result, game = self.game.result, self.game
        if result is None or game.ended is None:
            return None
        paired = game.info.get("player_ids") or ()
        if len(paired) == len(game.players):  # the hub's pairing named them (device.table_pairing): filed by id
            ids = dict(zip(game.players, paired, strict=True))
        number = self.filed_round()  # the pairing's round
        nobody = result.void  # 0:0 by kontumace: nobody came, or the referee's 0:0 in a dispute (004 E)
        team = game.team_result
        if team is not None:  # doubles (seed 003): the result and the standings are the teams'
            members = [game.players[t::2] for t in range(2)]
            team_ids = tuple("+".join(ids.get(p, "") for p in names) if all(ids.get(p) for p in names) else ""
                             for names in members)  # fmt: skip
            return GameResult(number, self.table, self.game_id, team.names, team_ids, team.final,
                              game.ended.value, nobody)  # fmt: skip
        return GameResult(number, self.table, self.game_id, game.players,
                          tuple(ids.get(p, "") for p in game.players), result.final, game.ended.value, nobody)  # fmt: skip


@dataclass
class TableRecord:
    """One table: online flag, the state parts the pages show, the game it plays, what it claims."""

    table: str
    online: bool | None = None
    state: dict[str, Any] = field(default_factory=dict)
    game_id: str | None = None
    updated: float = 0.0
    claimed: tuple[str | None, int | None, list[int] | None, int | None] | None = None
    """``(game id, seq, scores, moves)`` of the table's last state: its claim about the game after event seq."""
    disagreement: str | None = None


@dataclass
class RoundState:
    """The round the chief referee runs: number, stage (idle, running, warning, playout), the last command."""

    number: int = 0
    stage: str = "idle"
    last: dict[str, Any] | None = None


@dataclass
class Rejected:
    """A message the hub refused: when, which table and topic, why."""

    at: float
    table: str | None
    topic: str
    error: str


class HubStore:
    """Tables, games, the round, players and results, fed by the hub's MQTT link; persisted in ``db``."""

    def __init__(self, db: Database | None = None, feed: ChangeFeed | None = None) -> None:
        self.db = db or Database()
        self.feed = feed or ChangeFeed()
        self._lock = threading.RLock()
        self._round_lock = threading.Lock()
        """Held by ``round_command`` through its commit (never the store's lock)."""
        self.tables: dict[str, TableRecord] = {}
        self.games: dict[tuple[str, str], GameRecord] = {}
        self.round = RoundState()
        self.received = 0
        self.duplicates = 0
        self.rejected = 0
        self.rejected_recent: collections.deque[Rejected] = collections.deque(maxlen=REJECTED_KEPT)
        self._asked: dict[tuple[str, str], float] = {}
        self._results: dict[tuple[str, str], GameResult] = {}
        self._player_ids: dict[str, str] = {}
        self._game_count: dict[str, int] = {}
        self.aside = Aside()
        """Games put aside (``hub.quarantine``): not shown, not in the results until a referee takes one in."""
        self.pairing: Callable[[str, int], Collection[str] | None] | None = None
        """The round's pairing, when the tournament has one: see ``expected_players``."""
        self.tournament_round: Callable[[], tuple[int, str] | None] | None = None
        """The tournament desk's round, when there is one: ``(number, "paired"|"published"|"closed")``; then
        new games without a round of their own are filed under it and the pages show it (``round_shown``)."""
        self._acks: dict[int, dict[int, tuple[str, float]]] = {}
        """Per round, per tournament table: the unit that acknowledged the desk's pairing, and when."""
        self._load()

    # ------------------------------------------------------------------------------------------ start-up
    def _load(self) -> None:
        """Everything the database holds: the round, the players, every game rebuilt from its events, the tables'
        acknowledgements of the desk's pairings."""
        with self.db.transaction() as conn:
            conn.execute(ACKS_SCHEMA)
        for row in self.db.query("SELECT round, tbl, unit, at FROM pairing_acks"):
            self._acks.setdefault(row["round"], {})[row["tbl"]] = (row["unit"], row["at"])
        raw = self.db.get_meta("round")
        if raw:
            data = json.loads(raw)
            self.round = RoundState(int(data["number"]), str(data["stage"]), data.get("last"))
        for row in self.db.query("SELECT id, name FROM players"):
            self._player_ids[row["name"]] = row["id"]
        for row in self.db.query("SELECT id, online, game_id, updated FROM tables"):
            online = None if row["online"] is None else bool(row["online"])
            self.tables[row["id"]] = TableRecord(row["id"], online, {}, row["game_id"], row["updated"] or 0.0)
        for row in self.db.query("SELECT tbl, game_id, round FROM games ORDER BY created"):
            self.games[(row["tbl"], row["game_id"])] = GameRecord(row["tbl"], row["game_id"], row["round"])
            self._game_count[row["tbl"]] = self._game_count.get(row["tbl"], 0) + 1
        for row in self.db.query("SELECT tbl, game_id, seq, event, sent FROM events ORDER BY tbl, game_id, seq"):
            record = self.games.get((row["tbl"], row["game_id"]))
            if record is not None:
                record.events[row["seq"]] = json.loads(row["event"])
                record.sent[row["seq"]] = row["sent"]
        for record in self.games.values():
            record.advance()
        for row in self.db.query("SELECT * FROM results"):
            self._results[(row["tbl"], row["game_id"])] = GameResult(
                row["round"], row["tbl"], row["game_id"], tuple(json.loads(row["players"])),
                tuple(json.loads(row["player_ids"])), tuple(json.loads(row["scores"])), row["end_reason"],
                bool(row["forfeit_all"]))  # fmt: skip
        for record in self.games.values():
            self._store_result(record)  # a result the engine gives now but was not written before the stop

    # ------------------------------------------------------------------------------------------- helpers
    def _table(self, table_id: str) -> TableRecord:
        record = self.tables.get(table_id)
        if record is None:
            record = self.tables[table_id] = TableRecord(table_id)
            self.db.write("INSERT OR IGNORE INTO tables(id) VALUES(?)", (table_id,))
        return record

    def _resend_from(self, key: tuple[str, str], start: int) -> tuple[str, int] | None:
        """``(game_id, start)`` unless the table was asked for this game less than RESEND_AFTER ago."""
        now = time.monotonic()
        if now - self._asked.get(key, -RESEND_AFTER) < RESEND_AFTER:
            return None
        if len(self._asked) > 10_000:  # made-up game ids must not grow this for good
            self._asked = {k: t for k, t in self._asked.items() if now - t < RESEND_AFTER}
        self._asked[key] = now
        return key[1], start

    def player_id(self, name: str) -> str:
        """The id of a player (a new one, the next free number, for a name not seen before)."""
        with self._lock:
            pid = self._player_ids.get(name)
            if pid is None:
                taken = set(self._player_ids.values())
                n = len(taken) + 1
                while str(n) in taken:
                    n += 1
                pid = str(n)
                self.db.write("INSERT INTO players(id, name) VALUES(?, ?)", (pid, name))
                self._player_ids[name] = pid
            return pid

    def set_players(self, players: list[tuple[str, str]]) -> None:
        """Register players ``(id, name)`` (e.g. ČAS member numbers) before their games end; replaces the id of
        a name already known. Results already stored keep the ids they had."""
        with self._lock, self.db.transaction() as conn:
            for pid, name in players:
                conn.execute("DELETE FROM players WHERE id = ? OR name = ?", (pid, name))
                conn.execute("INSERT INTO players(id, name) VALUES(?, ?)", (pid, name))
            self._player_ids = {r["name"]: r["id"] for r in conn.execute("SELECT id, name FROM players")}

    def players(self) -> list[dict[str, str]]:
        with self._lock:
            return [{"id": i, "name": n} for n, i in sorted(self._player_ids.items(), key=lambda x: _natural(x[1]))]

    def _store_result(self, record: GameRecord) -> bool:
        """Write the game's result if it has one that is not stored yet (or changed), or take a stored one back when
        the game has none any more (an upheld challenge of the play that closed it reopened the game); True if
        anything was written."""
        key = (record.table, record.game_id)
        result = None
        if record.game.result is not None:
            result = record.result({p: self.player_id(p) for p in record.game.players})
        if result is None:
            if key not in self._results:
                return False
            log.info("table %s, game %s: the result is withdrawn (the game goes on)", record.table, record.game_id)
            self.db.write("DELETE FROM results WHERE tbl = ? AND game_id = ?", key)
            del self._results[key]
            return True
        if self._results.get(key) == result:
            return False
        self.db.write(
            "INSERT OR REPLACE INTO results VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
            (record.table, record.game_id, result.round, json.dumps(list(result.players), ensure_ascii=False),
             json.dumps(list(result.player_ids)), json.dumps(list(result.scores)), result.end,
             int(result.forfeit_all)),
        )  # fmt: skip
        self._results[key] = result
        return True

    def _check_claim(self, table: TableRecord) -> None:
        """Compare the scores (and the number of moves, if given) the table claims with the game rebuilt from
        its events, once both describe the same event; set or clear ``table.disagreement``."""
        if table.claimed is None:
            return
        game_id, seq, scores, moves = table.claimed
        record = self.games.get((table.table, game_id or ""))
        if record is None or seq is None or scores is None or record.applied - 1 != seq or record.error:
            return
        rebuilt = list(record.game.scores)
        played = len(record.game.history)
        before = table.disagreement
        if scores != rebuilt:
            table.disagreement = (f"table {table.table} claims scores {':'.join(map(str, scores))}, "
                                  f"its events give {':'.join(map(str, rebuilt))} (event {seq})")  # fmt: skip
        elif moves is not None and moves != played:
            table.disagreement = f"table {table.table} claims {moves} moves, its events give {played} (event {seq})"
        else:
            table.disagreement = None
        if table.disagreement is not None and before != table.disagreement:
            log.warning("hub: %s", table.disagreement)

    # ------------------------------------------------------------------------------------------- games aside
    def expected_players(self, table_id: str, number: int) -> Collection[str] | None:
        """The players (names or registered player ids) the round's pairing expects at the table in round
        ``number``, or None when no pairing says (then ``hub.quarantine.admission`` takes in a table's first
        games of a round). The hook for a tournament's pairing: set ``store.pairing`` to a function of
        ``(table_id, round)`` giving that collection or None."""
        return self.pairing(table_id, number) if self.pairing is not None else None

    def _admission(self, table_id: str, start: dict[str, Any] | None, number: int, aside: AsideGame | None) -> str | None:
        """Why a game not taken in yet goes (or stays) aside, None to take it in (``hub.quarantine``)."""
        if self._game_count.get(table_id, 0) >= MAX_GAMES_PER_TABLE:
            return f"table_full: {MAX_GAMES_PER_TABLE} games of this table already"
        players = start.get("players") if start is not None else None
        names = [p for p in players if isinstance(p, str)] if isinstance(players, list) else None
        if names is None and aside is not None:
            names = aside.players()
        taken = sum(1 for g in self.games.values() if g.table == table_id and g.round == number)
        return admission(names, self.expected_players(table_id, number), self._player_ids, number,
                         self.round.number, taken)  # fmt: skip

    def _take_in(self, table_id: str, game_id: str, number: int, aside: AsideGame | None) -> GameRecord:
        """A game taken in: its record and row, with the events it had aside."""
        self._game_count[table_id] = self._game_count.get(table_id, 0) + 1
        record = self.games[(table_id, game_id)] = GameRecord(table_id, game_id, number)
        self.db.write("INSERT OR IGNORE INTO games VALUES(?, ?, ?, ?)", (table_id, game_id, number, time.time()))
        now = time.time()
        for seq, (event, sent) in sorted(aside.events.items()) if aside is not None else ():
            stamp = sent if sent is not None else now
            self.db.write("INSERT OR IGNORE INTO events VALUES(?, ?, ?, ?, ?)",
                          (table_id, game_id, seq, json.dumps(event, ensure_ascii=False), stamp))  # fmt: skip
            record.events[seq], record.sent[seq], record.received[seq] = event, stamp, now
        return record

    def release(self, table_id: str, game_id: str) -> bool:
        """A referee takes a game aside in: it is stored and becomes the table's game (if its start is in);
        False if no such game is aside."""
        with self._lock:
            aside = self.aside.take(table_id, game_id)
            if aside is None:
                return False
            table = self._table(table_id)
            record = self._take_in(table_id, game_id, aside.round, aside)
            if 0 in record.events:
                table.game_id = game_id
                self.db.write("UPDATE tables SET game_id = ? WHERE id = ?", (game_id, table_id))
            if record.advance():
                self._store_result(record)
            gap = record.missing_from()
            if gap is not None:
                self._asked.pop((table_id, game_id), None)
        self.feed.bump(table_key(table_id))
        return True

    def clear_aside(self, table_id: str | None = None) -> int:
        """A referee clears the games aside of a table (of every table with None); how many went."""
        with self._lock:
            return self.aside.clear(table_id)

    # ------------------------------------------------------------------------------------------- input
    def add_event(self, payload: EventMessage | dict[str, Any]) -> tuple[str, int] | None:
        """Store one published event (duplicates dropped). Returns ``(game_id, seq)`` of a gap the table should
        resend from (at most every RESEND_AFTER seconds), else None. Raises MessageError for a bad payload."""
        msg = payload if isinstance(payload, EventMessage) else validate(EventMessage, payload, "event")
        with self._lock:
            table = self._table(msg.table)
            key = (table.table, msg.game)
            record = self.games.get(key)
            took_in = False
            if msg.seq > (0 if record is None else record.applied) + MAX_AHEAD:
                raise MessageError(f"table {table.table}, game {msg.game}: event {msg.seq} is more than {MAX_AHEAD} "
                                   f"ahead of the last one in a row")  # fmt: skip
            if record is None:
                given = msg.event.get("round")
                valid = isinstance(given, int) and not isinstance(given, bool) and 1 <= given <= MAX_ROUND
                number = given if valid and isinstance(given, int) else self.current_round()
                aside = self.aside.get(key)
                start = msg.event if msg.seq == 0 else None
                reason = self._admission(table.table, start, aside.round if aside else number, aside)
                if reason is not None:
                    if aside is None:
                        log.warning("hub: table %s, game %s put aside: %s", table.table, msg.game, reason)
                        aside = self.aside.add(table.table, msg.game, number, reason)
                    self.aside.keep(aside, msg.seq, msg.event, msg.sent)
                    self.received += 1
                    # a game aside without its start cannot be matched with the pairing: ask for it
                    return self._resend_from(key, 0) if 0 not in aside.events else None
                record = self._take_in(table.table, msg.game, aside.round if aside else number, self.aside.take(*key))
                took_in = True
            self.received += 1
            if msg.seq in record.events:
                if record.events[msg.seq] != msg.event:  # keep the first: a recorded event is never rewritten
                    raise MessageError(f"table {table.table}, game {msg.game}: event {msg.seq} differs from the "
                                       f"one recorded (kept the recorded one)")  # fmt: skip
                record.duplicates += 1
                self.duplicates += 1
                return None
            now = time.time()
            sent = msg.sent if msg.sent is not None else now
            self.db.write("INSERT OR IGNORE INTO events VALUES(?, ?, ?, ?, ?)",
                          (table.table, msg.game, msg.seq, json.dumps(msg.event, ensure_ascii=False), sent))  # fmt: skip
            if msg.game != table.game_id and (msg.seq == 0 or table.game_id is None or (took_in and 0 in record.events)):
                # a new game is the table's current one once its start is in (a gapped event of an unknown game
                # id hides nothing; its start is asked for); old resends never switch back (start recorded)
                table.game_id = msg.game
                self.db.write("UPDATE tables SET game_id = ? WHERE id = ?", (msg.game, table.table))
            record.events[msg.seq] = msg.event
            record.sent[msg.seq] = sent
            record.received[msg.seq] = now
            if record.advance():
                self._store_result(record)
                self._check_claim(table)
            table.updated = time.time()
            gap = record.missing_from()
            result = self._resend_from(key, gap) if gap is not None else None
        self.feed.bump(table_key(table.table))
        return result

    def set_state(self, payload: StateMessage | dict[str, Any]) -> tuple[str, int] | None:
        """Store a table's retained state. Returns ``(game_id, seq)`` to ask the table to resend from when the
        state is ahead of the events received (the hub started after them), else None."""
        msg = payload if isinstance(payload, StateMessage) else validate(StateMessage, payload, "state")
        result = None
        with self._lock:
            table = self._table(msg.table)
            table.state = msg.state.model_dump(exclude={"game"}, exclude_none=True)
            claimed = msg.state.game
            table.claimed = (msg.game, msg.seq, list(claimed.scores) if claimed and claimed.scores else None,
                             claimed.moves if claimed else None)  # fmt: skip
            if msg.game is not None:
                record = self.games.get((table.table, msg.game))
                if table.game_id != msg.game and (table.game_id is None or (record is not None and record.applied)):
                    # a state switches the page to a game whose start the hub has, never to an unknown id
                    table.game_id = msg.game
                    self.db.write("UPDATE tables SET game_id = ? WHERE id = ?", (msg.game, table.table))
                have = record.applied if record is not None else 0
                if msg.seq is not None and msg.seq >= have:
                    result = self._resend_from((table.table, msg.game), have)
            self._check_claim(table)
            table.updated = time.time()
        self.feed.bump(table_key(table.table))
        return result

    def set_status(self, payload: StatusMessage | dict[str, Any]) -> None:
        """A table went online or offline."""
        msg = payload if isinstance(payload, StatusMessage) else validate(StatusMessage, payload, "status")
        with self._lock:
            table = self._table(msg.table)
            table.online = msg.online
            self.db.write("UPDATE tables SET online = ? WHERE id = ?", (int(msg.online), table.table))
        self.feed.bump(table_key(table.table))

    def round_command(self, command: dict[str, Any], referee: str | None = None) -> None:
        """Record a round command (the stage, and the round new games are filed under). The commit (an fsync)
        is made outside the store's lock: events and the pages never wait for the disk; round commands wait
        for each other, so the file holds them in the order they were given."""
        with self._round_lock:
            with self._lock:
                current = self.round = RoundState(int(command["round"]), _STAGES[command["command"]],
                                                  {k: command[k] for k in ("id", "command", "round", "sent", "given") if k in command})  # fmt: skip
            with self.db.transaction() as conn:
                conn.execute("INSERT OR IGNORE INTO round_commands(id, round, command, sent, referee) "
                             "VALUES(?, ?, ?, ?, ?)", (command["id"], command["round"], command["command"],
                                                        command.get("sent") or time.time(), referee))  # fmt: skip
                conn.execute("INSERT INTO meta VALUES('round', ?) ON CONFLICT(key) DO UPDATE SET value = "
                             "excluded.value", (json.dumps(current.__dict__),))  # fmt: skip
        self.feed.bump(ROUND_KEY)

    def record_pairing_ack(self, round_no: int, table_no: int, unit: str) -> None:
        """Table unit ``unit`` acknowledged the desk's pairing of tournament table ``table_no`` in round ``round_no``
        (the hub's MQTT link calls this on the table's acknowledgement). Kept in the database: the desk counts
        the pairings delivered, not the ones sent, and files a table's game as a result only from the unit its
        pairing went to. A later acknowledgement of the same table and round replaces the unit."""
        if not (1 <= round_no <= MAX_ROUND and 1 <= table_no <= 9999) or not unit or len(unit) > 64:
            raise MessageError(f"pairing acknowledgement: round {round_no}, table {table_no}, unit {unit!r:.70} "
                               f"out of range")  # fmt: skip
        now = time.time()
        with self._lock:
            self.db.write("INSERT INTO pairing_acks VALUES(?, ?, ?, ?) ON CONFLICT(round, tbl) DO UPDATE SET "
                          "unit = excluded.unit, at = excluded.at", (round_no, table_no, unit, now))  # fmt: skip
            self._acks.setdefault(round_no, {})[table_no] = (unit, now)
        self.feed.bump(ACKS_KEY)

    def pairing_acks(self, round_no: int) -> dict[int, str]:
        """The tables that acknowledged round ``round_no``'s pairing: table number -> the unit that did."""
        with self._lock:
            return {table: unit for table, (unit, _) in self._acks.get(round_no, {}).items()}

    def last_received(self, table_id: str, game_id: str) -> float | None:
        """When this hub run got the game's latest event (its wall clock); None for a game it has no event of
        from this run (read back at start-up) or does not know."""
        with self._lock:
            record = self.games.get((table_id, game_id))
            return max(record.received.values()) if record is not None and record.received else None

    def link_view(self, units: Collection[str], round_number: int) -> dict[str, dict[str, Any]]:
        """Per table unit, what the desk shows of its link: ``online`` (None: never reported), ``seen`` (when
        its last event or state came, this hub's clock; None: not this run), ``started`` (a game of round
        ``round_number`` has begun at it: the clock started)."""
        with self._lock:
            out: dict[str, dict[str, Any]] = {}
            for unit in units:
                table = self.tables.get(unit)
                started = any(g.table == unit and g.game.started_at is not None
                              and (g.game.info.get("round") or str(g.round)) == str(round_number)
                              for g in self.games.values())  # fmt: skip
                out[unit] = {"online": table.online if table else None,
                             "seen": table.updated or None if table else None, "started": started}  # fmt: skip
            return out

    def reject(self, table: str | None, topic: str, error: str) -> None:
        """Count and log a message the hub refused (listed on the status page)."""
        log.warning("hub: refused a message of table %s on %s: %s", table or "?", topic, error)
        with self._lock:
            self.rejected += 1
            self.rejected_recent.appendleft(Rejected(time.time(), table, topic, error[:300]))
        self.feed.bump(STATUS_KEY)

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
        """A table for the pages: the game rebuilt from its events (``full`` False: without the move history),
        the state parts it published (names, clock), status, the last event received in a row (``seq``, ``sent``
        by the table, ``received`` by this hub run), a refused event (``error``) and a disagreement of its
        claims with its events."""
        with self._lock:
            table = self.tables.get(table_id)
            if table is None:
                return None
            record = self.current_game(table_id)
            seq = record.applied - 1 if record is not None else -1
            return {
                "table": table_id,
                "online": table.online,
                "state": table.state,
                "game": record.game_dict(full) if record is not None and record.applied else None,
                "game_id": table.game_id,
                "round": record.round if record is not None else None,
                "seq": seq,
                "sent": record.sent.get(seq) if record is not None else None,
                "received": record.received.get(seq) if record is not None else None,
                "error": record.error if record is not None else None,
                "disagreement": table.disagreement,
            }

    def round_view(self) -> dict[str, Any]:
        with self._lock:
            return {"number": self.round.number, "stage": self.round.stage, "last": self.round.last}

    def games_of_round(self, number: int) -> list[GameRecord]:
        """The games of round ``number`` (``GameRecord.filed_round``: a paired game's round is its pairing's), by
        table."""
        with self._lock:
            return sorted((g for g in self.games.values() if g.filed_round() == number),
                          key=lambda g: _natural(g.table))  # fmt: skip

    def current_round(self) -> int:
        """The round a new game without one of its own is filed under: the desk's published round while it runs,
        else the round control's."""
        desk = self.tournament_round() if self.tournament_round is not None else None
        return desk[0] if desk is not None and desk[1] == "published" else self.round.number

    def round_shown(self) -> dict[str, Any]:
        """The round the pages' header shows: the round control's (``round_view``), or with the desk one number,
        the desk's round: its stage from the round control while both name the same round and it runs, else
        "running" once published, "closed" once closed, "idle" while only paired."""
        view = self.round_view()
        desk = self.tournament_round() if self.tournament_round is not None else None
        if desk is None:
            return view
        number, state = desk
        if state == "published":
            stage = view["stage"] if view["number"] == number and view["stage"] != "idle" else "running"
        else:
            stage = "closed" if state == "closed" else "idle"
        return view | {"number": number, "stage": stage}

    def results(self, round_number: int | None = None) -> list[GameResult]:
        """Finished games (of one round, or all), by round and table."""
        with self._lock:
            out = [r for r in self._results.values() if round_number is None or r.round == round_number]
        return sorted(out, key=lambda r: (r.round, _natural(r.table), r.game_id))

    def sanctions(self) -> list[PlayerSanctions]:
        """Every player's warnings and exclusion over the tournament (``hub.sanctions``)."""
        with self._lock:  # each game's marks are kept until it changes: the lock is held for a pass over the games
            marks = [record.marks() for record in self.games.values() if record.game.players]
            ids = dict(self._player_ids)
        return tournament_sanctions(marks, ids)

    def status_view(self) -> dict[str, Any]:
        """Counters for the status page: messages received, duplicates, refused (with the last ones), tables
        whose claims disagree, games with a refused event."""
        with self._lock:
            return {
                "received": self.received,
                "duplicates": self.duplicates,
                "rejected": self.rejected,
                "rejected_recent": [r.__dict__ for r in self.rejected_recent],
                "disagreements": {t.table: t.disagreement for t in self.tables.values() if t.disagreement},
                "errors": {f"{g.table}/{g.game_id}": g.error for g in self.games.values() if g.error},
                "tables": len(self.tables),
                "games": len(self.games),
                "database": self.db.path,
                "aside": self.aside.view(),
            }


def _natural(name: str) -> tuple[Any, ...]:
    """Sort key putting table 2 before table 10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", name))
