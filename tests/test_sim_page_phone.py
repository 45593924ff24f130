"""The sim's page on a phone (390x844 CSS px, headless Chromium) and its score sheet link, on the real daemon with
two 20x4 LCDs (the widest the table takes): nothing wider than the screen, the whole board, both LCDs and the
buttons in view; the link to the current game's score sheet (``partiar sheet``'s printable HTML) serves it.
Screenshots are kept in the test's tmp dir (and in ``$PARTIAR_ARTIFACTS`` if set)."""

from __future__ import annotations

import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from hw_sim.scenario import Scenario, run_step
from hw_sim.sim import Sim
from hw_sim.sim_client import SimClient

pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import emulate_screen, needs_chromium, start_chromium, waiting  # noqa: E402

pytestmark = needs_chromium

PHONE = (390, 844)
FIRST_MOVE = """
wait daemon
press B
place ROZUM at 8D
advance 20
press A
expect score 18 0
"""

OUTSIDE = """
const width = window.innerWidth;
const out = [];
for (const selector of arguments[0]) {
  const nodes = [...document.querySelectorAll(selector)];
  if (!nodes.length) out.push(selector + ': none on the page');
  for (const node of nodes) {
    const r = node.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.left < 0 || r.right > width + 0.5)
      out.push(`${selector}: ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`);
  }
}
return out;
"""
"""The elements ``arguments[0]`` selects that are not wholly inside the viewport's width (or not shown at all)."""


@pytest.fixture(scope="module")
def phone_sim(tmp_path_factory):
    folder = tmp_path_factory.mktemp("phone-sim")
    config = folder / "table.toml"
    config.write_text('[table]\nplayers = ["Jana", "Petr"]\n[display]\ncount = 2\ncolumns = 20\nlines = 4\n',
                      encoding="utf-8")  # fmt: skip
    sim = Sim(folder / "state", port=0, time_mode="manual", config_file=config)
    sim.start()
    client = SimClient(sim.url)
    assert client.wait_daemon(60), sim.log_path.read_text(encoding="utf-8", errors="replace")
    driver = start_chromium(tmp_path_factory.mktemp("chromium-phone"))
    emulate_screen(driver, *PHONE)
    yield sim, client, driver
    driver.quit()
    client.close()
    sim.stop()


def shot(driver, folder: Path, name: str) -> None:
    driver.save_screenshot(str(folder / f"{name}.png"))
    artifacts = os.environ.get("PARTIAR_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / f"{name}.png", Path(artifacts) / f"{name}.png")


def test_the_page_fits_a_phone_with_the_whole_board_the_lcds_and_the_buttons(phone_sim, tmp_path) -> None:
    sim, client, driver = phone_sim
    driver.get(sim.url)
    wait = waiting(driver)
    wait.until(lambda d: d.execute_script("return document.querySelectorAll('.lcd').length") == 2)
    assert driver.execute_script("return window.innerWidth") == PHONE[0]
    wide = driver.execute_script("return document.documentElement.scrollWidth")
    shot(driver, tmp_path, "sim-phone")
    assert wide <= PHONE[0], f"the page is {wide} px wide on a {PHONE[0]} px phone"
    assert driver.execute_script(OUTSIDE, ["#board", ".cell", ".lcd", "#press-a", "#press-b", "#press-encoder",
                                           "#turn-cw", "#turn-ccw", "#sheet", "#lang"]) == []  # fmt: skip
    # the LCD's characters are still readable: each cell at least 12 px wide
    narrowest = driver.execute_script(
        "return Math.min(...[...document.querySelectorAll('.lcd-cell')].map(c => c.getBoundingClientRect().width))")
    assert narrowest >= 12, narrowest


def test_the_sheet_link_serves_the_current_games_score_sheet(phone_sim, tmp_path) -> None:
    sim, client, driver = phone_sim
    for line in Scenario.parse(FIRST_MOVE, "test").lines:
        run_step(client, line.step)
    driver.get(sim.url)
    waiting(driver).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    link = driver.execute_script("const a = document.getElementById('sheet'); return [a.href, a.textContent]")
    assert link[1] == "Partiář (tisk)"
    driver.get(link[0])
    waiting(driver).until(lambda d: d.execute_script("return document.querySelector('.sheet h1') !== null"))
    assert driver.execute_script("return document.querySelector('.sheet h1').textContent") == "Partiář: Jana : Petr"
    moves = driver.execute_script("return [...document.querySelectorAll('table.moves td')].map(c => c.textContent)")
    assert "ROZUM" in moves and "18" in moves
    shot(driver, tmp_path, "sim-sheet-phone")
    with urllib.request.urlopen(sim.url + "sheet?lang=en", timeout=30) as answer:
        page = answer.read().decode("utf-8")
        assert answer.headers["Content-Type"].startswith("text/html")
    assert "<h1>Score sheet: Jana : Petr</h1>" in page and "ROZUM" in page


def test_the_sheet_before_any_game_says_so_in_czech(tmp_path) -> None:
    sim = Sim(tmp_path / "state", port=0, daemon_argv=[], board=None)
    sim.start()
    try:
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(sim.url + "sheet", timeout=30)
        assert info.value.code == 404
        body = info.value.read().decode("utf-8")
        assert "<p>Zatím není žádná hra: stůl ještě nezapsal začátek hry.</p>" in body
    finally:
        sim.stop()


def test_what_the_board_refuses_the_page_says_in_its_language(phone_sim) -> None:
    """The page showed the sim's English message ("cell A1 is empty") on a Czech page."""
    sim, _client, driver = phone_sim
    for lang, said in (("cs", "Nepovedlo se: pole A1 je prázdné"), ("en", "Failed: cell A1 is empty")):
        driver.get(sim.url)
        driver.execute_script("localStorage.setItem('partiar-lang', arguments[0])", lang)
        driver.get(sim.url)
        waiting(driver).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        driver.execute_script("post('/api/board', {op: 'remove', row: 0, col: 0})")  # the page's own request
        waiting(driver).until(lambda d, s=said: d.execute_script("return document.getElementById('status').textContent")
                              == s)  # fmt: skip
