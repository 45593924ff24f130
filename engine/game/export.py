"""A game as a GCG record (``engine.gcg``), so tournament software and the engine's own GCG replay can read it.

Mapping: a play is its main word written in full (lowercase = blank) at its position; a withdrawn play is the
play followed by ``--`` (its score taken back); a pass, time-out or penalty turn is ``-`` (the latter two with a
``#note``); an exchange is ``-N`` (the table does not know which tiles); a challenge bonus is ``(challenge)``;
a challenge penalty in points, a referee's correction, or the difference between the announced score that was
recorded and the play's true score, is written as ``(time)`` with a note saying what it is (GCG has no other line
for a signed amount). At the end the player who went out gets ``(RACKS) +N`` and the
others ``RACK (RACK) -N``; after a scoreless or playout end every rack gets its own line. Racks during the game
are unknown and left empty. A resignation or forfeit has no GCG form: the record ends with a ``#note``.
"""

from __future__ import annotations

import re

from engine.game.machine import Game
from engine.game.records import AdjustmentKind, EndReason, Move, MoveKind
from engine.game.teams import TEAMS, members
from engine.gcg import (
    ENCODING_PRAGMA,
    GcgChallengeBonus,
    GcgEndRack,
    GcgEvent,
    GcgExchange,
    GcgGame,
    GcgPass,
    GcgPhonyWithdrawn,
    GcgPlay,
    GcgPlayer,
    GcgRackPenalty,
    GcgTimePenalty,
    write_gcg,
)


def nicks(players: tuple[str, ...]) -> tuple[str, ...]:
    """GCG nicks for the player names: no spaces or colons, distinct (``p1``.. as a fallback)."""
    out = [re.sub(r"[\s:#>]+", "_", name).strip("_") or f"p{i + 1}" for i, name in enumerate(players)]
    if len(set(out)) != len(out):
        out = [f"p{i + 1}_{nick}" for i, nick in enumerate(out)]
    return tuple(out)


def to_gcg(game: Game) -> GcgGame:
    """The game as a ``GcgGame`` (see the module docstring for the mapping)."""
    names = nicks(game.players)
    totals = [0] * game.player_count
    events: list[GcgEvent] = []
    adjustments = sorted(game.adjustments, key=lambda a: a.after)
    pending = list(adjustments)

    def add_adjustments(upto: int) -> None:
        while pending and pending[0].after <= upto:
            a = pending.pop(0)
            totals[a.player] += a.points
            nick = names[a.player]
            if a.kind is AdjustmentKind.CHALLENGE_BONUS:
                events.append(GcgChallengeBonus(nick, "", a.points, totals[a.player]))
            else:
                note = a.note or a.kind.value.replace("_", " ")
                events.append(GcgTimePenalty(nick, "", a.points, totals[a.player], notes=(note,)))

    for move in game.history:
        add_adjustments(move.number)
        events.extend(_move_events(move, names[move.player], totals))
    add_adjustments(len(game.history) + 1)
    result = game.result
    if result is not None and game.ended in (EndReason.PLAYED_OUT, EndReason.SCORELESS, EndReason.PLAYOUT):
        for p in range(game.player_count):
            if result.plus[p] or result.went_out == p:  # going out is written even against a rack worth 0
                totals[p] += result.plus[p]
                left = "".join(r for q, r in enumerate(result.racks) if q != p)
                events.append(GcgEndRack(names[p], "", left, result.plus[p], totals[p]))
        for p in range(game.player_count):
            if result.minus[p]:
                totals[p] -= result.minus[p]
                rack = result.racks[p]
                events.append(GcgRackPenalty(names[p], rack, rack, -result.minus[p], totals[p]))
    elif game.ended is not None and result is not None:
        last = events[-1] if events else None
        by = f" ({', '.join(game.players[p] for p in game.ended_by)})" if game.ended_by else ""
        note = f"game ended by {game.ended.value}{by}: " + " : ".join(map(str, result.final))
        if result.outcome != "win":  # a 0:0 by kontumace: void (no draw points) or, as the referee said, a draw
            note += f" ({result.outcome})"
        if last is not None:
            events[-1] = _with_note(last, note)
    pragmas = [
        (ENCODING_PRAGMA, "UTF-8"),
        ("tile-set", game.tiles.name.lower()),
        ("ruleset", game.ruleset.name),
    ]
    if game.doubles:  # not a standard GCG pragma: readers skip it; the teams as nicks
        pragmas += [(f"team{t + 1}", " ".join(names[p] for p in members(t))) for t in range(TEAMS)]
    players = tuple(GcgPlayer(nick, name) for nick, name in zip(names, game.players, strict=True))
    return GcgGame(players, tuple(pragmas), tuple(events), source="<game>")


def _with_note(event: GcgEvent, note: str) -> GcgEvent:
    from dataclasses import replace

    return replace(event, notes=(*event.notes, note))


def _move_events(move: Move, nick: str, totals: list[int]) -> list[GcgEvent]:
    p = move.player
    if move.kind is MoveKind.PLAY or (move.kind is MoveKind.WITHDRAWN and move.placements):
        assert move.position is not None
        score = move.engine_score
        totals[p] += score
        out: list[GcgEvent] = [GcgPlay(nick, "", move.position, move.words[0], score, totals[p])]
        if move.kind is MoveKind.PLAY and move.score != score:  # the announced score stood (004)
            totals[p] += move.score - score
            note = f"announced score {move.score} recorded"
            out.append(GcgTimePenalty(nick, "", move.score - score, totals[p], notes=(note,)))
        if move.kind is MoveKind.WITHDRAWN:
            totals[p] -= score
            out.append(
                GcgPhonyWithdrawn(nick, "", -score, totals[p], notes=(move.note,) if move.note else ())
            )
        return out
    if move.kind is MoveKind.EXCHANGE:
        return [GcgExchange(nick, "", move.exchanged, 0, totals[p], notes=(move.note,) if move.note else ())]
    notes = {MoveKind.TIMEOUT: ("time-out: turn lost",), MoveKind.PENALTY: ("penalty turn for a cross",),
             MoveKind.WITHDRAWN: (f"exchange of {move.exchanged} withdrawn: {move.note}",)}  # fmt: skip
    if move.kind is MoveKind.BLANK_SWAP and move.placements:
        pl = move.placements[0]
        notes[MoveKind.BLANK_SWAP] = (f"blank at {pl.square.classic()} swapped for {pl.tile.letter}",)
    return [GcgPass(nick, "", 0, totals[p], notes=notes.get(move.kind, ()))]


def game_gcg(game: Game) -> str:
    """The game as GCG text (``engine.gcg.write_gcg`` of ``to_gcg``)."""
    return write_gcg(to_gcg(game))
