"""Qualification tasks (seed 001, items 12-13): one player, N known racks, the sum of the scores counts.

Each move has its own freshly drawn rack; the board carries over, so the best sequence is not the best play of
each move in turn. :func:`best_sequence` searches it with a beam: at each move every kept sequence is extended by
its ``per_move`` best plays (or a pass when it has none), and the ``width`` sequences with the highest totals are
kept (identical boards are merged). :func:`exact` tries every play of every move but the last (whose best play the
generator finds exactly) and so proves the optimum, when it finishes within its budget: :func:`solve` gives the
answer key, proven or the beam's and marked not proven. :func:`score_sequence` checks a player's sequence move by
move.
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
DEFAULT_PROOF_LIMIT = 1_000
"""Positions the exact search may try (each followed by a call of the move generator: a few ms with the Czech
lexicon) before the answer key falls back on the beam, marked not proven."""


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
    found = exact(generator, racks, board)
    assert found is not None  # no limit: the search always completes
    return found


class _Budget(Exception):
    """The exact search ran out of its node budget."""


def exact(
    generator: MoveGenerator, racks: Iterable[str], board: Board | None = None, limit: int | None = None
) -> Sequence | None:
    """The optimum, proven: a depth-first search over every play of every move but the last, whose best play the
    move generator finds exactly (``best``); a board reached again at the same move with no higher total is not
    searched again. ``limit`` caps the positions searched (the plays tried before the last move, each followed by
    a call of the generator); None if the search needed more (the optimum is then not proven). Exponential in the number of moves: tasks of a few moves, or
    few plays per move."""
    racks = list(racks)
    best: list[_State] = []
    seen: dict[tuple[int, frozenset[tuple[int, str, bool]]], int] = {}
    nodes = 0

    def search(state: _State, i: int) -> None:
        if i == len(racks) - 1:
            top = generator.best(state.board, racks[i], 1)
            leaf = _child(state, top[0] if top else None)
            if not best or leaf.total > best[0].total:
                best[:] = [leaf]
            return
        nonlocal nodes
        plays: list[Move | None] = list(generator.plays(state.board, racks[i])) or [None]
        nodes += len(plays)
        if limit is not None and nodes > limit:
            raise _Budget
        for move in plays:
            child = _child(state, move)
            key = (i + 1, child.key)
            if seen.get(key, -1) >= child.total:
                continue
            seen[key] = child.total
            search(child, i + 1)

    start = _State(board.copy() if board else Board(), (), 0)
    if not racks:
        return Sequence((), 0)
    try:
        search(start, 0)
    except _Budget:
        return None
    return Sequence(best[0].moves, best[0].total)


@dataclass(frozen=True)
class Solution:
    """The answer key of a task: the best sequence found, whether it is proven optimal (the exact search finished
    within its budget), and the beam it came from when it is not."""

    sequence: Sequence
    proven: bool
    width: int
    per_move: int


def solve(
    generator: MoveGenerator,
    racks: Iterable[str],
    width: int = DEFAULT_WIDTH,
    per_move: int = DEFAULT_PER_MOVE,
    limit: int = DEFAULT_PROOF_LIMIT,
    board: Board | None = None,
) -> Solution:
    """The answer key: the exact optimum (:func:`exact`) when its search fits in ``limit`` positions, else the
    beam's best sequence (:func:`best_sequence`), marked not proven."""
    racks = list(racks)
    found = exact(generator, racks, board, limit) if limit > 0 else None
    if found is not None:
        return Solution(found, True, width, per_move)
    return Solution(best_sequence(generator, racks, width, per_move, board), False, width, per_move)


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
