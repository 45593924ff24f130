"""The tournament game: events in, state out (``Game.apply``), replayable from its event log.

See ``docs/game.md`` for the rules it keeps and the choices it makes where the seeds leave room.
"""

from engine.game.errors import (
    AlreadyRuled,
    AlreadyStarted,
    BadPlayer,
    BadRackEntry,
    ChallengePending,
    EventFormatError,
    ExchangeNotAllowed,
    GameError,
    GameNotOver,
    GameOver,
    IllegalMove,
    NoChallenge,
    NoOpenMove,
    NothingToAppeal,
    NotStarted,
    PlayNotAllowed,
    UnknownWord,
)
from engine.game.events import (
    AppealRuling,
    BaseTimeExpired,
    ChallengeScore,
    ChallengeWord,
    Correction,
    Event,
    Exchange,
    Forfeit,
    Pass,
    Play,
    RackEntry,
    Resign,
    Ruling,
    Start,
    TimeOut,
    decode_event,
    encode_event,
    event_from_json,
)
from engine.game.machine import Game
from engine.game.records import (
    Adjustment,
    AdjustmentKind,
    Challenge,
    CrossCancelled,
    CrossGiven,
    EndReason,
    GameEnded,
    Move,
    MoveKind,
    OnMove,
    OpenMove,
    Output,
    Phase,
    PhaseChanged,
    PutBack,
    RestartMoveClock,
    Result,
    ScoreCorrected,
    TakeBack,
    TurnLost,
)

__all__ = [
    "Adjustment", "AdjustmentKind", "AlreadyRuled", "AlreadyStarted", "AppealRuling", "BadPlayer", "BadRackEntry",
    "BaseTimeExpired", "Challenge", "ChallengePending", "ChallengeScore", "ChallengeWord", "Correction",
    "CrossCancelled", "CrossGiven", "EndReason", "Event", "EventFormatError", "Exchange", "ExchangeNotAllowed",
    "Forfeit", "Game", "GameEnded", "GameError", "GameNotOver", "GameOver", "IllegalMove", "Move", "MoveKind",
    "NoChallenge", "NoOpenMove", "NotStarted", "NothingToAppeal", "OnMove", "OpenMove", "Output", "Pass", "Phase",
    "PhaseChanged", "Play", "PlayNotAllowed", "PutBack", "RackEntry", "Resign", "RestartMoveClock", "Result",
    "Ruling", "ScoreCorrected", "Start", "TakeBack", "TimeOut", "TurnLost", "UnknownWord", "decode_event",
    "encode_event", "event_from_json",
]  # fmt: skip
