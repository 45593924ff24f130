"""Standings as a ČAS list has them (issue 33): TurČAS's "Kol" is the tournament's number of rounds, not the rounds
played so far; players tied on every criterion share a place written "1.–2." (CLI text, JSON numbers plus the
shared place, the desk's HTML, the hub's payload); ``standings --after N`` gives the standings as they stood
after round N, from the log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main
from tournament.events import (
    PlayerRegistered,
    PlayerWithdrawn,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    RoundPublished,
)
from tournament.games import Pairing
from tournament.players import Player
from tournament.settings import TournamentSettings
from tournament.simulate import AT, ev_settings
from tournament.standings import as_they_stood, buchholz, complete_rounds, standings
from tournament.state import Tournament

PLAYERS = [Player(x, f"Hráč {x}", "K", r) for x, r in (("a", 1800), ("b", 1500), ("c", 1200), ("d", 1000))]


def _round(n: int, games: list[tuple[str, str, int, int]]) -> list:
    """Round ``n`` paired, published, its games (first, second, scores) recorded and the round closed."""
    pairings = tuple(Pairing(i + 1, f, s) for i, (f, s, _, _) in enumerate(games))
    return [RoundPaired(at=AT, by="d", round=n, pairings=pairings, seed=1), RoundPublished(at=AT, by="d", round=n),
            *(ResultRecorded(at=AT, by="d", round=n, table=i + 1, first=f, second=s, first_score=fs,
                             second_score=ss, kind="played") for i, (f, s, fs, ss) in enumerate(games)),
            RoundClosed(at=AT, by="d", round=n)]


def _events(settings: TournamentSettings) -> list:
    """Two rounds: round 1 a and c win 400:300 as starters (so a and c, and b and d, are equal on everything)."""
    return [ev_settings(settings), *(PlayerRegistered(at=AT, by="d", player=p) for p in PLAYERS),
            *_round(1, [("a", "b", 400, 300), ("c", "d", 400, 300)]),
            *_round(2, [("a", "c", 350, 420), ("b", "d", 390, 380)])]


def test_turcas_divides_buchholz_by_the_tournaments_number_of_rounds() -> None:
    """The ČAS page: Kol is the tournament's number of rounds (before: the rounds played, 2 here, so mid-event
    standings weighed Buchholz 7/2 times too much)."""
    t = Tournament.from_events(_events(TournamentSettings(rounds=7)))
    st = t.settings.standings
    counted = complete_rounds(t)
    assert counted == 2
    for row in standings(t):
        results = t.results_of(row.id)
        own = sum(r.score_of(row.id)[0] for r in results)
        rel = own - sum(r.score_of(row.id)[1] for r in results)
        balance = sum(1 for r in results if r.first != row.id) - sum(1 for r in results if r.first == row.id)
        expected = st.A / 7 * buchholz(t, row.id, counted) + st.B * own + st.C * rel + st.D * balance
        assert row.turcas == pytest.approx(expected, abs=1e-3), row
    # an event without a fixed number of rounds divides by the rounds counted, as before
    open_event = Tournament.from_events(_events(TournamentSettings(rounds=None)))
    a = next(r for r in standings(open_event) if r.id == "a")
    assert a.turcas == pytest.approx(st.A / 2 * a.buchholz + st.B * a.own_score + st.C * a.score_difference
                                     + st.D * a.starts_balance, abs=1e-3)


def _folder(tmp_path: Path, settings: str = "rounds = 7\n") -> Path:
    (tmp_path / "players.csv").write_text("id,name,club,rating\n" + "".join(
        f"{p.id},{p.name},{p.club},{p.rating}\n" for p in PLAYERS), encoding="utf-8")
    (tmp_path / "results.csv").write_text(
        "round,table,first,second,first_score,second_score,kind\n"
        "1,1,a,b,400,300,played\n1,2,c,d,400,300,played\n", encoding="utf-8")
    (tmp_path / "settings.toml").write_text(settings, encoding="utf-8")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["tournament", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_players_tied_on_every_criterion_share_a_place_as_a_cas_list_writes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """After round 1, a and c (and b and d) are equal in points, Buchholz, scores and starts (before: "1", "1",
    "3", "3" with nothing saying the place is shared)."""
    folder = _folder(tmp_path)
    code, out, _ = run(capsys, "standings", str(folder))
    assert code == 0
    lines = [line.split() for line in out.splitlines()]
    assert [cells[:2] for cells in lines if cells and cells[0][0].isdigit()] == \
        [["1.–2.", "a"], ["1.–2.", "c"], ["3.–4.", "b"], ["3.–4.", "d"]]
    assert "Kol = 7 (počet kol turnaje)" in out
    data = json.loads(run(capsys, "standings", str(folder), "--json")[1])
    assert [(r["id"], r["rank"], r["rank_to"], r["shared"]) for r in data["rows"]] == \
        [("a", 1, 2, True), ("c", 1, 2, True), ("b", 3, 4, True), ("d", 3, 4, True)]
    assert data["kol"] == 7 and data["rounds"] == 1
    # a place nobody shares stays "1."
    (folder / "results.csv").write_text("round,table,first,second,first_score,second_score,kind\n"
                                        "1,1,a,b,400,300,played\n1,2,c,d,390,300,played\n", encoding="utf-8")
    out = run(capsys, "standings", str(folder), "--lang", "en")[1]
    assert [line.split()[0] for line in out.splitlines()[4:8]] == ["1.", "2.", "3.", "4."]


def test_the_desks_printed_standings_and_the_hubs_payload_show_the_shared_place() -> None:
    from hub.director_render import standings_table

    t = Tournament.from_events(_events(TournamentSettings(rounds=7))[:-6])  # round 1 only
    html = standings_table(t, "cs")
    assert html.count("<td>1.–2.</td>") == 2 and html.count("<td>3.–4.</td>") == 2
    assert "Kol (počet kol turnaje): 7; započtená kola: 1" in html
    script = (Path(__file__).parent.parent / "hub" / "static" / "hub.js").read_text(encoding="utf-8")
    assert "s.rank_to > s.rank ? `${s.rank}.–${s.rank_to}.`" in script


def test_standings_after_round_n_are_those_the_next_round_was_paired_from(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--after 1`` of a deník with two rounds: round 1's standings, with b active then (he withdrew after round
    2) and without the correction of round 1 logged during round 2 (before: no way to get them)."""
    events = _events(TournamentSettings(rounds=7))
    fix = ResultCorrected(at=AT, by="d", round=1, table=2, first="c", second="d", first_score=300,
                          second_score=400, kind="played", reason="sheet")
    events.insert(len(events) - 1, fix)  # logged during round 2
    events.append(PlayerWithdrawn(at=AT, by="d", player_id="b", reason="ill"))
    log = tmp_path / "denik.jsonl"
    from tournament.events import encode_event

    log.write_text("".join(json.dumps(encode_event(e), ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
    data = json.loads(run(capsys, "standings", str(log), "--after", "1", "--json")[1])
    expected = standings(Tournament.from_events(events[:events.index(next(
        e for e in events if isinstance(e, RoundPaired) and e.round == 2))]))
    assert [(r["id"], r["points"], r["rank"], r["status"]) for r in data["rows"]] == \
        [(r.id, r.points, r.rank, r.status) for r in expected]
    assert {r["id"]: r["status"] for r in data["rows"]}["b"] == "active" and data["after"] == 1
    assert {r["id"]: r["points"] for r in data["rows"]} == {"a": 1.0, "c": 1.0, "b": 0.0, "d": 0.0}
    now = json.loads(run(capsys, "standings", str(log), "--json")[1])
    assert {r["id"]: r["status"] for r in now["rows"]}["b"] == "withdrawn" and now["after"] == 2
    assert as_they_stood(events, 2).last_round == 2
    text = run(capsys, "standings", str(log), "--after", "1")[1]
    assert "Pořadí po 1. kole" in text
    code, _, err = run(capsys, "standings", str(log), "--after", "3")
    assert code == 2 and "denik.jsonl: takové kolo turnaj nemá" in err and "(3; 1–2)" in err
    code, _, err = run(capsys, "standings", str(log), "--after", "0", "--lang", "en")
    assert code == 2 and "the tournament has no such round" in err
