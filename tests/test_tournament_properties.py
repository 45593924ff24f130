"""Property tests over simulated tournaments (issue 27's evidence): no repeat, at most one bye each, every round
complete, starts minus replies within -1..+1 at the end; and the pairing is the least-error one (checked by brute
force on small fields).

What is proved and what is only observed (docs/tournament.md, "What the pairing guarantees"):
- a repeat, a second bye, or a player's starts leaving -1..+1 in the last round happen only when no complete
  pairing of that round avoids them: the matching sees them as errors far above any other, so a pairing without
  them always wins. ``test_the_pairing_is_the_least_error_one`` checks that against every pairing of small fields.
- over a whole event that stays possible when the field is large against the rounds (the Swiss usual: at most
  half as many rounds as players); the simulations below check it there, with withdrawals (some announced after
  the draw, so a no-show) and forfeits. A player who withdrew is not held to -1..+1: mid-event the pairing may take
  someone to +-2 rather than pair them 1½ points apart, and a player who leaves then keeps it. Fields start at 16
  here: with 10 players, two withdrawals and 4 rounds one player ended at -2 (no last-round pairing without a
  repeat could fix it). A player with a forfeited or void game is not held to it either: the pairing gave them the
  start or reply that evened them out, but a game not played does not count (35 players, 7 rounds: a last-round
  forfeit left one at +2). In tiny fields with nearly as many rounds as players the Swiss can paint
  itself into a corner (8 players, 7 rounds): that case is not claimed.
- a player who withdraws at +-2 (points come before starts, so mid-event a player may go there) can leave the rest
  unable to end within -1..+1, whatever the pairing: the sum of their starts minus replies is fixed by the games
  among them (each adds +1 and -1), and a balance has the parity of the games played, so only players with an odd
  number of games can end at +-1 (30 players, 2 withdrawals, 6 rounds, seed 932752: one left at -2, and 15 were at
  +1 against 13 at -1 before the last round; 26 players, 10 rounds, seed 784873 the same). After such a withdrawal
  the end balance is not claimed; in every other event it is checked.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournament.events import PlayerRegistered, ResultRecorded, RoundClosed, RoundPaired
from tournament.games import Pairing, RoundPairing
from tournament.pairing import draw, pairing_error, swiss_later_round
from tournament.settings import TournamentSettings
from tournament.simulate import AT, ev_settings, field_of, simulate
from tournament.state import Tournament

pytestmark = pytest.mark.usefixtures("matching_backend")  # the brute-force checks on both matchings

# derandomized: the same examples every run, so the suite never turns red at random (issue 33); a wider search is
# a matter of raising max_examples or of bench/pairing.py, not of luck
QUICK = settings(deadline=None, max_examples=8, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
BIG = settings(deadline=None, max_examples=1, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def check_event(t: Tournament, rounds: int) -> None:
    """The issue's properties of a finished simulated event."""
    assert t.last_round == rounds
    met = Counter(frozenset(p.players()) for r in t.rounds.values() for p in r.pairing.pairings)
    assert max(met.values()) == 1, "a repeat"
    byes = Counter(r.pairing.bye for r in t.rounds.values() if r.pairing.bye is not None)
    assert all(c == 1 for c in byes.values()), "a second bye"
    for number, rnd in t.rounds.items():
        assert rnd.closed and not rnd.missing_tables()
        assert sorted(rnd.pairing.players()) == sorted(t.active(number))  # nobody left out, nobody extra
    if any(abs(t.starts_minus_replies(pid)) > 1 for pid in t.out_from):
        return  # one withdrew at +-2: the rest's end balance is not claimed (the docstring says why)
    for pid in t.players:
        if pid in t.out_from:
            continue  # a player who left mid-event may have left at +-2 (the pairing allows that mid-event)
        if any(r.kind in ("forfeit", "void") for r in t.results_of(pid)):
            continue  # a game not played does not count, so the start it would have evened out is missing
        started, replied = t.starts(pid)
        assert -1 <= started - replied <= 1, (pid, started, replied)


@QUICK
@example(players=26, rounds=10, seed=784873, withdrawals=2, forfeits=0.0)  # one withdrew at -2
@example(players=30, rounds=6, seed=932752, withdrawals=2, forfeits=0.0)  # one withdrew at -2: see the docstring
@given(players=st.integers(16, 40), rounds=st.integers(5, 11), seed=st.integers(0, 10**6),
       withdrawals=st.integers(0, 2), forfeits=st.sampled_from([0.0, 0.05]))
def test_simulated_events_keep_the_swiss_promises(players: int, rounds: int, seed: int, withdrawals: int,
                                                  forfeits: float) -> None:
    rounds = min(rounds, (players - withdrawals) // 2)
    sim = simulate(players, rounds, seed, withdrawals, forfeits=forfeits)
    check_event(sim.tournament, rounds)
    assert Tournament.from_events(sim.events).rounds.keys() == sim.tournament.rounds.keys()


@BIG
@example(players=141, rounds=7, seed=1485)  # a last-round bye once left its player at -2
@given(players=st.integers(100, 150), rounds=st.integers(5, 11), seed=st.integers(0, 10**6))
def test_big_simulated_events_keep_the_swiss_promises(players: int, rounds: int, seed: int) -> None:
    sim = simulate(players, rounds, seed, withdrawals=2, forfeits=0.02)
    check_event(sim.tournament, rounds)


def _all_pairings(players: list[str]) -> list[list[tuple[str, str]]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    out = []
    for i, other in enumerate(rest):
        for tail in _all_pairings(rest[:i] + rest[i + 1:]):
            out.append([(first, other), *tail])
    return out


def _history(players: int, played: int, seed: int, final: bool) -> Tournament:
    """``players`` players after ``played`` rounds paired at random (random starts and results)."""
    rng = random.Random(seed)
    s = TournamentSettings(rounds=played + 1 if final else None)
    t = Tournament.from_events([ev_settings(s)] + [PlayerRegistered(at=AT, by="d", player=p)
                                                   for p in field_of(players, seed)])
    for number in range(1, played + 1):
        ids = list(t.players)
        rng.shuffle(ids)
        bye = ids.pop() if len(ids) % 2 else None
        games = tuple(Pairing(i // 2 + 1, ids[i], ids[i + 1]) for i in range(0, len(ids), 2))
        t.apply(RoundPaired(at=AT, by="d", round=number, pairings=games, bye=bye))
        for g in games:
            t.apply(ResultRecorded(at=AT, by="d", round=number, table=g.table, first=g.first, second=g.second,
                                   first_score=rng.randint(300, 500), second_score=rng.randint(300, 500)))
        t.apply(RoundClosed(at=AT, by="d", round=number))
    return t


def _check_least_error(players: int, played: int, seed: int, final: bool) -> None:
    """Against every complete pairing of a small field: none has a smaller error, part by part (so a repeat, a
    second bye or a starts balance out of range appear only when every pairing has one)."""
    t = _history(players, played, seed, final)
    number = played + 1
    chosen = swiss_later_round(t, number)
    best = pairing_error(t, number, chosen)
    assert pairing_error(t, number, chosen, starts_as_given=True) == best  # it starts whom the error assumes
    ids = list(t.players)
    for bye in ids if len(ids) % 2 else [None]:
        rest = [p for p in ids if p != bye]
        for games in _all_pairings(rest):
            candidate = RoundPairing(tuple(Pairing(i + 1, *g) for i, g in enumerate(games)), bye)
            assert best <= pairing_error(t, number, candidate), (candidate, best)


@settings(deadline=None, max_examples=25, derandomize=True)
@example(players=5, played=4, seed=1905, final=True)  # a second bye's last-round starts were not counted
@given(players=st.integers(4, 8), played=st.integers(1, 4), seed=st.integers(0, 10**6), final=st.booleans())
def test_the_pairing_is_the_least_error_one(players: int, played: int, seed: int, final: bool) -> None:
    _check_least_error(players, played, seed, final)


def test_the_pairing_is_the_least_error_one_on_the_whole_grid() -> None:
    """Every field of 4-8 players after 1-4 random rounds, seeds 0-11, last round or not (480 cases, two of
    which once failed)."""
    for players in range(4, 9):
        for played in range(1, 5):
            for seed in range(12):
                for final in (False, True):
                    _check_least_error(players, played, seed, final)


def test_the_same_log_and_seed_give_the_same_pairing() -> None:
    a = simulate(23, 4, seed=7).tournament
    b = simulate(23, 4, seed=7).tournament
    assert all(a.rounds[k].pairing == b.rounds[k].pairing for k in a.rounds)
    assert a.rounds[1].seed is not None  # round 1's draw is reproducible from the log


def test_round_robin_meets_everyone_once_with_balanced_starts() -> None:
    for n in (5, 6, 9, 10):
        t = Tournament.from_events([ev_settings(TournamentSettings(system="round_robin"))]
                                   + [PlayerRegistered(at=AT, by="d", player=p) for p in field_of(n, n)])
        rounds = n - 1 if n % 2 == 0 else n
        for number in range(1, rounds + 1):
            t.apply(draw(t, 0, AT, "d"))
            for g in t.rounds[number].pairing.pairings:
                t.apply(ResultRecorded(at=AT, by="d", round=number, table=g.table, first=g.first, second=g.second,
                                       first_score=400, second_score=300))
            t.apply(RoundClosed(at=AT, by="d", round=number))
        met = Counter(frozenset(p.players()) for r in t.rounds.values() for p in r.pairing.pairings)
        assert len(met) == n * (n - 1) // 2 and max(met.values()) == 1
        assert all(abs(t.starts_minus_replies(p)) <= 1 for p in t.players)
