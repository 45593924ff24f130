"""The hub's pages in headless Chromium (Debian's ``chromium`` + ``chromium-driver``, driven by Selenium): a move
published by a table shows up on the page of all tables and on the table's page without a reload; the final
result with the rack adjustments once the game ends; the referee logs in and starts a round from the browser;
a table whose claims disagree is flagged; Czech by default, English on request. Screenshots of every page go to
``$PARTIAR_SCREENSHOTS`` (default: the test's temporary folder) for a person to look at."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from mosquitto_fixture import (  # noqa: F401 - broker is the fixture
    REFEREE,
    REFEREE_PASSWORD,
    TABLES,
    broker,
    finished_games,
    start_hub,
    table_state,
)

from device.publish import TablePublisher
from engine.game import Game
from hub import HubServer, HubStore
from tablelink import topics

selenium = pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import WAIT, needs_chromium, shown_text, start_chromium, waiting  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("PARTIAR_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def js(driver, script: str, *args: Any) -> Any:
    return driver.execute_script(script, *args)


def card_seq(driver, table: str) -> str | None:
    return js(driver, "const c = document.querySelector(`.table-card[data-table='${arguments[0]}']`);"
                      "return c ? c.dataset.seq : null", table)  # fmt: skip


def card_text(driver, table: str, selector: str) -> str:
    return js(driver, "const n = document.querySelector(`.table-card[data-table='${arguments[0]}'] ${arguments[1]}`);"
                      "return n ? n.textContent : ''", table, selector)  # fmt: skip


def letters(driver, selector: str) -> str:
    return js(driver, "return [...document.querySelectorAll(arguments[0])].map(c => c.dataset.letter || '.')"
                      ".join('')", selector)  # fmt: skip


def test_live_pages_update_without_reload(broker, browser, tmp_path, shots) -> None:  # noqa: F811 - the fixture
    hub = start_hub(broker.url)
    game_events = finished_games(1, seed=3)[0]
    got = threading.Event()
    commands: list[dict[str, Any]] = []
    table = TablePublisher("t5", broker.url, username="t5", password=TABLES["t5"], queue_dir=tmp_path,
                           on_command=lambda c: (commands.append(c), got.set()))  # fmt: skip
    table.start()
    game = Game()
    plays = [i for i, e in enumerate(game_events) if e.TYPE == "play"]
    try:
        for seq, e in enumerate(game_events[: plays[1]]):
            game.apply(e)
            table.publish_event(seq, e.to_json())
        table.publish_state(table_state("t5", game))
        wait = waiting(browser)
        base = f"http://127.0.0.1:{hub.port}"

        # the page of all tables
        browser.get(base + "/")
        wait.until(lambda d: card_seq(d, "t5") == str(plays[1] - 1))
        js(browser, "window.notReloaded = true")
        before = letters(browser, ".table-card[data-table='t5'] .cell")
        names = js(browser, "return [...document.querySelectorAll(\".table-card[data-table='t5'] .name\")]"
                            ".map(n => n.textContent)")  # fmt: skip
        assert names == list(game.players)
        upto = plays[2] if len(plays) > 2 else len(game_events)
        for seq in range(plays[1], upto):
            game.apply(game_events[seq])
            table.publish_event(seq, game_events[seq].to_json())
        table.publish_state(table_state("t5", game))
        wait.until(lambda d: card_seq(d, "t5") == str(upto - 1))
        assert js(browser, "return window.notReloaded") is True
        after = letters(browser, ".table-card[data-table='t5'] .cell")
        assert after != before
        assert after == "".join(game.board.rows()).upper()
        scores = js(browser, "return [...document.querySelectorAll(\".table-card[data-table='t5'] .score\")]"
                             ".map(n => n.textContent)")  # fmt: skip
        assert scores == [str(s) for s in game.scores]
        # the clocks count down in the page from the published view (no request to the hub); the view comes with
        # the table's state, which may reach the page in a message after the one with the moves
        left = max(0.0, 2400.0 - game.events[-1].at)

        def clock_seconds(d) -> int:
            shown = js(d, "return document.querySelector(\".table-card[data-table='t5'] .game-time .clock\")"
                          ".textContent")  # fmt: skip
            minutes, seconds = shown.split(":")
            return int(minutes) * 60 + int(seconds)

        wait.until(lambda d: left - 3 <= clock_seconds(d) <= left + 1)
        on_move = js(browser, "return [...document.querySelectorAll(\".table-card[data-table='t5'] .player\")]"
                              ".map(p => p.dataset.onMove)")  # fmt: skip
        assert on_move == ["true" if i == game.player_on_move else "false" for i in range(2)]

        # one table's page: a move arrives live too
        browser.get(base + "/table/t5")
        wait.until(lambda d: js(d, "return document.getElementById('table').dataset.seq") == str(upto - 1))
        js(browser, "window.notReloaded = true")
        rest = len(game_events)
        for seq in range(upto, rest):
            game.apply(game_events[seq])
            table.publish_event(seq, game_events[seq].to_json())
        table.publish_state(table_state("t5", game))
        wait.until(lambda d: js(d, "return document.getElementById('table').dataset.seq") == str(rest - 1))
        assert js(browser, "return window.notReloaded") is True
        assert letters(browser, "#board .cell") == "".join(game.board.rows()).upper()
        rows = js(browser, "return document.querySelectorAll('#history tr').length")
        assert rows == len(game.history)
        # the game is over: the final result with the rack adjustments, not the running scores
        result = game.result
        assert result is not None and list(result.final) != list(game.scores)
        wait.until(lambda d: d.find_element(By.ID, "final").get_attribute("data-final") == ":".join(map(str, result.final)))
        final_text = shown_text(browser, "#final")
        assert final_text.startswith(f"Konečný výsledek {result.final[0]}:{result.final[1]}"), final_text
        winner = game.players[result.winners[0]]
        assert f"vítěz {winner}" in final_text
        scores = js(browser, "return [...document.querySelectorAll('#players .score')].map(n => n.textContent)")
        assert scores == [str(s) for s in result.final]
        browser.save_screenshot(str(shots / "hub-table-final-cs.png"))
        browser.get(base + "/")
        wait.until(lambda d: card_seq(d, "t5") == str(rest - 1))
        card_final = js(browser, "return document.querySelector(\".table-card[data-table='t5'] .final\").dataset.final")
        assert card_final == ":".join(map(str, result.final))
        browser.save_screenshot(str(shots / "hub-overview-cs.png"))
        browser.find_element(By.ID, "lang").click()  # English on request, kept for the next pages
        wait.until(lambda d: "Final result" in card_text(d, "t5", ".final"))  # the page reloads: null-safe
        assert browser.find_element(By.ID, "lang").text == "Česky"
        browser.save_screenshot(str(shots / "hub-overview-en.png"))
        browser.find_element(By.ID, "lang").click()

        # the referee starts a round from the browser
        browser.get(base + "/referee")
        wait.until(lambda d: d.find_element(By.ID, "password").is_displayed())
        browser.find_element(By.ID, "user").send_keys(REFEREE)
        browser.find_element(By.ID, "password").send_keys("špatné heslo")
        browser.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait.until(lambda d: d.find_element(By.ID, "message").text == "Špatné jméno nebo heslo.")
        browser.find_element(By.ID, "password").clear()
        browser.find_element(By.ID, "password").send_keys(REFEREE_PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait.until(lambda d: d.find_element(By.ID, "control").is_displayed())
        assert browser.find_element(By.ID, "who").text == REFEREE
        field = browser.find_element(By.ID, "round-number")
        field.clear()
        field.send_keys("4")
        browser.find_element(By.CSS_SELECTOR, "button[data-command='start_round']").click()
        assert got.wait(WAIT)
        assert commands[-1]["command"] == "start_round" and commands[-1]["round"] == 4
        wait.until(lambda d: d.find_element(By.ID, "round").get_attribute("data-stage") == "running")
        wait.until(lambda d: "Začít kolo – Kolo 4" in d.find_element(By.ID, "audit").text)  # the audit log
        # the referee registers player ids (ČAS member numbers)
        box = browser.find_element(By.ID, "players")
        box.send_keys("\nCZ-0007, Jana Nováková")
        browser.find_element(By.ID, "save-players").click()
        wait.until(lambda d: d.find_element(By.ID, "message").text.startswith("Uloženo hráčů: 3"))
        assert {"id": "CZ-0007", "name": "Jana Nováková"} in hub.store.players()
        browser.save_screenshot(str(shots / "hub-referee-cs.png"))

        # the standings page lists both players once the game is over
        browser.get(base + "/standings")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr.standing")) == 2)
        ids = js(browser, "return [...document.querySelectorAll('tr.standing')].map(r => r.dataset.player)")
        assert all(ids) and len(set(ids)) == 2
        browser.save_screenshot(str(shots / "hub-standings-cs.png"))
    finally:
        table.stop()
        hub.stop()


def test_a_table_whose_claims_disagree_is_flagged_and_the_status_page_counts_bad_messages(browser, shots) -> None:
    store = HubStore()
    server = HubServer(store, "127.0.0.1", 0)  # no link, no referee: read-only
    server.start()
    try:
        events = finished_games(1, seed=5)[0][:6]
        for seq, e in enumerate(events):
            store.add_event({"v": 1, "table": "stul-1", "game": "g", "seq": seq, "event": e.to_json()})
        game = Game.replay(events)
        claim = table_state("stul-1", game)
        claim["game"]["scores"] = [999, 0]
        store.set_state({"v": 1, "table": "stul-1", "game": "g", "seq": len(events) - 1, "state": claim})
        store.reject("stul-2", topics.table_topic("stul-2", "event"), "partiar/v1/table/stul-2/event: JSON nested 30001 deep")
        browser.get(f"http://127.0.0.1:{server.port}/table/stul-1")
        wait = waiting(browser)
        wait.until(lambda d: letters(d, "#board .cell") == "".join(game.board.rows()).upper())
        wait.until(lambda d: d.find_element(By.ID, "warning").is_displayed())
        assert "Skóre stolu nesouhlasí s jeho tahy" in shown_text(browser, "#warning")
        scores = js(browser, "return [...document.querySelectorAll('#players .score')].map(n => n.textContent)")
        assert scores == [str(s) for s in game.scores] and "999" not in scores
        browser.save_screenshot(str(shots / "hub-table-disagreement-cs.png"))
        browser.get(f"http://127.0.0.1:{server.port}/status")
        wait.until(lambda d: shown_text(d, "tr[data-key='rejected'] td") == "1")
        assert "nested" in shown_text(browser, "#rejected-list")
        assert "stul-1" in shown_text(browser, "#disagreement-list")
        browser.save_screenshot(str(shots / "hub-status-cs.png"))
        assert json.loads(json.dumps(store.status_view()))["rejected"] == 1
        browser.get(f"http://127.0.0.1:{server.port}/table/stul-1")
        wait.until(lambda d: d.find_element(By.ID, "warning").is_displayed())
        # the table corrects its claim: the feed sends the view without its game, the page keeps the board
        store.set_state({"v": 1, "table": "stul-1", "game": "g", "seq": len(events) - 1,
                         "state": table_state("stul-1", game)})  # fmt: skip
        wait.until(lambda d: not d.find_element(By.ID, "warning").is_displayed())
        assert letters(browser, "#board .cell") == "".join(game.board.rows()).upper()
        assert len(browser.find_elements(By.CSS_SELECTOR, "#history tr")) == len(game.history)
    finally:
        server.stop()


def test_the_live_pages_name_a_table_by_its_configured_name(browser, shots) -> None:
    """The card and the table's page say the name the table is configured with, not its broker id."""
    store = HubStore()
    server = HubServer(store, "127.0.0.1", 0)
    server.start()
    try:
        events = finished_games(1, seed=7)[0][:4]
        for seq, e in enumerate(events):
            store.add_event({"v": 1, "table": "t1", "game": "g", "seq": seq, "event": e.to_json()})
        state = table_state("t1", Game.replay(events)) | {"name": "Stůl u okna"}
        store.set_state({"v": 1, "table": "t1", "game": "g", "seq": len(events) - 1, "state": state})
        store.add_event({"v": 1, "table": "t2", "game": "h", "seq": 0, "event": events[0].to_json()})
        browser.get(f"http://127.0.0.1:{server.port}/")
        wait = waiting(browser)
        wait.until(lambda d: shown_text(d, ".table-card[data-table='t1'] h2 a") == "Stůl u okna")
        wait.until(lambda d: shown_text(d, ".table-card[data-table='t2'] h2 a") == "Stůl t2")  # no name: its id
        browser.save_screenshot(str(shots / "hub-overview-table-names-cs.png"))
        browser.get(f"http://127.0.0.1:{server.port}/table/t1")
        wait.until(lambda d: shown_text(d, "#table-name") == "Stůl u okna")
        assert "t1" not in shown_text(browser, "#table-name")
    finally:
        server.stop()


def test_the_status_page_lists_games_aside_and_failed_logins_and_a_referee_takes_a_game_in(browser, shots) -> None:
    """Issue 28 item 4 and 2: the games a flooded table's credentials sent beyond its real one are listed with a
    button for the referee; the failed logins are listed with their addresses."""
    from mosquitto_fixture import referee_hub

    from hub.auth import COOKIE
    from hub.errors import AuthError
    from hub.quarantine import GAMES_PER_ROUND

    with referee_hub() as (server, auth):
        store = server.store
        store.round_command({"id": "r1", "command": "start_round", "round": 1, "sent": 1.0})
        for i in range(GAMES_PER_ROUND + 2):
            store.add_event({"v": 1, "table": "t3", "game": f"fake{i}", "seq": 0,
                             "event": {"type": "start", "at": 0.0, "players": ["X", "Y"], "round": 1}})  # fmt: skip
        for _ in range(2):
            with pytest.raises(AuthError):
                auth.login(REFEREE, "wrong password", client="10.1.2.3")
        session, _ = auth.login(REFEREE, REFEREE_PASSWORD, client="127.0.0.1")
        browser.get(f"http://127.0.0.1:{server.port}/status")
        browser.add_cookie({"name": COOKIE, "value": session, "path": "/"})
        browser.get(f"http://127.0.0.1:{server.port}/status")
        wait = waiting(browser)
        wait.until(lambda d: "fake7" in shown_text(d, "#aside-list"))
        assert "10.1.2.3" in shown_text(browser, "#login-list")
        browser.save_screenshot(str(shots / "hub-status-aside-cs.png"))
        # one script finds and clicks: the list is redrawn whenever the status changes
        js(browser, "document.querySelector(\"#aside-list tr[data-game='fake7'] button\").click()")
        wait.until(lambda d: "fake7" not in shown_text(d, "#aside-list"))
        assert store.current_game("t3").game_id == "fake7"


class Refusing:
    """Stands in for ``hub.web.MAX_STREAMS``: while ``open`` is False every live page is refused (``streams >=
    MAX_STREAMS`` is true) and each refusal is counted; once open, none is."""

    def __init__(self) -> None:
        self.open = False
        self.refused = threading.Semaphore(0)

    def __le__(self, streams: int) -> bool:
        if self.open:
            return False
        self.refused.release()
        return True

    def __str__(self) -> str:
        return "0"


def test_a_page_refused_by_a_busy_hub_asks_again(broker, browser, tmp_path, monkeypatch) -> None:  # noqa: F811
    """The hub refuses a live page while it has more than it takes (a 503); the browser gives that feed up for good,
    so the page shows the tables from the snapshot meanwhile and opens a new feed by itself once the hub has room,
    without a reload."""
    import hub.web

    gate = Refusing()
    monkeypatch.setattr(hub.web, "MAX_STREAMS", gate)
    hub_ = start_hub(broker.url)
    table = TablePublisher("t57", broker.url, username="t57", password=TABLES["t57"], queue_dir=tmp_path)
    table.start()
    game = Game()
    try:
        for seq, e in enumerate(finished_games(1, seed=5)[0][:4]):
            game.apply(e)
            table.publish_event(seq, e.to_json())
        table.publish_state(table_state("t57", game))
        browser.get(f"http://127.0.0.1:{hub_.port}/")
        js(browser, "window.notReloaded = true")
        assert gate.refused.acquire(timeout=WAIT) and gate.refused.acquire(timeout=WAIT), "the page gave up its feed"
        assert js(browser, "return document.body.dataset.feed") == "polled"  # meanwhile: the snapshot, slower
        gate.open = True
        waiting(browser).until(lambda d: js(d, "return document.body.dataset.feed") == "live")
        waiting(browser).until(lambda d: card_seq(d, "t57") == "3")
        assert js(browser, "return window.notReloaded") is True
    finally:
        table.stop()
        hub_.stop()


def test_a_viewer_refused_a_live_feed_still_gets_the_page_updated_more_slowly(browser, shots, monkeypatch) -> None:
    """Issue 35: with every live feed taken, a viewer's page got no updates (and past the connections, an error).
    Now the page loads the snapshot at once and every SLOW_MS until a feed is free: the tables are shown, and a
    move made meanwhile arrives without a reload."""
    import hub.web

    monkeypatch.setattr(hub.web, "MAX_STREAMS", 0)  # every live feed refused
    store = HubStore()
    server = HubServer(store, "127.0.0.1", 0)
    server.start()
    try:
        events = finished_games(1, seed=5)[0][:6]
        for seq, e in enumerate(events[:4]):
            store.add_event({"v": 1, "table": "stul-1", "game": "g", "seq": seq, "event": e.to_json()})
        browser.get(f"http://127.0.0.1:{server.port}/")
        wait = waiting(browser)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-feed") == "polled")
        wait.until(lambda d: card_seq(d, "stul-1") == "3")  # the snapshot, loaded at once
        for seq, e in enumerate(events[4:], 4):
            store.add_event({"v": 1, "table": "stul-1", "game": "g", "seq": seq, "event": e.to_json()})
        wait.until(lambda d: card_seq(d, "stul-1") == "5")  # the next poll (SLOW_MS) brings the moves
        assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-feed") == "polled"
        browser.save_screenshot(str(shots / "hub-overview-polled-cs.png"))
    finally:
        server.stop()


def test_the_referees_audit_log_says_the_desks_actions_in_the_pages_language(browser, shots) -> None:
    """Issue 35: the /referee page's audit log said "audit_desk:publish — round 1 published, 3 tables sent" on the
    Czech page. Now the desk's actions are named and said in the page's language (English on request)."""
    from desk_rig import PLAYERS, Director, started_desk_server


    server, desk = started_desk_server()
    try:
        director = Director(server.port)
        director.ok("import", csv=PLAYERS)
        director.ok("pair")
        director.ok("publish", round="1")
        browser.get(f"http://127.0.0.1:{server.port}/referee")
        wait = waiting(browser)
        wait.until(lambda d: d.find_element(By.ID, "password").is_displayed())
        browser.find_element(By.ID, "user").send_keys(REFEREE)
        browser.find_element(By.ID, "password").send_keys(REFEREE_PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait.until(lambda d: "1. kolo zveřejněno, posláno na stoly: 2" in d.find_element(By.ID, "audit").text)
        log = shown_text(browser, "#audit")
        assert "řízení turnaje" in log and "audit_desk" not in log and "published" not in log
        browser.save_screenshot(str(shots / "hub-referee-audit-cs.png"))
        browser.find_element(By.ID, "lang").click()
        wait.until(lambda d: "round 1 published, 2 tables sent" in d.find_element(By.ID, "audit").text)
        assert "tournament desk" in shown_text(browser, "#audit")
        browser.find_element(By.ID, "lang").click()
    finally:
        server.stop()
        desk.stop()
