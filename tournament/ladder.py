"""The ladder (žebříček): each player's new strength after the event by the PKNSA method, and the CSV a ČAS ladder
keeper reads.

PKNSA is the US NSA rating method with ČAS changes: a game's expected and actual outcome weigh the result (win,
draw, loss) 75 % and the score difference 25 %, and the development coefficient is 50 under 10 rated games, 30 for
10-49 and 20 from 50 on. What the sources found do not give is an assumption here, each a ``LadderSettings`` field
(docs/tournament.md lists them):

- the expected result of a game is the NSA's normal curve: ``Φ((R - R_opp) / spread)`` with ``spread = 200·√2``
  (each rating taken as uncertain by 200);
- the score part of a game: ``0.5 + difference / (2·margin)`` clamped to 0..1 (``margin = 200``: winning by 200 or
  more is the full share); its expectation is the same curve as the result's;
- the coefficient at strength 2000 and above: 15 (the method names special coefficients there; the figure is not
  known);
- a change is ``K × Σ (actual − expected)`` over the event's games, all against pre-event ratings, rounded;
- only games actually played count (kinds "played" and "exclusion"): no forfeit, bye or void game;
- a newcomer (no rating) gets a performance rating: the average of their opponents' ratings plus
  ``400 × (2·share − 1)`` where ``share`` is their average actual outcome, never below ``floor``;
- a newcomer opponent counts at the tournament's ``newcomer_rating`` (their round 1 seeding), in a rated player's
  expectation and in another newcomer's performance rating, not at the rating this event gives them;
- an exclusion game (0:100, or 0:margin) is rated as played; a player withdrawn or excluded keeps the games played.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from tournament.folder import csv_text
from tournament.pairs import pair_of_member
from tournament.players import Player
from tournament.state import Tournament

LADDER_COLUMNS = ("id", "name", "rating_before", "games_before", "games", "wins", "draws", "losses", "own_score",
                  "opponents_score", "expected", "actual", "coefficient", "rating_after")
GAME_COLUMNS = ("round", "id", "opponent", "started", "own_score", "opponents_score", "result", "kind")


@dataclass(frozen=True)
class LadderSettings:
    """The PKNSA method's figures; those marked "assumed" are this project's (module docstring)."""

    result_weight: float = 0.75
    score_weight: float = 0.25
    k_new: int = 50  # under 10 games
    k_mid: int = 30  # 10-49 games
    k_old: int = 20  # 50 games and more
    k_top: int = 15  # assumed: strength 2000 and above
    top: int = 2000
    spread: float = 200 * math.sqrt(2)  # assumed
    margin: int = 200  # assumed
    floor: int = 500  # assumed: the lowest performance rating a newcomer gets

    def coefficient(self, rating: int, games: int) -> int:
        if games < 10:
            return self.k_new
        if rating >= self.top:
            return self.k_top
        return self.k_mid if games < 50 else self.k_old


@dataclass(frozen=True)
class LadderRow:
    """One player's ladder line after the event."""

    id: str
    name: str
    rating_before: int | None
    games_before: int
    games: int
    wins: int
    draws: int
    losses: int
    own_score: int
    opponents_score: int
    expected: float
    actual: float
    coefficient: int
    rating_after: int


def expected(rating: float, opponent: float, settings: LadderSettings = LadderSettings()) -> float:
    """The expected outcome (0..1) of a player rated ``rating`` against ``opponent``."""
    return 0.5 * (1.0 + math.erf((rating - opponent) / (settings.spread * math.sqrt(2))))


def actual(own: int, other: int, settings: LadderSettings = LadderSettings()) -> float:
    """A game's actual outcome (0..1): 75 % the result, 25 % the score difference."""
    result = 1.0 if own > other else 0.5 if own == other else 0.0
    share = min(1.0, max(0.0, 0.5 + (own - other) / (2 * settings.margin)))
    return settings.result_weight * result + settings.score_weight * share


def ladder(tournament: Tournament, games_before: Mapping[str, int] | None = None,
           settings: LadderSettings = LadderSettings()) -> list[LadderRow]:
    """Every player's ladder line, in registration order. ``games_before``: each player's rated games before the
    event (default: 50 for a rated player, as an established one, 0 for a newcomer).

    In a pairs tournament (``tournament.settings.doubles``) the lines are the pairs' players': each member is rated on each
    game their pair played, as one game of their pair's strength against the opposing pair's (seed 003's ladder
    strength of a pair, the average of its players'), the change applied to the member's own rating."""
    prior = games_before or {}
    if tournament.settings.doubles:
        return [_row(player, _pair_games(tournament, pair_of_member(tournament, pid)), prior, tournament, settings)
                for pid, player in tournament.people.items()]  # fmt: skip
    return [_row(player, _games(tournament, pid), prior, tournament, settings)
            for pid, player in tournament.players.items()]  # fmt: skip


def _games(tournament: Tournament, pid: str) -> list[tuple[int, int, int, int]]:
    """``pid``'s rated games: (own score, opponent's score, own strength, opponent's strength)."""
    out = []
    for r in tournament.results_of(pid):
        opp = r.opponent_of(pid)
        if r.met and opp is not None:
            out.append((*r.score_of(pid), tournament.strength(pid), tournament.strength(opp)))
    return out


def _pair_games(tournament: Tournament, pair_id: str | None) -> list[tuple[int, int, int, int]]:
    """A pair's rated games as each of its players is rated on them (its strength against the opposing pair's);
    none for a player in no pair."""
    return [] if pair_id is None else _games(tournament, pair_id)


def _row(player: Player, games: list[tuple[int, int, int, int]], prior: Mapping[str, int], tournament: Tournament,
         settings: LadderSettings) -> LadderRow:
    """``player``'s ladder line from their rated ``games`` (``_games``' tuples)."""
    newcomer = tournament.settings.newcomer_rating
    before = prior.get(player.id, 0 if player.rating is None else 50)
    exp = act = 0.0
    own_total = opp_total = wins = draws = losses = 0
    for own, other, side, opp in games:
        exp += expected(side, opp, settings)
        act += actual(own, other, settings)
        own_total += own
        opp_total += other
        wins += own > other
        draws += own == other
        losses += own < other
    k = settings.coefficient(player.strength(newcomer), before)
    if player.rating is None:
        if games:
            share = act / len(games)
            after = max(settings.floor, round(sum(g[3] for g in games) / len(games) + 400 * (2 * share - 1)))
        else:
            after = newcomer
    else:
        after = round(player.rating + k * (act - exp))
    return LadderRow(player.id, player.name, player.rating, before, len(games), wins, draws, losses, own_total,
                     opp_total, round(exp, 3), round(act, 3), k, after)


def ladder_csv(rows: list[LadderRow]) -> str:
    """The ladder lines as CSV (``LADDER_COLUMNS``)."""
    return csv_text(LADDER_COLUMNS, ([getattr(r, c) for c in LADDER_COLUMNS] for r in rows))


def games_csv(tournament: Tournament) -> str:
    """Every rated game from each player's side (``GAME_COLUMNS``): what a ladder keeper recomputes from."""
    def lines() -> Iterator[tuple[object, ...]]:
        for r in tournament.all_results():
            if r.second is None:
                continue
            for pid in r.players():
                own, other = r.score_of(pid)
                res = "1" if own > other else "0.5" if own == other and r.kind == "played" else "0"
                yield r.round, pid, r.opponent_of(pid), int(r.first == pid), own, other, res, r.kind

    return csv_text(GAME_COLUMNS, lines())
