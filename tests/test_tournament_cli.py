"""``partiar tournament``: a folder's players.csv and results.csv in, pairings, standings, the ladder, the log and
TSH's .t file out; bad input refused with a message naming the file, line and field (exit 2). And the package's
layering: the core imports nothing of the table, the hub or the simulator, and no I/O."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_layering import ROOT, forbidden_imports, imported_modules

from device.cli import main
from tournament.folder import (
    players_csv,
    read_leaving,
    read_players,
    read_results,
    results_csv,
    withdrawals_csv,
)
from tournament.folder_denik import entries_to_append
from tournament.settings import TournamentSettings
from tournament.simulate import simulate
from tournament.state import Tournament


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["tournament", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return thirteen_players(tmp_path)


def thirteen_players(tmp_path: Path) -> Path:
    """A 13-player event after 3 rounds (a withdrawal and byes included), written as a tournament folder."""
    sim = simulate(13, 3, seed=11, withdrawals=1)
    (tmp_path / "players.csv").write_text(players_csv(list(sim.tournament.players.values())), encoding="utf-8")
    (tmp_path / "results.csv").write_text(results_csv(sim.tournament), encoding="utf-8")
    (tmp_path / "withdrawals.csv").write_text(withdrawals_csv(sim.tournament), encoding="utf-8")
    return tmp_path


def test_pair_prints_the_next_round_as_json(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "pair", str(folder), "--json")
    assert code == 0
    games = json.loads(out)
    tables = [g for g in games if "table" in g]
    byes = [g for g in games if "bye" in g]
    assert [g["table"] for g in tables] == list(range(1, len(tables) + 1))
    assert all(set(g) == {"table", "first", "second"} for g in tables)
    t = Tournament.from_events(_events(folder))
    assert sorted([*(p for g in tables for p in (g["first"], g["second"])), *(b["bye"] for b in byes)]) == \
        sorted(t.active(4))
    assert len(byes) == len(t.active(4)) % 2
    again = run(capsys, "pair", str(folder), "--json")[1]
    assert json.loads(again) == games  # the same folder pairs the same round


def _events(folder: Path) -> list:
    text = (folder / "players.csv").read_text(encoding="utf-8")
    players = read_players(text)
    rows = read_results((folder / "results.csv").read_text(encoding="utf-8"), known=[p.id for p in players])
    leaving = read_leaving((folder / "withdrawals.csv").read_text(encoding="utf-8"), known=[p.id for p in players])
    return entries_to_append([], players, rows, leaving, TournamentSettings(), software="partiar", version="test",
                             at="2026-11-28T09:00:00+00:00", by="test")


def test_round_1_pairs_from_players_alone_and_the_seed_is_reproducible(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "players.csv").write_text("id,name,club,rating\n" + "".join(
        f"C{i},Hráč {i},,{1000 + 50 * i if i < 9 else ''}\n" for i in range(10)), encoding="utf-8")
    a = json.loads(run(capsys, "pair", str(tmp_path), "--json", "--seed", "5")[1])
    b = json.loads(run(capsys, "pair", str(tmp_path), "--json", "--seed", "5")[1])
    assert a == b and len(a) == 5
    top = {f"C{i}" for i in range(4, 9)}  # the five strongest (C9 is a newcomer, seeded at 1000)
    assert all((g["first"] in top) != (g["second"] in top) for g in a)


def test_standings_json_has_the_issues_fields(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "standings", str(folder), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rounds"] == 3
    assert set(data["coefficients"]) == {"A", "B", "C", "D"}
    rows = data["rows"]
    assert len(rows) == 13
    for row in rows:
        assert {"id", "points", "turcas", "buchholz", "own_score", "score_difference", "starts_balance"} <= set(row)
    keys = [(r["points"], r["turcas"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert any(r["status"] == "withdrawn" for r in rows)  # a withdrawn player keeps their line


def test_the_readable_tables_are_czech_or_english(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "standings", str(folder))[1]
    assert "Pořadí po 3. kole" in out and "Body" in out and "A = 100" in out
    out = run(capsys, "standings", str(folder), "--lang", "en")[1]
    assert "Standings after round 3" in out and "Points" in out
    out = run(capsys, "pair", str(folder))[1]
    assert "Kolo 4" in out and "Začíná" in out


def test_log_ladder_and_tsh(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "log", str(folder))[1]
    assert "Software partiar" in out and "Los 1. kola" in out and "Odstoupení" in out
    lines = run(capsys, "log", str(folder), "--json")[1].splitlines()
    assert json.loads(lines[0])["type"] == "SettingsChanged"
    assert "<table>" in run(capsys, "log", str(folder), "--html")[1]
    ladder = run(capsys, "ladder", str(folder), "--csv")[1].splitlines()
    assert ladder[0].startswith("id,name,rating_before") and len(ladder) == 14
    games = run(capsys, "ladder", str(folder), "--games")[1].splitlines()
    assert games[0] == "round,id,opponent,started,own_score,opponents_score,result,kind"
    tsh = run(capsys, "export-tsh", str(folder))[1].splitlines()
    assert len(tsh) == 13 and all(line.count(";") == 6 and "; p12 " in line and "; id P" in line for line in tsh)


@pytest.mark.parametrize(("file", "text", "cs", "en"), [
    ("players.csv", "id,name,club,rating\nA,Jan,,1500\nA,Eva,,1400\n",
     "players.csv, řádek 3, pole id: ID hráče je v souboru dvakrát (A)",
     "players.csv, line 3, field id: the player id appears twice (A)"),
    ("players.csv", "id,name,club,rating\nA,Jan,,1500\nB,Eva,,čtrnáct\n",
     "players.csv, řádek 3, pole rating: není celé číslo (čtrnáct)",
     "players.csv, line 3, field rating: not a whole number (čtrnáct)"),
    ("results.csv", "round,table,first,second,first_score,second_score,kind\n1,1,A,X,400,300,played\n",
     "results.csv, řádek 2, pole second: neznámé ID hráče (není v players.csv) (X)",
     "results.csv, line 2, field second: unknown player id (not in players.csv) (X)"),
    ("results.csv", "round,table,first,second,first_score,second_score,kind\n1,1,A,B,400\n",
     "results.csv, řádek 2, pole -: jiný počet buněk než v záhlaví",
     "results.csv, line 2, field -: a different number of cells than the header"),
    ("results.csv", "round,table,first,second,first_score,second_score,kind\n1,1,A,B,400,300,won\n",
     "results.csv, řádek 2, pole kind: neznámý druh výsledku",
     "results.csv, line 2, field kind: unknown kind of result"),
])
def test_bad_input_names_the_file_line_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str,
                                                  text: str, cs: str, en: str) -> None:
    (tmp_path / "players.csv").write_text("id,name,club,rating\nA,Jan,,1500\nB,Eva,,1400\n", encoding="utf-8")
    (tmp_path / file).write_text(text, encoding="utf-8")
    for lang, expected in (("cs", cs), ("en", en)):
        for command in ("pair", "standings"):
            code, out, err = run(capsys, command, str(tmp_path), "--lang", lang)
            assert code == 2 and out == ""
            assert expected in err, err


def test_a_file_not_in_utf8_or_missing_is_named_in_czech(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A players.csv saved by Czech Excel (Windows-1250, semicolons) is read (before: refused as not UTF-8, and
    semicolons as "chybí sloupec id"); bytes that are neither UTF-8 nor Windows-1250, or no players.csv: the
    message names the file (and the line) in the organiser's words, not Python's "'utf-8' codec can't decode"."""
    code, _, err = run(capsys, "pair", str(tmp_path))
    assert code == 2 and err.strip() == f"partiar tournament: {tmp_path / 'players.csv'}: soubor neexistuje"
    (tmp_path / "players.csv").write_bytes("id;jméno;klub;síla\nA;Jan;;1500\nB;Eva Malá;Čáslav;1400\n".encode("cp1250"))
    code, out, err = run(capsys, "pair", str(tmp_path), "--json")
    assert code == 0 and err == "" and {"A", "B"} <= set(out.replace('"', " ").split()), (out, err)
    assert read_players((tmp_path / "players.csv").read_bytes().decode("cp1250"))[1].club == "Čáslav"
    (tmp_path / "players.csv").write_bytes(b"id,name,club,rating\nA,Jan,,1500\nB,Eva \x81,,1400\n")
    for lang, expected in (("cs", "players.csv, řádek 3, pole -: text není v kódování UTF-8 ani Windows-1250"),
                           ("en", "players.csv, line 3, field -: the text is neither UTF-8 nor Windows-1250")):
        code, out, err = run(capsys, "pair", str(tmp_path), "--lang", lang)
        assert code == 2 and out == "" and expected in err and "codec" not in err, err


def test_a_result_that_does_not_fit_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "players.csv").write_text("id,name,club,rating\nA,Al,,1\nB,Bo,,2\nC,Cy,,3\nD,Di,,4\n", encoding="utf-8")
    (tmp_path / "results.csv").write_text("round,table,first,second,first_score,second_score,kind\n"
                                          "1,1,A,B,400,300,played\n1,2,C,A,400,300,played\n", encoding="utf-8")
    code, _, err = run(capsys, "standings", str(tmp_path))
    assert code == 2 and "results.csv, řádek 2" in err and "'A' is paired twice" in err


def test_the_tournament_core_imports_no_other_package_and_no_io() -> None:
    package = ROOT / "tournament"
    assert forbidden_imports(package, {"device", "hub", "hw_sim", "eventstream", "firmware", "wiring"}) == []
    io_modules = {"os", "pathlib", "socket", "sqlite3", "subprocess", "time", "datetime", "threading", "asyncio",
                  "logging", "tomllib", "sys"}
    import ast

    for path in sorted(package.glob("*.py")):
        if path.name == "cli.py":  # the command line reads the folder's files
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [m for _, m in imported_modules(tree) if m.split(".")[0] in io_modules]
        assert found == [], f"{path.name} imports {found}"


def test_a_denik_file_gives_the_same_standings_as_its_folder(folder: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "denik.jsonl"
    log.write_text(run(capsys, "log", str(folder), "--json")[1], encoding="utf-8")
    assert json.loads(run(capsys, "standings", str(log), "--json")[1]) == \
        json.loads(run(capsys, "standings", str(folder), "--json")[1])
    lines = log.read_text(encoding="utf-8").splitlines()
    lines.insert(3, lines[1])  # a player registered twice
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "standings", str(log))
    assert code == 2 and "denik.jsonl, řádek 4" in err and "already registered" in err
    log.write_text("{not json\n", encoding="utf-8")
    code, _, err = run(capsys, "standings", str(log), "--lang", "en")
    assert code == 2 and "denik.jsonl, line 1" in err and "not JSON" in err


def test_settings_toml_sets_the_tiebreak_and_a_bad_key_is_named(folder: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "settings.toml").write_text('rounds = 5\n[standings]\ntiebreak = "buchholz"\nA = 50\n',
                                          encoding="utf-8")
    data = json.loads(run(capsys, "standings", str(folder), "--json")[1])
    assert data["tiebreak"] == "buchholz" and data["coefficients"]["A"] == 50
    (folder / "settings.toml").write_text("colour = 1\n", encoding="utf-8")
    code, _, err = run(capsys, "standings", str(folder))
    assert code == 2 and "settings.toml" in err and "colour" in err


def test_pair_after_the_last_planned_round_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rounds = 1 in settings.toml and round 1 played: `pair` says the event is over (before: it drew round 2)."""
    (tmp_path / "players.csv").write_text("id,name,club,rating\nA,Jan,,1500\nB,Eva,,1400\n", encoding="utf-8")
    (tmp_path / "results.csv").write_text("round,table,first,second,first_score,second_score,kind\n"
                                          "1,1,A,B,400,300,played\n", encoding="utf-8")
    (tmp_path / "settings.toml").write_text("rounds = 1\n", encoding="utf-8")
    code, out, err = run(capsys, "pair", str(tmp_path))
    assert code == 2 and out == "" and "všechna kola turnaje jsou odehrána; pro další kolo zvyšte rounds (1)" in err
    code, out, _ = run(capsys, "standings", str(tmp_path))
    assert code == 0 and "pomocné kritérium: TurČAS" in out


def test_a_withdrawal_from_a_folder_gives_its_reason_in_the_logs_language(folder: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A folder's withdrawals are written in withdrawals.csv with their reason, logged as written; a deník of
    before (a folder then withdrew a player after their last round, reason "žádná partie po tomto kole") says
    that reason in Czech, and in English with --lang en."""
    from tournament.events import PlayerWithdrawn
    from tournament.report import describe

    out = run(capsys, "log", str(folder))[1]
    withdrawn = [line for line in out.splitlines() if "Odstoupení" in line]
    assert [line.split("Odstoupení ")[1] for line in withdrawn] == ["P009 (sim)", "P001 (after the draw)"]
    old = PlayerWithdrawn(at="2026-11-28T10:00:00Z", by="x", player_id="7", reason="žádná partie po tomto kole")
    assert describe(old) == "Odstoupení 7 (žádná partie po tomto kole)"
    assert describe(old, "en") == "Withdrawal of 7 (no game after this round)"
    old = PlayerWithdrawn(at="2026-11-28T10:00:00Z", by="x", player_id="7", reason="no game after this round")
    assert describe(old) == "Odstoupení 7 (žádná partie po tomto kole)"
    typed = PlayerWithdrawn(at="2026-11-28T10:00:00Z", by="x", player_id="7", reason="nemoc")
    assert describe(typed, "en") == "Withdrawal of 7 (nemoc)"


def test_standings_json_of_a_denik_mid_round_counts_the_complete_rounds(folder: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A deník with round 4 paired and not played: --json said "rounds": 4 (the last paired); the tie-break counts
    rounds 1-3, and so does "rounds" now (as the hub's footer)."""
    from tournament.events import RoundPublished, decode_event, encode_event
    from tournament.pairing import draw
    from tournament.state import Tournament

    lines = run(capsys, "log", str(folder), "--json")[1].splitlines()
    tournament = Tournament.from_events(decode_event(json.loads(line)) for line in lines)
    paired = draw(tournament, 5, "2026-11-28T12:00:00Z", "test")
    published = RoundPublished(at="2026-11-28T12:00:00Z", by="test", round=paired.round)
    log = tmp_path / "mid.jsonl"
    log.write_text("\n".join(lines + [json.dumps(encode_event(e)) for e in (paired, published)]) + "\n",
                   encoding="utf-8")
    code, out, _ = run(capsys, "standings", str(log), "--json")
    assert code == 0 and paired.round == 4 and json.loads(out)["rounds"] == 3
    code, out, _ = run(capsys, "standings", str(folder), "--json")
    assert code == 0 and json.loads(out)["rounds"] == 3


def test_the_starts_column_is_named_replies_minus_starts(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The column shows starts_balance (replies minus starts) but was headed "Zač." / "Starts", the wrong way
    round."""
    header = run(capsys, "standings", str(folder))[1].splitlines()[2]
    assert "Odp.−Zač." in header.split() and "Zač." not in header.split()
    header = run(capsys, "standings", str(folder), "--lang", "en")[1].splitlines()[2]
    assert "Repl.−Starts" in header.split() and "Starts" not in header.split()
