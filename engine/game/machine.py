"""The tournament game as a pure state machine: events in, state and outputs out.

The table does not know the racks (tiles come from a cloth bag), so the game keeps the board, the scores, whose
turn it is, crosses and turns owed, each rack's tile COUNT (7 at the start, minus tiles placed, plus tiles drawn)
and so the bag count (set size - tiles on the board - tiles on racks), the A-B-C phase and the play that may be
challenged. Racks are known only at the end (entered, or computed: with the bag empty, the one rack not entered is
the tiles not on the board and not on the other racks).

A refused event raises a ``GameError`` subclass and leaves the state untouched: turn events check everything
before they change anything; rulings and appeals run on a snapshot that is restored if anything fails.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from engine.board import SIZE, Board, Notation, Square
from engine.errors import EngineError
from engine.game import doubles, polish, referee, start, teams
from engine.game.errors import (
    AlreadyRuled,
    AlreadyStarted,
    BadPlayer,
    BadRackEntry,
    ChallengePending,
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
    Announce,
    AppealRuling,
    BaseTimeExpired,
    ChallengeExchange,
    ChallengePlacement,
    ChallengeRack,
    ChallengeScore,
    ChallengeSheet,
    ChallengeWord,
    Correction,
    DisputeForfeit,
    Event,
    Exchange,
    Forfeit,
    GameInfo,
    Pass,
    Play,
    PlaysFirst,
    RackEntry,
    RackReport,
    RefereeWarning,
    Resign,
    Ruling,
    SetChecked,
    Start,
    StartDraw,
    StartOrder,
    SwapBlank,
    TimeOut,
)
from engine.game.records import (
    Adjustment,
    AdjustmentKind,
    BeyondSet,
    Challenge,
    CrossCancelled,
    CrossGiven,
    EndReason,
    GameEnded,
    GameReopened,
    Incident,
    IncidentKind,
    LastRuling,
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
from engine.placement import GEOMETRY, IllegalPlacement, Placement, apply, irregular_play, validate
from engine.ruleset import CAS, Ruleset
from engine.scoring import bingo_bonus, end_adjustments, play_total
from engine.tiles import BLANK, Tile, TileSet, tile_set
from engine.values import builder

log = logging.getLogger(__name__)

SHORT_BAG_NOTE = "exchange with {bag} in the bag"
"""The note of an exchange made with too few tiles in the bag (open to the opponent's challenge, 000)."""

_RACK_END = (EndReason.PLAYED_OUT, EndReason.SCORELESS, EndReason.PLAYOUT)
"""Ends after which racks count (the others have a fixed result)."""


class Game:
    """One game under a ``Ruleset``, driven by ``apply(event)``; ``Game.replay(events)`` rebuilds it from a log.

    Players are numbered 0.. in playing order (player 0 makes the first move)."""

    def __init__(self) -> None:
        self.ruleset: Ruleset = CAS
        self.players: tuple[str, ...] = ()
        self.tiles: TileSet = tile_set(CAS.tile_set)
        self.started_at: float | None = None
        self.board = Board()
        self._letters: Counter[str] = Counter()  # tiles on the board as rack letters (blank = "?")
        self._on_board = 0
        self.rack_counts: list[int] = []
        self.history: list[Move] = []
        self.adjustments: list[Adjustment] = []
        self.scores: list[int] = []
        self.crosses: list[int] = []
        self.turns_owed: list[int] = []
        self.abc_start: int | None = None
        self.open_move: OpenMove | None = None
        self.open_rest: tuple[int, ...] = ()  # Polish doubles: the double move's second play, open after the first
        self.leads: dict[int, int] = {}  # Polish doubles: turn -> the player who plays the double move's first
        self.pending: Challenge | None = None
        self._last_ruling: LastRuling | None = None
        self.ended: EndReason | None = None
        self.went_out: int | None = None
        self._ended_by: tuple[int, ...] = ()  # who resigned, was excluded or did not come (``ended_by``)
        self._racks: dict[int, str] = {}
        self._fixed: tuple[int, ...] | None = None
        self._void = False
        self.resigning: int | None = None  # resigned while the opponent finishes the move on (004)
        self.set_counts: Counter[str] = self.tiles.bag()  # the set in use (the standard one, or as checked)
        self.set_size = self.tiles.size
        self.set_check: tuple[str, str] | None = None  # (missing, extra) found at the tile-set check
        self.set_ruling = ""  # the referee at the check (``SetChecked.referee``): "called" while the game waits
        self.incidents: list[Incident] = []
        self.info: dict[str, Any] = {}
        self.start_draws: dict[int, tuple[str, ...]] = {}  # tiles drawn for who starts, by player (engine.game.start)
        self.events: list[Event] = []

    # ---- building ---------------------------------------------------------------------------------------------

    @classmethod
    def replay(cls, events: Iterable[Event]) -> Game:
        """The game after applying every event in order; raises the first refusal's GameError."""
        game = cls()
        for event in events:
            game.apply(event)
        return game

    def apply(self, event: Event) -> list[Output]:
        """Apply one event; returns what the table must do. Raises a GameError subclass (state untouched)."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise GameError(f"not a game event: {event!r}")
        if self.started_at is None and not isinstance(event, Start):
            raise NotStarted(f"{event.TYPE} event before the start of the game: {event!r}")
        if doubles.final_draw_due(self, event):

            def final() -> list[Output]:
                doubles.settle_final_draw(self)
                return handler(self, event)

            out = self._guarded(final)
        else:
            out = handler(self, event)
        self.events.append(event)
        return out

    # ---- derived state ----------------------------------------------------------------------------------------

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def player_on_move(self) -> int:
        """The player whose turn it is (every turn, lost ones too, passes the move on; Polish doubles: 1-2-2-2...)."""
        if not self.players:
            return 0
        if self.ruleset.doubles == "polish":
            return doubles.polish_on_move(self)
        return len(self.history) % len(self.players)

    # ---- teams (seed 003; engine.game.teams, engine.game.polish) ----------------------------------------------

    @property
    def doubles(self) -> bool:
        """True in a game of two teams of two (Prague or Polish doubles)."""
        return bool(self.ruleset.doubles)

    def side_of(self, player: int) -> int:
        """Who crosses, penalty turns and totals belong to: the player, or in doubles the player's team."""
        return teams.team_of(player) if self.doubles else player

    @property
    def side_names(self) -> tuple[str, ...]:
        """The players' names, or in doubles the two teams' names."""
        if not self.doubles:
            return self.players
        return tuple(teams.team_name(self.players, t) for t in range(teams.TEAMS))

    @property
    def correctable(self) -> bool:
        """Whether a referee's ``Correction`` can change the score now: not after a fixed result (resignation,
        disqualification, forfeit), which no score changes."""
        return self._fixed is None

    def shown_total(self, side: int) -> int:
        """The score a player's (doubles: a team's) sheet shows now: the final one once the result is known, else
        the running total. A referee's correction to ``n`` changes it by ``n - shown_total``."""
        team = self.team_result
        if team is not None:
            return team.final[side]
        result = self.result
        if result is not None and not self.doubles:
            return result.final[side]
        return self.side_total(side)

    def side_total(self, side: int) -> int:
        """The running total of a player, or in doubles of a team."""
        if not self.doubles:
            return self.scores[side]
        return sum(self.scores[p] for p in teams.members(side))

    def _total(self, player: int) -> int:
        return self.side_total(self.side_of(player))

    @property
    def team_result(self) -> teams.TeamResult | None:
        """Doubles: the result per team (None in other games, while the game runs or racks are still needed)."""
        result = self.result
        if not self.doubles or result is None:
            return None
        names = self.side_names
        return teams.TeamResult((names[0], names[1]), teams.team_totals(result.final))

    def _draws(self, phase: Phase, placed: int) -> int:
        """Tiles drawn after a play: none in round C; none yet in the Polish playout's phase B (one player draws
        later, ``_settle_final_draw``)."""
        if phase is Phase.C or (phase is Phase.B and self.ruleset.doubles == "polish"):
            return 0
        return min(placed, self.bag_count)

    def _played_out(self, player: int) -> bool:
        """The player's play closes the game: their rack (Polish doubles: both racks of the team) and the bag
        are empty."""
        if self.bag_count != 0 or self.rack_counts[player] != 0:
            return False
        return self.ruleset.doubles != "polish" or self.rack_counts[teams.partner(player)] == 0

    @property
    def ended_by(self) -> tuple[int, ...]:
        """The players whose resignation, exclusion or absence ended the game (004: the sheet names them; an
        exclusion concerns the whole tournament, "Vyloučení se týká celého turnaje nebo utkání"); () otherwise."""
        if self.ended not in (EndReason.RESIGNED, EndReason.DISQUALIFIED, EndReason.FORFEIT):
            return ()
        return self._ended_by

    @property
    def bag_count(self) -> int:
        """Tiles in the bag: set size minus tiles on the board minus tiles on the racks."""
        return self.set_size - self._on_board - sum(self.rack_counts)

    def not_seen(self) -> tuple[int, ...]:
        """Players who may still be declared not to have come (004): no turn of theirs but time-outs and lost
        turns (only a turn they took shows they were there)."""
        took = {m.player for m in self.history if m.kind not in (MoveKind.TIMEOUT, MoveKind.PENALTY)}
        return tuple(p for p in range(len(self.players)) if p not in took)

    def warnings(self, player: int) -> int:
        """The referee's warnings (napomenutí) given to ``player`` in this game."""
        return sum(1 for i in self.incidents if i.kind is IncidentKind.WARNING and i.player == player)

    @property
    def phase(self) -> Phase:
        if self.started_at is None:
            return Phase.SETUP
        if self.ended is not None:
            return Phase.ENDED
        return self._phase_of(len(self.history))

    @property
    def round_number(self) -> int:
        """The round of the turn to come (of the last turn once the game has ended); 1-based."""
        n = len(self.players) or 1
        turns = len(self.history) - (1 if self.ended is not None and self.history else 0)
        if self.ruleset.doubles == "polish":
            return polish.round_of(turns)
        return turns // n + 1

    def round_of(self, move: Move) -> int:
        """The 1-based round a move belongs to."""
        if self.ruleset.doubles == "polish":
            return polish.round_of(move.number)
        return move.number // len(self.players) + 1

    @property
    def abc_rounds(self) -> dict[str, int]:
        """Round numbers of the playout rounds A, B, C (empty before the base game time expired)."""
        if self.abc_start is None:
            return {}
        if self.ruleset.doubles == "polish":
            a, b, c, _ = polish.playout_bounds(self.abc_start)
            return {"A": polish.round_of(a), "B": polish.round_of(b), "C": polish.round_of(c)}
        a = self.abc_start // len(self.players) + 1
        return {"A": a, "B": a + 1, "C": a + 2}

    def _phase_of(self, turn: int) -> Phase:
        if self.abc_start is None:
            return Phase.NORMAL
        if self.ruleset.doubles == "polish":
            return polish.phase_of(turn, self.abc_start)
        n = len(self.players)
        a_end = (self.abc_start // n + 1) * n
        if turn < a_end:
            return Phase.A
        if turn < a_end + n:
            return Phase.B
        if turn < a_end + 2 * n:
            return Phase.C
        return Phase.ENDED

    @property
    def appealable(self) -> bool:
        """True while the last ruling can still be appealed (once, by the player it went against)."""
        return self._last_ruling is not None and not self._last_ruling.appealed

    @property
    def scoreless_streak(self) -> int:
        """Consecutive turns at the end of the history in which no tile stayed on the board."""
        count = 0
        for move in reversed(self.history):
            if move.placed_tiles:
                break
            count += 1
        return count

    def unseen(self) -> Counter[str]:
        """Tiles not on the board, as rack letters (bag and racks together)."""
        out = Counter(self.set_counts)
        out.subtract(self._letters)
        return +out

    def racks(self) -> dict[int, str]:
        """The racks known at the end: empty racks, entered racks, and (bag empty) the one rack left over."""
        known: dict[int, str] = {p: "" for p, c in enumerate(self.rack_counts) if c == 0}
        known.update(self._racks)
        unknown = [p for p in range(len(self.players)) if p not in known]
        if len(unknown) == 1 and self.bag_count == 0 and self.ended in _RACK_END:
            rest = self.unseen()
            for rack in known.values():
                rest.subtract(Counter(rack))
            known[unknown[0]] = _sorted_rack(+rest, self.tiles)
        return known

    def _counted_racks(self) -> tuple[int, ...]:
        """Players whose end-of-game racks count (Prague doubles: not the partner of the player who closed)."""
        if self.ruleset.doubles == "prague" and self.ended is EndReason.PLAYED_OUT:
            return teams.counted_racks(self.went_out)
        return tuple(range(len(self.players)))

    @property
    def racks_needed(self) -> tuple[int, ...]:
        """Players whose end-of-game rack must still be entered."""
        if self.ended not in _RACK_END:
            return ()
        known = self.racks()
        return tuple(p for p in self._counted_racks() if p not in known)

    @property
    def result(self) -> Result | None:
        """The final result, or None while the game runs, racks are still to be entered, or the play that closed
        it is challenged (004: a game closes on a *valid* closing play; an upheld challenge reopens it)."""
        if self.ended is None or self.pending is not None:
            return None
        n = len(self.players)
        if self._fixed is not None:
            return Result(self.ended, tuple(self.scores), (0,) * n, (0,) * n, self._fixed, ("",) * n, None,
                          void=self._void)  # fmt: skip
        known = self.racks()
        counted = self._counted_racks()
        if any(p not in known for p in counted):
            return None
        racks = {p: known[p] for p in counted}
        went_out = self.went_out if self.ended is EndReason.PLAYED_OUT else None
        if self.doubles:
            adj = teams.end_adjustments(racks, went_out, self.tiles)
        else:
            adj = end_adjustments(racks, went_out, self.tiles, self.ruleset.scoring)
        played = tuple(self.scores)
        minus = tuple(max(0, -adj.get(p, 0)) for p in range(n))
        plus = tuple(max(0, adj.get(p, 0)) for p in range(n))
        final = tuple(played[p] + adj.get(p, 0) for p in range(n))
        return Result(self.ended, played, minus, plus, final, tuple(racks.get(p, "") for p in range(n)), went_out)

    def to_dict(self, history: bool = True) -> dict[str, Any]:
        """The whole state as JSON-able data (for display, the web page and tests); without ``history`` the moves
        are left out (``"history"`` is None) and only the last one is given, as ``"last_move"``."""
        result = self.result
        moves = self.history
        return {
            "players": list(self.players),
            "ruleset": self.ruleset.name,
            "phase": self.phase.value,
            "round": self.round_number,
            "abc_rounds": self.abc_rounds,
            "player_on_move": self.player_on_move,
            "scores": list(self.scores),
            "crosses": list(self.crosses),
            "turns_owed": list(self.turns_owed),
            "rack_counts": list(self.rack_counts),
            "bag_count": self.bag_count if self.started_at is not None else None,
            "set_size": self.set_size,
            "set_check": {"missing": self.set_check[0], "extra": self.set_check[1],
                          "referee": self.set_ruling} if self.set_check else None,  # fmt: skip
            "warnings": [self.warnings(p) for p in range(len(self.players))],
            "incidents": [i.to_dict() for i in self.incidents],
            "info": dict(self.info),
            "start_draws": ["".join(self.start_draws.get(p, ())) for p in range(len(self.players))],
            "scoreless_streak": self.scoreless_streak,
            "board": self.board.rows(),
            "history": [m.to_dict() for m in moves] if history else None,
            "last_move": moves[-1].to_dict() if moves else None,
            "adjustments": [a.to_dict() for a in self.adjustments],
            "open_move": self.open_move.to_dict() if self.open_move else None,
            "pending_challenge": self.pending.to_dict() if self.pending else None,
            "appealable": self.appealable,
            "ended": self.ended.value if self.ended else None,
            "ended_by": list(self.ended_by),
            "racks": {str(p): r for p, r in sorted(self.racks().items())} if self.ended in _RACK_END else {},
            "racks_needed": list(self.racks_needed),
            "result": result.to_dict() if result else None,
            "teams": doubles.teams_dict(self),
        }

    # ---- snapshots (rulings and appeals) ----------------------------------------------------------------------

    _STATE = ("_on_board", "abc_start", "open_move", "open_rest", "pending", "_last_ruling", "ended", "went_out",
              "_ended_by", "_fixed", "_void", "resigning")
    _LISTS = ("rack_counts", "history", "adjustments", "scores", "crosses", "turns_owed", "incidents")

    def _snapshot(self) -> dict[str, Any]:
        snap: dict[str, Any] = {name: getattr(self, name) for name in self._STATE}
        for name in self._LISTS:
            snap[name] = list(getattr(self, name))
        snap["cells"] = list(self.board.cells)
        snap["_letters"] = Counter(self._letters)
        snap["_racks"] = dict(self._racks)
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        for name in (*self._STATE, *self._LISTS, "_letters", "_racks"):
            value = snap[name]
            if isinstance(value, list | Counter | dict):
                value = type(value)(value)
            setattr(self, name, value)
        self.board.cells = list(snap["cells"])

    def _guarded(self, action: Callable[[], list[Output]]) -> list[Output]:
        snap = self._snapshot()
        try:
            return action()
        except BaseException:
            self._restore(snap)
            raise

    # ---- checks ------------------------------------------------------------------------------------------------

    def _require_running(self, what: str) -> None:
        if self.ended is not None:
            raise GameOver(f"{what} refused: the game has ended ({self.ended.value})")

    def _require_turn(self, what: str) -> None:
        self._require_running(what)
        if self.pending is not None:
            raise ChallengePending(
                f"{what} refused: the challenge of player {self.pending.challenger} waits for a ruling"
            )

    def _require_player(self, player: int, what: str) -> None:
        if not 0 <= player < len(self.players):
            raise BadPlayer(f"{what}: no player {player} in a game of {len(self.players)} players")

    # ---- turns -------------------------------------------------------------------------------------------------

    def _on_start(self, event: Start) -> list[Output]:
        if self.started_at is not None:
            raise AlreadyStarted(f"the game has already started (at {self.started_at}): {event!r}")
        try:
            tiles = tile_set(event.ruleset.tile_set)
        except EngineError as exc:
            raise GameError(f"start refused: {exc}") from exc
        n = len(event.players)
        self.ruleset, self.players, self.tiles, self.started_at = (
            event.ruleset,
            tuple(event.players),
            tiles,
            event.at,
        )
        self.use_set(tiles.bag())
        sides = teams.TEAMS if event.ruleset.doubles else n
        self.scores, self.crosses, self.turns_owed = [0] * n, [0] * sides, [0] * sides
        return [OnMove(0)]

    def use_set(self, counts: Counter[str]) -> None:
        """Play with this set (the standard one, or as found at the tile-set check): its size gives the bag count;
        the first racks are dealt from it."""
        self.set_counts = counts
        self.set_size = sum(counts.values())
        self.deal()

    def deal(self) -> None:
        """The first racks: each player draws a full rack in turn from the set in use."""
        size = self.ruleset.scoring.rack_size
        left = self.set_size
        self.rack_counts = []
        for _ in self.players:
            take = min(size, left)
            self.rack_counts.append(take)
            left -= take

    def _on_play(self, event: Play) -> list[Output]:
        self._require_turn("play")
        p = self.player_on_move
        placements = event.placements
        if len(placements) > self.rack_counts[p]:
            raise IllegalMove(
                f"play {_described(placements)!r} refused: {len(placements)} tiles but player {p} has "
                f"{self.rack_counts[p]} on the rack"
            )
        irregular = ""
        try:
            play = validate(self.board, placements, event.direction)
        except IllegalPlacement as exc:
            if not (event.irregular and exc.reason in GEOMETRY and self.ruleset.irregular_placement == "referee"):
                raise IllegalMove(f"play {_described(placements)!r} refused: {exc}") from exc
            try:  # recorded as laid: the opponent may challenge it, the referee rules (004)
                play = irregular_play(self.board, placements)
            except IllegalPlacement as again:
                raise IllegalMove(f"play {_described(placements)!r} refused: {again}") from again
            irregular = exc.reason.value
        letters = [BLANK if pl.tile.blank else pl.tile.letter for pl in placements]  # as on a rack
        points = self.tiles.points
        for letter in letters:
            if letter not in points and letter != BLANK:
                raise IllegalMove(
                    f"play {_described(placements)!r} refused: the {self.tiles.name} set has no letter {letter!r} "
                    "(a blank needs one)"
                )
        new: dict[str, int] = {}  # a Counter costs more than the counting here
        for letter in letters:
            new[letter] = new.get(letter, 0) + 1
        # 000/004: the game is finished with the set it started with: more of a letter than the set holds is
        # recorded as played and flagged to the referee, never refused
        have, used = self.set_counts, self._letters
        over = {}
        for letter, n in new.items():
            extra = used.get(letter, 0) + n - have.get(letter, 0)
            if extra > 0:
                over[letter] = min(n, extra)
        beyond = "".join(letter * over[letter] for letter in sorted(over, key=self.tiles.order)) if over else ""
        rules = self.ruleset.scoring
        engine_score = play_total(play, self.tiles, rules)
        recorded = engine_score
        if self.ruleset.record_announced_score and event.announced is not None:
            recorded = event.announced
        # -- from here on nothing can fail
        turn = len(self.history)
        phase = self._phase_of(turn)
        apply(self.board, play)
        for letter in letters:
            used[letter] = used.get(letter, 0) + 1
        self._on_board += len(placements)
        self.rack_counts[p] -= len(placements)
        drawn = self._draws(phase, len(placements))
        self.rack_counts[p] += drawn
        self.scores[p] += recorded
        move = _move(  # every field of Move
            number=turn,
            player=p,
            kind=MoveKind.PLAY,
            at=event.at,
            phase=phase,
            score=recorded,
            total=self._total(p),
            placements=placements,
            words=tuple([w.notation() for w in play.words]),
            position=play.position,
            bingo=bingo_bonus(play, rules) > 0,
            engine_score=engine_score,
            announced=event.announced,
            exchanged=0,
            drawn=drawn,
            note="",
            beyond_set=beyond,
            irregular=irregular,
        )
        out: list[Output] = [BeyondSet(p, beyond)] if beyond else []
        self.open_move = OpenMove(turn, p, (p + 1) % len(self.players))
        self._end_turn(move, out)
        return out

    def _simple_turn(
        self, kind: MoveKind, event: Event, exchanged: int = 0, placements: tuple[Placement, ...] = (), note: str = ""
    ) -> list[Output]:
        move = Move(
            number=len(self.history),
            player=self.player_on_move,
            kind=kind,
            at=event.at,
            phase=self._phase_of(len(self.history)),
            total=self._total(self.player_on_move),
            exchanged=exchanged,
            placements=placements,
            note=note,
        )
        self.open_move = None
        out: list[Output] = []
        self._end_turn(move, out)
        return out

    def _on_swap_blank(self, event: SwapBlank) -> list[Output]:
        """001 alternative rule 1: the blank at a square is swapped for the tile it stands for; the player takes the
        blank onto the rack and the turn is used (no tile is added: a scoreless turn)."""
        self._require_turn("blank swap")
        if not self.ruleset.blank_swap:
            raise IllegalMove(f"blank swap refused: ruleset {self.ruleset.name!r} does not allow it")
        if not (0 <= event.row < SIZE and 0 <= event.col < SIZE):
            raise IllegalMove(f"blank swap refused: no square ({event.row}, {event.col})")
        square = Square(event.row, event.col)
        tile = self.board[square]
        if tile is None or not tile.blank:
            raise IllegalMove(f"blank swap refused: no blank on {square.czech()}")
        if tile.letter not in self.tiles.points:
            raise IllegalMove(f"blank swap refused: the {self.tiles.name} set has no {tile.letter!r} tile")
        letter_tile = Tile(tile.letter)
        self.board.put(square, letter_tile)
        self._letters[BLANK] -= 1
        self._letters[tile.letter] += 1
        self._letters = +self._letters
        return self._simple_turn(MoveKind.BLANK_SWAP, event, placements=(Placement(square, letter_tile),))

    def _on_pass(self, event: Pass) -> list[Output]:
        self._require_turn("pass")
        return self._simple_turn(MoveKind.PASS, event)

    def _on_timeout(self, event: TimeOut) -> list[Output]:
        self._require_turn("time-out")
        turn = len(self.history)
        out = self._simple_turn(MoveKind.TIMEOUT, event)
        if (
            self.ruleset.doubles == "polish"
            and not polish.ends_team_turn(turn)
            and self.ended is None
            and len(self.history) == turn + 1
        ):  # the three minutes are the double move's: its second turn is lost too
            out += self._simple_turn(MoveKind.TIMEOUT, event)
        return out

    def _on_exchange(self, event: Exchange) -> list[Output]:
        """An exchange as announced. One made with too few tiles in the bag is recorded all the same and open to
        the opponent's challenge (000: "Protest lze podat i na neoprávněnou výměnu"): the referee rules, not the
        table (``short_bag``)."""
        self._require_turn("exchange")
        p = self.player_on_move
        why = self.exchange_refused()
        if why:
            raise ExchangeNotAllowed(f"exchange of {event.count} refused: {why}")
        if event.count > self.rack_counts[p]:
            raise ExchangeNotAllowed(
                f"exchange of {event.count} refused: player {p} has {self.rack_counts[p]} tiles on the rack"
            )
        turn, short = len(self.history), self.short_bag()
        out = self._simple_turn(MoveKind.EXCHANGE, event, exchanged=event.count,
                                note=SHORT_BAG_NOTE.format(bag=self.bag_count) if short else "")  # fmt: skip
        polish_mid = self.ruleset.doubles == "polish" and not polish.ends_team_turn(turn)  # after the double move
        if short and self.ended is None and self.open_move is None and not polish_mid:
            challenger = 1 - teams.team_of(p) if self.ruleset.doubles == "polish" else (p + 1) % len(self.players)
            self.open_move = OpenMove(turn, p, challenger)
        return out

    def exchange_refused(self) -> str:
        """Why the player on move cannot exchange now, or "" if they can: no drawing in round C of the playout
        (004). Too few tiles in the bag is the opponent's challenge, not a refusal (``short_bag``)."""
        if self._phase_of(len(self.history)) is Phase.C:
            return "no drawing in round C of the playout"
        return ""

    def short_bag(self) -> bool:
        """Fewer tiles in the bag than an exchange needs (004: "pokud je v sáčku ještě nejméně sedm kamenů"): an
        exchange now may be challenged (000), the referee checks the bag by touch."""
        return self.bag_count < self.ruleset.exchange_min_bag

    def _end_turn(self, move: Move, out: list[Output]) -> None:
        """Record a turn, then end the game or pass the move on (recording penalty turns owed)."""
        before = self._phase_of(len(self.history))
        self.history.append(move)
        self._last_ruling = None
        p = move.player
        resigned = self._due_resignation()
        if resigned is not None:  # the move the opponent was allowed to finish (004)
            self.lose_by(resigned, EndReason.RESIGNED, out)
            return
        if self.ruleset.doubles == "polish":
            doubles.open_double(self, move.number)
        if move.kind is MoveKind.PLAY and self._played_out(p):
            self._finish(EndReason.PLAYED_OUT, p, out)
            return
        self._check_end(out)
        self._advance(out, move.at)
        resigned = self._due_resignation() if self.ended is None else None
        if resigned is not None:  # Polish doubles: the double move's second turn was struck or lost
            self.lose_by(resigned, EndReason.RESIGNED, out)
            return
        if self.ended is None:
            after = self._phase_of(len(self.history))
            if after is not before:
                out.append(PhaseChanged(after))
            out.append(OnMove(self.player_on_move))

    def _advance(self, out: list[Output], at: float) -> None:
        """Record the penalty turns owed by the players (doubles: teams) coming on move, and in Polish doubles
        the struck second turn of a player whose rack is empty."""
        while self.ended is None and self._due_resignation() is None and (
            doubles.struck_due(self) or self.turns_owed[self.side_of(self.player_on_move)] > 0
        ):
            p = self.player_on_move
            number = len(self.history)
            struck = doubles.struck_due(self)
            if not struck:
                self.turns_owed[self.side_of(p)] -= 1
            kind, note = (MoveKind.STRUCK, "empty rack") if struck else (MoveKind.PENALTY, "cross")
            self.history.append(Move(number, p, kind, at, self._phase_of(number), total=self._total(p), note=note))
            if not struck:
                out.append(TurnLost(p))
            if self.ruleset.doubles == "polish" and polish.is_second(number):
                start = polish.double_start(number)
                if self.history[start].kind is MoveKind.PLAY:
                    doubles.open_double(self, number)
            self._check_end(out)

    def _check_end(self, out: list[Output]) -> None:
        if self.ended is not None:
            return
        if self.abc_start is not None and self._phase_of(len(self.history)) is Phase.ENDED:
            self._finish(EndReason.PLAYOUT, None, out)
        elif self.scoreless_streak >= self.ruleset.scoreless_turns(len(self.players)):
            self._finish(EndReason.SCORELESS, None, out)

    def _finish(self, reason: EndReason, went_out: int | None, out: list[Output]) -> None:
        self.ended, self.went_out = reason, went_out
        out.append(GameEnded(reason, self.racks_needed))

    # ---- challenges --------------------------------------------------------------------------------------------

    def _challenger(self, by: int | None, what: str) -> OpenMove:
        if self._fixed is not None:
            raise GameOver(f"{what} refused: the game has ended ({self.ended.value if self.ended else ''})")
        if self.pending is not None:
            raise ChallengePending(f"{what} refused: a challenge already waits for a ruling")
        om = self.open_move
        if om is None:
            if self.ruleset.doubles == "polish" and polish.is_second(len(self.history)) and self.ended is None:
                raise NoOpenMove(f"{what} refused: challenges only after the double move (seed 003)")
            raise NoOpenMove(f"{what} refused: no play is open to challenge")
        if by is not None:
            self._require_player(by, what)
            if self.side_of(by) == self.side_of(om.player):
                raise BadPlayer(f"{what} refused: player {by} cannot challenge their own (team's) play")
        return om

    def open_words(self) -> tuple[tuple[int, int, str], ...]:
        """The words that can be challenged now as ``(history index, word index, word)``: the open play's, then
        (Polish doubles) the second play's of the double move. A ``ChallengeWord`` index counts in this list."""
        if self.open_move is None:
            return ()
        return tuple((i, w, word) for i in (self.open_move.index, *self.open_rest)
                     for w, word in enumerate(self.history[i].words))  # fmt: skip

    def _open_second(self, om: OpenMove, index: int) -> OpenMove:
        """Move on to the double move's second play: the first can no longer be challenged ("nejdříve první, pak
        druhý")."""
        move = self.history[index]
        self.open_move, self.open_rest = OpenMove(index, move.player, om.challenger), ()
        return self.open_move

    def _on_challenge_word(self, event: ChallengeWord) -> list[Output]:
        om = self._challenger(event.by, f"challenge of word {event.word!r}")
        words = self.open_words()
        index: int | None = None
        if isinstance(event.word, int):
            if 0 <= event.word < len(words):
                index = event.word
        else:
            wanted = event.word.strip().upper()
            matches = [i for i, (_, _, w) in enumerate(words) if w.upper() == wanted]
            index = next(
                (i for i in matches if words[i][0] != om.index or words[i][1] not in om.ruled_words),
                matches[0] if matches else None,
            )
        if index is None:
            formed = ", ".join(w for _, _, w in words)
            raise UnknownWord(f"challenge of word {event.word!r} refused: the play formed {formed}")
        play, index, word = words[index]
        if play == om.index and index in om.ruled_words:
            raise AlreadyRuled(f"challenge of word {word!r} refused: already ruled valid")
        if play != om.index:
            om = self._open_second(om, play)
        by = om.challenger if event.by is None else event.by
        self.pending = Challenge("word", index, by, om.player, event.at)
        self._last_ruling = None
        return []

    def _on_challenge_play(self, event: ChallengeScore | ChallengePlacement | ChallengeExchange) -> list[Output]:
        """A challenge of the open play's announced score, or of how it was placed (Polish doubles: ``second``
        challenges the second play's score), or of an exchange made with too few tiles in the bag."""
        kind = {ChallengeScore: "score", ChallengePlacement: "placement", ChallengeExchange: "exchange"}[type(event)]
        om = self._challenger(event.by, f"challenge of the {kind}")
        if (kind == "exchange") != (self.history[om.index].kind is MoveKind.EXCHANGE):
            raise NoOpenMove(f"challenge of the {kind} refused: the open move is a {self.history[om.index].kind.value}")
        if isinstance(event, ChallengeScore) and event.second:
            if not self.open_rest:
                raise NoOpenMove("challenge of the second play's score refused: no second play is open")
            om = self._open_second(om, self.open_rest[0])
        if om.score_ruled if kind == "score" else om.placement_ruled:
            raise AlreadyRuled(f"challenge of the {kind} refused: the {kind} has already been ruled on")
        by = om.challenger if event.by is None else event.by
        self.pending = Challenge(kind, None, by, om.player, event.at)
        self._last_ruling = None
        return []

    def _on_ruling(self, event: Ruling) -> list[Output]:
        challenge = self.pending
        if challenge is None:
            raise NoChallenge(f"ruling refused: no challenge waits for a ruling ({event!r})")

        def action() -> list[Output]:
            before = self._snapshot()
            out: list[Output] = []
            self._rule(challenge, event.upheld, event.at, out)
            self._last_ruling = LastRuling(before, challenge, event.upheld)
            if self.ended is None:
                out.append(RestartMoveClock(self.player_on_move))
            return out

        return self._guarded(action)

    def _rule(self, challenge: Challenge, upheld: bool, at: float, out: list[Output]) -> None:
        """The effects of a ruling on the pending challenge."""
        self.pending = None
        if challenge.kind in ("rack", "sheet"):
            referee.rule_on_player(self, challenge, upheld, at, out)
            return
        om = self.open_move
        assert om is not None  # a pending challenge always has its open move
        rules = self.ruleset
        if upheld:
            if challenge.kind in ("word", "placement", "exchange") or rules.score_challenge == "move_lost":
                self._withdraw(f"{challenge.kind} challenge upheld", out)
                return
            move = self.history[om.index]
            delta = move.engine_score - move.score
            self.history[om.index] = replace(move, score=move.engine_score, total=move.total + delta)
            self.scores[move.player] += delta
            self.shift_totals(om.index, delta)
            out.append(ScoreCorrected(move.player, move.engine_score))
            if rules.score_challenge == "corrected_cross":
                self._cross(move.player, 1, out)
            self.open_move = replace(om, score_ruled=True)
            return
        self._reject(challenge, at, out)
        if challenge.kind == "word":
            assert challenge.word is not None
            self.open_move = replace(om, ruled_words=om.ruled_words | {challenge.word})
        elif challenge.kind == "placement":
            self.open_move = replace(om, placement_ruled=True)
        elif challenge.kind == "exchange":
            self.open_move = None  # the exchange stands: nothing of it is left to challenge
        else:
            self.open_move = replace(om, score_ruled=True)

    def _reject(self, challenge: Challenge, at: float, out: list[Output]) -> None:
        """The penalty for a challenge that was not upheld, as the ruleset says."""
        rules = self.ruleset
        if rules.rejected_challenge == "cross":
            self._cross(challenge.challenger, 1, out)
        elif rules.rejected_challenge == "points":
            self._adjust(
                challenge.challenger, -rules.rejected_challenge_points, AdjustmentKind.CHALLENGE_PENALTY, at
            )
        else:
            self._adjust(
                challenge.challenged, rules.rejected_challenge_points, AdjustmentKind.CHALLENGE_BONUS, at
            )

    def _withdraw(self, note: str, out: list[Output]) -> None:
        """Take the open play back: tiles off the board, back on the rack; the turn becomes a lost turn. Polish
        doubles: "Pokud je první tah neplatný a druhý na něj navazuje, je neplatný i druhý tah"; a second play
        elsewhere on the board stays (and can still be challenged)."""
        om = self.open_move
        assert om is not None
        first = self.history[om.index]
        rest = self.open_rest
        falls = [i for i in rest
                 if polish.builds_on(self.board, (pl.square for pl in first.placements),
                                     (pl.square for pl in self.history[i].placements))]  # fmt: skip
        self._take_back(om.index, note, out)
        for i in falls:
            self._take_back(i, f"{note}; builds on the first play", out)
        standing = [i for i in rest if i not in falls]
        self.open_move, self.open_rest = None, ()
        if standing:
            self._open_second(om, standing[0])

    def _take_back(self, index: int, note: str, out: list[Output]) -> None:
        move = self.history[index]
        for pl in move.placements:
            self.board.clear(pl.square)
        self._letters.subtract(Counter(pl.tile.rack_letter for pl in move.placements))
        self._letters = +self._letters
        self._on_board -= len(move.placements)
        self.rack_counts[move.player] += len(move.placements) - move.drawn
        self.scores[move.player] -= move.score
        self.history[index] = replace(move, kind=MoveKind.WITHDRAWN, score=0, total=move.total - move.score,
                                      note=note)  # fmt: skip
        self.shift_totals(index, -move.score)  # a team's later totals included the withdrawn score
        self.open_move = None
        if move.placements:  # a withdrawn exchange leaves nothing on the board
            out.append(TakeBack(move.player, tuple(pl.square for pl in move.placements)))
        if (
            self.ended is EndReason.PLAYED_OUT
            and self.went_out is not None
            and self.side_of(self.went_out) == self.side_of(move.player)
        ):
            self.ended, self.went_out = None, None
            self._racks.clear()
            out.append(GameReopened(self.player_on_move))
        self._check_end(out)

    def shift_totals(self, index: int, delta: int) -> None:
        """The score of move ``index`` changed by ``delta``: the running totals of its side's later moves follow
        (doubles: the team's partner may have moved since)."""
        side = self.side_of(self.history[index].player)
        for later in range(index + 1, len(self.history)):
            other = self.history[later]
            if self.side_of(other.player) == side:
                self.history[later] = replace(other, total=other.total + delta)

    def _cross(self, player: int, count: int, out: list[Output]) -> None:
        """Crosses for ``player`` (doubles: "Křížek za neoprávněný protest dostává dvojice, ne hráč")."""
        side = self.side_of(player)
        for _ in range(count):
            self.crosses[side] += 1
            if self.crosses[side] > self.ruleset.free_crosses:
                self.turns_owed[side] += 1
        out.append(CrossGiven(player, self.crosses[side], self.turns_owed[side]))

    def _adjust(self, player: int, points: int, kind: AdjustmentKind, at: float, note: str = "") -> None:
        self.adjustments.append(Adjustment(player, points, kind, at, len(self.history), note))
        self.scores[player] += points

    def _on_appeal(self, event: AppealRuling) -> list[Output]:
        last = self._last_ruling
        if last is None or last.appealed:
            raise NothingToAppeal(f"appeal refused: no ruling open to appeal ({event!r})")

        def action() -> list[Output]:
            out: list[Output] = []
            challenge = last.challenge
            if event.upheld_for_appellant:
                withdrawn_now = [i for i, m in enumerate(self.history) if m.kind is MoveKind.WITHDRAWN]
                crosses_now = list(self.crosses)
                self._restore(last.before)
                self._rule(challenge, not last.upheld, event.at, out)
                for index in withdrawn_now:
                    move = self.history[index]
                    if move.kind is MoveKind.PLAY:
                        out.append(PutBack(move.player, tuple(pl.square for pl in move.placements)))
                for p, (was, now) in enumerate(zip(crosses_now, self.crosses, strict=True)):
                    if now < was:
                        out.append(CrossCancelled(p, now))
            else:
                appellant = challenge.challenged if last.upheld else challenge.challenger
                self._cross(appellant, self.ruleset.failed_appeal_crosses, out)
            self._last_ruling = replace(last, appealed=True)
            if self.ended is None:
                out.append(RestartMoveClock(self.player_on_move))
            return out

        return self._guarded(action)

    # ---- the rest ----------------------------------------------------------------------------------------------

    def _on_base_time(self, event: BaseTimeExpired) -> list[Output]:
        self._require_running("base game time expiry")
        if self.ruleset.playout != "abc":
            raise PlayNotAllowed(
                f"base game time expiry refused: ruleset {self.ruleset.name!r} has no playout"
            )
        if self.abc_start is not None:
            raise PlayNotAllowed(f"base game time already expired (in round {self.abc_rounds['A']})")
        self.abc_start = len(self.history)
        return [PhaseChanged(Phase.A)]

    def _on_resign(self, event: Resign) -> list[Output]:
        self._require_running("resignation")
        self._require_player(event.player, "resignation")
        if event.after_turn and not event.disqualified and self.side_of(event.player) != self.side_of(self.player_on_move):
            self.resigning = event.player
            return []
        out: list[Output] = []
        self.lose_by(event.player, EndReason.DISQUALIFIED if event.disqualified else EndReason.RESIGNED, out)
        return out

    def _due_resignation(self) -> int | None:
        """The player whose resignation, made while another side was on move, takes effect now that a turn was
        recorded: the move on has been finished (004 "má právo dohrát svůj tah"); in Polish doubles the other
        team's whole double move (003 "Na dvojtah má dvojice tři minuty"), i.e. once the resigning team would be
        on move. None if no resignation waits or it still waits."""
        resigning = self.resigning
        if resigning is None:
            return None
        if self.ruleset.doubles == "polish" and self.side_of(self.player_on_move) != self.side_of(resigning):
            return None
        return resigning

    def lose_by(self, loser: int, reason: EndReason, out: list[Output]) -> None:
        """End the game against ``loser`` (resignation, disqualification, 004): 0 for them, for each opponent
        ``forfeit_points`` or the current difference if that is larger (doubles: the loser's team loses).

        The difference is the seed's letter, "bodový rozdíl" / "rozdíl skóre", whoever leads: a leader who resigns
        or is excluded at 139:0 loses 0:139, not 0:100 (004 "Pokud je rozdíl skóre v okamžiku vzdání partie větší
        než 100, prohrává hráč, který vzdal, poměrem 0 : stávající rozdíl")."""
        if self.doubles:
            lost = teams.team_of(loser)
            won = 1 - lost
            values = [0, 0]
            values[won] = max(self.ruleset.forfeit_points, abs(self.side_total(won) - self.side_total(lost)))
            self._fixed = teams.fixed_result((values[0], values[1]))
        else:
            self._fixed = tuple(
                0 if p == loser else max(self.ruleset.forfeit_points, abs(self.scores[p] - self.scores[loser]))
                for p in range(len(self.players))
            )
        self.open_move, self.pending, self._last_ruling = None, None, None
        self._ended_by = (loser,)
        self._finish(reason, None, out)

    def _on_forfeit(self, event: Forfeit) -> list[Output]:
        self._require_running("forfeit")
        absent = set(event.absent)
        for p in absent:
            self._require_player(p, "forfeit")
            if p not in self.not_seen():
                raise BadPlayer(f"forfeit refused: player {p} has already played a turn")
        all_absent = len(absent) == len(self.players)
        # 004: neither player came: 0:0 and no points for a draw (a void game, no winner)
        self._void = all_absent
        if self.doubles:  # a team with an absent player forfeits; both teams: 0:0
            out_teams = {teams.team_of(p) for p in absent}
            self._void = len(out_teams) == teams.TEAMS
            points = 0 if self._void else self.ruleset.forfeit_points
            self._fixed = teams.fixed_result((0 if 0 in out_teams else points, 0 if 1 in out_teams else points))
        else:
            self._fixed = tuple(
                0 if p in absent or all_absent else self.ruleset.forfeit_points for p in range(len(self.players))
            )
        self.open_move, self.pending, self._last_ruling = None, None, None
        self._ended_by = tuple(sorted(absent))
        out: list[Output] = []
        self._finish(EndReason.FORFEIT, None, out)
        return out

    def _on_rack(self, event: RackEntry) -> list[Output]:
        if self.ended is None:
            raise GameNotOver(f"rack entry {event.rack!r} refused: the game is still on")
        if self.ended not in _RACK_END:
            raise BadRackEntry(f"rack entry {event.rack!r} refused: the game ended by {self.ended.value}")
        if self.pending is not None:
            raise ChallengePending(f"rack entry {event.rack!r} refused: a challenge waits for a ruling")
        p = event.player
        self._require_player(p, "rack entry")
        rack = "".join(BLANK if ch == BLANK else ch.upper() for ch in event.rack.strip())
        if len(rack) != self.rack_counts[p]:
            raise BadRackEntry(
                f"rack entry {event.rack!r} for player {p} refused: {len(rack)} tiles, "
                f"the rack holds {self.rack_counts[p]}"
            )
        computed = {q: r for q, r in self.racks().items() if q not in self._racks}
        if p in computed:
            raise BadRackEntry(
                f"rack entry {event.rack!r} for player {p} refused: the rack is known ({computed[p]!r})"
            )
        rest = self.unseen()
        for q, other in self._racks.items():
            if q != p:
                rest.subtract(Counter(other))
        missing = Counter(rack) - rest
        if missing:
            raise BadRackEntry(
                f"rack entry {event.rack!r} for player {p} refused: no such tiles left: {''.join(missing.elements())}"
            )
        self._racks[p] = _sorted_rack(Counter(rack), self.tiles)
        self.open_move, self._last_ruling = None, None
        return []

    def _on_correction(self, event: Correction) -> list[Output]:
        if not self.correctable:
            raise GameOver(f"correction refused: the game ended by {self.ended.value if self.ended else ''}")
        self._require_player(event.player, "correction")
        self._adjust(event.player, event.points, AdjustmentKind.CORRECTION, event.at, event.note)
        return []

    # ---- convenience -------------------------------------------------------------------------------------------

    def board_diagram(self, notation: Notation = Notation.CZECH) -> list[str]:
        """The board as text rows with a header line of column labels (rows lettered in Czech notation)."""
        letters = "ABCDEFGHIJKLMNO"
        rows = self.board.rows()
        if notation is Notation.CLASSIC:
            head = "    " + " ".join(letters)
            return [head] + [f"{r + 1:>2}  " + " ".join(row) for r, row in enumerate(rows)]
        head = "   " + "".join(f"{c + 1:<2}" for c in range(SIZE)).rstrip()
        return [head] + [f"{letters[r]}  " + " ".join(row) for r, row in enumerate(rows)]


def _sorted_rack(counter: Counter[str], tiles: TileSet) -> str:
    return "".join(sorted(counter.elements(), key=tiles.order))


def _described(placements: tuple[Placement, ...]) -> str:
    """A play's tiles for an error message: ``H8=K I8=o`` (classic squares, a blank in lowercase)."""
    return " ".join(f"{pl.square.classic()}={pl.tile.notation()}" for pl in placements)


_move = builder(Move)


_HANDLERS: dict[type[Event], Callable[[Game, Any], list[Output]]] = {
    Start: Game._on_start,
    Play: Game._on_play,
    Pass: Game._on_pass,
    Exchange: Game._on_exchange,
    TimeOut: Game._on_timeout,
    ChallengeWord: Game._on_challenge_word,
    ChallengeScore: Game._on_challenge_play,
    Ruling: Game._on_ruling,
    AppealRuling: Game._on_appeal,
    BaseTimeExpired: Game._on_base_time,
    Resign: Game._on_resign,
    Forfeit: Game._on_forfeit,
    RackEntry: Game._on_rack,
    Correction: Game._on_correction,
    DisputeForfeit: referee.on_dispute_forfeit,
    SetChecked: referee.on_set_checked,
    Announce: referee.on_announce,
    RefereeWarning: referee.on_warning,
    RackReport: referee.on_rack_report,
    ChallengeRack: referee.on_challenge_player,
    ChallengeSheet: referee.on_challenge_player,
    GameInfo: referee.on_info,
    ChallengePlacement: Game._on_challenge_play,
    ChallengeExchange: Game._on_challenge_play,
    SwapBlank: Game._on_swap_blank,
    PlaysFirst: doubles.plays_first,
    StartDraw: start.on_start_draw,
    StartOrder: start.on_start_order,
}
