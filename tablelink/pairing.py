"""The round's pairing the hub sends one table (``TablePairing``), and the table's acknowledgement of it
(``PairingAck``): payloads and their checks, shared by the table and the hub."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tablelink.topics import MAX_ROUND, SchemaError, check_table_id

MAX_NAME = 40
"""Longest player name a pairing carries (the LCD shows what fits)."""
MAX_LABEL = 80
"""Longest tournament name, place, date or player id a pairing carries."""
MAX_TABLE_NUMBER = 999
"""The tournament's table numbers are 1..MAX_TABLE_NUMBER (0 in a pairing: not given, the unit id stands for it)."""


@dataclass(frozen=True, slots=True)
class PairedPlayer:
    """One player of a pairing: the ČAS id (or the hub's own number) and the name as the LCD shows it."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class TablePairing:
    """The round's pairing at one table as the hub sends it: ``players`` in playing order (the first named starts,
    004 "Určení začínajícího hráče"), and the score sheet's header (tournament, place, date). ``id`` changes with
    every message: a correction before the game starts is a new pairing of the same round. ``table`` is the table
    unit's id (its broker user name), ``number`` the tournament's table number the players look for (0: not
    given).

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
    number: int = 0
    teams: tuple[PairedPlayer, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.players)

    @property
    def table_label(self) -> str:
        """What the players read as the table: the tournament's number, else the unit's id."""
        return str(self.number) if self.number else self.table

    def payload(self) -> dict[str, Any]:
        """The payload (without ``v``; ``topics.encode`` adds it); ``parse_pairing`` reads it back."""
        return {"id": self.id, "round": self.round, "table": self.table, "number": self.number,
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


def _integer(payload: Mapping[str, Any], key: str, where: str, low: int, high: int, default: int | None = None) -> int:
    value = payload.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SchemaError(f"{where}: {key!r} must be an integer {low}-{high}, got {value!r:.40}")
    return value


def _stamp(payload: Mapping[str, Any], key: str, where: str) -> float:
    value = payload.get(key, 0.0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SchemaError(f"{where}: {key!r} must be a number, got {value!r:.40}")
    return float(value)


def parse_pairing(payload: Mapping[str, Any], table_id: str) -> TablePairing:
    """The pairing in a payload sent to table ``table_id``; raises SchemaError naming the field that is wrong."""
    where = f"pairing for table {check_table_id(table_id)}"
    round_number = _integer(payload, "round", where, 1, MAX_ROUND)
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
    return TablePairing(
        _text(payload, "id", where, MAX_LABEL, True), round_number, table_id, tuple(players),
        _text(payload, "tournament", where, MAX_LABEL), _text(payload, "place", where, MAX_LABEL),
        _text(payload, "date", where, MAX_LABEL), _stamp(payload, "sent", where),
        _integer(payload, "number", where, 0, MAX_TABLE_NUMBER, 0), tuple(teams),
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


@dataclass(frozen=True, slots=True)
class PairingAck:
    """A table's word that it kept pairing ``pairing`` of round ``round`` (table ``number``; the table unit is
    ``table``): sent on the table's ``ack`` topic once the pairing is on its card, again for the retained pairing
    after every reconnect (the hub records it once)."""

    table: str
    pairing: str
    round: int
    number: int = 0
    sent: float = 0.0

    def payload(self) -> dict[str, Any]:
        return {"table": self.table, "pairing": self.pairing, "round": self.round, "number": self.number,
                "sent": self.sent}  # fmt: skip


def pairing_ack(pairing: TablePairing) -> PairingAck:
    """The acknowledgement of ``pairing``, stamped now."""
    return PairingAck(pairing.table, pairing.id, pairing.round, pairing.number, time.time())


def parse_pairing_ack(payload: Mapping[str, Any], table_id: str) -> PairingAck:
    """The acknowledgement table ``table_id`` sent; raises SchemaError naming the field that is wrong."""
    where = f"pairing acknowledgement of table {check_table_id(table_id)}"
    if payload.get("table") != table_id:
        raise SchemaError(f"{where}: the payload names table {payload.get('table')!r:.40}")
    return PairingAck(table_id, _text(payload, "pairing", where, MAX_LABEL, True),
                      _integer(payload, "round", where, 1, MAX_ROUND),
                      _integer(payload, "number", where, 0, MAX_TABLE_NUMBER, 0), _stamp(payload, "sent", where))  # fmt: skip
