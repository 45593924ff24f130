"""The tournament desk on the hub (``hub.director``, ``hub.director_pages``, ``hub.tournament_store``): the director's forms
against a real uvicorn and a real mosquitto, the deník append-only in SQLite, bad input refused with a message that
names it, a player never split by an id registered late, the tables' games filed under the pairing's ids."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from desk_rig import PLAYERS, Director, close_round_1, start_desk_hub
from mosquitto_fixture import HUB_PASSWORD, REFEREE, REFEREE_PASSWORD, HubProcess, broker  # noqa: F401 - the fixture

from hub import director as desk_module
from hub.auth import RefereeAuth
from hub.db import Database
from hub.director import Desk, DeskError, parse_players_csv
from hub.store import GameResult, HubStore
from hub.tournament_store import DenikStore
from tournament.events import ResultCorrected, ResultRecorded, decode_event


@pytest.fixture
def desk() -> Desk:
    db = Database()
    desk = Desk(HubStore(db), DenikStore(db))
    desk.start("test")
    return desk


@pytest.mark.parametrize("text, error", [
    ("1203,Eva,Brno,15x0\n", "CSV, řádek 1, pole rating: není celé číslo (15x0)"),
    ("id,name\n1203,Eva\n1203,Jan\n", "CSV, řádek 3, pole id: ID hráče je v souboru dvakrát (1203)"),
    ("1203\n", "CSV, řádek 1, pole name: chybí sloupec (záhlaví id,name,club,rating nebo id;jméno;klub;síla)"),
    ("1203,,Brno\n", "CSV, řádek 1, pole name: chybí jméno hráče (1203)"),
    ("id,name\n", "CSV: v seznamu nejsou žádní hráči"),
    # a row shorter than the header is refused (before: registered without a rating, a newcomer at 1000)
    ("id,name,club,rating\n1203,Eva,1500\n", "CSV, řádek 2, pole -: jiný počet buněk než v záhlaví (3/4)"),
])  # fmt: skip
def test_a_bad_players_csv_is_refused_naming_the_line_in_czech(text, error) -> None:
    """The desk reads players through tournament's one reader and says its refusal in the organiser's words
    (before: "players CSV line 1: expected id,name,club,rating; got 1 fields" inside the Czech "Odmítnuto:")."""
    from hub.director_pages import refusal_text

    with pytest.raises(DeskError) as caught:
        parse_players_csv(text)
    assert refusal_text(caught.value, "cs") == error


def test_a_czech_excel_players_list_is_read_as_the_command_line_reads_it() -> None:
    """Semicolons and Czech headings (what Czech Excel saves), any column order, the optional games column: the
    desk's import and ``partiar tournament`` read the same list the same way (before: "chybí sloupec id")."""
    from tournament.folder import read_players

    text = "Jméno;ČAS id;Klub;Síla;Partie\nEva Malá;1203;Brno;1500;40\nJan Novák;877;;;\n"
    players = parse_players_csv(text)
    assert [(p.id, p.name, p.club, p.rating) for p in players] == [("1203", "Eva Malá", "Brno", 1500),
                                                                     ("877", "Jan Novák", "", None)]
    assert players == read_players(text)


def test_the_denik_is_append_only_and_the_state_is_rebuilt_from_it(tmp_path, monkeypatch) -> None:
    db = Database(tmp_path / "t.sqlite")
    desk = Desk(HubStore(db), DenikStore(db))
    desk.start("test")
    desk.import_csv(PLAYERS, "test")
    desk.pair("test")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE denik SET by = 'someone else'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM denik")
    with pytest.raises(DeskError, match="round 1 is not published yet"):
        desk.send(1)
    entries = desk.denik.entries()
    db.close()
    again = Database(tmp_path / "t.sqlite")
    rebuilt = DenikStore(again)
    assert rebuilt.entries() == entries
    assert rebuilt.tournament.rounds[1].pairing == desk.tournament.rounds[1].pairing
    first = entries[0]["event"]
    assert first["type"] == "SettingsChanged" and first["software"] == "partiar" and first["settings"]["standings"]
    Desk(HubStore(again), rebuilt).start("hub")  # the same software starts again: nothing to log
    assert len(rebuilt.entries()) == len(entries)
    monkeypatch.setattr(desk_module, "software_version", lambda: "9.9")  # an upgrade during the tournament
    Desk(HubStore(again), rebuilt).start("hub")
    upgrade = rebuilt.entries()[-1]["event"]
    assert upgrade["type"] == "SettingsChanged" and upgrade["version"] == "9.9" and upgrade["settings"] == first["settings"]
    paired = entries[-1]["event"]
    assert paired["type"] == "RoundPaired" and isinstance(paired["seed"], int)  # the draw's seed is logged
    again.close()


@pytest.mark.parametrize("end, scores, void, kind, points", [
    ("played_out", (412, 398), False, "played", (1.0, 0.0)),
    ("forfeit", (0, 100), False, "forfeit", (0.0, 1.0)),  # the starting player did not come
    ("forfeit", (0, 0), True, "forfeit", (0.0, 0.0)),  # neither came: 0:0, no points (004)
    ("dispute_forfeit", (100, 0), False, "forfeit", (1.0, 0.0)),  # the referee's kontumace in a dispute
    ("dispute_forfeit", (0, 0), True, "void", (0.0, 0.0)),
    ("disqualified", (0, 163), False, "exclusion", (0.0, 1.0)),  # third warning: 0:margin above 100
    ("resigned", (0, 100), False, "played", (0.0, 1.0)),
])  # fmt: skip
def test_every_way_a_table_game_ends_is_filed_as_the_package_counts_it(desk, monkeypatch, end, scores, void, kind,
                                                                       points) -> None:  # fmt: skip
    desk.import_csv("id,name\n1,A\n2,B\n", "test")
    desk.pair("test")
    desk.publish(1, "test")
    game = desk.tournament.rounds[1].pairing.pairings[0]
    result = GameResult(1, "1", "g", ("A", "B"), (game.first, game.second), scores, end, void)
    monkeypatch.setattr(desk.store, "results", lambda round_number=None: [result])
    assert desk.file_table_results() == 1, desk.unfiled
    filed = desk.tournament.rounds[1].results[1]
    assert filed.kind == kind and (filed.first_score, filed.second_score) == scores
    assert tuple(desk.tournament.points(p) for p in (game.first, game.second)) == points


def test_a_late_cas_id_does_not_split_the_player(desk) -> None:
    desk.import_csv("id,name\nnew-1,Eva Malá\n877,Jan Novák\n", "test")
    desk.pair("test")
    desk.publish(1, "test")
    desk.enter_result(1, 1, 420, 380, "played", "test")
    desk.close_round(1, "test")
    desk.change_id("new-1", "1203", "test", "ČAS id after round 1")
    desk.import_csv("id,name\n1203,Eva Malá-Nová\n", "test")  # a new name: the same player
    rows = {row.id: row for row in desk.standings()}
    assert set(rows) == {"1203", "877"}  # one line per player, the results under the new id
    assert rows["1203"].games == 1 and rows["1203"].own_score + rows["877"].own_score == 800
    assert rows["1203"].name == "Eva Malá-Nová"


def game_result(table: str, ids: tuple[str, str], scores: tuple[int, int], end: str = "played_out",
                round_number: int = 1, names: tuple[str, str] = ("A", "B")) -> GameResult:  # fmt: skip
    return GameResult(round_number, table, f"g-{table}", names, ids, scores, end)


def test_the_tables_games_are_filed_under_the_pairings_ids(desk, monkeypatch) -> None:
    desk.import_csv(PLAYERS, "test")
    desk.pair("test")
    desk.publish(1, "test")
    one, two = desk.tournament.rounds[1].pairing.pairings
    results = [game_result("1", (one.first, one.second), (401, 377)),  # as the pairing says
               game_result("2", ("999", two.second), (300, 200))]  # a table that played someone else
    monkeypatch.setattr(desk.store, "results", lambda round_number=None: results)
    assert desk.file_table_results() == 1
    assert desk.tournament.rounds[1].results[1].first_score == 401
    assert desk.tournament.rounds[1].results[1].source == "table"
    assert 2 not in desk.tournament.rounds[1].results
    waiting = desk.unfiled[(1, "2", "g-2")]
    assert waiting.reason == "pending_players" and not waiting.acceptable
    with pytest.raises(DeskError, match="result missing: table 2"):
        desk.close_round(1, "test")
    results[0] = game_result("1", (one.first, one.second), (401, 390))  # the game changed at the table
    desk.forfeit(1, 2, "second", "test")
    assert desk.file_table_results() == 0  # a table never changes a recorded result: it waits for the director
    assert desk.tournament.rounds[1].results[1].second_score == 377
    assert desk.unfiled[(1, "1", "g-1")].reason == "pending_recorded"
    desk.accept(1, "1", "g-1", "director")
    events = desk.denik.events()
    assert isinstance(events[-1], ResultCorrected) and events[-1].second_score == 390 and events[-1].by == "director"
    assert isinstance(events[-2], ResultRecorded) and events[-2].kind == "forfeit"
    desk.reject(1, "2", "g-2", "director")
    assert desk.file_table_results() == 0 and not desk.unfiled  # the ruling settled it, the rejection stays
    desk.close_round(1, "test")


def test_the_director_runs_a_round_through_the_pages(broker, tmp_path) -> None:  # noqa: F811
    hub = start_desk_hub(broker.url)
    try:
        director = Director(hub.port)
        assert "Přihlášen" in director.page()
        assert director.ok("info", name="Velká cena Brna", place="Brno", date="28.11.2026")
        assert director.ok("import", csv=PLAYERS) == "Hotovo: načteno hráčů: 4"
        _, error = director.do("register", id="13", name="Věra", rating="abc")
        assert error == "Odmítnuto: pole Síla musí být celé číslo, ne abc"
        _, error = director.do("result", round="1", table="1", first="400", second="300", kind="played")
        assert error == "Odmítnuto: 1. kolo ještě není vylosováno"
        director.ok("pair")
        tm = hub.desk.tournament
        game = tm.rounds[1].pairing.pairings[0]
        _, error = director.do("swap_start", round="1", table=str(game.table), reason="")
        assert error == "Odmítnuto: chybí pole Důvod"
        director.ok("swap_start", round="1", table=str(game.table), reason="the director's choice")
        assert hub.desk.tournament.rounds[1].pairing.pairings[0].first == game.second
        director.ok("publish", round="1")
        # the referees' audit log keeps the desk's action in Czech too (the /referee page said "round 1 published")
        published = next(r for r in RefereeAuth(hub.store.db).audit_log() if r["action"] == "desk:publish")
        assert published["detail"]["cs"] == "1. kolo zveřejněno, posláno na stoly: 2"
        assert published["detail"]["en"] == "round 1 published, 2 tables sent"
        # a one-time code for a referee's new device: shown once on the page, kept out of the audit log
        done = director.ok("device_code", referee=REFEREE)
        code = done.split(": ")[2].split()[0]
        assert done.startswith(f"Hotovo: kód nového zařízení pro {REFEREE}: ") and len(code) == 14, done
        assert code not in str(RefereeAuth(hub.store.db).audit_log()) and code not in director.page()
        for p in hub.desk.tournament.rounds[1].pairing.pairings:
            director.ok("result", round="1", table=str(p.table), first="410", second="390", kind="played")
        _, error = director.do("result", round="1", table="1", first="410", second="391", kind="played")
        assert error == "Odmítnuto: stůl 1 už má výsledek: oprava chce důvod"
        director.ok("result", round="1", table="1", first="410", second="391", kind="played", reason="sheet")
        # every refusal in Czech (before: "round 1 has no table 99", "field 'kind' must be one of ...", and 9999
        # as "musí být celé číslo")
        _, error = director.do("result", round="1", table="99", first="410", second="390", kind="played")
        assert error == "Odmítnuto: 1. kolo nemá stůl 99"
        _, error = director.do("result", round="1", table="2", first="9999", second="390", kind="played")
        assert error == "Odmítnuto: pole Začíná musí být celé číslo od -1000 do 2000, ne 9999"
        _, error = director.do("result", round="1", table="2", first="400", second="390", kind="coin")
        assert error == "Odmítnuto: pole Druh musí být jedno z: odehráno, kontumace, anulováno, vyloučení; ne „coin“"
        director.ok("withdraw", player="12", reason="")
        _, error = director.do("withdraw", player="12", reason="")
        assert error == "Odmítnuto: 12: hráč už odstoupil (od 2. kola)"
        status, _, body = director.request("POST", "/desk/do/info", {"csrf": "wrong", "name": "x"})
        assert status == 403 and "chybí nebo nesedí X-CSRF-Token" in body and "missing or wrong" not in body
        # the desk shows no text a link brings: a flash is the session's own, the login page says only its keys
        assert "Call 555" not in director.page("/desk?error=Call+555&done=Call+555")
        anonymous_page = Director.__new__(Director)
        anonymous_page.port, anonymous_page.cookie = hub.port, ""
        assert "Call 555" not in anonymous_page.page("/desk?error=Call+555")
        assert "chybné jméno rozhodčího nebo heslo" in anonymous_page.page("/desk?error=login")
        status, headers, _ = anonymous_page.request("POST", "/desk/login", {"user": REFEREE, "password": "wrong pw"})
        assert status == 303 and "chybné jméno rozhodčího nebo heslo" in anonymous_page.page(headers["location"])
        director.ok("close", round="1")
        page = director.page()
        assert "TurČAS = A / Kol × Buchholz" in page and "A = 100" in page
        settings = {"rounds": "5", "tiebreak": "turcas", "A": "50,5", "B": "0.1", "C": "1", "D": "10",
                    "bye_points": "1.0", "bye_score": "100"}  # fmt: skip
        _, error = director.do("settings", **(settings | {"B": "x"}))
        assert error == "Odmítnuto: pole B musí být číslo, ne x"
        _, error = director.do("settings", **(settings | {"tiebreak": "coin"}))
        assert error == "Odmítnuto: pole Pomocné kritérium musí být jedno z: turcas, buchholz, brightwell, spread; ne „coin“"
        assert director.ok("settings", **settings) == "Hotovo: nastavení uloženo"
        assert director.ok("settings", **settings) == "Hotovo: nastavení beze změny"
        logged = [e["event"] for e in hub.desk.denik.entries() if e["type"] == "SettingsChanged"]
        assert len(logged) == 2 and logged[-1]["settings"]["standings"]["A"] == 50.5 and logged[-1]["version"]
        # TurČAS's Kol is the event's 5 rounds (the ČAS page), not the 1 round played
        assert "A = 50,5, B = 0,1, C = 1, D = 10; Kol (počet kol turnaje): 5; započtená kola: 1" in director.page()
        assert "A = 50.5, B = 0.1, C = 1, D = 10; Kol (rounds of the event): 5; rounds counted: 1" in director.page(
            "/desk?lang=en")
        # a form without the session's token, and one from another origin, are refused
        status, _, _ = director.request("POST", "/desk/do/pair", {"csrf": "wrong"})
        assert status == 403
        status, _, _ = director.request("POST", "/desk/do/pair", {"csrf": director.csrf},
                                        {"Origin": "http://evil.example"})  # fmt: skip
        assert status == 403
        assert hub.desk.tournament.last_round == 1
        # the public pages and the printed lists
        anonymous = Director.__new__(Director)
        anonymous.port, anonymous.cookie = hub.port, ""
        live = anonymous.page("/live")
        assert "Průběžné pořadí" in live and "Eva Malá" in live and 'http-equiv="refresh"' in live
        assert "Eva Malá" in anonymous.page("/desk/print/pairing.html?round=1&lang=en")
        status, _, body = anonymous.request("GET", "/desk/print/denik.html")
        assert status == 401  # the deník is the referees'
        denik = director.page("/desk/print/denik.html")
        # the printed deník as the committee reads it: one Czech line per entry, local time, names with ids (before:
        # the raw JSON beside each line, "2026-12-06T00:11:12+00:00", ids only); the data is the download
        assert "Oprava výsledku 1. kola" in denik and "the director&#x27;s choice" in denik
        assert "ResultCorrected" not in denik and "+00:00" not in denik and "{&quot;" not in denik
        assert "Eva Malá (1203)" in denik
        status, _, data = director.request("GET", "/desk/print/denik.jsonl")
        events = [decode_event(json.loads(line)) for line in data.splitlines()]
        assert status == 200 and [type(e).__name__ for e in events].count("ResultCorrected") == 1
        assert len(events) == len(hub.desk.denik.entries())
        assert anonymous.request("GET", "/desk/print/denik.jsonl")[0] == 401
    finally:
        hub.stop()


def test_partiar_hub_killed_mid_round_keeps_the_denik_and_resends_nothing_wrong(broker, tmp_path) -> None:  # noqa: F811
    """``partiar hub --players CSV --table-prefix t`` as a process: a round paired, published and half entered,
    then SIGKILL; started again (the same ``--players``: nothing registered twice), the deník and the round are as
    they were, the director goes on to close the round."""
    db = tmp_path / "hub.sqlite"
    RefereeAuth(Database(db)).add_referee(REFEREE, REFEREE_PASSWORD)
    secret = tmp_path / "hub-password"
    secret.write_text(HUB_PASSWORD + "\n", encoding="utf-8")
    players = tmp_path / "hraci.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    extra = ("--players", str(players), "--table-prefix", "t")
    hub = HubProcess(db, broker.url, secret, *extra)
    try:
        director = Director(hub.port)
        director.ok("pair")
        director.ok("publish", round="1")
        director.ok("result", round="1", table="1", first="420", second="380", kind="played")
        before = director.page("/desk/print/denik.html")
        hub.kill()
        hub = HubProcess(db, broker.url, secret, *extra)
        director = Director(hub.port)
        assert director.page("/desk/print/denik.html") == before  # the same entries, nothing logged again
        assert "Kolo 1: <span class=\"state\">zveřejněno" in director.page()
        director.ok("forfeit", round="1", table="2", absent="both")
        assert director.ok("close", round="1") == "Hotovo: 1. kolo uzavřeno"
    finally:
        hub.stop()


def test_the_desks_published_round_tells_the_hub_which_game_a_flooded_table_plays() -> None:
    """Issue 28 item 4 with the desk: the running round's pairing (published, not closed) names each table's players;
    a flood of made-up games with a table's password goes aside, the paired game is taken in, whatever round the
    hub's round control shows; before publishing and after closing the desk says nothing (None)."""
    from hub.director import open_desk

    db = Database()
    store = HubStore(db)
    desk = open_desk(store)
    try:
        desk.import_csv(PLAYERS, "test")
        desk.pair("test")
        assert desk.expected_players("1", 1) is None  # paired, not published: nothing sent to the tables yet
        desk.publish(1, "test")
        one = desk.tournament.rounds[1].pairing.pairings[0]
        names = (desk.name(one.first), desk.name(one.second))
        assert store.expected_players("1", 7) == names  # the desk's round, not the round control's
        assert store.expected_players("x1", 1) is None  # not a tournament table
        for i in range(30):
            store.add_event({"v": 1, "table": "1", "game": f"fake{i}", "seq": 0,
                             "event": {"type": "start", "at": 0.0, "players": ["X", "Y"]}})  # fmt: skip
        store.add_event({"v": 1, "table": "1", "game": "real", "seq": 0,
                         "event": {"type": "start", "at": 0.0, "players": list(names)}})  # fmt: skip
        assert [g for t, g in store.games if t == "1"] == ["real"]
        assert store.status_view()["aside"]["tables"]["1"]["count"] > 0
    finally:
        desk.stop()


def test_the_printed_standings_are_those_after_the_last_round_played(desk) -> None:
    """While round 2 is played, /desk/print/standings.html (no round asked) is the standings after round 1, with
    round 1's Buchholz (before: "after round 2", everyone's Buchholz raised by a fictitious opponent)."""
    from hub.director_pages import DeskPages

    close_round_1(desk)
    after_1 = DeskPages(desk, RefereeAuth(Database()))._printed_page("standings", None, "cs", False)
    desk.pair("test")
    desk.publish(2, "test")
    page = DeskPages(desk, RefereeAuth(Database()))._printed_page("standings", None, "cs", False)
    assert "Pořadí po 1. kole" in page and page == after_1


def test_the_printed_denik_says_each_entry_in_czech_words(desk) -> None:
    """The chief referee reads the printed deník: each entry in words (before: only its English type and JSON)."""
    from hub.director_pages import DeskPages

    desk.import_csv(PLAYERS, "test")
    desk.pair("test")
    desk.publish(1, "test")
    desk.enter_result(1, 1, 420, 380, "played", "test")
    page = DeskPages(desk, RefereeAuth(Database()))._printed_page("denik", None, "cs", False)
    assert "Registrace 1203: Eva Malá, Brno, síla 1500" in page
    assert "Zveřejněn los 1. kola" in page and "(odehráno)" in page and "švýcarský systém, semínko" in page


def test_a_refusal_is_said_in_the_pages_language(desk) -> None:
    """The flash after a refused action (before: the rule's English only, "Odmítnuto: RoundClosed at ... by demo:
    round 1 has no result or ruling at table(s) 1, 2")."""
    from hub.director_pages import refusal_text

    desk.import_csv(PLAYERS, "test")
    desk.pair("test")
    desk.publish(1, "test")

    def refusal(action, *args) -> Exception:
        with pytest.raises((DeskError, ValueError)) as caught:
            action(*args)
        return caught.value

    closed_early = refusal(desk.close_round, 1, "test")
    assert refusal_text(closed_early, "cs") == "1. kolo nelze uzavřít, chybí výsledek: stůl 1, 2"
    assert refusal_text(closed_early, "en") == "round 1 cannot be closed, result missing: table 1, 2"
    assert refusal_text(refusal(desk.pair, "test"), "cs") == "1. kolo ještě není uzavřeno: další kolo až po jeho uzavření"
    desk.enter_result(1, 1, 420, 380, "played", "test")
    again = refusal(desk.enter_result, 1, 1, 400, 380, "played", "test")
    assert refusal_text(again, "cs") == "stůl 1 už má výsledek: oprava chce důvod"
    withdrawn = refusal(desk.withdraw, "nobody", "test", "")
    assert refusal_text(withdrawn, "cs") == "neznámý hráč nobody"
    # a refusal without its own words: named by its kind, the rule's message after it
    from tournament.errors import PairingError

    assert refusal_text(PairingError("x"), "cs") == "los takto nelze (x)" and refusal_text(PairingError("x"), "en") == "x"
    # the rules' refusals carry their words (tournament.errors.REFUSALS), not English matched at the page's edge:
    # a message that merely looks like one is not translated
    assert refusal_text(PairingError("round 3 has not been paired"), "cs") == "los takto nelze (round 3 has not been paired)"
    assert refusal_text(PairingError.refuse("not_paired", n=3), "cs") == "3. kolo ještě není vylosováno"


def test_the_command_line_says_the_rules_refusal_in_czech(desk, tmp_path, capsys) -> None:
    """``partiar tournament pair`` on a deník whose last round is open said "nelze losovat: RoundPaired ... round 1
    is not closed yet" (English inside Czech): now the rule's own words in the command's language."""
    from device.cli import main

    desk.import_csv(PLAYERS, "test")
    desk.pair("test")
    denik = tmp_path / "denik.jsonl"
    denik.write_bytes(desk.denik.jsonl())  # the desk's download
    for lang, expected in (("cs", "kolo 1, stůl 1: vylosovaná partie nemá výsledek"),
                           ("en", "round 1, table 1: a paired game has no result")):
        assert main(["tournament", "pair", str(denik), "--lang", lang]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"partiar tournament: {denik}: {expected}"), err  # the folder's own words


def play_round_1_and_pair_round_2(desk) -> None:
    close_round_1(desk)
    desk.pair("test")
    desk.publish(2, "test")


def test_the_hubs_standings_footer_says_the_rounds_the_tiebreak_counts(desk) -> None:
    """While round 2 is played the tie-break counts round 1 only: /standings' footer under round 2's table said
    "kol: 2" (the table's number); the payload now tells hub.js the rounds counted."""
    play_round_1_and_pair_round_2(desk)
    payload = desk.standings_payload()
    assert payload["counted"] == {"1": 1, "2": 1}
    desk.enter_result(2, 1, 400, 300, "played", "test")
    desk.enter_result(2, 2, 400, 300, "played", "test")
    assert desk.standings_payload()["counted"] == {"1": 1, "2": 2}
    script = (Path(desk_module.__file__).parent / "static" / "hub.js").read_text(encoding="utf-8")
    assert 't("rounds_counted")} ${counted}' in script and "data.counted[n]" in script


def test_the_desk_refuses_a_round_after_the_planned_last_one(desk) -> None:
    """rounds = 1 and round 1 closed: "Vylosovat 2. kolo" is refused in the page's language (before: the desk drew
    round 2; the CLI already refused, the rule is now pair_round's for both)."""
    from hub.director_pages import refusal_text

    desk.change_settings({"rounds": 1}, "test")
    close_round_1(desk)
    with pytest.raises(DeskError) as caught:
        desk.pair("test")
    assert desk.tournament.last_round == 1
    assert refusal_text(caught.value, "cs") == \
        "všechna kola turnaje jsou odehrána (počet kol 1); pro 2. kolo zvyšte počet kol v nastavení"
    assert refusal_text(caught.value, "en") == \
        "every round of the event has been played (1 planned); raise the rounds planned in the settings for round 2"
    desk.change_settings({"rounds": 2}, "test")
    assert desk.pair("test") == 2


def desk_page(desk, lang: str = "cs") -> str:
    from hub.director_pages import DeskPages

    pages = DeskPages(desk, RefereeAuth(Database()))
    return pages._desk_body(("test", "csrf"), lang, SimpleNamespace(query_params={}, cookies={}))  # type: ignore[arg-type]


def test_after_the_planned_last_round_the_desk_offers_no_next_round(desk) -> None:
    """"Vylosovat 2. kolo" stayed on the page after the planned last round (and was refused when pressed)."""
    desk.change_settings({"rounds": 1}, "test")
    close_round_1(desk)
    page = desk_page(desk)
    assert "Vylosovat 2. kolo" not in page and "Všechna kola turnaje jsou odehrána (počet kol 1)" in page
    desk.change_settings({"rounds": 2}, "test")
    assert "Vylosovat 2. kolo" in desk_page(desk)


def test_names_are_isolated_and_namesakes_told_apart_by_their_ids(desk) -> None:
    """The "swap players" lists showed names only (two Jan Novák could not be told apart), and a right-to-left
    name reordered its table cell with the id after it: every name is isolated (``<bdi>``; in a list U+2068/U+2069)
    with its id."""
    from tournament.players import Player

    desk.register([Player("1203", "Jan Novák", "Brno", 1500), Player("877", "Jan Novák", "Praha", 1700),
                   Player("55", "שרה כהן", "", 1400), Player("12", "Eva", "", 1200)], "test")  # fmt: skip
    desk.pair("test")
    page = desk_page(desk)
    swap = page[page.index('name="a"'):page.index('name="b"')]
    assert "\u2068Jan Novák\u2069 (\u20681203\u2069)" in swap and "\u2068Jan Novák\u2069 (\u2068877\u2069)" in swap
    assert "<bdi>שרה כהן</bdi> <small><bdi>55</bdi></small>" in page


def test_the_settings_are_shown_in_words(desk) -> None:
    """The desk's settings box and the deník's first entry (SettingsChanged) said "Nastavení: {"system": ...}" and
    "rounds=None, ..., king_of_the_hill=False": now in words, Czech (English with ?lang=en)."""
    from hub.director_pages import DeskPages

    pages = DeskPages(desk, RefereeAuth(Database()))
    request = SimpleNamespace(query_params={}, cookies={})
    body = pages._desk_body(("test", "csrf"), "cs", request)  # type: ignore[arg-type]
    words = ("kol: neurčeno, pomocné kritérium: TurČAS (A 100, B 0,05, C 1, D 15), volno: 1 bod, 100:0, "
             "síla nováčka: 1000, King of the Hill: ne, dvojice: ne")
    assert f"Nastavení: systém: švýcarský systém, {words}</p>" in body and "{" not in body.split("Nastavení: ")[-1]
    english = pages._desk_body(("test", "csrf"), "en", request)  # type: ignore[arg-type]
    assert ("Settings: system: Swiss, rounds: not fixed, tie-break: TurČAS (A 100, B 0.05, C 1, D 15), bye: 1 point, "
            "100:0, newcomer&#x27;s rating: 1000, King of the Hill: no, doubles: no</p>") in english
    denik = pages._printed_page("denik", None, "cs", False)
    assert f"nastavení: systém: švýcarský systém, {words}" in denik and "rounds=None" not in denik
    desk.change_settings({"rounds": 5, "bye_points": 0.5, "king_of_the_hill": True}, "test")
    body = pages._desk_body(("test", "csrf"), "cs", request)  # type: ignore[arg-type]
    assert "kol: 5," in body and "volno: 0,5 bodu, 100:0" in body and "King of the Hill: ano" in body


def test_the_starts_column_is_named_replies_minus_starts(desk) -> None:
    """The desk's column "Starty" and the hub's showed replies minus starts: named so now, on every page."""
    from hub.director_pages import DeskPages

    play_round_1_and_pair_round_2(desk)
    pages = DeskPages(desk, RefereeAuth(Database()))
    assert "<th>Odp.−Zač.</th>" in pages._printed_page("standings", None, "cs", False)
    assert "<th>Repl.−Starts</th>" in pages._printed_page("standings", None, "en", False)
    assert "<th>Starty</th>" not in pages._live_page("cs") and "<th>Odp.−Zač.</th>" in pages._live_page("cs")
    script = (Path(desk_module.__file__).parent / "static" / "hub.js").read_text(encoding="utf-8")
    assert 'starts: "Odp.−Zač."' in script and 'starts: "Repl.−Starts"' in script and '"Starty"' not in script


def test_an_empty_club_is_left_out_of_the_printed_denik(desk) -> None:
    """Ota Veselý has no club: the deník said "Ota Veselý, , síla —"."""
    from hub.director_pages import DeskPages

    desk.import_csv(PLAYERS, "test")
    page = DeskPages(desk, RefereeAuth(Database()))._printed_page("denik", None, "cs", False)
    assert "Registrace 1500: Ota Veselý, síla —" in page and ", ," not in page
    assert "Registrace 1203: Eva Malá, Brno, síla 1500" in page
    english = DeskPages(desk, RefereeAuth(Database()))._printed_page("denik", None, "en", False)
    assert "Registered 1500: Ota Veselý, rating —" in english and ", ," not in english


def test_an_exclusion_recorded_at_the_desk_keeps_the_player_out_of_later_rounds(desk) -> None:
    """Seed 004: "vyloučen z další hry" and "Vyloučení se týká celého turnaje nebo utkání" (before: round 2 paired
    the excluded player again; only a separate "Vyloučení z turnaje" kept him out). And the desk refuses an
    exclusion scored 0:50, which the regulations do not allow, in the page's language."""
    from hub.director_pages import refusal_text

    desk.import_csv(PLAYERS, "test")
    desk.pair("test")
    desk.publish(1, "test")
    game = desk.tournament.rounds[1].pairing.by_table(2)
    with pytest.raises(DeskError) as caught:
        desk.enter_result(1, 2, 0, 50, "exclusion", "test")
    assert refusal_text(caught.value, "cs") == ("stůl 2: vyloučený hráč prohrává 0:100, nebo 0:rozdíl, je-li rozdíl "
                                                "větší než 100 (hrací řád), ne 0:50")
    assert refusal_text(caught.value, "en").startswith("table 2: the excluded player loses 0:100")
    desk.enter_result(1, 1, 420, 380, "played", "test")
    desk.exclusion_result(1, 2, game.first, 40, "test")
    desk.close_round(1, "test")
    desk.pair("test")
    round_2 = desk.tournament.rounds[2].pairing
    assert game.first not in round_2.players() and round_2.bye is not None
    assert {r.id: r.status for r in desk.standings()}[game.first] == "excluded"
