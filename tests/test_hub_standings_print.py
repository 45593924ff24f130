"""The standings of a 33-player tournament as people look at them, in headless Chromium: printed (the desk's list,
Chromium's print to PDF, pages counted by ``pdfinfo`` of poppler-utils) on one A4 page; on a phone (360 and 390 CSS
px), ``/live``'s standings whole, every column it keeps on a phone in view. Screenshots and the PDF go to
``$PARTIAR_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hub import HubServer, HubStore
from hub.auth import RefereeAuth
from hub.db import Database
from hub.director import Desk
from hub.tournament_store import DenikStore

pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import emulate_screen, needs_chromium, start_chromium, waiting  # noqa: E402

pytestmark = needs_chromium

FIRST = ["Eva", "Jan", "Ota", "Petr", "Kateřina", "Jaroslav", "Zdeňka", "Bohumil", "Marie", "Václav", "Ludmila"]
LAST = ["Malá-Novotná", "Dlouhý", "Veselý", "Procházková", "Svobodová", "Dvořáček", "Černohorský"]
CLUBS = ["Scrabble klub Brno-Královo Pole", "SK Praha 6 – Dejvice", "Klub slovních her Zlín", ""]
PLAYERS = 33


def players_csv() -> str:
    """33 players with long double names and long club names (what made a name and its club wrap)."""
    rows = ["id,name,club,rating"]
    rows += [f"{1000 + i},{FIRST[i % 11]} {LAST[i % 7]},{CLUBS[i % 4]},{1200 + 10 * i}" for i in range(PLAYERS)]
    return "\n".join(rows) + "\n"


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """A hub whose desk has 33 players after two closed rounds (16 tables and a bye each)."""
    db = Database()
    desk = Desk(HubStore(db), DenikStore(db))
    desk.start("test")
    desk.import_csv(players_csv(), "test")
    for rnd in (1, 2):
        desk.pair("test")
        desk.publish(rnd, "test")
        for table in range(1, PLAYERS // 2 + 1):
            desk.enter_result(rnd, table, 400 + table, 350 + rnd, "played", "test")
        desk.close_round(rnd, "test")
    server = HubServer(desk.store, "127.0.0.1", 0, auth=RefereeAuth(db), desk=desk)
    server.start()
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield f"http://127.0.0.1:{server.port}", driver
    driver.quit()
    server.stop()
    desk.stop()


@pytest.fixture
def shots(tmp_path) -> Path:
    return Path(os.environ.get("PARTIAR_SCREENSHOTS") or tmp_path)


def test_the_standings_of_33_players_print_on_one_a4_page(hub, shots) -> None:
    url, driver = hub
    if shutil.which("pdfinfo") is None:
        pytest.skip("needs pdfinfo (Debian's poppler-utils) to count the printed pages")
    emulate_screen(driver, 1200, 900)
    driver.get(url + "/desk/print/standings.html")
    waiting(driver).until(lambda d: d.execute_script("return document.querySelectorAll('table.standings tbody tr')"
                                                     ".length") == PLAYERS)  # fmt: skip
    printed = driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True})
    pdf = shots / "standings-33.pdf"
    pdf.write_bytes(base64.b64decode(printed["data"]))
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    size = next(line for line in info.splitlines() if line.startswith("Page size:"))
    assert "(A4)" in size, size
    pages = int(next(line for line in info.splitlines() if line.startswith("Pages:")).split()[1])
    assert pages == 1, f"the standings of {PLAYERS} players print on {pages} A4 pages"


@pytest.mark.parametrize("width", [360, 390])
def test_live_standings_fit_a_phone_with_every_column_they_keep(hub, shots, width) -> None:
    url, driver = hub
    emulate_screen(driver, width, 844)
    driver.get(url + "/live")
    waiting(driver).until(lambda d: d.execute_script("return document.querySelector('table.standings') !== null"))
    driver.execute_script("document.querySelector('table.standings').scrollIntoView()")
    driver.save_screenshot(str(shots / f"live-standings-{width}.png"))
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    box = driver.execute_script(
        "const t = document.querySelector('table.standings'); const r = t.getBoundingClientRect();"
        "return [r.right, t.parentElement.getBoundingClientRect().right]")  # fmt: skip
    assert box[0] <= box[1] + 0.5, f"the standings are {box[0] - box[1]:.0f} px wider than their box"
    shown = driver.execute_script(
        "return [...document.querySelectorAll('table.standings th')].filter(h => h.getBoundingClientRect().width > 0)"
        ".map(h => h.textContent)")  # fmt: skip
    assert shown == ["Pořadí", "Jméno", "Body", "TurČAS", "Skóre", "Rozdíl", "Stav"]
