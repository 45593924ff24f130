"""Issue 32, the capstone: one whole tournament round on one PC, following the organiser's guide
(``docs/cs/poradatel.md``, "Zkouška na jednom počítači") literally. Its commands run as written (``guide_commands``:
a fresh home folder, free ports for the guide's 1884/8884/8070/8081-8083, ``scripts/partiar`` this checkout's):
``brokerconf`` for three tables, a real mosquitto with TLS on its config, the hub process with its own SQLite, the
referee account created as the guide says (the password typed twice), the three tables' configs assembled from
``tables/N.toml`` and three ``partiar sim`` processes on them, connecting over TLS with the tournament's CA.

Then what the guide tells the organiser to do next, through the hub's pages as a browser would (the desk's forms
with the session and CSRF token, ``/api/round`` as the ``/referee`` page sends it) and at the tables as players
would (tiles on the simulated board, buttons, the menu): 3 rounds set, 6 players imported, round 1 paired and
published ("Los doručen 3/3", every acknowledgement in the hub's database, "Kolo 1 stůl N" on each table's LCD),
the round started by the chief referee, a short real game played at each table to its end (one play, four
scoreless turns, the racks entered), the results filed by the desk itself, the round closed; the round's zip,
the deník, the ladder CSV and the TSH file downloaded and checked; round 2 paired without a rematch."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from html import unescape
from pathlib import Path
from typing import Any

import desk_rig
import pytest
from guide_commands import GuideShell, guide_block
from mosquitto_fixture import MOSQUITTO, free_port, login, request
from polling import wait_until

from device.clock.modes import PRESETS
from engine.gcg import decode_gcg, read_gcg
from engine.lexicon import default_path
from hw_sim.scenario import lcd_rows, lcd_screens, parse_step, run_step
from hw_sim.sim_client import SimClient

REFEREE = "Jana Nováková"
REFEREE_PASSWORD = "rozhodčí kola 1"
TABLES = (1, 2, 3)
FIELD = "id,name,club,rating\n1203,Eva Malá,Brno,1510\n877,Jan Novák,Praha,1720\n1500,Ota Veselý,Zlín,1390\n" \
        "612,Petr Dlouhý,Plzeň,1250\n1333,Věra Krátká,Ostrava,1120\n914,Marie Nováková,Praha,1630\n"  # fmt: skip
RACKS = {1: ("ŽXPPRVA", "CČDKLMA"), 2: ("AEIONST", "CČDKLMA"), 3: ("ŽAEIONS", "CČDKLMA")}
"""Each table's racks left at the end (seat 0, seat 1), entered by the referee on the table's menu."""
FINAL = {1: (18 - 19, 0 - 12), 2: (18 - 7, 0 - 12), 3: (18 - 10, 0 - 12)}
"""ROZUM at 8D scores 18 for the first player; then each loses the value of the rack left (Czech tiles: Ž4 X10
Č4 C2 M2, the other letters 1): different totals, so the standings have an order to compare."""
WAIT = 120.0
CLOCK = PRESETS["cas"]
"""The guide's table has the default ČAS rules: 2 minutes per move."""
MOVE_SECONDS = CLOCK.move_time or 0.0
DEBOUNCE = CLOCK.debounce

pytestmark = [
    pytest.mark.skipif(not os.path.exists(MOSQUITTO), reason="needs Debian's mosquitto"),
    pytest.mark.skipif(not default_path().exists(), reason="needs the lexicon the guide builds (partiar lexicon build)"),
]  # fmt: skip


def table_view(client: SimClient) -> dict[str, Any]:
    return ((client.latest() or {}).get("panel") or {}).get("table") or {}


def moves(state: dict[str, Any]) -> int:
    game = (((state.get("panel") or {}).get("table") or {}).get("game")) or {}
    return len(game.get("history") or [])


def ended(state: dict[str, Any]) -> bool:
    game = (((state.get("panel") or {}).get("table") or {}).get("game")) or {}
    return game.get("ended") is not None


def move_left(state: dict[str, Any]) -> float:
    clock = (((state.get("panel") or {}).get("table") or {}).get("clock")) or {}
    return float(clock.get("move_left") or MOVE_SECONDS)


def press(client: SimClient, button: str) -> None:
    """A player's press that ends a turn, once the table has taken it (its history one move longer) and the next
    move's time has run past the clock's debounce (a press within it of the last one is ignored, as at the real
    table: players do not press that fast)."""
    before = moves(client.latest() or {})
    run_step(client, parse_step(f"press {button}"))
    assert client.wait_for(lambda s: moves(s) == before + 1, WAIT), lcd_rows(client.latest() or {})
    next_move = lambda s: ended(s) or move_left(s) < MOVE_SECONDS - 2 * DEBOUNCE  # noqa: E731
    assert client.wait_for(next_move, WAIT), lcd_rows(client.latest() or {})


def play_short_game(url: str, table: int) -> list[int]:
    """At the table as the players and the referee do it: B starts A's clock, A lays ROZUM and presses, four
    scoreless turns end the game, the referee enters both racks. Returns the final score the table shows."""
    with SimClient(url) as client:
        client.wait_for(lambda s: True, WAIT)
        run_step(client, parse_step("press B"))  # the second player starts the first player's clock
        assert client.wait_for(lambda s: (table_view(client).get("clock") or {}).get("state") == "running", WAIT), \
            lcd_rows(client.latest() or {})  # fmt: skip
        run_step(client, parse_step("place ROZUM at 8D"))
        press(client, "A")
        for button in "BABA":  # nothing new on the board: a pass
            press(client, button)
        run_step(client, parse_step('wait lcd "Konec hry"'))
        for rack in RACKS[table]:
            for step in ['choose "Zbylé kameny"', *(f'choose "{tile}"' for tile in rack), 'choose "hotovo"',
                         'choose "ano"']:  # fmt: skip
                run_step(client, parse_step(step))
        run_step(client, parse_step(f"expect final {FINAL[table][0]} {FINAL[table][1]}"))
        return list(FINAL[table])


def shows_pairing(url: str, table: int) -> None:
    """The table's LCDs show "Kolo 1 stůl N" (the tournament's table number) once the pairing reaches it (the
    notice stays 60 s: watched from before the publishing, so a busy machine cannot miss it)."""
    with SimClient(url) as client:
        shows = lambda s: any(f"Kolo 1 stůl {table}" in row for row in lcd_rows(s))  # noqa: E731
        assert client.wait_for(shows, WAIT) is not None, lcd_screens(client.latest() or {})


def pairing_rows(page: str) -> dict[int, tuple[str, str]]:
    """The desk's pairing table: tournament table -> (first, second) players' ids."""
    out = {}
    for table, row in re.findall(r'<tr data-table="(\d+)">(.*?)</tr>', page, re.S):
        ids = [unescape(re.sub(r"<[^>]+>", "", small)) for small in re.findall(r"<small>(.*?)</small>", row)]
        if len(ids) >= 2:  # each player's id under the name (isolated in <bdi>)
            out[int(table)] = (ids[0], ids[1])
    return out


def settings_form(page: str) -> dict[str, str]:
    """The desk's settings form as the page fills it in (inputs' values, selects' selected options)."""
    form = page[page.index('action="/desk/do/settings"'):]
    form = form[: form.index("</form>")]
    fields = {n: unescape(v) for n, v in re.findall(r'<input name="(\w+)" value="([^"]*)"', form)}
    for name, options in re.findall(r'<select name="(\w+)">(.*?)</select>', form, re.S):
        fields[name] = unescape(re.search(r'<option value="([^"]*)" selected', options).group(1))
    return fields


def download(director: desk_rig.Director, path: str) -> bytes:
    status, _, body = director.request("GET", path)
    assert status == 200, (path, status, body[:300])
    return director.raw


def partiar(*args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def test_the_guides_one_pc_tournament_round(tmp_path, monkeypatch) -> None:
    lines = guide_block()
    ports = {1884: free_port(), 8884: free_port(), 8070: free_port()} | {8080 + n: free_port() for n in TABLES}
    home = tmp_path / "home"
    (home / ".local" / "share" / "partiar").mkdir(parents=True)
    (home / ".local" / "share" / "partiar" / "lexicon.dawg").symlink_to(default_path())  # Stoly, step 4: built
    shell = GuideShell(home, ports, {"BROWSER": "true"})  # the sims' "open in the browser": the test is the browser
    try:
        for line in lines:
            if line.startswith("sudo apt-get "):
                continue  # installed on this machine
            if line.rstrip().endswith("&"):
                _, log = shell.start(line)
                if line.startswith("mosquitto "):
                    assert wait_until(lambda log=log: " running" in log.read_text(), WAIT), log.read_text()
                if " hub --db " in line:
                    assert wait_until(lambda log=log: f":{ports[8070]}/" in log.read_text(), WAIT), log.read_text()
            elif " referee add " in line:
                shell.run(line, stdin=f"{REFEREE_PASSWORD}\n{REFEREE_PASSWORD}\n")  # typed twice
            else:
                shell.run(line)
        assert len(shell.background) == 5, "the guide starts the broker, the hub and three tables"
        for n in TABLES:
            config = shell.path(f"~/turnaj/stul{n}.toml").read_text(encoding="utf-8")
            assert 'base_time = "referee"' in config and f'broker = "mqtts://localhost:{ports[8884]}"' in config
            assert f'table_id = "{n}"' in config and "ca_file = " in config

        hub_port = ports[8070]

        def status() -> dict[str, Any]:
            return json.loads(request(hub_port, "GET", "/api/status")[2])

        def overview() -> set[str]:
            return {t.get("table") for t in json.loads(request(hub_port, "GET", "/api/overview")[2]).get("tables", [])}

        assert wait_until(lambda: status()["broker"]["connected"], WAIT), status()
        assert wait_until(lambda: {"1", "2", "3"} <= overview(), WAIT), overview()  # every table over TLS
        sims = {n: f"http://127.0.0.1:{ports[8080 + n]}" for n in TABLES}

        # the desk, logged in as the referee the guide created
        monkeypatch.setattr(desk_rig, "REFEREE", REFEREE)
        monkeypatch.setattr(desk_rig, "REFEREE_PASSWORD", REFEREE_PASSWORD)
        director = desk_rig.Director(hub_port)
        director.ok("settings", **(settings_form(director.page()) | {"rounds": "3"}))
        assert 'name="rounds" value="3"' in director.page()
        director.ok("import", csv=FIELD)
        assert director.ok("pair") == "Hotovo: vylosováno 1. kolo"
        round1 = pairing_rows(director.page())
        assert set(round1) == set(TABLES), round1
        with ThreadPoolExecutor(len(TABLES)) as pool:  # each table's LCDs watched from before the publishing
            notices = [pool.submit(shows_pairing, url, n) for n, url in sims.items()]
            assert director.ok("publish", round="1") == "Hotovo: 1. kolo zveřejněno, posláno na stoly: 3"
            for notice in notices:
                notice.result()
        assert wait_until(lambda: "Los doručen 3/3" in director.page(), WAIT), director.page()

        def acks() -> list[tuple[int, str]]:  # what the hub's database holds (its group commit may lag the page)
            with sqlite3.connect(f"file:{home / 'turnaj' / 'turnaj.sqlite'}?mode=ro", uri=True) as db:
                return db.execute("SELECT tbl, unit FROM pairing_acks WHERE round = 1 ORDER BY tbl").fetchall()

        assert wait_until(lambda: acks() == [(n, str(n)) for n in TABLES], WAIT), acks()

        # the chief referee starts the round (/referee), the tables play, the desk files the results itself
        headers = login(hub_port, REFEREE_PASSWORD, REFEREE)
        code, _, body = request(hub_port, "POST", "/api/round", {"command": "start_round", "round": 1}, headers)
        assert code == 200, body
        with ThreadPoolExecutor(len(TABLES)) as pool:
            finals = dict(zip(TABLES, pool.map(play_short_game, sims.values(), sims), strict=True))

        def round_results() -> list[dict[str, str]]:
            return list(csv.DictReader(io.StringIO(download(director, "/export/round/1.csv").decode("utf-8"))))

        assert wait_until(lambda: len(round_results()) == 3, WAIT, 0.5), (round_results(), director.page())
        results = {int(r["table"]): r for r in round_results()}
        for n in TABLES:
            r = results[n]
            assert (r["player1_id"], r["player2_id"]) == round1[n] and (r["kind"], r["source"]) == ("played", "table")
            assert [int(r["score1"]), int(r["score2"])] == finals[n]
        assert director.ok("close", round="1") == "Hotovo: 1. kolo uzavřeno"

        # downloads: the round's zip, the deník, the ladder, TSH
        archive = zipfile.ZipFile(io.BytesIO(download(director, "/export/round/1.zip")))
        for n in TABLES:
            gcg = read_gcg(decode_gcg(archive.read(f"round1-table-{n}.gcg")), f"table {n}")
            totals = {e.nick: e.total for e in gcg.events if hasattr(e, "total")}
            assert [totals[p.nick] for p in gcg.players] == finals[n], (n, totals)
            sheet = archive.read(f"round1-table-{n}.txt").decode("utf-8")
            first, second = (results[n][key] for key in ("score1", "score2"))  # the desk's result
            assert f"Výsledek {first} : {second}" in sheet, sheet
        assert "results.csv" in archive.namelist()
        denik = [json.loads(line) for line in download(director, "/export/denik.jsonl").decode().splitlines()]
        assert denik[-1]["type"] == "RoundClosed", denik[-1]
        ladder = list(csv.DictReader(io.StringIO(download(director, "/export/ladder.csv").decode("utf-8"))))
        assert len(ladder) == 6, ladder
        tsh = download(director, "/export/tournament.t")
        assert len(tsh.decode("latin-1").splitlines()) == 6
        (tmp_path / "turnaj.t").write_bytes(tsh)
        (tmp_path / "denik.jsonl").write_bytes(download(director, "/export/denik.jsonl"))
        partiar("tournament", "import-tsh", "turnaj.t", "z-tsh", cwd=tmp_path)
        # the guide: a .t file has no settings; the planned rounds go to the folder's settings.toml
        (tmp_path / "z-tsh" / "settings.toml").write_text("rounds = 3\n", encoding="utf-8")
        from_tsh = partiar("tournament", "standings", "z-tsh", cwd=tmp_path)
        from_desk = partiar("tournament", "standings", "denik.jsonl", cwd=tmp_path)
        assert len(standings_rows(from_desk)) == 6, from_desk
        assert standings_rows(from_tsh) == standings_rows(from_desk), (from_tsh, from_desk)
        desk_rows = json.loads(download(director, "/api/standings"))["rounds"]["1"]
        tsh_rows = json.loads(partiar("tournament", "standings", "z-tsh", "--json", cwd=tmp_path))["rows"]
        assert [(r["rank"], r["id"], r["points"], r["spread"], round(r["turcas"], 2)) for r in desk_rows] == \
            [(r["rank"], r["id"], r["points"], r["score_difference"], round(r["turcas"], 2)) for r in tsh_rows]
        assert len({r["rank"] for r in desk_rows}) > 3, desk_rows  # an order, not one shared place
        ladder_cli = partiar("tournament", "ladder", "denik.jsonl", "--csv", cwd=tmp_path)  # the ladder keeper's way
        assert list(csv.DictReader(io.StringIO(ladder_cli))) == ladder

        # round 2: no rematch
        assert director.ok("pair") == "Hotovo: vylosováno 2. kolo"
        round2 = pairing_rows(director.page())
        assert len(round2) == 3
        met = {frozenset(p) for p in round1.values()}
        assert not met & {frozenset(p) for p in round2.values()}, (round1, round2)
    finally:
        shell.stop()


def standings_rows(text: str) -> list[str]:
    """The standings' player lines (a rank first), without the header naming the source."""
    return [line for line in text.splitlines() if re.match(r"\s*\d+\.", line)]

