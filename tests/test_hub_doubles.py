"""The hub and a doubles game (seed 003): the result, the standings and the CSV are the teams'; the live table
page shows a row per team."""

from __future__ import annotations

import pytest
from mosquitto_fixture import table_state
from test_game_doubles import comb_script

from engine.game import Game
from engine.game.script import run_script
from hub import HubServer, HubStore
from hub.results import results_csv, standings

pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import shown_texts, waiting  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from test_hub_pages import browser  # noqa: E402, F401 - the fixture


def fed(store: HubStore, table: str, game: Game) -> None:
    """The table's journaled events as the hub receives them."""
    for seq, event in enumerate(game.events):
        store.add_event({"v": 1, "table": table, "game": "g1", "seq": seq, "event": event.to_json()})


def test_a_doubles_game_result_is_the_teams():
    """003 "Žebříčková síla dvojice ...": pairs are ranked as pairs; the table's result is the teams' (Prague:
    the team of the player who closed adds both opponents' racks)."""
    game = run_script(comb_script("prague", "P" * 12))
    left = sorted(game.unseen().elements())  # 16 tiles: Jan's 7, Petr's 7 (ignored), Eva's 2
    run_script(f"rack 0 {''.join(left[:7])}\nrack 2 {''.join(left[14:])}", game)
    assert game.team_result is not None
    store = HubStore()
    fed(store, "7", game)
    [result] = store.results()
    assert result.players == ("Jan + Eva", "Petr + Ivo") and result.scores == game.team_result.final
    table = standings([result])
    assert [s.player for s in table] == ["Petr + Ivo", "Jan + Eva"] and table[0].wins == 1.0
    assert ",1+3,Jan + Eva,2+4,Petr + Ivo," in results_csv([result])  # the ids of the partners, joined


def test_the_live_table_page_shows_a_row_per_team(browser):  # noqa: F811 - the fixture
    """The hub's table page (read-only, as the table unit serves it) for a Polish game: one row per team with its
    total, the player on move named in the team's row."""
    game = run_script(comb_script("polish", "PPP"))
    store = HubStore()
    server = HubServer(store, "127.0.0.1", 0)
    server.start()
    try:
        fed(store, "stul-2", game)
        state = table_state("stul-2", game)
        state["clock"]["player_on_move"] = 0  # the Polish clock's side is the team
        store.set_state({"v": 1, "table": "stul-2", "game": "g1", "seq": len(game.events) - 1, "state": state})
        browser.get(f"http://127.0.0.1:{server.port}/table/stul-2")
        wait = waiting(browser)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players .player[data-team]")) == 2)
        names = shown_texts(browser, "#players .player[data-team] .name")
        scores = shown_texts(browser, "#players .score[data-team]")
        assert names == ["Jan + Eva ▸ Jan", "Petr + Ivo"]
        assert scores == [str(game.side_total(0)), str(game.side_total(1))]
    finally:
        server.stop()
