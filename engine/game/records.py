"""What a game keeps and reports: moves in its history, score adjustments, the result, and the outputs that
tell the table what to do (restart a clock, take tiles off the board)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from engine.board import Notation, Position, Square
from engine.placement import Placement


class Phase(Enum):
    """Where the game is: before the start, normal play, rounds A, B, C of the playout, ended."""

    SETUP = "setup"
    NORMAL = "normal"
    A = "A"
    B = "B"
    C = "C"
    ENDED = "ended"


class EndReason(Enum):
    """How the game ended."""

    PLAYED_OUT = "played_out"
    SCORELESS = "scoreless"
    PLAYOUT = "playout"  # the end of round C
    RESIGNED = "resigned"
    DISQUALIFIED = "disqualified"
    FORFEIT = "forfeit"
    DISPUTE_FORFEIT = "dispute_forfeit"  # 004 E: the tiles cleared before the sheets were accepted, then a dispute


class MoveKind(Enum):
    """A turn in the history."""

    PLAY = "play"
    PASS = "pass"
    EXCHANGE = "exchange"
    TIMEOUT = "timeout"
    PENALTY = "penalty"  # a turn lost for the 3rd and every later cross
    WITHDRAWN = "withdrawn"  # a play taken back after an upheld challenge (a lost turn)
    BLANK_SWAP = "blank_swap"  # a played blank swapped for its letter's tile (001, alternative rule 1)
    STRUCK = "struck"  # Polish doubles: the second turn of a double move whose player has an empty rack


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: who, what, the recorded score and the player's running total after it.

    Plays (and withdrawn plays) keep their placements, their words (GCG style, lowercase = blank, main word
    first), the engine's score and the announced one, and how many tiles were drawn after them."""

    number: int
    player: int
    kind: MoveKind
    at: float
    phase: Phase = Phase.NORMAL
    score: int = 0
    total: int = 0
    placements: tuple[Placement, ...] = ()
    words: tuple[str, ...] = ()
    position: Position | None = None
    bingo: bool = False
    engine_score: int = 0
    announced: int | None = None
    exchanged: int = 0
    drawn: int = 0
    note: str = ""
    beyond_set: str = ""
    """Letters this play put on the board beyond the set in use (flagged to the referee, 000/004: the game is
    finished with the set it started with)."""
    irregular: str = ""
    """The placing rule this play breaks (``engine.placement.Reason`` value), recorded as laid (004)."""

    @property
    def placed_tiles(self) -> bool:
        """True for a turn that left tiles on the board (ends a scoreless streak)."""
        return self.kind is MoveKind.PLAY

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "kind": self.kind.value,
            "at": self.at,
            "phase": self.phase.value,
            "score": self.score,
            "total": self.total,
            "placements": [
                [p.square.row, p.square.col, p.tile.letter, p.tile.blank] for p in self.placements
            ],
            "words": list(self.words),
            "position": self.position.notation(Notation.CAS) if self.position else None,
            "bingo": self.bingo,
            "engine_score": self.engine_score,
            "announced": self.announced,
            "exchanged": self.exchanged,
            "note": self.note,
            "beyond_set": self.beyond_set,
            "irregular": self.irregular,
        }


class AdjustmentKind(Enum):
    CHALLENGE_PENALTY = "challenge_penalty"  # points lost for a rejected challenge
    CHALLENGE_BONUS = "challenge_bonus"  # points gained when a valid play was challenged
    CORRECTION = "correction"  # referee's correction


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Points added to (or taken from) a player's score outside a turn; ``after`` = turns played before it."""

    player: int
    points: int
    kind: AdjustmentKind
    at: float
    after: int
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "points": self.points, "kind": self.kind.value, "at": self.at,
                "after": self.after, "note": self.note}  # fmt: skip


class IncidentKind(Enum):
    """What the referee's record of a game holds besides turns and points (004 "Sankce", "Námitky")."""

    WARNING = "warning"  # napomenutí
    RACK_REPORTED = "rack_reported"  # a wrong rack count reported at once: corrected, no penalty
    RACK_UPHELD = "rack_upheld"  # a challenge of the rack count upheld: the player loses the next turn
    SHEET_UPHELD = "sheet_upheld"  # a challenge for not keeping the score sheet upheld (the referee decides)


@dataclass(frozen=True, slots=True)
class Incident:
    """One entry of the referee's record: who, what, when (``after`` = turns played before it), a note."""

    kind: IncidentKind
    player: int
    at: float
    after: int
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "player": self.player, "at": self.at, "after": self.after,
                "note": self.note}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge waiting for a ruling: a word (``word`` index into the play's words), the score, the
    challenged player's rack count or their keeping of the score sheet."""

    kind: str  # "word", "score", "placement", "rack" or "sheet"
    word: int | None
    challenger: int
    challenged: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "word": self.word, "challenger": self.challenger,
                "challenged": self.challenged, "at": self.at}  # fmt: skip


@dataclass(frozen=True, slots=True)
class OpenMove:
    """The play that may still be challenged: its index in the history, who may challenge it, and what has
    already been ruled on (words ruled valid, whether the score was challenged)."""

    index: int
    player: int
    challenger: int
    ruled_words: frozenset[int] = frozenset()
    score_ruled: bool = False
    placement_ruled: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "player": self.player, "challenger": self.challenger,
                "ruled_words": sorted(self.ruled_words), "score_ruled": self.score_ruled,
                "placement_ruled": self.placement_ruled}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Result:
    """The final result: per player the points played (turns plus adjustments), minus (own rack), plus (the
    racks of the others when going out) and the total; the racks left; the winners (several = a draw).

    ``void``: a game nobody played (004: neither player came, 0:0 and "žádný z hráčů nezískává body za nerozhodný
    výsledek"): no winner and no draw; ``outcome`` says which of ``win``, ``draw``, ``void`` it is."""

    reason: EndReason
    played: tuple[int, ...]
    minus: tuple[int, ...]
    plus: tuple[int, ...]
    final: tuple[int, ...]
    racks: tuple[str, ...]
    went_out: int | None
    void: bool = False

    @property
    def winners(self) -> tuple[int, ...]:
        if self.void:
            return ()
        best = max(self.final)
        return tuple(i for i, s in enumerate(self.final) if s == best)

    @property
    def draw(self) -> bool:
        return len(self.winners) > 1

    @property
    def outcome(self) -> str:
        """``win`` (one winner), ``draw`` (several share the best score) or ``void`` (no result: nobody played)."""
        return "void" if self.void else "draw" if self.draw else "win"

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason.value, "played": list(self.played), "minus": list(self.minus),
                "plus": list(self.plus), "final": list(self.final), "racks": list(self.racks),
                "went_out": self.went_out, "winners": list(self.winners), "outcome": self.outcome}  # fmt: skip


# ---- outputs: what the table must do after an event ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Output:
    """Base of everything ``Game.apply`` reports."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = [v.classic() if isinstance(v, Square) else v for v in value]
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class OnMove(Output):
    """This player is now on move (start their move clock)."""

    player: int


@dataclass(frozen=True, slots=True)
class RestartMoveClock(Output):
    """After a ruling: restart the move clock of the player on move from the full move time."""

    player: int


@dataclass(frozen=True, slots=True)
class GameReopened(Output):
    """The play that closed the game was withdrawn (an upheld challenge: 004 "platně zahrál"): the game goes on and
    ``player`` is on move (start their move clock again)."""

    player: int


@dataclass(frozen=True, slots=True)
class TakeBack(Output):
    """A withdrawn play: these squares' tiles come off the board (back to ``player``'s rack)."""

    player: int
    squares: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class PutBack(Output):
    """A withdrawal reversed on appeal: these squares get their tiles back."""

    player: int
    squares: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class CrossGiven(Output):
    """A penalty cross; ``turns_owed`` = turns the player will lose."""

    player: int
    crosses: int
    turns_owed: int


@dataclass(frozen=True, slots=True)
class CrossCancelled(Output):
    """A cross taken back (appeal upheld)."""

    player: int
    crosses: int


@dataclass(frozen=True, slots=True)
class TurnLost(Output):
    """A penalty turn was recorded for this player."""

    player: int


@dataclass(frozen=True, slots=True)
class PhaseChanged(Output):
    """The game moved to another phase (A, B, C of the playout, or ended)."""

    phase: Phase


@dataclass(frozen=True, slots=True)
class GameEnded(Output):
    """The game is over; ``racks_needed`` = players whose racks must still be entered."""

    reason: EndReason
    racks_needed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreCorrected(Output):
    """An upheld score challenge under a ruleset that corrects the score."""

    player: int
    score: int


@dataclass(frozen=True, slots=True)
class BeyondSet(Output):
    """A play put more of these letters on the board than the set in use holds: recorded, for the referee."""

    player: int
    letters: str


@dataclass(frozen=True, slots=True)
class ScoreAnnounced(Output):
    """The player's announced score for the open play, and the table's own: the opponent sees the difference."""

    player: int
    announced: int
    table_score: int


@dataclass(frozen=True, slots=True)
class WarningGiven(Output):
    """A referee's warning (napomenutí); ``warnings`` = the player's count so far; ``exclusion_due``: the warning
    after which the player is to be disqualified (004: the third), which the chief referee decides (004: "O
    vyloučení hráče z další hry vždy rozhoduje hlavní rozhodčí na návrh rozhodčího"): the game goes on until a
    ``Resign(disqualified=True)`` records that decision."""

    player: int
    warnings: int
    exclusion_due: bool = False


@dataclass(frozen=True, slots=True)
class LastRuling:
    """What an appeal needs: the state just before the ruling, the challenge and the ruling."""

    before: dict[str, Any]
    challenge: Challenge
    upheld: bool
    appealed: bool = False
