"""The standings after each round (ČAS) and the organiser's exports: all games of a round as GCG records and
score sheets (a zip), and a results CSV with player ids and names that pairing software can read.

With the tournament desk (``hub.director``) its deník is the one record of results: ``denik_results_csv`` is every
export's and the round zip's ``results.csv``, ``denik_jsonl`` the deník itself for the ladder keeper (with the
ladder CSV and TSH's ``.t`` from ``tournament``). ``standings`` and ``results_csv`` of the tables' games serve a
hub run without the desk only.

Standings follow the ČAS regulations (``004`` seed): a win 1 point, a draw ½, a loss 0; the spread ("skóre") is
the sum of own score minus the best other score. A game neither player came to is 0:0 and "neither player gets
points or score": it counts as a game of both, with no draw point and no spread. A single no-show is 100:0.
Ties in points are ordered by spread, then points scored (the regulations leave the tie-break to the
tournament's rules; this is the common one).
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from dataclasses import dataclass

from engine.csv_cells import csv_cell
from engine.game.export import game_gcg
from engine.gcg import encode_gcg
from engine.scoresheet import render_html, render_text
from hub.store import GameRecord, GameResult, HubStore
from tournament.state import Tournament

CSV_COLUMNS = ("round", "table", "player1_id", "player1", "player2_id", "player2", "score1", "score2", "end")
DENIK_COLUMNS = ("round", "table", "player1_id", "player1", "player2_id", "player2", "score1", "score2", "kind",
                 "source")  # fmt: skip
"""The deník's results CSV: player 1 started; ``kind`` played, forfeit, void, exclusion or bye (no table, no
player 2), ``source`` table or manual (the director's)."""


@dataclass
class Standing:
    """A player's line in the standings: games, points (win 1, draw ½), spread, points scored."""

    player_id: str
    player: str
    games: int = 0
    wins: float = 0.0
    spread: int = 0
    scored: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"id": self.player_id, "player": self.player, "games": self.games, "wins": self.wins,
                "spread": self.spread, "scored": self.scored}  # fmt: skip


def standings(games: list[GameResult], upto_round: int | None = None) -> list[Standing]:
    """Standings from the results of rounds up to ``upto_round``: by points, then spread, then points scored."""
    table: dict[str, Standing] = {}
    for g in games:
        if upto_round is not None and g.round > upto_round:
            continue
        best = max(g.scores)
        winners = [i for i, s in enumerate(g.scores) if s == best]
        for i, name in enumerate(g.players):
            pid = g.player_ids[i] if i < len(g.player_ids) and g.player_ids[i] else name
            line = table.setdefault(pid, Standing(pid, name))
            line.games += 1
            if g.forfeit_all:
                continue  # 0:0, neither player gets points or score
            others = [s for j, s in enumerate(g.scores) if j != i]
            line.scored += g.scores[i]
            line.spread += g.scores[i] - (max(others) if others else 0)
            if i in winners:
                line.wins += 1.0 / len(winners)
    return sorted(table.values(), key=lambda s: (-s.wins, -s.spread, -s.scored, s.player))


def results_csv(games: list[GameResult]) -> str:
    """The results as CSV (UTF-8, header row, one game a row; players beyond two are left out). A text cell
    that a spreadsheet would take for a formula is prefixed with ``'`` (``csv_cell``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for g in games:
        ids = (list(g.player_ids) + ["", ""])[:2]
        players = (list(g.players) + ["", ""])[:2]
        scores = (list(g.scores) + ["", ""])[:2]
        row = [g.round, g.table, ids[0], players[0], ids[1], players[1], *scores, g.end]
        writer.writerow([csv_cell(cell) for cell in row])
    return out.getvalue()


def denik_results_csv(tournament: Tournament, round_number: int | None = None) -> str:
    """The results the deník records (of one round, or all; after corrections), one a row (``DENIK_COLUMNS``;
    a formula-looking cell prefixed with ``'``, ``csv_cell``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(DENIK_COLUMNS)

    def name(pid: str | None) -> str:
        player = tournament.players.get(pid) if pid is not None else None
        return player.label if player is not None else pid or ""

    for r in tournament.all_results():
        if round_number is not None and r.round != round_number:
            continue
        row = [r.round, "" if r.table is None else r.table, r.first, name(r.first), r.second or "", name(r.second),
               r.first_score, "" if r.second is None else r.second_score, r.kind, r.source]  # fmt: skip
        writer.writerow([csv_cell(cell) for cell in row])
    return out.getvalue()


def denik_jsonl(entries: list[dict[str, object]]) -> str:
    """The deník as JSON lines, each entry's event as ``tournament.events.encode_event`` wrote it (its type, time and
    author inside), one a line: the file ``partiar tournament standings|ladder|export-tsh FILE.jsonl`` reads."""
    return "".join(json.dumps(entry["event"], ensure_ascii=False, sort_keys=True) + "\n" for entry in entries)


def round_archive(store: HubStore, round_number: int, lang: str = "cs", results_text: str | None = None) -> bytes:
    """A zip of every game of a round: ``table-<id>.gcg``, the score sheet ``table-<id>.html`` and ``.txt``,
    and ``results.csv`` (``results_text``: the deník's; else the tables' games). Games still running are included
    as far as they went."""
    buf = io.BytesIO()
    games = [g for g in store.games_of_round(round_number) if g.game.started_at is not None and not _abandoned(store, g)]
    several = len(games) > len({g.table for g in games})  # a table played two games in the round
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for record in games:
            name = f"round{round_number}-table-{record.table}" + (f"-{record.game_id}" if several else "")
            z.writestr(f"{name}.gcg", encode_gcg(game_gcg(record.game)))
            z.writestr(f"{name}.html", render_html(record.game, lang))
            z.writestr(f"{name}.txt", render_text(record.game, lang))
        z.writestr("results.csv", results_text if results_text is not None else results_csv(store.results(round_number)))
    return buf.getvalue()


def _abandoned(store: HubStore, record: GameRecord) -> bool:
    """A game left before its first move for another game at its table (a new game, or who starts changed at the
    table: ``device.table_start``): nothing to archive."""
    current = store.current_game(record.table)
    return not record.game.history and record.game.ended is None and current is not None and current is not record
