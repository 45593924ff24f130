"""The MQTT topic and payload schema shared by the table publisher and the hub (see ``docs/hub.md``).

Version 1. Every topic starts with ``partiar/v1/``; every payload is a UTF-8 JSON object with ``"v": 1``.

| topic | from | QoS / retained | payload |
|---|---|---|---|
| ``partiar/v1/table/<id>/event`` | table | 1 | ``{"v", "table", "game", "seq", "event", "sent"}`` |
| ``partiar/v1/table/<id>/state`` | table | 1, retained | ``{"v", "table", "game", "seq", "state", "sent"}`` |
| ``partiar/v1/table/<id>/status`` | table (will) | 1, retained | ``{"v", "table", "online", "sent"}`` |
| ``partiar/v1/table/<id>/command`` | hub | 1 | ``{"v", "command": "resend", "game", "from"}`` |
| ``partiar/v1/table/<id>/pairing`` | hub | 1, retained | ``{"v", "id", "round", "table", "players": [{"id", "name"}, ...],
  "tournament", "place", "date", "sent"}``: the round's pairing at this table, the first player starts |
| ``partiar/v1/round/command`` | hub | 1, retained | ``{"v", "id", "command", "round", "sent"}`` |
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from device.errors import DeviceError

SCHEMA_VERSION = 1
ROOT = f"partiar/v{SCHEMA_VERSION}"
ROUND_COMMAND_TOPIC = f"{ROOT}/round/command"
ALL_TABLES = f"{ROOT}/table/+/+"
ROUND_COMMANDS = ("start_round", "warning", "end_base_time")
"""Round commands the chief referee sends to every table: the base game time starts on every clock together,
the 10-minute warning, the end of the base time (every table enters the A-B-C playout)."""

STATE_CLOCK_FIELDS = ("state", "paused", "player_on_move", "move_left", "budgets", "game_left", "game_phase")
"""The fields of the clock view (``MoveClock.view``) a table publishes in its state: what the hub's pages show."""
STATE_CLAIM_FIELDS = ("scores", "ended")
"""The fields of ``Game.to_dict()`` a table publishes as its claim (with ``moves``, the length of its history)."""

HUB_USER = "hub"
"""The broker user name of the hub (a table id may not be this)."""

TABLE_KINDS = ("event", "state", "status", "command", "pairing")
"""The topics of one table: what it writes (event, state, status) and what the hub sends it (command, pairing)."""
MAX_ROUND = 99
"""Rounds are numbered 1..MAX_ROUND (the round commands, the pairing; the hub's checks)."""
MAX_NAME = 40
"""Longest player name a pairing carries (the LCD shows what fits)."""
MAX_LABEL = 80
"""Longest tournament name, place, date or player id a pairing carries."""

_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class SchemaError(DeviceError, ValueError):
    """A topic or payload that does not follow the schema; the message names it and what is wrong."""


def check_table_id(table_id: str) -> str:
    """``table_id`` if usable as one topic level and broker user name (1-32 of A-Z a-z 0-9 _ -, not ``hub``)."""
    if not isinstance(table_id, str) or not _TABLE_ID.match(table_id) or table_id == HUB_USER:
        raise SchemaError(
            f"table id {table_id!r} must be 1-32 letters, digits, '_' or '-' (and not {HUB_USER!r})"
        )
    return table_id


def table_topic(table_id: str, kind: str) -> str:
    """The topic of one table's ``event``, ``state``, ``status`` or ``command`` stream."""
    if kind not in TABLE_KINDS:
        raise SchemaError(f"no table topic kind {kind!r}")
    return f"{ROOT}/table/{check_table_id(table_id)}/{kind}"


def parse_table_topic(topic: str) -> tuple[str, str]:
    """``(table_id, kind)`` of a table topic; raises SchemaError naming the topic otherwise."""
    parts = topic.split("/")
    if len(parts) != 5 or "/".join(parts[:3]) != f"{ROOT}/table":
        raise SchemaError(f"not a table topic: {topic!r}")
    return check_table_id(parts[3]), parts[4]


def compact_state(view: Mapping[str, Any]) -> dict[str, Any]:
    """What a table publishes as its ``state`` from its whole view (``Table.view()``): the names (``name``,
    ``players``), the clock fields the pages show (``STATE_CLOCK_FIELDS``) and the claim ``game``: the scores,
    how the game ended and ``moves``, the number of moves in its history. Never the history or the board: the
    hub rebuilds the game from the events and only compares the claim with it (a few hundred bytes instead of
    8-30 KB). Keys the view lacks are left out."""
    state: dict[str, Any] = {k: view[k] for k in ("name", "players") if k in view}
    clock = view.get("clock")
    if isinstance(clock, Mapping):
        state["clock"] = {k: clock[k] for k in STATE_CLOCK_FIELDS if k in clock}
    game = view.get("game")
    if isinstance(game, Mapping):
        claim = {k: game[k] for k in STATE_CLAIM_FIELDS if k in game}
        if isinstance(game.get("history"), list):
            claim["moves"] = len(game["history"])
        state["game"] = claim
    return state


def encode(payload: dict[str, Any]) -> bytes:
    """A payload as compact UTF-8 JSON with the schema version."""
    return json.dumps({"v": SCHEMA_VERSION, **payload}, ensure_ascii=False, separators=(",", ":")).encode()


def decode(data: bytes | bytearray, topic: str) -> dict[str, Any]:
    """A payload as a dict; raises SchemaError naming the topic if it is not a JSON object of version 1."""
    try:
        payload = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SchemaError(f"{topic}: payload is not UTF-8 JSON ({exc})") from None
    if not isinstance(payload, dict):
        raise SchemaError(f"{topic}: payload must be a JSON object, got {payload!r:.80}")
    if payload.get("v") != SCHEMA_VERSION:
        raise SchemaError(f"{topic}: schema version {payload.get('v')!r}, this program reads {SCHEMA_VERSION}")
    return payload


def round_command(command: str, round_number: int, command_id: str, **extra: Any) -> dict[str, Any]:
    """A round command payload (without ``v``); raises SchemaError for an unknown command or a bad round."""
    if command not in ROUND_COMMANDS:
        raise SchemaError(f"unknown round command {command!r}; known: {', '.join(ROUND_COMMANDS)}")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise SchemaError(f"round must be an integer >= 1, got {round_number!r}")
    return {"id": command_id, "command": command, "round": round_number, "sent": time.time(), **extra}


@dataclass(frozen=True, slots=True)
class PairedPlayer:
    """One player of a pairing: the ČAS id (or the hub's own number) and the name as the LCD shows it."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class TablePairing:
    """The round's pairing at one table as the hub sends it: ``players`` in playing order (the first named starts,
    004 "Určení začínajícího hráče"), and the score sheet's header (tournament, place, date). ``id`` changes with
    every message: a correction before the game starts is a new pairing of the same round.

    A pairs tournament's pairing (doubles, seed 003) names four players and the two ``teams`` (the pairs' ids and
    names): the first team starts; its players are ``players[0]`` and ``players[2]``, the other's ``players[1]``
    and ``players[3]`` (the order a doubles game takes its players in, ``engine.game.teams``). A singles pairing
    has two players and no teams."""

    id: str
    round: int
    table: str
    players: tuple[PairedPlayer, ...]
    tournament: str = ""
    place: str = ""
    date: str = ""
    sent: float = 0.0
    teams: tuple[PairedPlayer, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.players)

    def payload(self) -> dict[str, Any]:
        """The payload (without ``v``; ``encode`` adds it); ``parse_pairing`` reads it back."""
        return {"id": self.id, "round": self.round, "table": self.table,
                "players": [{"id": p.id, "name": p.name} for p in self.players], "tournament": self.tournament,
                "place": self.place, "date": self.date, "sent": self.sent,
                **({"teams": [{"id": t.id, "name": t.name} for t in self.teams]} if self.teams else {})}  # fmt: skip


def _text(payload: Mapping[str, Any], key: str, where: str, longest: int, required: bool = False) -> str:
    value = payload.get(key, "")
    if not isinstance(value, str) or len(value) > longest or any(ord(c) < 32 for c in value):
        raise SchemaError(f"{where}: {key!r} must be text of at most {longest} characters, got {value!r:.60}")
    if required and not value.strip():
        raise SchemaError(f"{where}: {key!r} must not be empty")
    return value.strip()


def parse_pairing(payload: Mapping[str, Any], table_id: str) -> TablePairing:
    """The pairing in a payload sent to table ``table_id``; raises SchemaError naming the field that is wrong."""
    where = f"pairing for table {check_table_id(table_id)}"
    round_number = payload.get("round")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or not 1 <= round_number <= MAX_ROUND:
        raise SchemaError(f"{where}: 'round' must be an integer 1-{MAX_ROUND}, got {round_number!r:.40}")
    if payload.get("table") != table_id:
        raise SchemaError(f"{where}: the payload names table {payload.get('table')!r:.40}")
    raw = payload.get("players")
    if not isinstance(raw, list) or len(raw) not in (2, 4):
        raise SchemaError(f"{where}: 'players' must be a list of the two players (four in doubles), got {raw!r:.80}")
    players = _paired(raw, f"{where}, player", MAX_NAME)
    if len({p.id for p in players}) < len(players) or len({p.name for p in players}) < len(players):
        raise SchemaError(f"{where}: the {'two' if len(players) == 2 else 'four'} players must differ, got {raw!r:.80}")
    raw_teams = payload.get("teams", [])
    if len(players) == 4 and (not isinstance(raw_teams, list) or len(raw_teams) != 2):
        raise SchemaError(f"{where}: a doubles pairing names its two 'teams', got {raw_teams!r:.80}")
    if len(players) == 2 and raw_teams:
        raise SchemaError(f"{where}: a pairing of two players has no 'teams', got {raw_teams!r:.80}")
    teams = _paired(raw_teams, f"{where}, team", MAX_LABEL)
    if len(teams) == 2 and teams[0].id == teams[1].id:
        raise SchemaError(f"{where}: the two teams must differ, got {raw_teams!r:.80}")
    sent = payload.get("sent", 0.0)
    if isinstance(sent, bool) or not isinstance(sent, int | float):
        raise SchemaError(f"{where}: 'sent' must be a number, got {sent!r:.40}")
    return TablePairing(
        _text(payload, "id", where, MAX_LABEL, True), round_number, table_id, tuple(players),
        _text(payload, "tournament", where, MAX_LABEL), _text(payload, "place", where, MAX_LABEL),
        _text(payload, "date", where, MAX_LABEL), float(sent), tuple(teams),
    )  # fmt: skip


def _paired(raw: list[Any], where: str, longest: int) -> list[PairedPlayer]:
    """The ``{"id", "name"}`` objects of a pairing's list (players or teams), numbered from 1 in errors."""
    out = []
    for n, item in enumerate(raw, 1):
        if not isinstance(item, dict):
            raise SchemaError(f"{where} {n} must be an object with 'id' and 'name', got {item!r:.60}")
        out.append(PairedPlayer(_text(item, "id", f"{where} {n}", MAX_LABEL, True),
                                _text(item, "name", f"{where} {n}", longest, True)))  # fmt: skip
    return out
