"""Pairs tournaments (seed 003): a pair registered from two registered players, its strength their average, the
deník's record of it; the Swiss pairing, results and standings by pairs; the ladder rating each member."""

from __future__ import annotations

import json

import pytest

from device.cli import main
from tournament.errors import PairError
from tournament.events import (
    PlayerRegistered,
    PlayerUpdated,
    ResultRecorded,
    RoundClosed,
    RoundPublished,
    decode_event,
    encode_event,
)
from tournament.ladder import expected, ladder
from tournament.pairing import draw, pair_round
from tournament.pairs import members_of, pair_event, pair_with, unpaired
from tournament.players import Player
from tournament.report import describe
from tournament.settings import TournamentSettings
from tournament.simulate import AT, ev_settings
from tournament.standings import standings
from tournament.state import Tournament

PAIRS = TournamentSettings(doubles=True)
PEOPLE = [Player(f"p{i}", f"Hráč {i}", "K", r) for i, r in enumerate((1900, 1700, 1600, 1500, 1400, 1300, 1200,
                                                                       None))]


def people_registered(settings: TournamentSettings = PAIRS) -> Tournament:
    t = Tournament.from_events([ev_settings(settings)])
    for p in PEOPLE:
        t.apply(PlayerRegistered(at=AT, by="d", player=p))
    return t


def with_pairs(t: Tournament) -> Tournament:
    for i in range(0, len(PEOPLE), 2):
        t.apply(pair_event(t, f"D{i // 2 + 1}", [PEOPLE[i].id, PEOPLE[i + 1].id], AT, "d"))
    return t


def test_a_pair_is_two_registered_players_as_strong_as_their_average() -> None:
    t = with_pairs(people_registered())
    assert list(t.players) == ["D1", "D2", "D3", "D4"]  # the entrants are the pairs
    assert list(t.people) == [p.id for p in PEOPLE]  # the players are members, never entrants
    assert t.players["D1"].rating == 1800 and t.players["D2"].rating == 1550
    assert t.players["D4"].rating == 1100  # the newcomer counts as the newcomer strength (1000)
    assert t.players["D1"].name == "Hráč 0 + Hráč 1" and t.players["D1"].members == ("p0", "p1")
    assert [m.id for m in members_of(t, "D3")] == ["p4", "p5"]
    assert pair_with(t, ["p3", "p2"]) == "D2" and pair_with(t, ["p0", "p2"]) is None
    assert unpaired(t) == []
    again = Tournament.from_events([decode_event(encode_event(e)) for e in t.events])  # the deník records it
    assert again.players == t.players and again.people == t.people


def test_a_pair_that_cannot_stand_is_refused_naming_it() -> None:
    t = people_registered()
    with pytest.raises(PairError, match="'x9' is not a registered player"):
        pair_event(t, "D1", ["p0", "x9"], AT, "d")
    t.apply(pair_event(t, "D1", ["p0", "p1"], AT, "d"))
    with pytest.raises(PairError, match="'p1' already plays in pair 'D1'"):
        t.apply(pair_event(t, "D2", ["p1", "p2"], AT, "d"))
    with pytest.raises(PairError, match="two different players"):
        t.apply(PlayerRegistered(at=AT, by="d", player=Player("D2", rating=1600, members=("p2", "p2"))))
    with pytest.raises(PairError, match="average 1550, not 1700"):
        t.apply(PlayerRegistered(at=AT, by="d", player=Player("D2", rating=1700, members=("p2", "p3"))))
    with pytest.raises(PairError, match="setting doubles cannot change"):
        t.apply(ev_settings(TournamentSettings(doubles=False)))
    with pytest.raises(PairError, match="players of a pair cannot change"):
        t.apply(PlayerUpdated(at=AT, by="d", player_id="D1",
                              player=Player("D1", rating=1800, members=("p0", "p2"))))  # fmt: skip
    assert unpaired(t) == ["p2", "p3", "p4", "p5", "p6", "p7"]
    singles = people_registered(TournamentSettings())
    with pytest.raises(PairError, match="singles tournament"):
        singles.apply(PlayerRegistered(at=AT, by="d", player=Player("D1", rating=1800, members=("p0", "p1"))))


def play_round(t: Tournament, number: int) -> None:
    t.apply(draw(t, seed=number, at=AT, by="d"))
    t.apply(RoundPublished(at=AT, by="d", round=number))
    for game in t.rounds[number].pairing.pairings:  # the stronger pair wins by 100
        first_wins = t.strength(game.first) >= t.strength(game.second)
        t.apply(ResultRecorded(at=AT, by="d", round=number, table=game.table, first=game.first, second=game.second,
                               first_score=400 if first_wins else 300, second_score=300 if first_wins else 400))
    t.apply(RoundClosed(at=AT, by="d", round=number))


def test_pairs_are_paired_by_the_swiss_and_stand_as_pairs() -> None:
    t = with_pairs(people_registered())
    first = pair_round(t, seed=5)
    assert sorted(first.players()) == ["D1", "D2", "D3", "D4"]  # no member is paired alone
    for game in first.pairings:  # round 1 by halves of strength: D1, D2 against D3, D4
        assert {game.first, game.second} & {"D1", "D2"} and {game.first, game.second} & {"D3", "D4"}
    play_round(t, 1)
    play_round(t, 2)
    rows = standings(t)
    assert [r.id for r in rows][0] == "D1" and rows[0].points == 2.0 and rows[-1].id == "D4"
    assert {r.id for r in rows} == {"D1", "D2", "D3", "D4"}
    assert all(r.games == 2 for r in rows)


def test_the_ladder_rates_each_member_on_their_pairs_games() -> None:
    t = with_pairs(people_registered())
    play_round(t, 1)
    play_round(t, 2)
    rows = {r.id: r for r in ladder(t)}
    assert list(rows) == [p.id for p in PEOPLE]  # the players, not the pairs
    d1 = t.players["D1"]
    opponents = [t.strength(r.opponent_of("D1") or "") for r in t.results_of("D1")]
    want = sum(expected(d1.rating or 0, o) for o in opponents)  # the pair's strength against the opposing pair's
    for pid in d1.members:
        assert rows[pid].games == 2 and rows[pid].wins == 2 and rows[pid].expected == round(want, 3)
    p0, p1 = rows["p0"], rows["p1"]
    assert p0.actual == p1.actual
    assert p0.rating_after - 1900 == p1.rating_after - 1700  # the same change on each member's own rating
    newcomer = rows["p7"]  # a newcomer's performance: the opposing pairs' strengths on average, and the results
    assert newcomer.rating_before is None and newcomer.games == 2 and newcomer.rating_after != 1000


def test_the_printed_denik_names_a_pairs_players_and_its_average() -> None:
    t = with_pairs(people_registered())
    pair = next(e for e in t.events if isinstance(e, PlayerRegistered) and e.player.id == "D2")
    assert describe(pair) == "Registrace dvojice D2 z hráčů p2 + p3: Hráč 2 + Hráč 3, síla 1550 (průměr sil)"
    assert describe(pair, "en") == ("Registered pair D2 of players p2 + p3: Hráč 2 + Hráč 3, rating 1550 (the "
                                    "average strength)")


def test_a_pairs_folder_pairs_stands_and_rates_through_the_command_line(tmp_path, capsys) -> None:
    (tmp_path / "settings.toml").write_text("doubles = true\nrounds = 3\n", encoding="utf-8")
    (tmp_path / "players.csv").write_text("id,name,club,rating,pair\n" + "".join(
        f"p{i},{p.name},K,{'' if p.rating is None else p.rating},D{i // 2 + 1}\n" for i, p in enumerate(PEOPLE)),
        encoding="utf-8")  # fmt: skip
    (tmp_path / "results.csv").write_text("round,table,first,second,first_score,second_score,kind\n"
                                          "1,1,D1,D3,420,300,played\n1,2,D4,D2,390,410,played\n",
                                          encoding="utf-8")  # fmt: skip
    assert main(["tournament", "standings", str(tmp_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["id"] for r in rows][:2] == ["D1", "D2"] and {r["id"] for r in rows} == {"D1", "D2", "D3", "D4"}
    assert main(["tournament", "pair", str(tmp_path), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert sorted(p for g in games for p in (g["first"], g["second"])) == ["D1", "D2", "D3", "D4"]
    assert main(["tournament", "ladder", str(tmp_path), "--csv"]) == 0
    ladder_lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in ladder_lines[1:]] == [p.id for p in PEOPLE]  # each member rated
    assert main(["tournament", "log", str(tmp_path)]) == 0
    assert "Registrace dvojice D1 z hráčů p0 + p1: Hráč 0 + Hráč 1, síla 1800 (průměr sil)" in capsys.readouterr().out
    (tmp_path / "players.csv").write_text("id,name,pair\np0,A,D1\np1,B,D1\np2,C,D2\n", encoding="utf-8")
    assert main(["tournament", "standings", str(tmp_path)]) == 2
    assert "dvojice nemá dva hráče (sloupec pair)" in capsys.readouterr().err
