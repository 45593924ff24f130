"""A duplicate Scrabble game (seed 001, items 5-11): central racks, answer slips, the top play on the board.

Every change is an *event* (a plain dict), so a referee tool can write it to its journal before applying it and
rebuild the game after a crash by applying the journal again:

- ``{"type": "rules", "strict_scores": bool}``: the referee's choice on wrong scores (item 8: such a slip is refused
  unless the referee waives it, deciding at the latest at the first player whose score is wrong). Until it is made,
  a slip whose only fault is its score raises :class:`ScoreRuleUndecided`; once a wrong score was judged the
  choice is fixed;
- ``{"type": "draw", "tiles": "..."}``: tiles drawn from the bag onto the rack (``?`` = blank). If the rack then
  breaks the rack rule (:mod:`engine.duplicate.racks`) all its tiles go back to the bag and a whole new rack is
  drawn next;
- ``{"type": "slip", "player", "position", "word", "claimed", "accept_unknown"}``: a slip and, for a word the
  lexicon does not know, the referee's decision;
- ``{"type": "withdraw", "player": ...}``: the player's slip of this move is struck out (the referee entered it
  for the wrong player, or the player takes it back before the move ends); the player scores 0 unless a new slip
  comes;
- ``{"type": "close", "no_play": "end" | "redraw"}``: the move ends; the top play (score, then alphabet, then
  nearer the top, then nearer the left, then across: item 9) goes on the board, the rest of the rack stays, players
  without a slip score 0. A rack with no legal play at all is a case the seed does not rule: the referee decides,
  ``"end"`` ends the game, ``"redraw"`` returns the whole rack to the bag (its slips void) and a new rack is drawn
  for the same move; without ``no_play`` (journals of earlier versions) the game ends.

The game ends when every tile has been played, when no vowel or no consonant is left (item 11), or when the
referee ends it on a rack with no legal play.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from engine.board import Board, Notation
from engine.duplicate.racks import Mix, exhausted, requirement
from engine.duplicate.slips import Slip, SlipCheck, Verdict, check_slip
from engine.errors import EngineError
from engine.movegen import Move, MoveGenerator
from engine.placement import apply

RACK_SIZE = 7
END_ALL_TILES = "all_tiles"
END_EXHAUSTED = "exhausted"
END_NO_PLAY = "no_play"
NO_PLAY_END, NO_PLAY_REDRAW = "end", "redraw"
"""The referee's choices for a rack with no legal play (the ``close`` event's ``no_play``)."""


class DuplicateError(EngineError, ValueError):
    """An event that does not fit the game's state (tiles not in the bag, a slip before the rack, ...)."""


class DrawError(DuplicateError):
    """Tiles that cannot be this draw: ``kind`` ``"bag"`` (the bag lacks ``missing``) or ``"count"`` (``need``
    tiles are to be drawn); ``tiles`` as given."""

    def __init__(self, message: str, kind: str, tiles: str, missing: str = "", need: int = 0) -> None:
        super().__init__(message)
        self.kind = kind
        self.tiles = tiles
        self.missing = missing
        self.need = need


class ScoreRuleUndecided(DuplicateError):
    """A slip with a wrong score arrived before the referee chose the wrong-score rule: the referee decides now
    (a ``rules`` event), then the slip is applied again."""


@dataclass(frozen=True, slots=True)
class SlipResult:
    """A slip as credited: verdict and points (0 unless credited), with the engine's detail for the referee."""

    slip: Slip
    verdict: Verdict
    score: int
    detail: str = ""
    check: SlipCheck | None = None
    """The engine's check behind the verdict (None for a player without a slip)."""


@dataclass
class Round:
    """One move: the rack, the top play and each player's result."""

    number: int
    rack: str
    top: Move | None
    results: dict[str, SlipResult] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    """Racks drawn for this move and returned to the bag by the rack rule."""
    board: Board | None = None
    """The board the move was played on (before its top play): a slip booked to the move after it closed is judged
    on it."""
    withdrawn: set[str] = field(default_factory=set)
    """Players whose slip the referee struck out and who have no other slip for the move."""


class DuplicateGame:
    """The state of one duplicate game, changed only by :meth:`apply`."""

    def __init__(
        self,
        players: list[str],
        generator: MoveGenerator,
        notation: Notation | None = None,
        strict_scores: bool | None = None,
    ) -> None:
        if not players or len(set(players)) != len(players):
            raise DuplicateError(f"players must be named and distinct: {players!r}")
        self.players = list(players)
        self.generator = generator
        self.tiles = generator.tiles
        self.notation = notation or Notation.for_language(self.tiles.language)
        self.board = Board()
        self.bag: Counter[str] = self.tiles.bag()
        self.kept = ""
        self.rounds: list[Round] = []
        self.current: Round | None = None
        self.strict_scores: bool | None = strict_scores
        """True: a wrong score refuses the slip; False: the right score is credited; None: not decided yet."""
        self.over: str | None = None
        self.refused: list[str] = []
        """Racks drawn for the coming move and returned to the bag by the rack rule."""
        self.draws = 0
        """Draws applied so far, refused racks included: a seeded program's next draw is a function of this."""
        self._score_judged = False
        """A slip with a wrong score was judged: the rule is fixed from then on."""

    # ------------------------------------------------------------------------------------------------ state
    @property
    def move(self) -> int:
        """The number of the move being played (1-based)."""
        return len(self.rounds) + 1

    @property
    def waiting_for(self) -> str:
        """``"draw"`` (the rack is not complete), ``"slips"`` or ``"over"``."""
        if self.over:
            return "over"
        return "slips" if self.current else "draw"

    def remaining(self) -> Counter[str]:
        """The tiles still to play: the bag and the kept tiles."""
        return self.bag + Counter(self.kept)

    def to_draw(self) -> int:
        """How many tiles the next draw takes from the bag."""
        return min(RACK_SIZE - len(self.kept), sum(self.bag.values()))

    def requirement(self) -> int:
        return requirement(self.move, self.remaining(), self.tiles)

    # ---------------------------------------------------------------------------------------------- events
    def apply(self, event: dict[str, Any]) -> None:
        """Apply one event; raises DuplicateError, or BadRack for drawn tiles no bag holds (the state is then
        unchanged)."""
        kind = event.get("type")
        if kind == "rules":
            if self._score_judged and bool(event["strict_scores"]) != self.strict_scores:
                raise DuplicateError("the wrong-score rule was applied to a slip already: it cannot change")
            self.strict_scores = bool(event["strict_scores"])
        elif kind == "draw":
            self._draw(str(event["tiles"]))
        elif kind == "slip":
            self._slip(event)
        elif kind == "withdraw":
            self._withdraw(str(event["player"]))
        elif kind == "close":
            self._close(event.get("no_play"))
        else:
            raise DuplicateError(f"unknown event {event!r}")

    def _draw(self, tiles: str) -> None:
        if self.waiting_for != "draw":
            raise DuplicateError(f"no draw now: waiting for {self.waiting_for}")
        tiles = self.tiles.check_rack(tiles.strip(), RACK_SIZE)  # a letter the set lacks: BadRack
        drawn = Counter(tiles)
        if drawn - self.bag:
            missing = "".join((drawn - self.bag).elements())
            raise DrawError(f"{tiles!r}: the bag has no {missing}", "bag", tiles, missing=missing)
        if len(tiles) != self.to_draw():
            raise DrawError(
                f"{tiles!r}: {self.to_draw()} tiles are to be drawn, not {len(tiles)}", "count", tiles, need=self.to_draw()
            )
        need = self.requirement()
        self.draws += 1
        self.bag -= drawn
        rack = self.kept + tiles
        if not Mix.of(rack, self.tiles).meets(need):
            self.bag += Counter(rack)  # every tile of the rack goes back; a whole new rack is drawn
            self.kept = ""
            self.refused.append(rack)
            return
        top = self.generator.best(self.board, rack, 1)
        self.current = Round(self.move, rack, top[0] if top else None, refused=self.refused, board=self.board.copy())
        self.refused = []
        self.kept = rack

    def round_of(self, move: int | None) -> Round:
        """The move a slip is for: the open one (``move`` None or its number), or a closed one by its number (a slip
        the referee books after ``konec``). Raises DuplicateError for a move not played yet or no open move."""
        if move is None or (self.current is not None and move == self.current.number):
            if self.current is None:
                raise DuplicateError(f"no slips now: waiting for {self.waiting_for}")
            return self.current
        if not 1 <= move <= len(self.rounds):
            raise DuplicateError(f"no move {move} to book a slip to: moves 1-{len(self.rounds)} are closed")
        return self.rounds[move - 1]

    def check(self, slip: Slip, move: int | None = None) -> SlipCheck:
        """The engine's check of a slip for the current move, or for the closed move ``move`` on the board it was
        played on (changes nothing)."""
        target = self.round_of(move)
        lexicon = self.generator.graph
        return check_slip(
            slip,
            self.board if target is self.current else target.board or Board(),
            target.rack,
            self.tiles,
            lexicon.__contains__,
            self.notation,
            bool(self.strict_scores),
            self.generator.rules,
        )

    def _slip(self, event: dict[str, Any]) -> None:
        slip = Slip(str(event["player"]), str(event["position"]), str(event["word"]), int(event["claimed"]))
        if slip.player not in self.players:
            raise DuplicateError(f"no player {slip.player!r} (players: {', '.join(self.players)})")
        move = event.get("move")
        target = self.round_of(None if move is None else int(move))
        check = self.check(slip, target.number)
        if check.verdict is Verdict.UNKNOWN_WORD:
            accept = event.get("accept_unknown")
            if accept is None:
                raise DuplicateError(
                    f"{', '.join(check.unknown)} not in the lexicon: the referee must decide"
                )
            if accept and self.strict_scores and slip.claimed != check.score:
                detail = f"claimed {slip.claimed}, the play scores {check.score}"
                check = replace(check, verdict=Verdict.WRONG_SCORE, detail=detail)
            elif accept:
                check = replace(check, verdict=Verdict.CREDITED, detail="")
        wrong_score = check.verdict in (Verdict.CREDITED, Verdict.WRONG_SCORE) and slip.claimed != check.score
        if wrong_score and self.strict_scores is None:
            raise ScoreRuleUndecided(
                f"{slip.player} claims {slip.claimed}, the play scores {check.score}: the referee must decide "
                "whether a wrong score refuses the slip (seed 001, item 8)"
            )
        credited = check.score if check.verdict is Verdict.CREDITED else 0
        target.results[slip.player] = SlipResult(slip, check.verdict, credited, check.detail, check)
        target.withdrawn.discard(slip.player)
        self._score_judged = self._score_judged or wrong_score

    def _withdraw(self, player: str) -> None:
        if self.current is None:
            raise DuplicateError(f"no slips now: waiting for {self.waiting_for}")
        if player not in self.current.results:
            raise DuplicateError(f"{player!r} has no slip in move {self.current.number}")
        del self.current.results[player]
        self.current.withdrawn.add(player)

    def _close(self, no_play: str | None = None) -> None:
        current = self.current
        if current is None:
            raise DuplicateError(f"no move to close: waiting for {self.waiting_for}")
        if no_play not in (None, NO_PLAY_END, NO_PLAY_REDRAW):
            raise DuplicateError(f"no_play must be {NO_PLAY_END!r} or {NO_PLAY_REDRAW!r}, not {no_play!r}")
        if current.top is None and no_play == NO_PLAY_REDRAW:  # the whole rack back to the bag, drawn anew
            self.bag += Counter(current.rack)
            self.kept = ""
            self.refused = [*current.refused, current.rack]
            self.current = None
            return
        for player in self.players:
            if player not in current.results:
                verdict = Verdict.WITHDRAWN if player in current.withdrawn else Verdict.NO_SLIP
                current.results[player] = SlipResult(Slip(player, "", "", 0), verdict, 0)
        self.rounds.append(current)
        self.current = None
        if current.top is None:
            self.over = END_NO_PLAY
            return
        apply(self.board, current.top.play)
        self.kept = current.top.leave(current.rack)
        if not self.remaining():
            self.over = END_ALL_TILES
        elif exhausted(self.remaining(), self.tiles):
            self.over = END_EXHAUSTED

    # ----------------------------------------------------------------------------------------------- draws
    def random_draw(self, rng: random.Random) -> dict[str, Any]:
        """A draw event with tiles taken at random from the bag (the program draws for the referee)."""
        pool = list(self.bag.elements())
        rng.shuffle(pool)
        return {"type": "draw", "tiles": "".join(pool[: self.to_draw()])}

    # --------------------------------------------------------------------------------------------- results
    def totals(self) -> dict[str, int]:
        return {p: sum(r.results[p].score for r in self.rounds if p in r.results) for p in self.players}

    def top_total(self) -> int:
        return sum(r.top.score for r in self.rounds if r.top is not None)
