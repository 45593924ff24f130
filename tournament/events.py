"""The deník: everything that happens at a tournament, as frozen events appended to a log and never rewritten.

Each event carries ``at`` (an ISO time string the caller gives: the core never reads a clock) and ``by`` (who did
it: the director's or referee's name, "table 7", "cli"). ``Tournament.from_events`` rebuilds the whole state, and so
every pairing and standings table, from the log alone. ``encode_event``/``decode_event`` turn an event into a
JSON-able dict and back (a round trip); a bad dict raises DecodeError naming the event type and the field.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal, Union, get_args, get_origin

from tournament.errors import DecodeError
from tournament.games import GameKind, Pairing, Source
from tournament.players import Player


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every deník entry."""

    at: str
    by: str


@dataclass(frozen=True, kw_only=True)
class SettingsChanged(Event):
    """The software, its version and the full settings (``TournamentSettings.to_dict()``): the log's first entry
    and one at every change of a setting (seed 004)."""

    software: str
    version: str
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class PlayerRegistered(Event):
    """A player (or doubles pair) joins; after round 1 has been paired this is a late entry, paired from the next
    round on."""

    player: Player


@dataclass(frozen=True, kw_only=True)
class PlayerUpdated(Event):
    """A player's details change: name, club, rating, or the ČAS id itself (``player.id`` differs from
    ``player_id``); every earlier pairing and result then counts for the new id."""

    player_id: str
    player: Player
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class PlayerWithdrawn(Event):
    """A player withdraws. Announced before the next round is paired, they are not paired again; announced after,
    they still owe the game of the round already paired (seed 004: else it is a no-show)."""

    player_id: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class PlayerExcluded(Event):
    """The chief referee excludes a player from the whole tournament: paired no more. (The game an exclusion ends
    is a result of kind "exclusion".)"""

    player_id: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class RoundPaired(Event):
    """A round's pairing as the program drew it: ``seed`` is the random draw's seed (round 1), so the same inputs
    give the same pairing; ``method`` names the system ("swiss", "round_robin", "king_of_the_hill", "manual");
    ``floats`` says who was paired out of their score group and why (``tournament.floats.Float.as_data``; logs
    written before it have none)."""

    round: int
    pairings: tuple[Pairing, ...]
    bye: str | None = None
    seed: int | None = None
    method: str = "swiss"
    floats: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, kw_only=True)
class PairingChanged(Event):
    """The director changes a round's pairing before publishing it (players swapped, who starts turned round): the
    whole new pairing, and why."""

    round: int
    pairings: tuple[Pairing, ...]
    bye: str | None = None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class RoundPublished(Event):
    """The round's pairing goes out to the hall and the tables; from now on it only changes by results."""

    round: int


@dataclass(frozen=True, kw_only=True)
class ResultRecorded(Event):
    """A game's result: ``first`` is the player who started. A bye names its player in ``first`` with no table,
    no ``second`` and no scores (the settings say what it scores)."""

    round: int
    table: int | None
    first: str
    second: str | None
    first_score: int | None
    second_score: int | None
    kind: GameKind = "played"
    source: Source = "manual"


@dataclass(frozen=True, kw_only=True)
class ResultCorrected(ResultRecorded):
    """A new entry that replaces the result recorded earlier for the same round and table (or bye), with why; the
    earlier entry stays in the log."""

    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class ProtestRecorded(Event):
    """A challenge or protest and how it was settled (seed 004's log: "o řešení námitek a protestů")."""

    round: int
    table: int | None
    player_id: str
    text: str
    decision: str = ""


@dataclass(frozen=True, kw_only=True)
class WarningRecorded(Event):
    """A referee's warning (napomenutí); the third one excludes the player from the game being played."""

    round: int
    table: int | None
    player_id: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class RoundClosed(Event):
    """Every game of the round has a result or a ruling; the round counts for the next pairing."""

    round: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (SettingsChanged, PlayerRegistered, PlayerUpdated, PlayerWithdrawn, PlayerExcluded, RoundPaired,
                PairingChanged, RoundPublished, ResultRecorded, ResultCorrected, ProtestRecorded, WarningRecorded,
                RoundClosed)
}


def encode_event(event: Event) -> dict[str, Any]:
    """The event as a JSON-able dict: ``{"type": class name, field: value, ...}``."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in fields(event):
        out[f.name] = _encode(getattr(event, f.name))
    return out


def _encode(value: Any) -> Any:
    if isinstance(value, Player):
        d: dict[str, Any] = {"id": value.id, "name": value.name, "club": value.club, "rating": value.rating}
        if value.members:
            d["members"] = list(value.members)
        return d
    if isinstance(value, Pairing):
        return {"table": value.table, "first": value.first, "second": value.second}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def decode_event(data: Mapping[str, Any]) -> Event:
    """The event ``encode_event`` made ``data`` from. Raises DecodeError naming the type and field of what is
    missing, unknown or of the wrong type."""
    if not isinstance(data, Mapping):
        raise DecodeError(f"a deník entry must be an object, got {data!r}")
    name = data.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise DecodeError(f"unknown event type {name!r}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise DecodeError(f"{name}: unknown field {sorted(extra)[0]!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING or f.default_factory is not MISSING:
                continue
            raise DecodeError(f"{name}: missing field {f.name!r}")
        kwargs[f.name] = _decode(data[f.name], hints[f.name], f"{name}.{f.name}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as e:
        raise DecodeError(f"{name}: {e}") from None


def _decode(value: Any, hint: Any, where: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = get_args(hint)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(value, option, where)
            except DecodeError:
                continue
        raise DecodeError(f"{where}: {value!r} is not a valid {_hint_name(hint)}")
    if origin is Literal:
        if value not in get_args(hint):
            raise DecodeError(f"{where}: {value!r} must be one of {', '.join(map(str, get_args(hint)))}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise DecodeError(f"{where}: expected a list, got {value!r}")
        inner = get_args(hint)[0]
        return tuple(_decode(v, inner, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is Mapping or hint is Mapping:
        if not isinstance(value, Mapping):
            raise DecodeError(f"{where}: expected an object, got {value!r}")
        return dict(value)
    if hint is Player:
        return _decode_player(value, where)
    if hint is Pairing:
        if not isinstance(value, Mapping):
            raise DecodeError(f"{where}: expected a pairing object, got {value!r}")
        try:
            return Pairing(_decode(value.get("table"), int, f"{where}.table"),
                           _decode(value.get("first"), str, f"{where}.first"),
                           _decode(value.get("second"), str, f"{where}.second"))
        except ValueError as e:
            raise DecodeError(f"{where}: {e}") from None
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DecodeError(f"{where}: expected a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DecodeError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise DecodeError(f"{where}: expected text, got {value!r}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise DecodeError(f"{where}: expected true or false, got {value!r}")
        return value
    raise DecodeError(f"{where}: cannot decode a {hint!r}")  # pragma: no cover - a new field type


def _decode_player(value: Any, where: str) -> Player:
    if not isinstance(value, Mapping):
        raise DecodeError(f"{where}: expected a player object, got {value!r}")
    extra = set(value) - {"id", "name", "club", "rating", "members"}
    if extra:
        raise DecodeError(f"{where}: unknown field {sorted(extra)[0]!r}")
    try:
        return Player(
            _decode(value.get("id"), str, f"{where}.id"),
            _decode(value.get("name", ""), str, f"{where}.name"),
            _decode(value.get("club", ""), str, f"{where}.club"),
            _decode(value.get("rating"), int | None, f"{where}.rating"),
            _decode(value.get("members", []), tuple[str, ...], f"{where}.members"),
        )
    except DecodeError:
        raise
    except ValueError as e:
        raise DecodeError(f"{where}: {e}") from None


def _hint_name(hint: Any) -> str:
    return " or ".join(getattr(a, "__name__", str(a)) for a in get_args(hint))
