"""The seed's sanctions over a whole tournament on the hub (004 "Sankce"): warnings of every game counted per player,
the chief referee asked (never the hub deciding) when they reach the ruleset's number over several games, an
excluded player marked in the standings and every later game of theirs flagged; the status page and the standings
in headless Chromium, Czech and English."""

from __future__ import annotations

import json
import urllib.request

import pytest

from engine.game.script import run_script
from hub import HubServer, HubStore

TOURNAMENT = [  # (round, table, script): Eva warned in rounds 1, 2 and 3 at different tables; Jan excluded in round 1
    (1, "1", "start cas Eva Jan\nplay H7V ROZUM\nwarn 0 ruší\ndisqualify 1"),
    (2, "2", "start cas Eva Petr\nwarn 0 mluví\nplay H7V ROZUM"),
    (2, "3", "start cas Jan Ota\nplay H7V ROZUM\npass"),  # Jan plays on after his exclusion
    (3, "1", "start cas Ota Eva\nwarn 1 telefon\nplay H7V ROZUM"),
]


def tournament_store() -> HubStore:
    store = HubStore()
    for round_number, table, script in TOURNAMENT:
        for seq, event in enumerate(run_script(script).events):
            store.add_event({"v": 1, "table": table, "game": f"r{round_number}", "seq": seq,
                             "event": event.to_json() | {"round": round_number}})  # fmt: skip
    return store


def test_warnings_of_every_game_are_counted_and_the_chief_referee_is_asked_not_overruled() -> None:
    store = tournament_store()
    lines = {s.player: s for s in store.sanctions()}
    assert set(lines) == {"Eva", "Jan"}
    eva = lines["Eva"]
    assert [(w.round, w.table) for w in eva.warnings] == [(1, "1"), (2, "2"), (3, "1")]
    assert eva.limit == 3 and eva.due and eva.excluded is None  # three over three games: the question, no ruling
    one_game = HubStore()  # three warnings in one game: the table asked there ("Vyloučení (HR)?"), not the hub
    for seq, event in enumerate(run_script("start cas Eva Jan\nwarn 0 a\nwarn 0 b\nwarn 0 c").events):
        one_game.add_event({"v": 1, "table": "1", "game": "g", "seq": seq, "event": event.to_json()})
    assert [(len(s.warnings), s.due) for s in one_game.sanctions()] == [(3, False)]


def test_an_excluded_players_later_games_are_flagged_and_the_standings_mark_them() -> None:
    store = tournament_store()
    jan = next(s for s in store.sanctions() if s.player == "Jan")
    assert jan.excluded is not None and (jan.excluded.round, jan.excluded.table) == (1, "1")
    assert [(w.round, w.table) for w in jan.played_after] == [(2, "3")]
    assert not jan.due and jan.warnings == []


def test_a_matchs_next_game_after_the_exclusion_is_flagged_too() -> None:
    """ "Vyloučení se týká celého turnaje nebo utkání": the same round, a game started later at the table."""
    store = HubStore()
    first = run_script("start cas Eva Jan\ndisqualify 1")
    second = run_script("start cas Jan Eva\nplay H7V ROZUM")
    for game_id, game, start in (("a", first, 0.0), ("b", second, 3600.0)):
        for seq, event in enumerate(game.events):
            record = event.to_json() | {"round": 1}
            record["at"] = float(record["at"]) + start
            store.add_event({"v": 1, "table": "5", "game": game_id, "seq": seq, "event": record})
    jan = next(s for s in store.sanctions() if s.player == "Jan")
    assert [w.game_id for w in jan.played_after] == ["b"]


@pytest.fixture(scope="module")
def hub_url():
    store = tournament_store()
    server = HubServer(store, "127.0.0.1", 0)
    server.start()
    yield f"http://127.0.0.1:{server.port}"
    server.stop()
    store.db.close()


def test_the_api_gives_the_sanctions_and_the_standings_say_who_was_excluded(hub_url) -> None:
    status = json.load(urllib.request.urlopen(hub_url + "/api/status", timeout=30))
    by_name = {s["player"]: s for s in status["sanctions"]}
    assert by_name["Eva"]["due"] and len(by_name["Eva"]["warnings"]) == 3
    assert by_name["Jan"]["excluded"]["round"] == 1 and by_name["Jan"]["played_after"][0]["table"] == "3"
    standings = json.load(urllib.request.urlopen(hub_url + "/api/standings", timeout=30))
    for n, lines in standings["rounds"].items():
        marked = {s["player"] for s in lines if s["excluded"]}
        assert marked == ({"Jan"} if int(n) >= 1 else set()), n


pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import needs_chromium, shown_texts, waiting  # noqa: E402
from test_hub_pages import browser, shots  # noqa: E402, F401 - the fixtures


@needs_chromium
@pytest.mark.parametrize(("lang", "due", "played", "excluded"), [
    ("cs", "vyloučení? rozhoduje hlavní rozhodčí", "hraje po vyloučení: k. 2, stůl 3", "Jan (vyloučen)"),
    ("en", "exclusion? the chief referee decides", "plays after the exclusion: r. 2, table 3", "Jan (excluded)"),
])  # fmt: skip
def test_the_chief_referee_sees_the_sanctions_on_the_status_page(
    hub_url, browser, shots, lang, due, played, excluded  # noqa: F811
) -> None:
    browser.set_window_size(1200, 900)
    browser.get(hub_url + "/")
    browser.execute_script("localStorage.setItem('partiar-lang', arguments[0])", lang)
    browser.get(hub_url + "/status")
    rows = waiting(browser).until(lambda d: [r for r in shown_texts(d, "#sanction-list tr") if "Jan" in r])
    eva = next(r for r in shown_texts(browser, "#sanction-list tr") if r.startswith("Eva"))
    assert due in eva and "3" in eva and played in rows[0]
    flagged = browser.execute_script("return document.querySelectorAll('#sanction-list tr.flagged').length")
    assert flagged == 2
    browser.save_screenshot(str(shots / f"hub-status-sanctions-{lang}.png"))
    browser.get(hub_url + "/standings")
    names = waiting(browser).until(lambda d: shown_texts(d, "#standings table tr.standing"))
    assert any(excluded in row for row in names)
    browser.save_screenshot(str(shots / f"hub-standings-excluded-{lang}.png"))
