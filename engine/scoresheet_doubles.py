"""The score sheet of a doubles game (seed 003): what differs from the two-player sheet (``engine.scoresheet``).

- Both variants: "Zapisuje jeden z hráčů dvojice": one sheet for the team, so every running total is the team's;
  the summary (points played, minus, plus, total, crosses, best move) is per team; the result names the teams.
- Prague doubles: one column per player in the clockwise order (each with the team's running total).
- Polish doubles: one column per team, two rows per double move ("pořadí tahů 1-2-2-2-…": the starting team's
  single opening move fills only the first row); the player's name before each word; "Sloupec Suma ... až po
  ukončení dvojtahu": the running total only on the double move's last row; a struck row ("druhý řádek se
  proškrtne") shows a dash struck through.
"""

from __future__ import annotations

from dataclasses import replace

from engine.board import Notation
from engine.game import polish
from engine.game.machine import Game
from engine.game.records import EndReason, Move, MoveKind
from engine.game.teams import TEAMS, members, team_of
from engine.scoresheet_rows import Cell, Row, Sheet, cell_of, format_word


def doubles_sheet(game: Game, base: Sheet, t: dict[str, str]) -> Sheet:
    """The doubles sheet from the two-player layout ``base`` of the same game (labels ``t``)."""
    names = game.side_names
    best: dict[int, Move] = {}
    for move in game.history:
        side = team_of(move.player)
        if move.kind is MoveKind.PLAY and (side not in best or move.score > best[side].score):
            best[side] = move
    if game.ruleset.doubles == "polish":
        rows = _polish_rows(game, best, t, Notation.for_language(base.lang))
        columns, crosses = names, tuple(game.crosses)
    else:
        rows = tuple(
            Row(r.number, r.abc, r.expired, tuple(_team_best(c, game, best, i, r.number) for i, c in
                                                  enumerate(r.cells)))  # fmt: skip
            for r in base.rows
        )
        columns = tuple(f"{p} ({team_of(i) + 1})" for i, p in enumerate(game.players))
        crosses = tuple(game.crosses[team_of(i)] if i < TEAMS else 0 for i in range(len(game.players)))
    summary = _summary(game, best, t)
    status = _status(game, base.status, t)
    return replace(base, players=columns, rows=rows, crosses=crosses, summary=summary, status=status, sides=names)


def _team_best(cell: Cell | None, game: Game, best: dict[int, Move], column: int, round_no: int) -> Cell | None:
    """A Prague cell with the best-move mark of the team (not of the player)."""
    if cell is None:
        return None
    move = game.history[(round_no - 1) * len(game.players) + column]
    return replace(cell, best=best.get(team_of(move.player)) is move)


def _polish_rows(game: Game, best: dict[int, Move], t: dict[str, str], notation: Notation) -> tuple[Row, ...]:
    """Two rows per round and team column: the double move's first and second turn."""
    grid: dict[tuple[int, int, int], Cell] = {}
    last_round = 0
    for move in game.history:
        turn = move.number
        team = team_of(move.player)
        rnd = polish.round_of(turn)
        last_round = max(last_round, rnd)
        first = turn == 0 or turn == polish.final_turn(game.abc_start) or not polish.is_second(turn)
        single = turn == 0 or turn == polish.final_turn(game.abc_start)
        row = 0 if first else 1
        cell = cell_of(move, best.get(team) is move, t, notation)
        if move.kind is not MoveKind.STRUCK:
            cell = replace(cell, word=f"{game.players[move.player]}: {cell.word}".rstrip(": "))
        if not (single or row == 1):
            cell = replace(cell, total="")  # Suma only after the double move
        if move.phase.value in ("A", "B", "C"):
            cell = replace(cell, position=f"{cell.position} {move.phase.value}".strip())
        grid[(rnd, row, team)] = cell
    rows = []
    for rnd in range(1, last_round + 1):
        for sub in (0, 1):
            cells = tuple(grid.get((rnd, sub, team)) for team in range(TEAMS))
            if any(c is not None for c in cells):
                rows.append(Row(rnd, "", False, cells, sub=sub + 1))
    return tuple(rows)


def _summary(game: Game, best: dict[int, Move], t: dict[str, str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    def per_team(values: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sum(values[p] for p in members(team)) for team in range(TEAMS))

    words = per_team([sum(m.score for m in game.history if m.player == p) for p in range(len(game.players))])
    adjust = per_team([sum(a.points for a in game.adjustments if a.player == p) for p in range(len(game.players))])
    summary: list[tuple[str, tuple[str, ...]]] = [(t["played"], tuple(map(str, words)))]
    if any(adjust):
        summary.append((t["adjust"], tuple(f"{a:+d}" for a in adjust)))
    result, team_result = game.result, game.team_result
    if result is not None and team_result is not None:
        if result.reason in (EndReason.PLAYED_OUT, EndReason.SCORELESS, EndReason.PLAYOUT):
            summary.append((t["minus"], tuple(map(str, per_team(result.minus)))))
            summary.append((t["plus"], tuple(map(str, per_team(result.plus)))))
        summary.append((t["final"], tuple(map(str, team_result.final))))
        if any(result.racks):
            summary.append((t["left"], tuple(" / ".join(result.racks[p] or "—" for p in members(team))
                                             for team in range(TEAMS))))  # fmt: skip
        a, b = team_result.final
        summary.append((t["sum"], (f"{a + b}", f"{abs(a - b)}")))
    summary.append((t["crosses"], tuple("×" * c or "—" for c in game.crosses)))
    summary.append((t["best"], tuple(
        f"{format_word(best[team].words[0])} {best[team].score}" if team in best else "—" for team in range(TEAMS))))
    return tuple(summary)


def _status(game: Game, status: str, t: dict[str, str]) -> str:
    """The base status line with the result given per team."""
    team_result = game.team_result
    if team_result is None:
        return status
    head = status.split(f". {t['result']} ", 1)[0]
    winner = f" ({t['draw']})" if team_result.draw else f" ({t['winner']}: {team_result.names[team_result.winners[0]]})"
    return f"{head}. {t['result']} " + " : ".join(map(str, team_result.final)) + winner
