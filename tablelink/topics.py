"""The MQTT topics and the payload envelope of the table-hub link (see ``docs/hub.md``).

Version 1. Every topic starts with ``partiar/v1/``; every payload is a UTF-8 JSON object with ``"v": 1``.

| topic | from | QoS / retained | payload |
|---|---|---|---|
| ``partiar/v1/table/<id>/event`` | table | 1 | ``{"v", "table", "game", "seq", "event", "sent"}`` |
| ``partiar/v1/table/<id>/state`` | table | 1, retained | ``{"v", "table", "game", "seq", "state", "sent"}`` |
| ``partiar/v1/table/<id>/status`` | table (will) | 1, retained | ``{"v", "table", "online", "sent"}`` |
| ``partiar/v1/table/<id>/ack`` | table | 1 | ``{"v", "table", "pairing", "round", "number", "sent"}``: the pairing kept
  (``tablelink.pairing.PairingAck``) |
| ``partiar/v1/table/<id>/command`` | hub | 1 | ``{"v", "command": "resend", "game", "from"}`` |
| ``partiar/v1/table/<id>/pairing`` | hub | 1, retained | ``{"v", "id", "round", "table", "number", "players": [{"id",
  "name"}, ...], "tournament", "place", "date", "sent"}``: the round's pairing at this table (``tablelink.pairing``) |
| ``partiar/v1/round/command`` | hub | 1, retained | ``{"v", "id", "command", "round", "sent", "given"}``: the last
  round command with the round's state (``tablelink.rounds``) |

The pairing's ``table`` is the table unit's id (its broker user name), ``number`` the tournament's table number
the players look for. This package is the contract alone: ``device/`` and ``hub/`` import it, it imports neither.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

SCHEMA_VERSION = 1
ROOT = f"partiar/v{SCHEMA_VERSION}"
ROUND_COMMAND_TOPIC = f"{ROOT}/round/command"
ALL_TABLES = f"{ROOT}/table/+/+"

STATE_CLOCK_FIELDS = ("state", "paused", "player_on_move", "move_left", "budgets", "game_left", "game_phase")
"""The fields of the clock view (``MoveClock.view``) a table publishes in its state: what the hub's pages show."""
STATE_CLAIM_FIELDS = ("scores", "ended")
"""The fields of ``Game.to_dict()`` a table publishes as its claim (with ``moves``, the length of its history)."""

HUB_USER = "hub"
"""The broker user name of the hub (a table id may not be this)."""

TABLE_WRITES = ("event", "state", "status", "ack")
"""The topics a table writes (the broker's ACL lets it write only its own)."""
TABLE_READS = ("command", "pairing")
"""The topics of one table the hub writes and the table reads."""
TABLE_KINDS = TABLE_WRITES + TABLE_READS
MAX_ROUND = 99
"""Rounds are numbered 1..MAX_ROUND (the round commands, the pairing; the hub's checks)."""

_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class SchemaError(ValueError):
    """A topic or payload that does not follow the schema; the message names it and what is wrong."""


def check_table_id(table_id: str) -> str:
    """``table_id`` if usable as one topic level and broker user name (1-32 of A-Z a-z 0-9 _ -, not ``hub``)."""
    if not isinstance(table_id, str) or not _TABLE_ID.match(table_id) or table_id == HUB_USER:
        raise SchemaError(
            f"table id {table_id!r} must be 1-32 letters, digits, '_' or '-' (and not {HUB_USER!r})"
        )
    return table_id


def table_topic(table_id: str, kind: str) -> str:
    """The topic of one table's stream of ``kind`` (``TABLE_KINDS``)."""
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
