"""Qualification tasks (seed 001, items 12-13): one player, N known racks, the sum of the scores counts.

Each move has its own freshly drawn rack; the board carries over, so the best sequence is not the best play of
each move in turn. :func:`best_sequence` searches it with a beam: at each move every kept sequence is extended by
its ``per_move`` best plays (or a pass when it has none), and the ``width`` sequences with the highest totals are
kept (identical boards are merged). :func:`exhaustive` tries every play of every move (small cases only: tests and
bench/qualify.py measure how close the beam comes). :func:`score_sequence` checks a player's sequence move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.board import Board, Notation
from engine.duplicate.slips import Slip, SlipCheck, Verdict, check_slip
from engine.movegen import Move, MoveGenerator
from engine.placement import apply

DEFAULT_WIDTH = 30
DEFAULT_PER_MOVE = 30


@dataclass(frozen=True)
class Sequence:
    """Plays for the moves in order (None: a pass) and their total."""

    moves: tuple[Move | None, ...]
    total: int

    @property
    def scores(self) -> list[int]:
        return [m.score if m else 0 for m in self.moves]


@dataclass
class _State:
    board: Board
    moves: tuple[Move | None, ...]
    total: int
    key: frozenset[tuple[int, str, bool]] = field(default_factory=frozenset)


def _child(state: _State, move: Move | None) -> _State:
    if move is None:
        return _State(state.board, (*state.moves, None), state.total, state.key)
    board = state.board.copy()
    apply(board, move.play)
    key = state.key | {(p.square.index, p.tile.letter, p.tile.blank) for p in move.placements}
    return _State(board, (*state.moves, move), state.total + move.score, key)


def best_sequence(
    generator: MoveGenerator,
    racks: Iterable[str],
    width: int = DEFAULT_WIDTH,
    per_move: int = DEFAULT_PER_MOVE,
    board: Board | None = None,
) -> Sequence:
    """The best sequence the beam finds (width ``width``, ``per_move`` plays tried per sequence and move)."""
    beam = [_State(board.copy() if board else Board(), (), 0)]
    for rack in racks:
        children: dict[frozenset[tuple[int, str, bool]], _State] = {}
        for state in beam:
            plays: list[Move | None] = list(generator.best(state.board, rack, per_move)) or [None]
            for move in plays:
                child = _child(state, move)
                known = children.get(child.key)
                if known is None or child.total > known.total:
                    children[child.key] = child
        beam = sorted(children.values(), key=lambda s: -s.total)[:width]
    best = beam[0]
    return Sequence(best.moves, best.total)


def exhaustive(generator: MoveGenerator, racks: Iterable[str], board: Board | None = None) -> Sequence:
    """The best sequence over every play of every move (exponential: small cases only)."""
    racks = list(racks)
    best: list[_State] = []

    def search(state: _State, i: int) -> None:
        if i == len(racks):
            if not best or state.total > best[0].total:
                best[:] = [state]
            return
        plays: list[Move | None] = list(generator.plays(state.board, racks[i])) or [None]
        for move in plays:
            search(_child(state, move), i + 1)

    search(_State(board.copy() if board else Board(), (), 0), 0)
    return Sequence(best[0].moves, best[0].total)


@dataclass(frozen=True)
class MoveCheck:
    """One move of a player's sequence: the check of its play (None for a pass) and the points it scores."""

    number: int
    check: SlipCheck | None
    score: int


def score_sequence(
    generator: MoveGenerator,
    racks: Iterable[str],
    answers: Iterable[tuple[str, str] | None],
    notation: Notation,
    accept: Callable[[str], bool] = lambda word: False,
    board: Board | None = None,
) -> list[MoveCheck]:
    """Check a player's sequence: ``answers`` has a ``(position, word)`` per move (None: a pass). A move that is
    not legal (wrong position, tiles not on that move's rack, an unknown word the referee does not ``accept``)
    scores 0 and is not put on the board; the next moves are judged on the board without it."""
    board = board.copy() if board else Board()
    out: list[MoveCheck] = []
    for number, (rack, answer) in enumerate(zip(racks, answers, strict=True), 1):
        if answer is None:
            out.append(MoveCheck(number, None, 0))
            continue
        position, word = answer
        check = check_slip(
            Slip("", position, word, 0),
            board,
            rack,
            generator.tiles,
            lambda w: w in generator.graph or accept(w),
            notation,
            strict_scores=False,
            rules=generator.rules,
        )
        if check.verdict is Verdict.CREDITED and check.play is not None:
            apply(board, check.play)
            out.append(MoveCheck(number, check, check.score))
        else:
            out.append(MoveCheck(number, check, 0))
    return out
