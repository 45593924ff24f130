"""The events that change a game: frozen values with a timestamp and a JSON form.

Every event carries ``at`` (seconds, from the caller's time source; the engine never reads a clock). ``to_json``
gives a JSON-able dict with a ``type`` tag; ``event_from_json`` reads it back; ``encode_event`` / ``decode_event``
do the same for one line of a JSON Lines journal. Turn events (play, pass, exchange, time-out) are for the player
on move; the others name their player where it matters.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from json.scanner import make_scanner
from typing import Any, ClassVar

from engine.board import Direction
from engine.errors import EngineError
from engine.game.errors import EventFormatError
from engine.names import CONTROL, name_problem
from engine.placement import Placement, placement_of
from engine.ruleset import Ruleset

EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every game event: ``at`` is the caller's timestamp in seconds."""

    TYPE: ClassVar[str] = ""
    at: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict with the ``type`` tag first."""
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            out[f.name] = _encode_value(f.name, getattr(self, f.name))
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """Read ``to_json`` output (of this class or, on ``Event``, of any event type); raises EventFormatError."""
        return event_from_json(data) if cls is Event else _decode(cls, data)


def _encode_value(name: str, value: Any) -> Any:
    if name == "placements":
        return [[p.square.row, p.square.col, p.tile.letter, p.tile.blank] for p in value]
    if isinstance(value, Ruleset):
        return value.to_dict()
    if isinstance(value, Direction):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def _decode_placements(value: Any) -> tuple[Placement, ...]:
    out = []
    for item in value:
        if not (isinstance(item, list | tuple) and len(item) == 4):
            raise EventFormatError(f"a placement is [row, col, letter, blank], got {item!r}")
        row, col, letter, blank = item
        if not (
            isinstance(row, int)
            and isinstance(col, int)
            and isinstance(letter, str)
            and isinstance(blank, bool)
        ):
            raise EventFormatError(f"a placement is [row, col, letter, blank], got {item!r}")
        out.append(placement_of(row, col, letter, blank))
    return tuple(out)


def _decode(cls: type[Event], data: dict[str, Any]) -> Event:
    allowed = _KEYS.get(cls) or _keys(cls)
    if not allowed.issuperset(data):
        extra = set(data) - allowed
        raise EventFormatError(f"unknown keys {sorted(extra)} in {cls.TYPE} event {data!r}")
    values: dict[str, Any] = {}
    try:
        for name, value in data.items():
            read = _READERS.get(name)
            if read is not None:
                if read is _skip:
                    continue  # the type tag, the journal's turn
                value = read(value)
            elif isinstance(value, list):
                value = tuple(value)
            values[name] = value
        event = cls(**values)
    except EventFormatError:
        raise
    except (TypeError, ValueError, EngineError) as exc:
        raise EventFormatError(f"not a {cls.TYPE} event: {data!r} ({exc})") from exc
    return event


def _keys(cls: type[Event]) -> frozenset[str]:
    """The keys an event class's JSON form may have: its fields, ``type`` and the journal's ``turn``."""
    _KEYS[cls] = frozenset(f.name for f in fields(cls)) | {"type", JOURNAL_TURN}
    return _KEYS[cls]


def _skip(value: Any) -> Any:
    return value


def _direction(value: Any) -> Direction | None:
    return None if value is None else Direction(value)


_KEYS: dict[type[Event], frozenset[str]] = {}
JOURNAL_TURN = "turn"
"""A journal record's annotation beside its event's fields: the game's turn count when it was written (the table
stamps it; a repair checks it, ``device.journal_turn``). Not a field of any event: decoding skips it."""

_READERS: dict[str, Any] = {
    "type": _skip,
    JOURNAL_TURN: _skip,
    "placements": _decode_placements,
    "ruleset": Ruleset.from_dict,
    "direction": _direction,
}
"""How the JSON value of a field with that name is read (any other list becomes a tuple)."""


def event_from_json(data: Any) -> Event:
    """The event a ``to_json`` dict describes; raises EventFormatError naming the input."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise EventFormatError(f"an event is an object with a 'type', got {data!r}")
    cls = EVENT_TYPES.get(data["type"])
    if cls is None:
        raise EventFormatError(
            f"unknown event type {data['type']!r}; known: {', '.join(sorted(EVENT_TYPES))}"
        )
    return _decode(cls, data)


def encode_event(event: Event) -> str:
    """One journal line (compact JSON, UTF-8 letters kept)."""
    return json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":"))


def decode_event(line: str, source: str = "<journal>", number: int = 0) -> Event:
    """Parse one journal line; raises EventFormatError naming the source and line number."""
    try:
        data = _json_line(line)
    except json.JSONDecodeError as exc:
        raise EventFormatError(f"{source}:{number}: not JSON ({exc.msg}): {line.strip()!r}") from exc
    return _event_at(data, source, number)


def _event_at(data: Any, source: str, number: int) -> Event:
    try:
        return event_from_json(data)
    except EventFormatError as exc:
        raise EventFormatError(f"{source}:{number}: {exc}") from exc


def _json_line(line: str) -> Any:
    """``json.loads(line)``: the JSON scanner straight away when the line is one value and nothing else (as the
    journal writes it), ``json.loads`` for anything else (blanks around it, an error to report)."""
    try:
        value, end = _SCAN(line, 0)
    except (StopIteration, ValueError):
        return json.loads(line)
    return value if end == len(line) else json.loads(line)


_SCAN = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed: context typed as a scanner
"""What ``json.loads`` runs on a line, without its type checks and whitespace matching."""


def _check_at(event: Event) -> None:
    if isinstance(event.at, bool) or not isinstance(event.at, int | float) or not math.isfinite(event.at):
        raise EventFormatError(f"{event.TYPE} event needs a finite timestamp 'at', got {event.at!r}")


def _check_int(event: Event, name: str, value: Any, low: int = 0) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise EventFormatError(f"{event.TYPE} event needs an integer {name} >= {low}, got {value!r}")


@dataclass(frozen=True, slots=True)
class Start(Event):
    """The game begins: players in playing order (the draw winner first) and the rule set."""

    TYPE: ClassVar[str] = "start"
    players: tuple[str, ...] = ("1", "2")
    ruleset: Ruleset = Ruleset()

    def __post_init__(self) -> None:
        _check_at(self)
        if not all(isinstance(p, str) for p in self.players):
            raise EventFormatError(f"player names must be strings, got {self.players!r}")
        for name in self.players:
            if CONTROL.search(name):
                raise EventFormatError(f"player name {name!r}: {name_problem(name)}")
        if not self.ruleset.min_players <= len(self.players) <= self.ruleset.max_players:
            raise EventFormatError(
                f"ruleset {self.ruleset.name!r} is for {self.ruleset.min_players}-{self.ruleset.max_players} "
                f"players, got {len(self.players)}: {self.players!r}"
            )


@dataclass(frozen=True, slots=True)
class Play(Event):
    """Tiles placed by the player on move (a blank's ``letter`` is the one it stands for), with the score the
    player announced if known; ``direction`` picks the main word of a single tile that forms two words.
    ``irregular``: record the tiles as laid even if they break the placing geometry (004: such a play stands
    unless challenged); without it such a play is refused."""

    TYPE: ClassVar[str] = "play"
    placements: tuple[Placement, ...] = ()
    announced: int | None = None
    direction: Direction | None = None
    irregular: bool = False

    def __post_init__(self) -> None:
        _check_at(self)
        if self.announced is not None:
            _check_int(self, "announced", self.announced)


@dataclass(frozen=True, slots=True)
class Pass(Event):
    """The player on move passes ("pas")."""

    TYPE: ClassVar[str] = "pass"

    def __post_init__(self) -> None:
        _check_at(self)


@dataclass(frozen=True, slots=True)
class Exchange(Event):
    """The player on move exchanges ``count`` tiles."""

    TYPE: ClassVar[str] = "exchange"
    count: int = 7

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "count", self.count, 1)


@dataclass(frozen=True, slots=True)
class TimeOut(Event):
    """The move time of the player on move ran out: the turn is lost."""

    TYPE: ClassVar[str] = "timeout"

    def __post_init__(self) -> None:
        _check_at(self)


@dataclass(frozen=True, slots=True)
class ChallengeWord(Event):
    """A challenge of one word of the open play: its index (0 = main word) or its text. ``by`` is the
    challenger (default: the player who came on move after the play)."""

    TYPE: ClassVar[str] = "challenge_word"
    word: int | str = 0
    by: int | None = None

    def __post_init__(self) -> None:
        _check_at(self)
        if isinstance(self.word, bool) or not isinstance(self.word, int | str):
            raise EventFormatError(f"challenge_word needs a word index or text, got {self.word!r}")


@dataclass(frozen=True, slots=True)
class ChallengeScore(Event):
    """A challenge of the announced score of the open play (over-announcing only); ``second``: of the second
    play of a Polish double move (the first is challenged first, seed 003)."""

    TYPE: ClassVar[str] = "challenge_score"
    by: int | None = None
    second: bool = False

    def __post_init__(self) -> None:
        _check_at(self)
        if not isinstance(self.second, bool):
            raise EventFormatError(f"challenge_score needs second true/false, got {self.second!r}")


@dataclass(frozen=True, slots=True)
class SwapBlank(Event):
    """The player on move swaps the played blank at (row, col) for the tile it stands for, using the turn
    (alternative rule 1 of 001; only under a ruleset with ``blank_swap``)."""

    TYPE: ClassVar[str] = "swap_blank"
    row: int = 7
    col: int = 7

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "row", self.row)
        _check_int(self, "col", self.col)


@dataclass(frozen=True, slots=True)
class ChallengePlacement(Event):
    """A challenge of how the open play was placed (000: "Protest lze podat i proti nesprávně položenému tahu")."""

    TYPE: ClassVar[str] = "challenge_placement"
    by: int | None = None

    def __post_init__(self) -> None:
        _check_at(self)


@dataclass(frozen=True, slots=True)
class ChallengeExchange(Event):
    """A challenge of the open exchange: made with fewer tiles in the bag than the ruleset's ``exchange_min_bag``
    (000: "Protest lze podat i na neoprávněnou výměnu (situaci, kdy je v sáčku 6 a méně kamenů) ... pokud je
    protest úspěšný, hráč, který chtěl vyměnit kameny ztrácí svůj tah bez výměny")."""

    TYPE: ClassVar[str] = "challenge_exchange"
    by: int | None = None

    def __post_init__(self) -> None:
        _check_at(self)


@dataclass(frozen=True, slots=True)
class Ruling(Event):
    """The referee's ruling on the pending challenge: ``upheld`` True = the challenger is right."""

    TYPE: ClassVar[str] = "ruling"
    upheld: bool = False

    def __post_init__(self) -> None:
        _check_at(self)
        if not isinstance(self.upheld, bool):
            raise EventFormatError(f"ruling needs upheld true/false, got {self.upheld!r}")


@dataclass(frozen=True, slots=True)
class AppealRuling(Event):
    """The chief referee's decision on an appeal against the last ruling, by the player that ruling went
    against: ``upheld_for_appellant`` True reverses the ruling."""

    TYPE: ClassVar[str] = "appeal_ruling"
    upheld_for_appellant: bool = False

    def __post_init__(self) -> None:
        _check_at(self)
        if not isinstance(self.upheld_for_appellant, bool):
            raise EventFormatError(f"appeal_ruling needs true/false, got {self.upheld_for_appellant!r}")


@dataclass(frozen=True, slots=True)
class BaseTimeExpired(Event):
    """The chief referee announced the end of the base game time: the A-B-C playout starts."""

    TYPE: ClassVar[str] = "base_time_expired"

    def __post_init__(self) -> None:
        _check_at(self)


@dataclass(frozen=True, slots=True)
class Resign(Event):
    """A player resigns (or is disqualified by the chief referee: same result, 004). ``after_turn``: the player
    resigns while the opponent is on move, and the opponent finishes that move first (004: "Pokud je v okamžiku
    vzdání partie na tahu soupeř, má právo dohrát svůj tah")."""

    TYPE: ClassVar[str] = "resign"
    player: int = 0
    disqualified: bool = False
    after_turn: bool = False

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)


@dataclass(frozen=True, slots=True)
class Forfeit(Event):
    """Players who did not turn up by the end of their first move time (100:0; all absent: 0:0)."""

    TYPE: ClassVar[str] = "forfeit"
    absent: tuple[int, ...] = (1,)

    def __post_init__(self) -> None:
        _check_at(self)
        if not self.absent:
            raise EventFormatError("forfeit needs at least one absent player")
        for p in self.absent:
            _check_int(self, "absent player", p)


@dataclass(frozen=True, slots=True)
class DisputeForfeit(Event):
    """The referee forfeits a finished game (004 E "Zápis partie": the players cleared the tiles off the board
    before the referee accepted the sheets, and a dispute arose that cannot be settled without them: "rozhodčí má
    právo kontumovat výsledek partie 0:0, 100:0 nebo 0:100"). ``winner``: the player (doubles: a player of the
    team) who gets the forfeit points, or None for 0:0. ``draw``: the referee's answer for a 0:0, which the seed
    leaves open: True, a draw (draw points for both); False (the default, and every journal written before the
    question was asked), void: no winner, no points for a draw."""

    TYPE: ClassVar[str] = "dispute_forfeit"
    winner: int | None = None
    draw: bool = False

    def __post_init__(self) -> None:
        _check_at(self)
        if self.winner is not None:
            _check_int(self, "winner", self.winner)
        if not isinstance(self.draw, bool):
            raise EventFormatError(f"dispute forfeit draw must be true or false, got {self.draw!r}")
        if self.draw and self.winner is not None:
            raise EventFormatError("dispute forfeit: only a 0:0 (no winner) can be a draw")


@dataclass(frozen=True, slots=True)
class RackEntry(Event):
    """The tiles left on a player's rack at the end (letters, ``?`` for a blank)."""

    TYPE: ClassVar[str] = "rack"
    player: int = 0
    rack: str = ""

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)
        if not isinstance(self.rack, str):
            raise EventFormatError(f"rack must be a string, got {self.rack!r}")


@dataclass(frozen=True, slots=True)
class Correction(Event):
    """A referee's correction of a player's score by ``points`` (signed), with a note for the record."""

    TYPE: ClassVar[str] = "correction"
    player: int = 0
    points: int = 0
    note: str = ""

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)
        if isinstance(self.points, bool) or not isinstance(self.points, int):
            raise EventFormatError(f"correction needs integer points, got {self.points!r}")


def _check_letters(event: Event, name: str, value: Any) -> None:
    if not isinstance(value, str) or any(not (ch == "?" or (ch.isalpha() and ch.isupper())) for ch in value):
        raise EventFormatError(f"{event.TYPE} event needs {name} as capital letters and ? for a blank, got {value!r}")


SET_RULINGS = ("", "called", "as_found", "put_right")
"""``SetChecked.referee``: none (the set as checked is the game's), the referee called to a set found wrong (the game
waits), the referee's decisions: play with the set as found, or the set put right (004 "při zjištění okolností
bránících řádné hře přivolají rozhodčího ... Rozhodčí zjedná nápravu")."""


@dataclass(frozen=True, slots=True)
class SetChecked(Event):
    """The tile-set check before the first move (10x10 square) found these tiles missing and extra: the game is
    played with that set (004 "Nesprávné složení kamenů v sáčku"), which gives the bag count. ``referee``
    (``SET_RULINGS``): the referee was called to it (the game waits for the ruling) or ruled: ``as_found`` (that
    set) or ``put_right`` (the standard set)."""

    TYPE: ClassVar[str] = "set_checked"
    missing: str = ""
    extra: str = ""
    referee: str = ""

    def __post_init__(self) -> None:
        _check_at(self)
        _check_letters(self, "missing", self.missing)
        _check_letters(self, "extra", self.extra)
        if self.referee not in SET_RULINGS:
            raise EventFormatError(f"set_checked event needs referee one of {SET_RULINGS}, got {self.referee!r}")


@dataclass(frozen=True, slots=True)
class Announce(Event):
    """The score the player announced for the open play (entered after the play, or the table's confirmed)."""

    TYPE: ClassVar[str] = "announce"
    score: int = 0

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "score", self.score)


@dataclass(frozen=True, slots=True)
class RefereeWarning(Event):
    """A referee's warning (napomenutí, 004 "Sankce"), recorded on the sheet; the third disqualifies."""

    TYPE: ClassVar[str] = "warning"
    player: int = 0
    note: str = ""

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)
        if not isinstance(self.note, str):
            raise EventFormatError(f"warning note must be a string, got {self.note!r}")


@dataclass(frozen=True, slots=True)
class RackReport(Event):
    """A player reported at once a wrong number of tiles on their rack (``count``): corrected, no penalty (004);
    under the ``rack_over_limit`` alternative rule (001) the rack simply holds ``count`` tiles from now on."""

    TYPE: ClassVar[str] = "rack_report"
    player: int = 0
    count: int = 7

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)
        _check_int(self, "count", self.count)


@dataclass(frozen=True, slots=True)
class _ChallengePlayer(Event):
    """A challenge against ``player`` rather than a play; ``by`` = the challenger (default: the player on move)."""

    player: int = 1
    by: int | None = None

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)


@dataclass(frozen=True, slots=True)
class ChallengeRack(_ChallengePlayer):
    """A challenge of the wrong number of tiles on ``player``'s rack (004 "Nesprávný počet kamenů")."""

    TYPE: ClassVar[str] = "challenge_rack"


@dataclass(frozen=True, slots=True)
class ChallengeSheet(_ChallengePlayer):
    """A challenge that ``player`` does not keep the score sheet (004 "Námitky")."""

    TYPE: ClassVar[str] = "challenge_sheet"


@dataclass(frozen=True, slots=True)
class GameInfo(Event):
    """The score sheet's header (004 "Do záhlaví partiáře"): place, competition, round, the date and time the game
    started (as the table's local time, written out: the engine reads no clock), table, the players' teams."""

    TYPE: ClassVar[str] = "info"
    place: str = ""
    competition: str = ""
    round: str = ""
    started: str = ""
    table: str = ""
    teams: tuple[str, ...] = ()
    player_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_at(self)
        for name in ("place", "competition", "round", "started", "table"):
            if not isinstance(getattr(self, name), str):
                raise EventFormatError(f"info {name} must be a string, got {getattr(self, name)!r}")
        if not all(isinstance(t, str) for t in self.teams):
            raise EventFormatError(f"info teams must be strings, got {self.teams!r}")
        if not all(isinstance(t, str) for t in self.player_ids):
            raise EventFormatError(f"info player_ids must be strings, got {self.player_ids!r}")


@dataclass(frozen=True, slots=True)
class PlaysFirst(Event):
    """Polish doubles: ``player`` of the team on move plays its first move of this double move (seed 003: the team
    agrees who plays first, "Pojedu já" / "Jeď ty"); in the playout's final move, the player who drew."""

    TYPE: ClassVar[str] = "plays_first"
    player: int = 0

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)


@dataclass(frozen=True, slots=True)
class StartDraw(Event):
    """The tile ``player`` drew to decide who starts (004 "Určení začínajícího hráče"; ``?`` for a blank), before
    the first move. Once the draws decide, the winner starts (``engine.game.start``)."""

    TYPE: ClassVar[str] = "start_draw"
    player: int = 0
    tile: str = ""

    def __post_init__(self) -> None:
        _check_at(self)
        _check_int(self, "player", self.player)
        if not isinstance(self.tile, str) or not self.tile or self.tile != self.tile.upper():
            raise EventFormatError(f"start_draw tile must be a capital letter or ? for a blank, got {self.tile!r}")


@dataclass(frozen=True, slots=True)
class StartOrder(Event):
    """Who starts, decided without a draw before the first move: ``players`` in the new playing order (the
    schedule's first player, or the players' agreement, 004)."""

    TYPE: ClassVar[str] = "start_order"
    players: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_at(self)
        if not all(isinstance(p, str) for p in self.players):
            raise EventFormatError(f"start_order player names must be strings, got {self.players!r}")


EVENT_TYPES.update(
    (cls.TYPE, cls)
    for cls in (Start, Play, Pass, Exchange, TimeOut, ChallengeWord, ChallengeScore, Ruling, AppealRuling,
                BaseTimeExpired, Resign, Forfeit, DisputeForfeit, RackEntry, Correction, SetChecked, Announce, RefereeWarning,
                RackReport, ChallengeRack, ChallengeSheet, GameInfo, ChallengePlacement, ChallengeExchange,
                SwapBlank, PlaysFirst, StartDraw, StartOrder)
)  # fmt: skip


def decode_journal(text: str, source: str = "<journal>") -> tuple[list[Event], str | None]:
    """Every event of a JSON Lines journal (blank lines skipped), and a warning if the last line was cut off
    (not JSON, as after a power cut while writing: it is dropped). Any other bad line raises EventFormatError
    naming the source and line."""
    lines = text.splitlines()
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    events: list[Event] = []
    warning = None
    last = len(numbered) - 1 if not text.endswith("\n") else -1  # a line that may have been cut off
    for i, (number, line) in enumerate(numbered):
        if i == last:
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                warning = f"{source}:{number}: last line cut off, ignored: {line.strip()[:60]!r}"
                break
            events.append(_event_at(data, source, number))
        else:
            events.append(decode_event(line, source, number))
    return events, warning
