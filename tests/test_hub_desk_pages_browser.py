"""The tournament desk's standings in headless Chromium: the hub's /standings page (hub.js) under a round still
being played says the rounds the tie-break counts, with the replies-minus-starts column so named. Screenshots go to
``$PARTIAR_SCREENSHOTS`` (default: the test's temporary folder) for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from desk_rig import close_round_1

from hub import HubServer, HubStore
from hub.auth import RefereeAuth
from hub.db import Database
from hub.director import Desk
from hub.tournament_store import DenikStore

selenium = pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import needs_chromium, shown_text, start_chromium, waiting  # noqa: E402

pytestmark = needs_chromium

def test_the_standings_page_mid_round_says_the_rounds_counted(tmp_path: Path) -> None:
    """Round 1 closed, round 2 paired and half played: round 2's table footer said "kol: 2", the TurČAS there
    counting round 1 only; it says "kol: 1" now (round 1's table too), "kol: 2" once round 2 is complete."""
    shots = Path(os.environ.get("PARTIAR_SCREENSHOTS") or tmp_path)
    db = Database()
    desk = Desk(HubStore(db), DenikStore(db))
    desk.start("test")
    close_round_1(desk)
    desk.pair("test")
    desk.publish(2, "test")
    desk.enter_result(2, 1, 400, 300, "played", "test")
    server = HubServer(desk.store, "127.0.0.1", 0, auth=RefereeAuth(db), desk=desk)
    server.start()
    driver = start_chromium(tmp_path / "profile")
    try:
        def footers() -> dict[str, str]:
            return driver.execute_script(
                "const out = {}; for (const t of document.querySelectorAll('#standings table[data-round]')) {"
                " const p = t.nextElementSibling; out[t.dataset.round] = p ? p.innerText : ''; } return out;")

        driver.get(f"http://127.0.0.1:{server.port}/standings")
        waiting(driver).until(lambda d: len(footers()) == 2)
        assert all(text.endswith("Kol (počet kol turnaje): 1; započtená kola: 1") for text in footers().values()), \
            footers()
        assert "Odp.−Zač." in shown_text(driver, "#standings table[data-round='2']")
        driver.save_screenshot(str(shots / "hub-standings-mid-round-cs.png"))
        desk.enter_result(2, 2, 400, 300, "played", "test")
        driver.execute_script("localStorage.setItem('partiar-lang', 'en')")  # the page's language button
        driver.get(f"http://127.0.0.1:{server.port}/standings")
        waiting(driver).until(lambda d: footers().get("2", "").endswith("rounds counted: 2"))
        assert footers()["1"].endswith("rounds counted: 1")
        assert "Repl.−Starts" in shown_text(driver, "#standings table[data-round='2']")
        driver.save_screenshot(str(shots / "hub-standings-en.png"))
    finally:
        driver.quit()
        server.stop()
        desk.stop()
