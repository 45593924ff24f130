"""Standings: points (a win 1, a draw ½), then TurČAS (or Buchholz, Brightwell, score difference as options).

    TurČAS = A / rounds * Buchholz + B * AbsScore + C * RelScore + D * Starts

- Buchholz: the sum over the player's rounds of their opponent's points (the game with this player included).
  An opponent's rounds without a game actually played (a bye, a forfeit either way, a void game, rounds before a
  late entry or after a withdrawal or exclusion) count as draws, so an opponent who left early neither drags the
  player down nor is ignored. A round in which the player had no real opponent (a bye, a forfeit, a void game, a
  round missed) counts a fictitious opponent: the player's own points before that round, plus the opposite of the
  player's result in it, plus a draw for every later round (FIDE's "virtual opponent"; the ČAS Buchholz page says
  special rules apply here, but they were not found).
- AbsScore (own_score): the player's own score summed over their results (a forfeit's 100, a bye's score; a void
  game counts nothing). RelScore (score_difference): AbsScore minus the opponents' scores in those results.
- Starts (starts_balance): games replied minus games started, among games actually played.

Withdrawn and excluded players stay in the table with what they played (the 2001 qualifier's wrong order came
from software that ignored them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tournament.settings import StandingsSettings
from tournament.state import Tournament

__all__ = ["StandingRow", "StandingsSettings", "buchholz", "complete_rounds", "standings", "BRIGHTWELL_WEIGHT"]

BRIGHTWELL_WEIGHT = 50
"""Brightwell here is ``RelScore + 50 * Buchholz``: the ČAS page says it "combines the advantages of the score and
of Buchholz" (used in 2000-2001) but the formula was not found; 50 score points per opponent point is the
project's choice (docs/tournament.md)."""


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings. ``rank`` is shared by players equal in points and tie-break."""

    rank: int
    id: str
    name: str
    points: float
    turcas: float
    buchholz: float
    own_score: int
    score_difference: int
    starts_balance: int
    brightwell: float
    games: int
    wins: float
    byes: int
    status: str  # "active", "withdrawn" or "excluded"


def _rounds_counted(tournament: Tournament, up_to: int | None) -> int:
    return tournament.last_round if up_to is None else min(up_to, tournament.last_round)


def complete_rounds(tournament: Tournament, up_to: int | None = None) -> int:
    """The rounds the tie-break counts (Buchholz and TurČAS's ``rounds``): rounds 1..``up_to`` less the last one
    while it is still being played (not closed, a table without a result). A game without a result yet is no
    missed round: counting it gave every player still at the board a fictitious opponent who had beaten them."""
    rounds = _rounds_counted(tournament, up_to)
    last = tournament.rounds.get(rounds)
    if last is not None and not last.closed and last.missing_tables():
        return rounds - 1
    return rounds


def buchholz(tournament: Tournament, pid: str, rounds: int) -> float:
    """``pid``'s Buchholz over rounds 1..``rounds`` with the rules for unplayed rounds (module docstring)."""
    bye_points = tournament.settings.bye_points

    def adjusted(opp: str) -> float:
        total = 0.0
        for k in range(1, rounds + 1):
            r = tournament.result_in(opp, k)
            total += r.points_of(opp, bye_points) if r is not None and r.met else 0.5
        return total

    total = 0.0
    before = 0.0
    for k in range(1, rounds + 1):
        r = tournament.result_in(pid, k)
        own = r.points_of(pid, bye_points) if r is not None else 0.0
        opp = r.opponent_of(pid) if r is not None and r.met else None
        if opp is not None:
            total += adjusted(opp)
        else:
            total += before + (1.0 - own) + 0.5 * (rounds - k)
        before += own
    return total


def standings(tournament: Tournament, settings: StandingsSettings | None = None,
              up_to: int | None = None) -> list[StandingRow]:
    """Every registered player in standings order after round ``up_to`` (default: every round paired so far,
    counting the results recorded). ``settings`` default to the tournament's."""
    st = settings or tournament.settings.standings
    rounds = _rounds_counted(tournament, up_to)
    counted = complete_rounds(tournament, up_to)
    bye_points = tournament.settings.bye_points
    rows: list[tuple[tuple[float, float, float], StandingRow]] = []
    for pid, player in tournament.players.items():
        results = tournament.results_of(pid, rounds)
        points = sum(r.points_of(pid, bye_points) for r in results)
        own = sum(r.score_of(pid)[0] for r in results if r.counts_score)
        against = sum(r.score_of(pid)[1] for r in results if r.counts_score)
        started = sum(1 for r in results if r.met and r.first == pid)
        replied = sum(1 for r in results if r.met and r.first != pid)
        bh = buchholz(tournament, pid, counted) if counted else 0.0
        rel = own - against
        starts_balance = replied - started
        turcas = (st.A / counted * bh if counted else 0.0) + st.B * own + st.C * rel + st.D * starts_balance
        brightwell = rel + BRIGHTWELL_WEIGHT * bh
        wins = sum(1.0 for r in results if r.kind != "bye" and r.points_of(pid, bye_points) == 1.0)
        byes = sum(1 for r in results if r.kind == "bye")
        status = tournament.out_reason.get(pid, "active")
        row = StandingRow(0, pid, player.name, points, round(turcas, 4), bh, own, rel, starts_balance,
                          float(brightwell), sum(1 for r in results if r.met), wins, byes, status)
        if st.tiebreak == "turcas":
            key = (points, row.turcas, 0.0)
        elif st.tiebreak == "buchholz":
            key = (points, bh, float(rel))
        elif st.tiebreak == "brightwell":
            key = (points, row.brightwell, 0.0)
        else:
            key = (points, float(rel), float(own))
        rows.append((key, row))
    order = {pid: i for i, pid in enumerate(tournament.players)}
    rows.sort(key=lambda kr: (-kr[0][0], -kr[0][1], -kr[0][2], order[kr[1].id]))
    out: list[StandingRow] = []
    previous: tuple[float, float, float] | None = None
    rank = 0
    for i, (key, row) in enumerate(rows):
        if key != previous:
            rank = i + 1
            previous = key
        out.append(replace(row, rank=rank))
    return out
