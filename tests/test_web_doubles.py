"""The sim's page in doubles (headless Chromium, the real daemon): the score, the result and the winner are the
teams' (seed 003), so the page shows a row per team with its total and its two players under it, and the result
table's columns are the teams, in Czech and in English."""

from __future__ import annotations

from pathlib import Path

import pytest

from hw_sim.scenario import Scenario, run_step
from hw_sim.sim import Sim
from hw_sim.sim_client import SimClient

pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import columns, needs_chromium, start_chromium, waiting  # noqa: E402

pytestmark = needs_chromium
PRAGUE = Path(__file__).with_name("scenarios") / "prague_game.toml"  # Jan, Petr, Eva, Ivo; teams Jan + Eva, Petr + Ivo

FIRST_MOVE = """
wait daemon
press B
wait lcd "D1>Jan"
place ROZUM at 8D
advance 20
press A
expect score 18 0
wait lcd "D2>Petr"
"""
RESIGN = """
choose "Vzdát hru"
choose "Petr + Ivo"
choose "ano"
advance 4
"""


@pytest.fixture(scope="module")
def doubles(tmp_path_factory):
    state_dir = tmp_path_factory.mktemp("doubles")
    sim = Sim(state_dir, port=0, time_mode="manual", config_file=str(PRAGUE))
    sim.start()
    client = SimClient(sim.url)
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield sim, client, driver
    driver.quit()
    client.close()
    sim.stop()


def play(client: SimClient, script: str) -> None:
    for line in Scenario.parse(script, "test").lines:
        run_step(client, line.step)


def rows(driver, selector: str) -> list[list[str]]:
    """The cells' texts of each row ``selector`` matches, read in one script (the page redraws on every state)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(r => [...r.children].map(c => c.innerText))",
        selector)  # fmt: skip


def open_page(driver, url: str, lang: str) -> None:
    driver.get(url)
    driver.execute_script("localStorage.setItem('partiar-lang', arguments[0])", lang)
    driver.get(url)
    waiting(driver).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))


def test_the_page_shows_the_teams_their_totals_and_the_teams_result(doubles, tmp_path) -> None:
    sim, client, driver = doubles
    play(client, FIRST_MOVE)
    open_page(driver, sim.url, "cs")
    wait = waiting(driver)
    # during the game: each team's total on its row, its players under it, Petr on move with his time
    wait.until(lambda d: [r[:2] for r in rows(d, "#game table.players tr.team")] == [["Jan + Eva", "18"],
                                                                                     ["Petr + Ivo", "0"]])
    table = rows(driver, "#game table.players tr")
    assert table[0] == ["Dvojice", "Body", "Čas"]
    assert [r[0] for r in table[1:]] == ["Jan + Eva", "Jan", "Eva", "Petr + Ivo", "Petr (na tahu)", "Ivo"]
    assert all(r[1] == "" for r in rows(driver, "#game table.players tr.member"))  # no per-player score
    assert rows(driver, "#game tr.on-move")[0][2] not in ("", None)  # the move time by the player on move
    assert columns(driver, "main > section") == 2  # the board beside the table's parts on a desktop
    driver.save_screenshot(str(tmp_path / "doubles-running.png"))

    play(client, RESIGN)
    state = client.wait_for(lambda s: ((s["panel"] or {}).get("table") or {}).get("game", {}).get("teams", {})
                            .get("result"), 60)  # fmt: skip
    final = [str(v) for v in state["panel"]["table"]["game"]["teams"]["result"]["final"]]
    wait.until(lambda d: rows(d, "#result tr.final"))
    assert rows(driver, "#result tr")[0] == ["", "Jan + Eva", "Petr + Ivo"]  # the columns are the teams
    assert rows(driver, "#result tr.final")[0][1:] == final
    teams = rows(driver, "#game table.players tr.team")
    winner = 0 if int(final[0]) > int(final[1]) else 1
    assert teams[winner][0].endswith("★ vítěz") and [t[1] for t in teams] == final
    assert columns(driver, "main > section") == 2  # the result does not drop the table's parts under the board
    driver.save_screenshot(str(tmp_path / "doubles-result-cs.png"))

    open_page(driver, sim.url, "en")
    wait.until(lambda d: rows(d, "#result tr.final"))
    assert rows(driver, "#game table.players tr")[0] == ["Team", "Score", "Time"]
    assert rows(driver, "#result tr")[0] == ["", "Jan + Eva", "Petr + Ivo"]
    assert rows(driver, "#game table.players tr.team")[winner][0].endswith("★ winner")
    driver.save_screenshot(str(tmp_path / "doubles-result-en.png"))
