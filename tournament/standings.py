"""Standings: points (a win 1, a draw ½), then TurČAS (or Buchholz, Brightwell, score difference as options).

    TurČAS = A / Kol * Buchholz + B * AbsScore + C * RelScore + D * Starts

- Kol: the tournament's number of rounds (the settings' planned ``rounds``), not the rounds played so far, as the
  ČAS page defines it (``turcas_rounds``); the rounds counted only when the number of rounds is not fixed.
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

from collections.abc import Iterable
from dataclasses import dataclass, replace

from tournament.events import Event, RoundPaired
from tournament.settings import StandingsSettings
from tournament.state import Tournament

__all__ = ["StandingRow", "StandingsSettings", "buchholz", "complete_rounds", "place", "standings", "as_they_stood",
           "turcas_rounds",
           "BRIGHTWELL_WEIGHT"]

BRIGHTWELL_WEIGHT = 50
"""Brightwell here is ``RelScore + 50 * Buchholz``: the ČAS page says it "combines the advantages of the score and
of Buchholz" (used in 2000-2001) but the formula was not found; 50 score points per opponent point is the
project's choice (docs/tournament.md)."""


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings. Players equal in points and tie-break share a place: ``rank`` is its first
    number, ``rank_to`` its last (equal to ``rank`` when nobody shares it); ``place`` writes it as a ČAS list does
    ("1.–3.")."""

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
    rank_to: int = 0


def _rounds_counted(tournament: Tournament, up_to: int | None) -> int:
    return tournament.last_round if up_to is None else min(up_to, tournament.last_round)


def complete_rounds(tournament: Tournament, up_to: int | None = None) -> int:
    """The rounds the tie-break counts (Buchholz; TurČAS's Kol too when the number of rounds is open): rounds 1..``up_to`` less the last one
    while it is still being played (not closed, a table without a result). A game without a result yet is no
    missed round: counting it gave every player still at the board a fictitious opponent who had beaten them."""
    rounds = _rounds_counted(tournament, up_to)
    last = tournament.rounds.get(rounds)
    if last is not None and not last.closed and last.missing_tables():
        return rounds - 1
    return rounds


def as_they_stood(events: Iterable[Event], after: int) -> Tournament:
    """The tournament as the deník ``events`` had it when round ``after + 1`` was drawn (or now, if it has not
    been): its standings after round ``after`` are those the next round was paired from, with the players,
    settings and statuses of that moment. A correction logged later is not in them (it is in today's)."""
    prefix = []
    for event in events:
        if isinstance(event, RoundPaired) and event.round > after:
            break
        prefix.append(event)
    return Tournament.from_events(prefix)


def turcas_rounds(tournament: Tournament, counted: int) -> int:
    """TurČAS's "Kol": the ČAS page defines it as the tournament's number of rounds, not the rounds played so far
    (the same at the end, different in standings published mid-event): the planned ``rounds`` of the settings;
    ``counted`` (the rounds the tie-break counts) only when the number of rounds is not fixed."""
    planned = tournament.settings.rounds
    return planned if planned is not None else counted


def place(row: StandingRow) -> str:
    """The place as a ČAS standings list writes it: "4." alone, "1.–3." shared by players tied on every
    criterion."""
    return f"{row.rank}." if row.rank_to <= row.rank else f"{row.rank}.–{row.rank_to}."


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
    kol = turcas_rounds(tournament, counted)
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
        turcas = (st.A / kol * bh if kol else 0.0) + st.B * own + st.C * rel + st.D * starts_balance
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
    keys = [key for key, _ in rows]
    out: list[StandingRow] = []
    rank = 0
    for i, (key, row) in enumerate(rows):
        if i == 0 or key != keys[i - 1]:
            rank = i + 1
        rank_to = rank + sum(1 for k in keys[rank - 1:] if k == key) - 1
        out.append(replace(row, rank=rank, rank_to=rank_to))
    return out
