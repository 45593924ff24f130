"""The tournament core: the deník's events and their codec, the state rebuilt from them and what it refuses,
round 1's draw, results and forfeits, standings by TurČAS."""

from __future__ import annotations

import pytest

from tournament.errors import (
    DecodeError,
    DuplicatePlayer,
    PairingError,
    PlayerNotActive,
    ResultError,
    RoundIncomplete,
    UnknownPlayer,
)
from tournament.events import (
    EVENT_TYPES,
    PairingChanged,
    PlayerExcluded,
    PlayerRegistered,
    PlayerUpdated,
    PlayerWithdrawn,
    ProtestRecorded,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    RoundPublished,
    WarningRecorded,
    decode_event,
    encode_event,
)
from tournament.games import Pairing
from tournament.pairing import pair_round
from tournament.players import Player, doubles_pair, pair_strength
from tournament.settings import StandingsSettings, TournamentSettings
from tournament.simulate import AT, ev_settings, field_of, simulate
from tournament.standings import standings
from tournament.state import Tournament


def reg(*players: Player) -> list:
    return [ev_settings()] + [PlayerRegistered(at=AT, by="d", player=p) for p in players]


def result(rnd: int, table: int, first: str, second: str, fs: int, ss: int, kind: str = "played",
           cls: type = ResultRecorded, **kw: object) -> ResultRecorded:
    return cls(at=AT, by="d", round=rnd, table=table, first=first, second=second, first_score=fs,
               second_score=ss, kind=kind, **kw)


A, B, C, D = (Player(x, f"Hráč {x}", "K", r) for x, r in (("a", 1800), ("b", 1500), ("c", 1200), ("d", 1000)))


def paired(rnd: int, *games: tuple[str, str], bye: str | None = None) -> RoundPaired:
    return RoundPaired(at=AT, by="d", round=rnd, pairings=tuple(Pairing(i + 1, f, s) for i, (f, s) in
                                                                 enumerate(games)), bye=bye, seed=1)


def test_every_event_round_trips_through_its_dict() -> None:
    events = [*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b")), RoundPublished(at=AT, by="d", round=1),
              result(1, 1, "a", "c", 400, 300), result(1, 2, "d", "b", 0, 100, "forfeit"),
              result(1, 1, "a", "c", 410, 300, cls=ResultCorrected, reason="typo"),
              WarningRecorded(at=AT, by="r", round=1, table=1, player_id="a", reason="talking"),
              ProtestRecorded(at=AT, by="r", round=1, table=1, player_id="c", text="slovo", decision="platí"),
              RoundClosed(at=AT, by="d", round=1),
              PlayerUpdated(at=AT, by="d", player_id="d", player=Player("d2", "D", "K", 1100), reason="ČAS id"),
              PlayerWithdrawn(at=AT, by="d", player_id="b", reason="ill"),
              PlayerExcluded(at=AT, by="d", player_id="c", reason="fraud"),
              PairingChanged(at=AT, by="d", round=1, pairings=(Pairing(1, "a", "c"),), reason="x")]
    assert {type(e).__name__ for e in events} == set(EVENT_TYPES)
    for e in events:
        assert decode_event(encode_event(e)) == e


@pytest.mark.parametrize(("data", "names"), [
    ({"type": "Nope", "at": "", "by": ""}, "Nope"),
    ({"type": "RoundClosed", "at": "", "by": ""}, "'round'"),
    ({"type": "RoundClosed", "at": "", "by": "", "round": "3"}, "RoundClosed.round"),
    ({"type": "RoundClosed", "at": "", "by": "", "round": 3, "extra": 1}, "'extra'"),
    ({"type": "ResultRecorded", "at": "", "by": "", "round": 1, "table": 1, "first": "a", "second": "b",
      "first_score": 1, "second_score": 2, "kind": "won"}, "ResultRecorded.kind"),
    ({"type": "PlayerRegistered", "at": "", "by": "", "player": {"id": "a", "rating": "x"}},
     "PlayerRegistered.player.rating"),
    ({"type": "RoundPaired", "at": "", "by": "", "round": 1, "pairings": [{"table": 1, "first": "a"}]},
     "RoundPaired.pairings[0].second"),
])
def test_a_bad_entry_is_refused_naming_the_field(data: dict, names: str) -> None:
    with pytest.raises(DecodeError, match=names.replace("[", r"\[").replace("]", r"\]")):
        decode_event(data)


def test_the_state_refuses_what_does_not_fit_naming_the_event() -> None:
    base = reg(A, B, C, D)
    with pytest.raises(DuplicatePlayer, match="PlayerRegistered"):
        Tournament.from_events([*base, PlayerRegistered(at=AT, by="d", player=A)])
    with pytest.raises(PairingError, match="leaves out active player"):
        Tournament.from_events([*base, paired(1, ("a", "b"))])
    with pytest.raises(UnknownPlayer, match="'x'"):
        Tournament.from_events([*base, paired(1, ("a", "b"), ("c", "x"))])
    t = Tournament.from_events([*base, paired(1, ("a", "c"), ("d", "b"))])
    with pytest.raises(ResultError, match="table 1 is 'a' v 'c'"):
        t.apply(result(1, 1, "a", "b", 1, 2))
    t.apply(result(1, 1, "a", "c", 400, 300))
    with pytest.raises(ResultError, match="already has a result; correct it"):
        t.apply(result(1, 1, "a", "c", 400, 301))
    with pytest.raises(ResultError, match="no result to correct"):
        t.apply(result(1, 2, "d", "b", 1, 2, cls=ResultCorrected))
    with pytest.raises(RoundIncomplete, match="result missing: table 2"):
        t.apply(RoundClosed(at=AT, by="d", round=1))
    with pytest.raises(RoundIncomplete, match="round 1 is not closed"):
        t.apply(paired(2, ("a", "b"), ("c", "d")))
    with pytest.raises(ResultError, match="forfeit is 100:0 or 0:0"):
        t.apply(result(1, 2, "d", "b", 0, 50, "forfeit"))
    t.apply(result(1, 2, "d", "b", 0, 0, "forfeit"))
    t.apply(RoundPublished(at=AT, by="d", round=1))
    with pytest.raises(PairingError, match="published"):
        t.apply(PairingChanged(at=AT, by="d", round=1, pairings=(Pairing(1, "c", "a"), Pairing(2, "b", "d"))))


def test_a_withdrawal_after_the_draw_still_owes_that_round() -> None:
    """Seed 004: withdrawing once the next round is drawn means playing it (else a no-show); before, not paired."""
    t = Tournament.from_events([*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b")),
                                result(1, 1, "a", "c", 400, 300), result(1, 2, "d", "b", 350, 360),
                                RoundClosed(at=AT, by="d", round=1),
                                PlayerWithdrawn(at=AT, by="d", player_id="c")])
    assert t.active(2) == ["a", "b", "d"]
    assert pair_round(t, 1).bye is not None
    t2 = Tournament.from_events([*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b")),
                                 PlayerWithdrawn(at=AT, by="d", player_id="c")])
    assert "c" in t2.rounds[1].pairing.players()  # still owes round 1
    t2.apply(result(1, 1, "a", "c", 100, 0, "forfeit"))  # and does not come: a no-show, 100:0
    assert t2.points("a") == 1.0 and t2.points("c") == 0.0
    with pytest.raises(PlayerNotActive, match="withdrawn"):
        t2.apply(PlayerWithdrawn(at=AT, by="d", player_id="c"))


def test_forfeits_byes_void_and_exclusion_score_as_the_regulations_say() -> None:
    s = TournamentSettings()
    t = Tournament.from_events([*reg(A, B, C, D, Player("e", rating=900)),
                                paired(1, ("a", "c"), ("d", "b"), bye="e"),
                                result(1, 1, "a", "c", 0, 0, "forfeit"), result(1, 2, "d", "b", 0, 160, "exclusion"),
                                RoundClosed(at=AT, by="d", round=1)])
    assert (t.points("a"), t.points("c")) == (0.0, 0.0)  # both absent: 0:0, no points
    assert (t.points("b"), t.points("d")) == (1.0, 0.0)  # excluded at a margin above 100: 0:margin
    assert t.points("e") == s.bye_points
    rows = {r.id: r for r in standings(t)}
    assert rows["e"].own_score == s.bye_score and rows["e"].byes == 1
    assert rows["b"].score_difference == 160 and rows["b"].games == 1  # the exclusion's game was started
    assert rows["a"].games == 0 and rows["a"].own_score == 0


def test_a_correction_is_a_new_entry_and_the_standings_follow_it() -> None:
    events = [*reg(A, B), paired(1, ("a", "b")), result(1, 1, "a", "b", 300, 400),
              RoundClosed(at=AT, by="d", round=1)]
    assert standings(Tournament.from_events(events))[0].id == "b"
    events.append(result(1, 1, "a", "b", 500, 400, cls=ResultCorrected, reason="sheet misread"))
    t = Tournament.from_events(events)
    assert standings(t)[0].id == "a"
    assert t.events == events and events[4].first_score == 300  # the old result is still in the log


def test_an_id_change_after_round_1_keeps_one_line() -> None:
    """The issue's case: a player's ČAS id registered after round 1 must not split them into two lines."""
    temp = Player("new-1", "Nováček", "", None)
    t = Tournament.from_events([*reg(A, temp), paired(1, ("a", "new-1")), result(1, 1, "a", "new-1", 300, 420),
                                RoundClosed(at=AT, by="d", round=1),
                                PlayerUpdated(at=AT, by="d", player_id="new-1",
                                              player=Player("CAS123", "Nováček", "", None), reason="ČAS id")])
    rows = standings(t)
    assert [r.id for r in rows] == ["CAS123", "a"]
    assert rows[0].points == 1.0 and t.paired_with("CAS123") == {"a"}


def test_round_1_pairs_halves_by_strength_and_the_top_half_alternates_starting() -> None:
    players = field_of(11, seed=5, newcomers=2)
    t = Tournament.from_events(reg(*players))
    rp = pair_round(t, seed=99)
    by_strength = sorted(players, key=lambda p: -p.strength())
    assert rp.bye == by_strength[-1].id  # the weakest
    top = {p.id for p in by_strength[:5]}
    for i, game in enumerate(rp.pairings):
        starter_in_top = game.first in top
        assert (game.first in top) != (game.second in top)
        assert starter_in_top == (i % 2 == 0)
    assert pair_round(t, seed=99) == rp  # the same seed draws the same round
    assert any(pair_round(t, seed=s) != rp for s in range(5))


def test_doubles_pairs_are_as_strong_as_their_players_on_average() -> None:
    assert pair_strength([1500, 1300]) == 1400
    assert pair_strength([1500, None], newcomer=1000) == 1250
    assert pair_strength([1501, 1300]) == 1401  # half up
    pair = doubles_pair("D1", [A, B])
    assert pair.rating == 1650 and pair.members == ("a", "b") and pair.name == "Hráč a + Hráč b"


def test_turcas_is_the_documented_sum_of_its_parts() -> None:
    sim = simulate(12, 5, seed=3)
    st = StandingsSettings()
    for row in standings(sim.tournament):
        expected = st.A / 5 * row.buchholz + st.B * row.own_score + st.C * row.score_difference + st.D * \
            row.starts_balance
        assert row.turcas == pytest.approx(expected, abs=1e-3)
    rows = standings(sim.tournament)
    for a, b in zip(rows, rows[1:], strict=False):
        assert (a.points, a.turcas) >= (b.points, b.turcas)


def test_buchholz_counts_a_withdrawn_opponents_missing_rounds_as_draws() -> None:
    events = [*reg(A, B, C, D), paired(1, ("a", "b"), ("c", "d")), result(1, 1, "a", "b", 400, 300),
              result(1, 2, "c", "d", 400, 300), RoundClosed(at=AT, by="d", round=1),
              PlayerWithdrawn(at=AT, by="d", player_id="b"),
              paired(2, ("c", "a"), bye="d"), result(2, 1, "c", "a", 300, 400), RoundClosed(at=AT, by="d", round=2)]
    t = Tournament.from_events(events)
    rows = {r.id: r for r in standings(t)}
    # a met b (0 points in round 1, round 2 missed: a draw) and c (1 point + 0)
    assert rows["a"].buchholz == 0.5 + 1.0
    assert rows["b"].status == "withdrawn"
    # d: round 1 against c (1 + 0 = 1); round 2 the bye: a fictitious opponent with d's 0 points before it,
    # the opposite of d's bye win (0), no later rounds
    assert rows["d"].buchholz == 1.0 + 0.0


def test_a_late_entry_is_paired_from_the_next_round_and_an_excluded_player_no_more() -> None:
    t = Tournament.from_events([*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b")),
                                result(1, 1, "a", "c", 400, 300), result(1, 2, "d", "b", 0, 120, "exclusion"),
                                RoundClosed(at=AT, by="d", round=1),
                                PlayerExcluded(at=AT, by="chief", player_id="d", reason="third warning"),
                                PlayerRegistered(at=AT, by="d", player=Player("e", "Pozdní", "", 1300))])
    assert t.active(2) == ["a", "b", "c", "e"]
    rp = pair_round(t, 0)
    assert sorted(rp.players()) == ["a", "b", "c", "e"] and rp.bye is None
    assert all({g.first, g.second} not in ({"a", "c"},) for g in rp.pairings)  # no repeat
    with pytest.raises(PlayerNotActive, match="'d' has excluded"):
        t.apply(paired(2, ("a", "d"), ("b", "c"), bye="e"))
    assert {r.id: r.status for r in standings(t)}["d"] == "excluded"


def test_a_change_before_publishing_is_logged_with_its_reason() -> None:
    from tournament.report import log_text

    events = [*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b")),
              PairingChanged(at=AT, by="chief", round=1, pairings=(Pairing(1, "c", "a"), Pairing(2, "d", "b")),
                             reason="a asked to reply: late arrival"),
              RoundPublished(at=AT, by="chief", round=1)]
    t = Tournament.from_events(events)
    assert t.rounds[1].pairing.pairings[0].first == "c"
    assert t.rounds[1].changes == ["a asked to reply: late arrival"]
    text = log_text(events)
    assert "Ruční změna losu 1. kola (a asked to reply: late arrival)" in text and "chief" in text
    assert "Round 1 pairing changed by hand" in log_text(events, "en")


def test_king_of_the_hill_pairs_the_last_round_by_standings() -> None:
    s = TournamentSettings(rounds=3, king_of_the_hill=True)
    sim = simulate(10, 3, seed=4, settings=s)
    t = sim.tournament
    last = t.rounds[3]
    assert last.method == "king_of_the_hill"
    order = [r.id for r in standings(Tournament.from_events(sim.events[:next(
        i for i, e in enumerate(sim.events) if isinstance(e, RoundPaired) and e.round == 3)]))]
    assert [set(g.players()) for g in last.pairing.pairings] == [set(order[i:i + 2]) for i in range(0, 10, 2)]


def test_settings_refuse_what_they_cannot_take() -> None:
    from tournament.errors import SettingsError

    assert TournamentSettings.from_dict(TournamentSettings(rounds=7).to_dict()) == TournamentSettings(rounds=7)
    for bad, name in (({"rounds": "7"}, "rounds"), ({"colour": 1}, "colour"), ({"bye_points": 2}, "bye_points"),
                      ({"standings": {"E": 1}}, "standings.E"), ({"system": "knockout"}, "system")):
        with pytest.raises(SettingsError, match=name):
            TournamentSettings.from_dict(bad)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ids = st.text(alphabet="ABCDEFGHXYZ0123456789-ČŠ", min_size=1, max_size=6)


@settings(deadline=None, max_examples=60)
@given(st.one_of(
    st.builds(PlayerRegistered, at=st.text(max_size=5), by=st.text(max_size=5),
              player=st.builds(Player, id=ids, name=st.text(max_size=8), club=st.text(max_size=4),
                               rating=st.none() | st.integers(0, 3000))),
    st.builds(RoundPaired, at=st.just(AT), by=st.just("d"), round=st.integers(1, 20),
              pairings=st.lists(st.tuples(st.integers(1, 99), ids, ids).filter(lambda g: g[1] != g[2])
                                .map(lambda g: Pairing(*g)), max_size=3).map(tuple),
              bye=st.none() | ids, seed=st.none() | st.integers(0, 2**31), method=st.sampled_from(["swiss", "manual"])),
    st.builds(ResultRecorded, at=st.just(AT), by=st.just("t"), round=st.integers(1, 20),
              table=st.none() | st.integers(1, 99), first=ids, second=st.none() | ids,
              first_score=st.none() | st.integers(-50, 900), second_score=st.none() | st.integers(-50, 900),
              kind=st.sampled_from(["played", "forfeit", "bye", "void", "exclusion"]),
              source=st.sampled_from(["table", "manual"])),
))
def test_the_codec_round_trips_any_event(event: object) -> None:
    import json

    assert decode_event(json.loads(json.dumps(encode_event(event)))) == event  # type: ignore[arg-type]


def test_an_exclusion_loses_by_100_or_the_margin_above_it() -> None:
    from tournament.games import exclusion_score

    assert exclusion_score(200, 250) == (0, 100)
    assert exclusion_score(120, 300) == (0, 180)
    assert exclusion_score(330, 200) == (0, 130)  # the rule speaks of the difference, not who leads


def test_a_round_still_being_played_gives_nobody_a_fictitious_opponent() -> None:
    """Standings while a round is played (the desk's and /live's): a game without a result yet is no missed round.
    Before, round 2 paired and not played gave everyone a fictitious opponent who had beaten them (Buchholz + 1,
    A/rounds with 2 rounds): after pairing round 1 every player had TurČAS 100."""
    done = [*reg(A, B, C, D), paired(1, ("a", "b"), ("c", "d")), result(1, 1, "a", "b", 400, 300),
            result(1, 2, "c", "d", 350, 360), RoundClosed(at=AT, by="d", round=1)]
    after_1 = {r.id: r for r in standings(Tournament.from_events(done))}
    nothing = {r.id: r for r in standings(Tournament.from_events([*reg(A, B, C, D), paired(1, ("a", "b"), ("c", "d"))]))}
    assert {(r.points, r.buchholz, r.turcas) for r in nothing.values()} == {(0.0, 0.0, 0.0)}
    t = Tournament.from_events([*done, paired(2, ("a", "d"), ("c", "b"))])
    assert [(r.id, r.buchholz, r.turcas) for r in standings(t)] == \
        [(r.id, r.buchholz, r.turcas) for r in standings(Tournament.from_events(done))]
    # one table done: its players' points count at once, the tie-break still over the complete rounds
    t.apply(result(2, 1, "a", "d", 410, 300))
    rows = {r.id: r for r in standings(t)}
    assert rows["a"].points == 2.0 and rows["a"].own_score == 810
    assert rows["c"].buchholz == after_1["c"].buchholz and rows["b"].buchholz == after_1["b"].buchholz


def test_the_denik_in_czech_words_has_no_english_kinds_and_no_missing_seed() -> None:
    from tournament.report import describe

    drawn = describe(RoundPaired(at=AT, by="cli", round=2, pairings=(Pairing(1, "a", "b"),), bye=None, seed=None,
                                 method="manual"))  # fmt: skip
    assert drawn == "Los 2. kola (ručně): 1: a–b"
    assert describe(result(1, 1, "a", "b", 100, 0, "forfeit")).endswith("1: a 100:0 b (kontumace) [ručně]")
    assert "(forfeit)" in describe(result(1, 1, "a", "b", 100, 0, "forfeit"), "en")


def test_an_exclusion_result_keeps_the_excluded_player_out_of_the_rest_of_the_tournament() -> None:
    """Seed 004: excluded after the third warning is "vyloučen z další hry", and "Vyloučení se týká celého turnaje
    nebo utkání" (before: round 2 paired him again unless a separate "Vyloučení z turnaje" was logged)."""
    events = [*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b")), RoundPublished(at=AT, by="d", round=1),
              result(1, 1, "a", "c", 400, 300), result(1, 2, "d", "b", 0, 120, "exclusion"),
              RoundClosed(at=AT, by="d", round=1)]
    t = Tournament.from_events(events)
    assert t.active(2) == ["a", "b", "c"] and t.out_reason["d"] == "excluded"
    rp = pair_round(t, 0)
    assert "d" not in rp.players() and sorted(rp.players()) == ["a", "b", "c"]
    with pytest.raises(PlayerNotActive, match="'d' has excluded"):
        t.apply(paired(2, ("a", "d"), ("b", "c")))
    # the chief referee's "Vyloučení z turnaje" logged as well changes nothing and is not refused
    t.apply(PlayerExcluded(at=AT, by="chief", player_id="d", reason="third warning"))
    assert t.active(2) == ["a", "b", "c"]
    assert {r.id: r.status for r in standings(t)}["d"] == "excluded"


def test_an_exclusion_corrected_away_before_the_next_round_lets_the_player_back() -> None:
    events = [*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b")), result(1, 1, "a", "c", 400, 300),
              result(1, 2, "d", "b", 100, 0, "exclusion")]
    t = Tournament.from_events(events)
    assert t.out_reason == {"b": "excluded"}
    t.apply(result(1, 2, "d", "b", 380, 300, cls=ResultCorrected, reason="wrong table"))
    assert t.out_reason == {} and t.active(2) == ["a", "b", "c", "d"]


@pytest.mark.parametrize("fs, ss", [(0, 50), (50, 0), (0, 99), (20, 120)])
def test_an_exclusion_below_100_is_refused(fs: int, ss: int) -> None:
    """Seed 004: the excluded player loses 0:100, or 0:the difference when it is over 100 (before: 0:50 was
    taken)."""
    t = Tournament.from_events([*reg(A, B, C, D), paired(1, ("a", "c"), ("d", "b"))])
    with pytest.raises(ResultError, match="exclusion"):
        t.apply(result(1, 2, "d", "b", fs, ss, "exclusion"))
    assert t.out_reason == {}
    t.apply(result(1, 2, "d", "b", 0, 100, "exclusion"))
    assert t.out_reason == {"d": "excluded"}
