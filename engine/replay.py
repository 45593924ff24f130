"""Replaying a GCG record on the engine: the engine's score and running total for every event.

``replay`` is the one place where a record meets the board, placement validation and scoring; ``differences``
(``partiar gcg verify``), ``rescore`` (``partiar gcg rescore``) and ``bench/engine_speed.py`` all use it.

What the engine computes, per event:
- a play: validated and scored from its position and word alone (the recorded score is never read);
- a withdrawn phony (``--``): minus the engine's score of that player's play it takes back, tiles off the board;
- a pass or an exchange: 0;
- a challenge bonus or a time penalty: the recorded amount (the engine has no way to know it);
- a went-out line: the value of the tiles not on the board (the opponent's rack in a two-player game), once
  under the ``1x`` convention, twice under ``2x``; with more than two players the racks the line names;
- an own-rack line: minus the value of that rack (the tiles not on the board when somebody went out in a
  two-player game, else the rack the line names, as after six scoreless turns).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from engine.board import Board
from engine.errors import EngineError, UnknownLetter
from engine.gcg import (
    GcgChallengeBonus,
    GcgEndRack,
    GcgEvent,
    GcgExchange,
    GcgGame,
    GcgPass,
    GcgPhonyWithdrawn,
    GcgPlay,
    GcgRackPenalty,
    GcgTimePenalty,
)
from engine.placement import IllegalPlacement, Play, apply, validate_word
from engine.rules import GoingOut, RuleOptions
from engine.scoring import play_total
from engine.tiles import BLANK, TileSet
from engine.values import builder

TILE_SET_PRAGMAS = {"english": "english", "polish": "polish", "czech": "czech"}
"""Values of ``#tile-distribution`` / ``#tile-set`` that name one of our tile sets (first word, lowercase)."""


PROBLEMS: dict[str, str] = {
    "not_in_full": (
        "{word!r} at {position} forms {formed!r} at {formed_at} on the board (the word must be written in full)"
    ),
    "nothing_to_take_back": "'--' but {nick} has no play to take back",
    "illegal_placement": "{placement} (word {word!r})",
    "unknown_letter": "{letter_error}; choose the record's tile set",
    "too_many_tiles": "{count} x {letter} on the board, but the tile set {tile_set} has {limit} x {letter} (? = blank)",
    "not_on_rack": "{word!r} lays {missing}, which the recorded rack {rack} does not hold",
    "exchange_size": "an exchange of {count} tiles: a rack holds at most {limit}",
}
"""Why a record cannot be replayed, by code (``ReplayError.code``), in English; the ``partiar gcg`` command words
them in Czech too (``shared.texts``)."""


class ReplayError(EngineError, ValueError):
    """A record the engine cannot replay (an illegal placement, a ``--`` with no play to take back, a letter
    outside the tile set, more tiles of a letter than the set has, tiles laid or exchanged that the recorded rack does
    not hold, an exchange of more tiles than a rack holds); names the source and line, and the problem as ``code`` with its ``values`` (worded by
    ``PROBLEMS``). An illegal placement's values include ``reason`` (the ``placement.Reason`` name, lowercase)
    and ``squares``; an unknown letter's ``letter`` and ``tile_set``."""

    def __init__(self, source: str, line: int, code: str, **values: str) -> None:
        self.source = source
        self.line = line
        self.code = code
        self.values = values
        super().__init__(f"{source}:{line}: {PROBLEMS[code].format(**values)}")


@dataclass(frozen=True, slots=True)
class Step:
    """The engine's view of one event: the amount it adds to its player's total, that total afterwards, the
    validated play (plays only) and the rack an end-of-game line is about (end lines only)."""

    event: GcgEvent
    score: int
    total: int
    play: Play | None = None
    left: str | None = None


@dataclass(frozen=True, slots=True)
class Difference:
    """An event whose recorded score or running total is not the engine's (``what`` says which and why; the
    flags and ``engine_left`` say the same for a program to word: the end line's rack the engine sees, or None
    when the rack is not in question)."""

    event: GcgEvent
    recorded_score: int
    engine_score: int
    recorded_total: int
    engine_total: int
    what: str
    score_differs: bool = False
    total_differs: bool = False
    engine_left: str | None = None

    def describe(self, source: str) -> str:
        return (
            f"{source}:{self.event.line}: {self.what}: recorded {self.recorded_score:+d} (total {self.recorded_total}),"
            f" engine {self.engine_score:+d} (total {self.engine_total})"
        )


def infer_going_out(game: GcgGame, tiles: TileSet) -> GoingOut | None:
    """The going-out convention a record shows, or None if it does not show one.

    A went-out line together with another player's own-rack line means ``1x`` (the opponent loses their rack);
    a went-out line alone means ``2x`` if it adds twice the value of the rack it names, ``1x`` if once. None when
    no one went out (then the convention changes no score), or the amount fits neither, or a letter is unknown.
    """
    out = [e for e in game.events if isinstance(e, GcgEndRack)]
    if not out:
        return None
    nicks = {e.nick for e in out}
    if any(isinstance(e, GcgRackPenalty) and e.nick not in nicks for e in game.events):
        return "1x"
    try:
        value = sum(tiles.rack_value(e.left) for e in out)
    except UnknownLetter:
        return None
    recorded = sum(e.score for e in out)
    if value and recorded == 2 * value:
        return "2x"
    if value and recorded == value:
        return "1x"
    return None


def tile_set_name(game: GcgGame) -> str | None:
    """The tile set a record names in ``#tile-distribution`` or ``#tile-set``, if it is one we have."""
    for pragma in ("tile-distribution", "tile-set"):
        value = game.pragma(pragma)
        if value:
            name = value.split()[0].lower()
            if name in TILE_SET_PRAGMAS:
                return TILE_SET_PRAGMAS[name]
    return None


def _unseen(board: Board, tiles: TileSet) -> str:
    """The tiles of the set that are not on the board, in drawing order (blanks as ``?``, last): the rack a
    went-out line is about. The board's tiles are written once as a rack, then counted by ``str.count``."""
    counts = tiles.counts
    on_board = "".join([BLANK if tile.blank else tile.letter for tile in filter(None, board.cells)])
    left = [letter * (counts[letter] - on_board.count(letter)) for letter in tiles.letters]
    return "".join(left) + BLANK * (tiles.blanks - on_board.count(BLANK))




def replay(game: GcgGame, tiles: TileSet, rules: RuleOptions | None = None) -> Iterator[Step]:
    """Replay a record on an empty board, yielding the engine's Step for every event in order.

    Raises ReplayError for a record the engine cannot replay.
    """
    rules = rules or RuleOptions()
    board = Board()
    totals = dict.fromkeys((p.nick for p in game.players), 0)
    last_play: dict[str, tuple[Play, int]] = {}
    on_board: Counter[str] = Counter()
    somebody_out = any(isinstance(e, GcgEndRack) for e in game.events)
    several = len(game.players) > 2  # the tiles off the board are several players' racks
    factor = 2 if rules.going_out == "2x" else 1
    for event in game.events:
        play: Play | None = None
        left: str | None = None
        try:
            if isinstance(event, GcgPlay):
                play = validate_word(board, event.position, event.word)
                main = play.main
                start, at = main.squares[0], event.position.square
                if start.row != at.row or start.col != at.col or len(main.tiles) != len(event.word):
                    raise ReplayError(
                        game.source,
                        event.line,
                        "not_in_full",
                        word=event.word,
                        position=event.position.notation(),
                        formed=main.notation(),
                        formed_at=main.position.notation(),
                    )
                used = Counter(p.tile.rack_letter for p in play.placements)
                _check_rack(game.source, event, used)
                score = play_total(play, tiles, rules)
                apply(board, play)
                on_board += used
                _check_counts(game.source, event, play, on_board, tiles)
                last_play[event.nick] = (play, score)
            elif isinstance(event, GcgPhonyWithdrawn):
                taken = last_play.pop(event.nick, None)
                if taken is None:
                    raise ReplayError(game.source, event.line, "nothing_to_take_back", nick=event.nick)
                for p in taken[0].placements:
                    board.clear(p.square)
                    on_board[p.tile.rack_letter] -= 1
                score = -taken[1]
            elif isinstance(event, GcgExchange):
                if event.count > rules.rack_size:
                    raise ReplayError(
                        game.source, event.line, "exchange_size", count=str(event.count), limit=str(rules.rack_size)
                    )
                if isinstance(event.tiles, str):
                    _check_rack(game.source, event, Counter(event.tiles.upper()))
                score = 0
            elif isinstance(event, GcgPass):
                score = 0
            elif isinstance(event, GcgChallengeBonus | GcgTimePenalty):
                score = event.score
            elif isinstance(event, GcgEndRack):
                if several:  # the racks of some of the others (doubles: the opponents'), as the line names them
                    left = event.left
                else:
                    left = _unseen(board, tiles)
                score = factor * tiles.rack_value(left)
            else:  # GcgRackPenalty
                if somebody_out and not several:
                    left = _unseen(board, tiles)
                else:
                    left = event.left
                score = -tiles.rack_value(left)
        except IllegalPlacement as exc:
            raise ReplayError(
                game.source,
                event.line,
                "illegal_placement",
                placement=str(exc),
                reason=exc.reason.name.lower(),
                squares=", ".join(sq.classic() for sq in exc.squares),
                word=_word_of(event),
            ) from None
        except UnknownLetter as exc:
            raise ReplayError(
                game.source,
                event.line,
                "unknown_letter",
                letter_error=str(exc),
                letter=exc.letter,
                tile_set=exc.tile_set or tiles.name,
            ) from None
        if play is None and not isinstance(event, GcgPhonyWithdrawn):
            last_play.pop(event.nick, None)
        totals[event.nick] += score
        yield _step(event, score, totals[event.nick], play, left)


_step = builder(Step)


def _check_rack(source: str, event: GcgPlay | GcgExchange, used: Counter[str]) -> None:
    """Raise ReplayError when the tiles a play lays or an exchange returns are not all on the event's recorded rack
    (a record without racks is not checked)."""
    if not event.rack:
        return
    missing = used - Counter(event.rack.upper())
    if missing:
        word = event.word if isinstance(event, GcgPlay) else f"-{event.tiles}"
        raise ReplayError(
            source, event.line, "not_on_rack", word=word, missing="".join(sorted(missing.elements())), rack=event.rack
        )


def _check_counts(source: str, event: GcgPlay, play: Play, on_board: Counter[str], tiles: TileSet) -> None:
    """Raise ReplayError when the board (``on_board``: its tiles by rack letter, the play laid) holds more tiles of a
    letter the play laid than the set has."""
    for letter in sorted({p.tile.rack_letter for p in play.placements}):
        limit = tiles.blanks if letter == BLANK else tiles.counts.get(letter, 0)
        if on_board[letter] > limit:
            raise ReplayError(
                source,
                event.line,
                "too_many_tiles",
                count=str(on_board[letter]),
                letter=letter,
                limit=str(limit),
                tile_set=tiles.name,
            )


def _word_of(event: GcgEvent) -> str:
    return event.word if isinstance(event, GcgPlay) else ""


def _same_rack(a: str, b: str) -> bool:
    return Counter(a) == Counter(b)


def differences(game: GcgGame, tiles: TileSet, rules: RuleOptions | None = None) -> list[Difference]:
    """Every event whose recorded score or running total differs from the engine's.

    A withdrawn phony recorded as ``-- +0`` (old Quackle style) is judged by its running total only. An
    end-of-game line whose rack is not the tiles left off the board is a difference too.
    """
    out: list[Difference] = []
    for step in replay(game, tiles, rules):
        e = step.event
        problems = []
        quackle_zero = isinstance(e, GcgPhonyWithdrawn) and e.score == 0
        score_differs = e.score != step.score and not quackle_zero
        total_differs = e.total != step.total
        engine_left = None
        if score_differs:
            problems.append("score")
        if total_differs:
            problems.append("running total")
        if (
            isinstance(e, GcgEndRack | GcgRackPenalty)
            and step.left is not None
            and not _same_rack(e.left, step.left)
        ):
            engine_left = step.left
            problems.append(f"rack {e.left!r} (engine: {step.left!r})")
        if problems:
            out.append(
                Difference(
                    e, e.score, step.score, e.total, step.total, ", ".join(problems) + " differ",
                    score_differs, total_differs, engine_left,
                )  # fmt: skip
            )
    return out


def rescore(game: GcgGame, tiles: TileSet, rules: RuleOptions | None = None) -> GcgGame:
    """The record with every play's score, every withdrawn phony's deduction and every end-of-game rack line
    computed by the engine, and every running total recomputed; challenge bonuses and time penalties keep
    their recorded amounts. Recorded play scores are never read."""
    events: list[GcgEvent] = []
    for step in replay(game, tiles, rules):
        e = step.event
        if isinstance(e, GcgEndRack | GcgRackPenalty):
            assert step.left is not None
            left = e.left if _same_rack(e.left, step.left) else step.left  # keep the recorded letter order
            events.append(replace(e, left=left, score=step.score, total=step.total))
        else:
            events.append(replace(e, score=step.score, total=step.total))
    return replace(game, events=tuple(events))
