"""Results of finished games, the standings after each round, and the organiser's exports: all games of a round
as GCG records and score sheets (a zip), and a results CSV that pairing software can read."""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass

from device.hub.store import GameRecord, HubStore
from engine.game.export import game_gcg
from engine.gcg import encode_gcg
from engine.scoresheet import render_html, render_text

CSV_COLUMNS = ("round", "table", "player1", "player2", "score1", "score2", "end")


@dataclass(frozen=True)
class GameResult:
    """One finished game: round, table, players in playing order, final scores, how it ended."""

    round: int
    table: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    end: str


@dataclass
class Standing:
    """A player's line in the standings: games, points (win 1, draw ½), spread, points scored."""

    player: str
    games: int = 0
    wins: float = 0.0
    spread: int = 0
    scored: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "games": self.games, "wins": self.wins, "spread": self.spread,
                "scored": self.scored}  # fmt: skip


def result_of(record: GameRecord) -> GameResult | None:
    """The result of a finished game, None while it is running."""
    result = record.game.result
    if result is None or record.game.ended is None:
        return None
    return GameResult(record.round, record.table, record.game.players, result.final, record.game.ended.value)


def results(store: HubStore, round_number: int | None = None) -> list[GameResult]:
    """Finished games of one round (or of every round), by round and table."""
    numbers = [round_number] if round_number is not None else store.rounds()
    out: list[GameResult] = []
    for n in numbers:
        out.extend(r for g in store.games_of_round(n) if (r := result_of(g)) is not None)
    return out


def standings(games: list[GameResult], upto_round: int | None = None) -> list[Standing]:
    """Standings from the results of rounds up to ``upto_round``: by wins, then spread, then points scored."""
    table: dict[str, Standing] = {}
    for g in games:
        if upto_round is not None and g.round > upto_round:
            continue
        best = max(g.scores)
        winners = [i for i, s in enumerate(g.scores) if s == best]
        for i, name in enumerate(g.players):
            line = table.setdefault(name, Standing(name))
            others = [s for j, s in enumerate(g.scores) if j != i]
            line.games += 1
            line.scored += g.scores[i]
            line.spread += g.scores[i] - (max(others) if others else 0)
            if i in winners:
                line.wins += 1.0 / len(winners)
    return sorted(table.values(), key=lambda s: (-s.wins, -s.spread, -s.scored, s.player))


def results_csv(games: list[GameResult]) -> str:
    """The results as CSV (UTF-8, header row, one game a row; players beyond two are left out)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for g in games:
        players = (list(g.players) + ["", ""])[:2]
        scores = (list(g.scores) + ["", ""])[:2]
        writer.writerow([g.round, g.table, *players, *scores, g.end])
    return out.getvalue()


def round_archive(store: HubStore, round_number: int, lang: str = "cs") -> bytes:
    """A zip of every game of a round: ``table-<id>.gcg``, the score sheet ``table-<id>.html`` and ``.txt``,
    and ``results.csv``. Games still running are included as far as they went."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for record in store.games_of_round(round_number):
            if record.game.started_at is None:
                continue
            name = f"round{round_number}-table-{record.table}"
            z.writestr(f"{name}.gcg", encode_gcg(game_gcg(record.game)))
            z.writestr(f"{name}.html", render_html(record.game, lang))
            z.writestr(f"{name}.txt", render_text(record.game, lang))
        z.writestr("results.csv", results_csv(results(store, round_number)))
    return buf.getvalue()
