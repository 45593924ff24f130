"""A tournament folder as strict as the hub's desk: a paired game without a result, a player missing from a round,
a score out of range, a withdrawal written after the next draw are refused (exit 2, Czech, ``--lang en``);
withdrawals and exclusions are written in ``withdrawals.csv``; the folder keeps its own append-only deník
(``denik.jsonl``) as things happen; ``ladder``, ``standings`` and ``export-tsh`` take a deník file as well as a
folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tournament_cli import run, thirteen_players

from shared.version import version_text
from tournament.events import decode_event

HEADER = "round,table,first,second,first_score,second_score,kind\n"


def four(tmp_path: Path) -> Path:
    (tmp_path / "players.csv").write_text("id,name,club,rating\nA,Adam,,1800\nB,Bára,,1700\nC,Cyril,,1600\n"
                                          "D,Dana,,1500\n", encoding="utf-8")
    return tmp_path


@pytest.fixture
def thirteen(tmp_path: Path) -> Path:
    return thirteen_players(tmp_path)


def denik(path: Path) -> list[dict]:
    return [json.loads(line) for line in (path / "denik.jsonl").read_text(encoding="utf-8").splitlines()]


def test_a_drawn_game_without_a_result_stops_the_next_draw_naming_round_and_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Round 1 drawn by `pair`, one table's result typed in: `pair` named no table and drew round 2 without the
    other two players (both "withdrawn"), exit 0. Now: exit 2, the round and the table, Czech or English."""
    folder = four(tmp_path)
    code, out, _ = run(capsys, "pair", str(folder), "--json", "--seed", "3")
    assert code == 0
    games = json.loads(out)
    first = games[0]
    (folder / "results.csv").write_text(HEADER + f"1,{first['table']},{first['first']},{first['second']},400,300,"
                                        "played\n", encoding="utf-8")
    missing = next(g["table"] for g in games if g["table"] != first["table"])
    code, out, err = run(capsys, "pair", str(folder))
    assert code == 2 and out == ""
    assert f"kolo 1, stůl {missing}: vylosovaná partie nemá výsledek" in err and "results.csv" in err
    code, _, err = run(capsys, "pair", str(folder), "--lang", "en")
    assert code == 2 and f"round 1, table {missing}: a paired game has no result" in err
    code, out, _ = run(capsys, "standings", str(folder), "--json")  # the round is being played: standings show it
    assert code == 0 and all(r["status"] == "active" for r in json.loads(out)["rows"])


def test_a_player_missing_from_a_round_is_refused_not_withdrawn(thirteen: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Round 2's line of one game deleted from results.csv: both players were logged "odstoupil" and `pair`
    drew round 4 without them, exit 0. Now the folder names the player and the round."""
    folder = thirteen
    lines = (folder / "results.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    game = next(i for i, line in enumerate(lines) if line.startswith("2,") and line.rstrip().endswith("played"))
    player = lines[game].split(",")[2]
    (folder / "results.csv").write_text("".join(lines[:game] + lines[game + 1:]), encoding="utf-8")
    code, out, err = run(capsys, "pair", str(folder))
    assert code == 2 and out == "" and "Odstoupení" not in err
    assert f"hráč {player} nemá v kole 2 partii ani volný los" in err
    assert not (folder / "denik.jsonl").exists() or "PlayerWithdrawn" not in (folder / "denik.jsonl").read_text()


def test_a_result_deleted_after_it_was_logged_is_named_by_round_and_table(thirteen: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = thirteen
    assert run(capsys, "standings", str(folder))[0] == 0  # the deník now holds every result
    lines = (folder / "results.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    game = next(i for i, line in enumerate(lines) if line.startswith("3,") and line.rstrip().endswith("played"))
    table = lines[game].split(",")[1]
    (folder / "results.csv").write_text("".join(lines[:game] + lines[game + 1:]), encoding="utf-8")
    code, _, err = run(capsys, "standings", str(folder))
    assert code == 2 and f"kolo 3, stůl {table}: výsledek zapsaný v deníku v souboru chybí" in err


def test_withdrawals_and_exclusions_are_written_in_their_own_file(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = four(tmp_path)
    (folder / "results.csv").write_text(HEADER + "1,1,A,C,400,300,played\n1,2,D,B,0,100,exclusion\n",
                                        encoding="utf-8")
    (folder / "withdrawals.csv").write_text("player,round,kind,reason\nC,1,withdrawn,nemoc\n"
                                            "D,1,excluded,hrubé porušení řádu\n", encoding="utf-8")
    code, out, _ = run(capsys, "pair", str(folder), "--json")
    assert code == 0 and [{g["first"], g["second"]} for g in json.loads(out)] == [{"A", "B"}]
    rows = {r["id"]: r["status"] for r in json.loads(run(capsys, "standings", str(folder), "--json")[1])["rows"]}
    assert rows == {"A": "active", "B": "active", "C": "withdrawn", "D": "excluded"}
    log = run(capsys, "log", str(folder))[1]
    # D's exclusion result already excludes D from the tournament (seed 004): the row in withdrawals.csv agrees with
    # the deník and adds no second entry
    assert "Odstoupení C (nemoc)" in log and "D 0:100 B (vyloučení)" in log
    (folder / "withdrawals.csv").write_text("player,round,kind,reason\nC,1,left,\n", encoding="utf-8")
    code, _, err = run(capsys, "standings", str(folder), "--lang", "en")
    assert code == 2 and "withdrawals.csv, line 2, field kind: unknown kind (withdrawn or excluded)" in err


def test_a_withdrawal_written_after_the_next_draw_is_refused(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 004: a player who withdraws after the next round was drawn owes that game."""
    folder = four(tmp_path)
    (folder / "results.csv").write_text(HEADER + "1,1,A,C,400,300,played\n1,2,D,B,350,300,played\n",
                                        encoding="utf-8")
    assert run(capsys, "pair", str(folder))[0] == 0  # round 2 drawn
    (folder / "withdrawals.csv").write_text("player,round,kind,reason\nC,1,withdrawn,\n", encoding="utf-8")
    code, _, err = run(capsys, "standings", str(folder))
    assert code == 2 and "hráč C: kolo 2 už je vylosované, partii musí odehrát" in err
    (folder / "withdrawals.csv").write_text("player,round,kind,reason\nC,2,withdrawn,\n", encoding="utf-8")
    assert run(capsys, "standings", str(folder))[0] == 0


@pytest.mark.parametrize("score", ["2500", "-1001"])
def test_a_score_out_of_range_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], score: str) -> None:
    folder = four(tmp_path)
    (folder / "results.csv").write_text(HEADER + f"1,1,A,C,{score},300,played\n1,2,D,B,350,300,played\n",
                                        encoding="utf-8")
    code, _, err = run(capsys, "standings", str(folder))
    assert code == 2 and "results.csv, řádek 2, pole first_score: skóre mimo rozsah -1000 až 2000" in err
    code, _, err = run(capsys, "standings", str(folder), "--lang", "en")
    assert code == 2 and "score outside -1000 to 2000" in err


def test_the_folder_keeps_its_own_append_only_denik(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each draw with its method, seed and time; a result when it is typed in; a correction as a new entry; the
    software's build in the settings entry; nothing rewritten, nothing added when nothing changed."""
    folder = four(tmp_path)
    assert run(capsys, "pair", str(folder), "--seed", "7")[0] == 0
    log = denik(folder)
    assert [e["type"] for e in log] == ["SettingsChanged", *["PlayerRegistered"] * 4, "RoundPaired",
                                        "RoundPublished"]
    assert log[0]["version"] == version_text() and "+" in log[0]["version"]
    paired = log[5]
    assert paired["seed"] == 7 and paired["method"] == "swiss" and paired["at"].endswith("+00:00")
    games = [(p["table"], p["first"], p["second"]) for p in paired["pairings"]]
    (folder / "results.csv").write_text(HEADER + "".join(f"1,{t},{a},{b},400,300,played\n" for t, a, b in games),
                                        encoding="utf-8")
    assert run(capsys, "standings", str(folder))[0] == 0
    assert run(capsys, "standings", str(folder))[0] == 0  # nothing changed: nothing appended
    after = denik(folder)
    assert after[:7] == log and [e["type"] for e in after[7:]] == ["ResultRecorded", "ResultRecorded",
                                                                   "RoundClosed"]
    t, a, b = games[0]
    (folder / "results.csv").write_text(HEADER + f"1,{t},{a},{b},410,300,played\n" + "".join(
        f"1,{t},{a},{b},400,300,played\n" for t, a, b in games[1:]), encoding="utf-8")
    assert run(capsys, "log", str(folder))[0] == 0
    corrected = denik(folder)
    assert corrected[:10] == after and corrected[10]["type"] == "ResultCorrected"
    assert corrected[10]["first_score"] == 410 and corrected[10]["reason"] == "results.csv"
    code, out, _ = run(capsys, "log", str(folder), "--json")
    assert [json.loads(line) for line in out.splitlines()] == corrected  # `log` prints the folder's deník
    assert all(decode_event(e) for e in corrected)


def test_pair_prints_a_drawn_round_again_and_refuses_another_seed(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = four(tmp_path)
    first = run(capsys, "pair", str(folder), "--json", "--seed", "7")[1]
    code, again, err = run(capsys, "pair", str(folder), "--json")
    assert code == 0 and again == first and "kolo 1 už je vylosováno a zapsáno v deníku" in err
    code, out, err = run(capsys, "pair", str(folder), "--seed", "8")
    assert code == 2 and out == "" and "kolo 1 už je vylosováno (semínko 7)" in err
    assert sum(e["type"] == "RoundPaired" for e in denik(folder)) == 1


def test_an_unwritable_denik_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = four(tmp_path)
    (folder / "denik.jsonl").mkdir()  # a directory where the file should be: neither read nor appended
    code, out, err = run(capsys, "pair", str(folder))
    assert code == 2 and out == "" and "denik.jsonl" in err


def test_ladder_standings_and_tsh_take_a_denik_file(thirteen: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`ladder FILE.jsonl` failed on every deník file ("…/denik.jsonl/players.csv … chybí sloupec")."""
    folder = thirteen
    log = folder.parent / "export.jsonl"
    log.write_text(run(capsys, "log", str(folder), "--json")[1], encoding="utf-8")
    for command in (["ladder"], ["ladder", "--csv"], ["ladder", "--games"], ["standings", "--json"],
                    ["export-tsh"]):
        from_folder = run(capsys, command[0], str(folder), *command[1:])
        from_log = run(capsys, command[0], str(log), *command[1:])
        assert from_log[0] == 0 and from_log[2] == "", (command, from_log[2])
        assert from_log[1] == from_folder[1] and from_log[1], command


def test_the_ladders_documented_assumptions_hold() -> None:
    """docs/tournament.md: a newcomer opponent counts at newcomer_rating; an exclusion game is rated as played; a
    forfeit is not."""
    from tournament.events import PlayerRegistered, ResultRecorded, RoundClosed, RoundPaired, RoundPublished
    from tournament.games import Pairing
    from tournament.ladder import expected, ladder
    from tournament.players import Player
    from tournament.settings import TournamentSettings
    from tournament.simulate import AT, ev_settings
    from tournament.state import Tournament

    events = [ev_settings(TournamentSettings(rounds=3, newcomer_rating=1200)),
              *(PlayerRegistered(at=AT, by="t", player=p) for p in (
                  Player("A", rating=1500), Player("N"), Player("B", rating=1400), Player("C", rating=1300)))]
    for number, games in ((1, (("A", "N", 400, 300, "played"), ("B", "C", 100, 0, "forfeit"))),
                          (2, (("A", "B", 0, 100, "exclusion"), ("N", "C", 350, 340, "played")))):
        events.append(RoundPaired(at=AT, by="t", round=number, method="manual",
                                  pairings=tuple(Pairing(i + 1, g[0], g[1]) for i, g in enumerate(games))))
        events.append(RoundPublished(at=AT, by="t", round=number))
        events += [ResultRecorded(at=AT, by="t", round=number, table=i + 1, first=g[0], second=g[1],
                                  first_score=g[2], second_score=g[3], kind=g[4]) for i, g in enumerate(games)]
        events.append(RoundClosed(at=AT, by="t", round=number))
    rows = {r.id: r for r in ladder(Tournament.from_events(events))}
    assert rows["A"].games == 2 and rows["A"].losses == 1  # the exclusion game is rated
    assert rows["A"].expected == round(expected(1500, 1200) + expected(1500, 1400), 3)  # N counted at 1200
    assert rows["B"].games == 1 and rows["C"].games == 1  # the forfeit is not


def test_a_player_withdrawn_before_round_1_is_never_paired(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = four(tmp_path)
    (folder / "players.csv").write_text((folder / "players.csv").read_text(encoding="utf-8") + "E,Eva,,1400\n",
                                        encoding="utf-8")
    (folder / "withdrawals.csv").write_text("player,round,kind,reason\nE,0,withdrawn,nepřijela\n", encoding="utf-8")
    code, out, _ = run(capsys, "pair", str(folder), "--json")
    assert code == 0 and "E" not in {p for g in json.loads(out) for p in g.values()} and len(json.loads(out)) == 2
    paired = next(e for e in denik(folder) if e["type"] == "RoundPaired")
    games = [(p["table"], p["first"], p["second"]) for p in paired["pairings"]]
    (folder / "results.csv").write_text(HEADER + "".join(f"1,{t},{a},{b},400,300,played\n" for t, a, b in games),
                                        encoding="utf-8")
    assert run(capsys, "pair", str(folder))[0] == 0 and run(capsys, "standings", str(folder))[0] == 0
    assert "Odstoupení E (nepřijela)" in run(capsys, "log", str(folder))[1]


def test_a_denik_in_use_by_another_command_is_said_not_appended_twice(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Two commands on one folder at once would append the same entries twice: the second is refused."""
    import fcntl

    folder = four(tmp_path)
    with (folder / "denik.jsonl").open("a", encoding="utf-8") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # another command at work
        code, out, err = run(capsys, "pair", str(folder))
        assert code == 2 and out == "" and "deník právě zapisuje jiný příkaz" in err
        assert (folder / "denik.jsonl").read_text(encoding="utf-8") == ""
    assert run(capsys, "pair", str(folder))[0] == 0
    assert sum(e["type"] == "RoundPaired" for e in denik(folder)) == 1


def test_a_withdrawal_before_round_1_in_a_folder_paired_by_hand(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Rounds typed into results.csv (no `pair`) and a player withdrawn before round 1: registered in players.csv
    order, withdrawn before round 1, never paired; the next command finds nothing to add."""
    folder = four(tmp_path)
    (folder / "players.csv").write_text("id,name,club,rating\nA,Adam,,1800\nE,Eva,,1400\nB,Bára,,1700\n"
                                        "C,Cyril,,1600\nD,Dana,,1500\n", encoding="utf-8")
    (folder / "results.csv").write_text(HEADER + "1,1,A,C,400,300,played\n1,2,D,B,350,300,played\n",
                                        encoding="utf-8")
    (folder / "withdrawals.csv").write_text("player,round,kind,reason\nE,0,withdrawn,\n", encoding="utf-8")
    assert run(capsys, "standings", str(folder))[0] == 0
    log = denik(folder)
    assert [e["player"]["id"] for e in log if e["type"] == "PlayerRegistered"] == ["A", "E", "B", "C", "D"]
    assert [e["type"] for e in log].index("PlayerWithdrawn") < [e["type"] for e in log].index("RoundPaired")
    assert run(capsys, "standings", str(folder))[0] == 0 and denik(folder) == log
