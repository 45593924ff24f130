"""The Swiss pairing's quality on seeded events (issue 33): the hard rules (no rematch, one bye at most, the bye to
the weakest, round 1 top half against bottom half, starts within -1..+1 at the end), and floats and point gaps
no more than a plain top-down score-group pairing computed here independently; and the deník's float record.

Everything is seeded: the same examples every run (no Hypothesis draw, so nothing fails at random)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_tournament_properties import check_event

from tournament.events import (
    PlayerRegistered,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    decode_event,
    encode_event,
)
from tournament.floats import WHY, floats_of, quality_of
from tournament.games import Pairing, RoundPairing
from tournament.matching import force_networkx
from tournament.pairing import draw, pairing_error, swiss_later_round
from tournament.report import log_text
from tournament.settings import TournamentSettings
from tournament.simulate import AT, before_round, ev_settings, field_of, simulate
from tournament.state import Tournament

EVENTS = [(24, 7, 1), (25, 9, 5), (40, 9, 2), (41, 11, 8), (75, 9, 3), (150, 9, 9150)]


def _baseline(t: Tournament, number: int) -> RoundPairing | None:
    """A plain top-down score-group pairing, independent of the program's: the weakest without a bye (fewest
    points, then lowest rating) gets the bye; then from the top score group down, the group (with who floated into
    it) is paired strongest first with the first of the rest not met yet; who is left floats down to the next
    group. None when this greedy way gets stuck (then there is nothing to compare with)."""
    players = t.active(number)
    bye = None
    if len(players) % 2:
        bye = min((p for p in players if not t.had_bye(p)), key=lambda p: (t.points(p), t.strength(p)))
        players = [p for p in players if p != bye]
    groups: dict[float, list[str]] = {}
    for p in players:
        groups.setdefault(t.points(p), []).append(p)
    games: list[tuple[str, str]] = []
    carried: list[str] = []
    for pts in sorted(groups, reverse=True):
        pool = carried + sorted(groups[pts], key=lambda p: -t.strength(p))
        carried = []
        while pool:
            p = pool.pop(0)
            q = next((q for q in pool if q not in t.paired_with(p)), None)
            if q is None:
                carried.append(p)
            else:
                pool.remove(q)
                games.append((p, q))
    if carried:
        return None
    return RoundPairing(tuple(Pairing(i + 1, a, b) for i, (a, b) in enumerate(games)), bye)


@pytest.mark.parametrize("players,rounds,seed", EVENTS)
def test_seeded_events_keep_the_hard_rules(players: int, rounds: int, seed: int) -> None:
    sim = simulate(players, rounds, seed, withdrawals=1, draws=0.05, settings=TournamentSettings(rounds=rounds))
    t = sim.tournament
    check_event(t, rounds)  # no rematch, one bye at most, everyone paired, starts within -1..+1 at the end
    first = t.rounds[1].pairing
    ranked = sorted(t.active(1), key=lambda p: -t.strength(p))
    if first.bye is not None:
        assert first.bye == ranked.pop()  # round 1: the weakest by rating
    top = set(ranked[:len(ranked) // 2])
    assert all((g.first in top) != (g.second in top) for g in first.pairings)  # top half v bottom half
    for number in range(2, rounds + 1):
        before = before_round(sim.events, number)
        pairing = t.rounds[number].pairing
        error = pairing_error(before, number, pairing)
        assert error.repeats == 0
        if pairing.bye is not None and not error.hard_starts:
            assert error.bye_place == 0, f"round {number}: the bye is not the weakest's"


@pytest.mark.parametrize("players,rounds,seed", EVENTS)
def test_floats_and_gaps_are_no_more_than_a_top_down_score_group_pairing(players: int, rounds: int,
                                                                         seed: int) -> None:
    sim = simulate(players, rounds, seed, withdrawals=1, draws=0.05, settings=TournamentSettings(rounds=rounds))
    compared = 0
    for number in range(2, rounds + 1):
        t = before_round(sim.events, number)
        base = _baseline(t, number)
        if base is None or pairing_error(t, number, base).hard():
            continue  # the greedy got stuck, or broke a rule the program keeps (at the price of a float)
        ours, theirs = quality_of(t, swiss_later_round(t, number)), quality_of(t, base)
        assert ours.gap_sum <= theirs.gap_sum, (number, ours, theirs)
        assert ours.floats <= theirs.floats, (number, ours, theirs)
        compared += 1
    assert compared >= (rounds - 1) // 2  # the comparison is not vacuous


def _three_players_at_one_point() -> Tournament:
    """Five players after round 1, P001-P004 played, P005 had the bye: P001, P003 and P005 at 1 point, P002 and
    P004 at 0."""
    t = Tournament.from_events([ev_settings(TournamentSettings(rounds=3))]
                               + [PlayerRegistered(at=AT, by="d", player=p) for p in field_of(6, 1)[:5]])
    t.apply(RoundPaired(at=AT, by="d", round=1, pairings=(Pairing(1, "P001", "P002"), Pairing(2, "P003", "P004")),
                        bye="P005"))
    for g in t.rounds[1].pairing.pairings:
        t.apply(ResultRecorded(at=AT, by="d", round=1, table=g.table, first=g.first, second=g.second,
                               first_score=400, second_score=300))
    t.apply(RoundClosed(at=AT, by="d", round=1))
    return t


def test_the_denik_says_who_floated_and_why() -> None:
    t = _three_players_at_one_point()
    entry = draw(t, 0, AT, "d")
    # the 0-point group (P002, P004) has met nobody in it and is even: P002 v P004 or a float; the 1-point
    # group is odd, so exactly one of its three plays down
    floats = [dict(f) for f in entry.floats]
    assert len(floats) == 2
    down = next(f for f in floats if f["points"] > f["opponent_points"])
    up = next(f for f in floats if f["points"] < f["opponent_points"])
    assert down["points"] == 1.0 and down["why"] == "odd_group"
    assert up["points"] == 0.0 and up["player"] == down["opponent"]
    assert all(f["why"] in WHY for f in floats)
    assert decode_event(encode_event(entry)) == entry
    old = encode_event(entry)
    del old["floats"]  # a deník written before floats were recorded still reads
    assert decode_event(old).floats == ()


def test_a_float_because_the_group_has_met_is_called_so() -> None:
    t = _three_players_at_one_point()
    # a hand pairing floating P001 and P003 although both at 1 point and not met: "elsewhere" is the reason
    pairing = RoundPairing((Pairing(1, "P001", "P002"), Pairing(2, "P003", "P004")), "P005")
    assert [f.why for f in floats_of(t, pairing)] == ["elsewhere"] * 4
    t.apply(RoundPaired(at=AT, by="d", round=2, pairings=(Pairing(1, "P001", "P003"), Pairing(2, "P005", "P002")),
                        bye="P004"))
    t.apply(ResultRecorded(at=AT, by="d", round=2, table=1, first="P001", second="P003", first_score=300,
                           second_score=300))
    t.apply(ResultRecorded(at=AT, by="d", round=2, table=2, first="P005", second="P002", first_score=400,
                           second_score=300))
    t.apply(RoundClosed(at=AT, by="d", round=2))
    # P001 and P003 at 1.5 have met: when both leave their group, each for the same reason
    pairing = RoundPairing((Pairing(1, "P001", "P005"), Pairing(2, "P003", "P004")), "P002")
    why = {f.player: f.why for f in floats_of(t, pairing)}
    assert why["P001"] == "met" and why["P003"] == "met"
    assert len(why) == 4


def test_the_denik_text_names_the_floats_in_czech_and_in_english() -> None:
    t = _three_players_at_one_point()
    entry = draw(t, 0, AT, "d")
    down = next(f for f in entry.floats if f["points"] > f["opponent_points"])
    cs, en = log_text([entry]), log_text([entry], "en")
    assert "mimo svou bodovou skupinu: " in cs and f"{down['player']} 1→0 (lichý počet ve skupině)" in cs
    assert "floated: " in en and f"{down['player']} 1→0 (odd score group)" in en


def test_the_denik_names_the_seed_only_where_the_draw_used_it() -> None:
    """Round 1's random draw is repeatable from its seed; a later Swiss round does not use one (the error function
    decides), so the printed deník does not name it there."""
    sim = simulate(8, 2, 3, settings=TournamentSettings(rounds=2))
    first, second = (e for e in sim.events if isinstance(e, RoundPaired))
    assert first.seed is not None and second.seed is not None  # both logged, as drawn
    for lang, word in (("cs", "semínko"), ("en", "seed")):
        lines = log_text([first, second], lang).splitlines()
        assert f"{word} {first.seed}" in next(line for line in lines if "Los 1. kola" in line or "Round 1 " in line)
        assert word not in next(line for line in lines if "Los 2. kola" in line or "Round 2 " in line)


ROOT = Path(__file__).resolve().parent.parent
BBP = Path("/work/tools/bbp/bbpPairings.exe")  # where the bench machine has it built (docs/benchmarks.md)


def _bench(*args: str) -> str:
    done = subprocess.run([sys.executable, "bench/pairing.py", "--events", "21:4:1", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return done.stdout


def test_the_pairing_bench_prints_its_table() -> None:
    out = _bench()
    row = next(line for line in out.splitlines() if line.startswith("| 21/4/1") and "partiar" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[6:9] == ["0", "0", "0"]  # rematches, second byes, outside -1..+1
    assert "CPU per round" in out


@pytest.mark.skipif(not BBP.exists(), reason="bbpPairings is not built on this machine (a bench tool only)")
def test_the_pairing_bench_feeds_bbp_pairings_trf_it_accepts() -> None:
    out = _bench("--bbp", str(BBP))  # bbpPairings refuses a TRF whose points do not add up
    assert sum(1 for line in out.splitlines() if line.startswith("| 21/4/1") and "FIDE Dutch" in line) == 2


@pytest.mark.skipif(not BBP.exists(), reason="bbpPairings is not built on this machine (a bench tool only)")
def test_the_pairing_bench_compares_many_whole_events() -> None:
    out = _bench("--bbp", str(BBP), "--many", "3", "--sizes", "20:4")
    rows = [line for line in out.splitlines() if line.startswith("| 20/4 |")]
    assert [r.split("|")[2].strip() for r in rows] == ["partiar", "FIDE Dutch", "partiar, no end rule"]
    assert " ± " in rows[0] and rows[0].split("|")[6].strip() == "0"  # nobody outside -1..+1 with the rule


def test_the_pairing_bench_wants_the_dutch_engine_for_many_events() -> None:
    done = subprocess.run([sys.executable, "bench/pairing.py", "--many", "3"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 2 and "give --bbp" in done.stderr


def test_a_float_the_last_rounds_starts_force_is_called_so() -> None:
    """Round 2 of 2: the two winners both started (+1), the two losers both replied (-1); a winner against a winner
    would end one at +2, so each plays a loser, and the deník says it was the starts."""
    t = Tournament.from_events([ev_settings(TournamentSettings(rounds=2))]
                               + [PlayerRegistered(at=AT, by="d", player=p) for p in field_of(4, 2)])
    t.apply(RoundPaired(at=AT, by="d", round=1, pairings=(Pairing(1, "P001", "P002"), Pairing(2, "P003", "P004"))))
    for g in t.rounds[1].pairing.pairings:
        t.apply(ResultRecorded(at=AT, by="d", round=1, table=g.table, first=g.first, second=g.second,
                               first_score=400, second_score=300))
    t.apply(RoundClosed(at=AT, by="d", round=1))
    entry = draw(t, 0, AT, "d")
    assert {frozenset(g.players()) for g in entry.pairings} == {frozenset(("P001", "P004")),
                                                                 frozenset(("P003", "P002"))}
    assert [f["why"] for f in entry.floats] == ["starts"] * 4


@pytest.mark.parametrize("players,rounds,seed", [e for e in EVENTS if e[0] <= 75])
def test_both_matchings_pair_every_round_with_the_same_error(players: int, rounds: int, seed: int) -> None:
    """rustworkx's matching (where installed) and networkx's (everywhere) find the same least error, part by part,
    in every round of the seeded events (the pairings may differ only where two weigh exactly the same)."""
    sim = simulate(players, rounds, seed, withdrawals=1, draws=0.05, settings=TournamentSettings(rounds=rounds))
    for number in range(2, rounds + 1):
        t = before_round(sim.events, number)
        default = pairing_error(t, number, swiss_later_round(t, number))
        force_networkx(True)
        try:
            python = pairing_error(t, number, swiss_later_round(t, number))
        finally:
            force_networkx(False)
        assert default == python, (number, default, python)
