"""What the move clock emits: small frozen value types, each stamped with the time it happened."""

from __future__ import annotations

from dataclasses import dataclass

# Reasons a press is ignored (PressIgnored.reason).
BOUNCE = "bounce"
NOT_ON_MOVE = "not on move"
PAUSED = "paused"
NOT_AWAITED = "not awaited"
STOPPED = "stopped"
UNKNOWN_PLAYER = "unknown player"


@dataclass(frozen=True)
class MoveStarted:
    """The move time of ``player`` (a side: a team in doubles) started at ``at``."""

    player: int
    at: float


@dataclass(frozen=True)
class MoveEnded:
    """``player`` pressed to end their move at ``at`` with ``left`` seconds of move time unused (None: no limit)."""

    player: int
    at: float
    left: float | None


@dataclass(frozen=True)
class TimeOut:
    """The move time of ``player`` ran out at ``at`` (the long tone has sounded out): the move is lost."""

    player: int
    at: float


@dataclass(frozen=True)
class BudgetExpired:
    """A chess-clock side ran out of its game budget at ``at``; the clock stops."""

    player: int
    at: float


@dataclass(frozen=True)
class PossibleNoShow:
    """``player`` gave no sign of presence (no press, no tile) before the time of their first move ran out: a
    ``TimeOut`` follows, and the table asks the referee (004: only a player who has not come forfeits; the
    referee declares it)."""

    player: int
    at: float


@dataclass(frozen=True)
class GameTimeWarning:
    """The base game time ends in ``left`` seconds (10 minutes in ČAS)."""

    at: float
    left: float


@dataclass(frozen=True)
class GameTimeExpired:
    """The base game time ran out: the A-B-C playout starts."""

    at: float


@dataclass(frozen=True)
class PressIgnored:
    """A press that changed nothing (bounce, wrong player, paused, ...); logged, never an error."""

    player: int
    reason: str
    at: float


@dataclass(frozen=True)
class Paused:
    """The clock froze at ``at`` (challenge or referee); ``left`` is the move time that was left."""

    at: float
    left: float | None


@dataclass(frozen=True)
class Resumed:
    """The clock runs again from ``at``."""

    at: float


@dataclass(frozen=True)
class SignalEdge:
    """The buzzer turns on or off at ``at``; ``kind`` says which signal (beep, long, warning, expired, cut)."""

    on: bool
    at: float
    kind: str


ClockEvent = (
    MoveStarted
    | MoveEnded
    | TimeOut
    | BudgetExpired
    | PossibleNoShow
    | GameTimeWarning
    | GameTimeExpired
    | PressIgnored
    | Paused
    | Resumed
    | SignalEdge
)
