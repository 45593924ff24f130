"""What the hub accepts: every MQTT payload and HTTP body is checked for size and JSON depth on its bytes, then
parsed, then validated by a pydantic model (types, ranges, lengths). Anything else raises ``MessageError``.

The size and depth checks run before ``json.loads``: a payload like ``"[" * 100000`` is refused by a scan of its
bytes and never reaches the (recursive) parser. Field names and meanings: ``docs/hub.md``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from engine.names import CONTROL, MAX_NAME, name_problem
from hub.errors import MessageError
from tablelink.rounds import ROUND_COMMANDS
from tablelink.topics import MAX_ROUND, STATE_CLAIM_FIELDS, STATE_CLOCK_FIELDS

MAX_EVENT_BYTES = 64 * 1024
"""An event payload: one move is a few hundred bytes."""
MAX_STATE_BYTES = 256 * 1024
"""A state payload. A table publishes a compact state (``topics.compact_state``: a few hundred bytes); a table of
an earlier version publishes its whole view with the game's history (8-30 KB at the end of a game): accepted
too, its extra fields skipped (``docs/hub.md``, "Versions")."""
MAX_SMALL_BYTES = 4 * 1024
"""Status and round-command payloads, HTTP bodies."""
MAX_DEPTH = 16
"""Deepest nesting of arrays and objects the hub parses (the daemon's state needs 5)."""
MAX_SEQ = 100_000
"""A game's events are numbered 0..MAX_SEQ (a game has a few hundred)."""

_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_SQUARE = bytes.maketrans(b"{}", b"[]")
M = TypeVar("M", bound=BaseModel)
TableId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
GameId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
def _printable(name: str) -> str:
    if CONTROL.search(name):
        raise ValueError(name_problem(name))
    return name


Name = Annotated[str, Field(max_length=MAX_NAME), AfterValidator(_printable)]
"""A player's or table's name: printable text (``engine.names``)."""
Seconds = Annotated[float, Field(ge=-1e7, le=1e7)]
Stamp = Annotated[float, Field(ge=0, le=1e11)]


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in JSON text, counted without parsing: escaped backslashes and
    quotes dropped, everything but brackets and quotes dropped, the text between quotes dropped (adjacent quotes
    first: they only join two strings), then (up to MAX_DEPTH levels) innermost bracket pairs removed a level per
    pass of ``bytes.replace``; deeper or unbalanced text is counted bracket by bracket. Every step is a C loop
    over the bytes (a 20 KB state takes ~20 µs)."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = rest = data.translate(_SQUARE, _STRUCTURE).replace(b'""', b"")
    if b'"' in rest:
        brackets = rest = b"".join(rest.split(b'"')[::2])
    for level in range(MAX_DEPTH + 1):
        if not rest:
            return level
        shorter = rest.replace(b"[]", b"")
        if len(shorter) == len(rest):
            break
        rest = shorter
    depth = deepest = 0
    for byte in brackets:
        depth += 1 if byte == 91 else -1  # "["
        deepest = max(deepest, depth)
    return deepest


def check_bytes(data: bytes | bytearray, limit: int, what: str) -> bytes:
    """``data`` if it is no larger than ``limit`` and its JSON no deeper than MAX_DEPTH; raises MessageError
    naming ``what`` (the topic or the request)."""
    if len(data) > limit:
        raise MessageError(f"{what}: {len(data)} bytes, at most {limit} accepted")
    data = bytes(data)
    depth = json_depth(data)
    if depth > MAX_DEPTH:
        raise MessageError(f"{what}: JSON nested {depth} deep, at most {MAX_DEPTH} accepted")
    return data


def parse_json(data: bytes | bytearray, limit: int, what: str) -> Any:
    """JSON from bytes that pass ``check_bytes``; raises MessageError."""
    data = check_bytes(data, limit, what)
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise MessageError(f"{what}: not UTF-8 JSON ({exc})") from None


def parse_model(model: type[M], data: bytes | bytearray, limit: int, what: str) -> M:
    """``model`` from JSON bytes that pass ``check_bytes``, parsed and validated in one step by pydantic's own
    JSON parser (fields the model does not name are skipped, not built); raises MessageError."""
    data = check_bytes(data, limit, what)
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        raise MessageError(f"{what}: {_errors(exc)}") from None


def _errors(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'payload'}: {e['msg']}" for e in exc.errors()[:3])


def validate(model: type[M], value: Any, what: str) -> M:
    """``value`` as ``model``; raises MessageError naming ``what`` and the first fields that are wrong."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise MessageError(f"{what}: {_errors(exc)}") from None


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


# ---------------------------------------------------------------------------------------------- MQTT
class EventMessage(_Model):
    """``partiar/v1/table/<id>/event``: one game event (``event`` is checked by the engine). ``v`` is the
    schema version: a payload of another version is refused (and logged, counted)."""

    v: Literal[1]
    table: TableId
    game: GameId
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ, strict=True)]
    event: dict[str, Any]
    sent: Stamp | None = None

    @field_validator("event")
    @classmethod
    def _printable_players(cls, event: dict[str, Any]) -> dict[str, Any]:
        """The names a game starts with are printable (the engine checks the rest of the event)."""
        players = event.get("players")
        if isinstance(players, list):
            for name in players:
                if isinstance(name, str):
                    _printable(name)
        return event


class ClockView(_Model):
    """The parts of the daemon's clock view (``MoveClock.view``) the pages show (``STATE_CLOCK_FIELDS``)."""

    state: Annotated[str, Field(max_length=32)] | None = None
    paused: bool | None = None
    player_on_move: Annotated[int, Field(ge=0, le=3)] | None = None
    move_left: Seconds | None = None
    budgets: Annotated[list[Seconds | None], Field(max_length=4)] | None = None
    game_left: Seconds | None = None
    game_phase: Annotated[str, Field(max_length=32)] | None = None


class ClaimedGame(_Model):
    """What the table says about its game (``STATE_CLAIM_FIELDS`` and ``moves``, the length of its history):
    only compared with the game the hub rebuilt, never shown. A table of an earlier version sends its whole
    ``Game.to_dict()`` here: the history is skipped by the parser, never built, and ``moves`` is then absent."""

    scores: Annotated[list[Annotated[int, Field(ge=-100_000, le=100_000)]], Field(max_length=4)] | None = None
    ended: Annotated[str, Field(max_length=32)] | None = None
    moves: Annotated[int, Field(ge=0, le=MAX_SEQ, strict=True)] | None = None


assert set(ClockView.model_fields) == set(STATE_CLOCK_FIELDS)
assert set(ClaimedGame.model_fields) == {*STATE_CLAIM_FIELDS, "moves"}


class TableState(_Model):
    """The parts of a table's published state the hub keeps (fields it does not name are skipped)."""

    name: Name | None = None
    players: Annotated[list[Name], Field(max_length=4)] | None = None
    clock: ClockView | None = None
    game: ClaimedGame | None = None


class StateMessage(_Model):
    """``partiar/v1/table/<id>/state`` (retained)."""

    v: Literal[1]
    table: TableId
    game: GameId | None = None
    seq: Annotated[int, Field(ge=-1, le=MAX_SEQ, strict=True)] | None = None
    state: TableState
    sent: Stamp | None = None


class StatusMessage(_Model):
    """``partiar/v1/table/<id>/status`` (retained, the last will)."""

    v: Literal[1]
    table: TableId
    online: bool
    sent: Stamp | None = None


RoundNumber = Annotated[int, Field(ge=1, le=MAX_ROUND, strict=True)]
RoundCommandName = Literal[ROUND_COMMANDS]  # type: ignore[valid-type] # the names from tablelink.rounds


TOPIC_LIMITS = {"event": MAX_EVENT_BYTES, "state": MAX_STATE_BYTES, "status": MAX_SMALL_BYTES}
TOPIC_MODELS: dict[str, type[_Model]] = {"event": EventMessage, "state": StateMessage, "status": StatusMessage}


def table_message(kind: str, data: bytes | bytearray, topic: str) -> Any:
    """A table's ``event``/``state``/``status`` payload validated; raises MessageError naming the topic."""
    if kind not in TOPIC_MODELS:
        raise MessageError(f"{topic}: no such table topic kind {kind!r}")
    return parse_model(TOPIC_MODELS[kind], data, TOPIC_LIMITS[kind], topic)


# ---------------------------------------------------------------------------------------------- HTTP
class LoginBody(_Model):
    user: Annotated[str, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=256)]
    code: Annotated[str, Field(max_length=32)] = ""
    """A new device's one-time code (``RefereeAuth.issue_code``), or empty."""


class RoundBody(_Model):
    command: RoundCommandName
    round: RoundNumber


class AsideBody(_Model):
    """``POST /api/aside``: a referee takes a game put aside in (``release``) or clears a table's (``clear``)."""

    action: Literal["release", "clear"]
    table: TableId
    game: GameId | None = None


class PlayerRow(_Model):
    id: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]
    name: Annotated[Name, Field(min_length=1)]


class PlayersBody(_Model):
    players: Annotated[list[PlayerRow], Field(max_length=1000)]


MAX_PLAYERS_BYTES = 128 * 1024
