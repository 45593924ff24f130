"""The tournament desk's pages in headless Chromium, as the director and the hall see them: the login, the desk in
the middle of a round (Czech and English), the public live standings at a phone's width, the printed lists; no
part runs off the page sideways. Screenshots go to ``$PARTIAR_SCREENSHOTS`` (default: the test's temporary
folder) for a person to look at."""

from __future__ import annotations

import os
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from chromium import needs_chromium, shown_text, start_chromium, waiting
from desk_rig import Director
from mosquitto_fixture import REFEREE, REFEREE_PASSWORD

from hub.auth import RefereeAuth
from hub.db import Database
from hub.director import TournamentInfo, open_desk
from hub.store import HubStore
from hub.web import HubServer

selenium = pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
pytestmark = needs_chromium

FIELD = [("1203", "Eva Malá", "Brno", 1500), ("877", "Jan Novák", "Praha", 1700), ("1500", "Ota Veselý", "", None),
         ("12", "Petr Dlouhý", "Zlín", 1200), ("13", "Věra Krátká", "Ostrava", 1100),
         ("14", "Zdeněk Žlutoučký", "Plzeň", 1350), ("15", "Marie Nováková", "Praha", 1620)]  # fmt: skip


@pytest.fixture
def served(tmp_path):
    db = Database()
    store = HubStore(db)
    auth = RefereeAuth(db)
    auth.add_referee(REFEREE, REFEREE_PASSWORD)
    desk = open_desk(store)
    desk.set_info(TournamentInfo("Velká cena Brna", "Brno", "28.11.2026"), "test")
    desk.import_csv("\n".join(f"{i},{n},{c},{'' if r is None else r}" for i, n, c, r in FIELD), "test")
    desk.pair("test")
    desk.publish(1, "test")
    for game in desk.tournament.rounds[1].pairing.pairings:
        desk.enter_result(1, game.table, 380 + 7 * game.table, 350, "played", "test")
    desk.close_round(1, "test")
    desk.withdraw("13", "test", "nemoc")
    desk.pair("test")
    desk.publish(2, "test")
    first = desk.tournament.rounds[2].pairing.pairings[0]
    desk.enter_result(2, first.table, 412, 398, "played", "test")
    server = HubServer(store, "127.0.0.1", 0, auth=auth, desk=desk)
    server.start()
    yield server, desk
    desk.stop()
    server.stop()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PARTIAR_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def no_sideways_scroll(browser) -> bool:
    return browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


def full_height(browser, width: int) -> None:
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(width, min(max(height + 40, 600), 4000))


def test_the_desk_pages_seen_in_chromium(served, shots, tmp_path) -> None:
    server, desk = served
    base = f"http://127.0.0.1:{server.port}"
    browser = start_chromium(tmp_path / "profile", width=1400, height=1000)
    try:
        browser.get(f"{base}/desk")
        browser.save_screenshot(str(shots / "desk-login-cs.png"))
        browser.find_element("name", "user").send_keys(REFEREE)
        browser.find_element("name", "password").send_keys("wrong")
        browser.find_element("css selector", "button.primary").click()
        waiting(browser).until(lambda b: "wrong user name or password" in shown_text(b, ".flash.error").lower()
                               or "hesl" in shown_text(b, ".flash.error").lower() or shown_text(b, ".flash.error"))
        browser.find_element("name", "user").send_keys(REFEREE)
        browser.find_element("name", "password").send_keys(REFEREE_PASSWORD)
        browser.find_element("css selector", "button.primary").click()
        waiting(browser).until(lambda b: "Přihlášen" in shown_text(b, ".bar"))
        text = shown_text(browser, "main")
        assert "Kolo 2: zveřejněno" in text and "Chybí výsledek" in text
        assert "TurČAS = A / Kol × Buchholz" in text and "odstoupil" in text
        assert no_sideways_scroll(browser)
        full_height(browser, 1400)
        browser.save_screenshot(str(shots / "desk-round-cs.png"))
        # a result typed in through the page's form
        game = desk.tournament.rounds[2].pairing.pairings[1]
        row = browser.find_element("css selector", f'#round tr[data-table="{game.table}"]')
        row.find_element("name", "first").send_keys("333")
        row.find_element("name", "second").send_keys("444")
        row.find_element("css selector", "form button").click()
        waiting(browser).until(lambda b: "333:444" in shown_text(b, f'#round tr[data-table="{game.table}"]'))
        assert "Hotovo" in shown_text(browser, ".flash")
        browser.get(f"{base}/desk?lang=en")
        text = shown_text(browser, "main")
        assert "Round 2: published" in text and "Ordered by points, then TurČAS" in text
        full_height(browser, 1400)
        browser.save_screenshot(str(shots / "desk-round-en.png"))
        browser.set_window_size(390, 800)
        browser.get(f"{base}/live")
        waiting(browser).until(lambda b: "Průběžné pořadí" in shown_text(b, ".bar"))
        assert no_sideways_scroll(browser), "the live standings run off a phone's screen"
        full_height(browser, 390)
        browser.save_screenshot(str(shots / "live-phone-cs.png"))
        for name in ("pairing", "results", "standings"):
            browser.set_window_size(900, 1000)
            browser.get(f"{base}/desk/print/{name}.html?round=2")
            assert "Velká cena Brna" in shown_text(browser, ".list-head")
            full_height(browser, 900)
            browser.save_screenshot(str(shots / f"print-{name}-cs.png"))
        browser.set_window_size(1200, 900)
        browser.get(f"{base}/standings")  # the hub's standings page: the desk's TurČAS standings, not spread
        waiting(browser).until(lambda b: "TurČAS = A / Kol" in shown_text(b, "#standings"))
        text = shown_text(browser, "#standings")
        assert "Pořadí – Kolo 2" in text and "Věra Krátká (odstoupil)" in text and "program partiar" in text
        isolated = browser.execute_script("return [...document.querySelectorAll('#standings td bdi')].map(b => b.textContent)")
        assert "Věra Krátká" in isolated and "13" in isolated  # names and ids isolated: an RTL name reorders nothing
        full_height(browser, 1200)
        browser.save_screenshot(str(shots / "hub-standings-turcas-cs.png"))
        browser.get(f"{base}/desk/print/denik.html")
        denik = shown_text(browser, "table.denik")
        assert "Zveřejněn los 1. kola" in denik and "RoundPublished" not in denik and "+00:00" not in denik
        full_height(browser, 900)
        browser.save_screenshot(str(shots / "print-denik-cs.png"))
    finally:
        browser.quit()


A4_POINTS = (595.0, 842.0)


def test_the_printed_lists_are_a4_pdfs_from_chromium(served) -> None:
    server, _ = served
    with pytest.raises(urllib.error.HTTPError) as refused:  # a PDF starts a Chromium: the referees' only
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/desk/print/pairing.pdf", timeout=60)
    assert refused.value.code == 401
    director = Director(server.port)
    for name in ("pairing", "results", "standings"):
        status, headers, _ = director.request("GET", f"/desk/print/{name}.pdf?round=2")
        assert status == 200 and headers["content-type"] == "application/pdf"
        data = director.raw
        assert data.startswith(b"%PDF")
        assert len(re.findall(rb"/Type\s*/Page(?!s)", data)) == 1
        boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
        assert boxes and all(abs(float(w) - A4_POINTS[0]) < 1 and abs(float(h) - A4_POINTS[1]) < 1 for w, h in boxes)
