"""What a club member sees on the simulator's page in the language they chose, whatever the table's own: the last
move's position and the premium squares in that language (a Czech table's page in English says ``8D`` and
``3×W``, not ``H4V`` and ``3×S``). The real daemon on manual time behind the page; headless Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hw_sim.scenario import Scenario, run_step
from hw_sim.sim import Sim
from hw_sim.sim_client import SimClient

pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import needs_chromium, shown_text, shown_texts, start_chromium, waiting  # noqa: E402

pytestmark = needs_chromium

MOVE = """wait daemon
press B
place ROZUM at 8D
press A
expect score 18 0
"""


@pytest.fixture(scope="module")
def czech_table(tmp_path_factory):
    """The real daemon of a Czech table (the default language) after ROZUM across from D8."""
    state_dir = tmp_path_factory.mktemp("sim")
    sim = Sim(state_dir, port=0, time_mode="manual")
    sim.start()
    client = SimClient(sim.url)
    try:
        for line in Scenario.parse(MOVE).lines:
            run_step(client, line.step)
        yield sim.url
    finally:
        client.close()
        sim.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.mark.parametrize(("lang", "move", "premiums"), [("cs", "ROZUM H4V 18", ["3×S", "2×P", "2×S", "3×P"]),
                                                        ("en", "ROZUM 8D 18", ["3×W", "2×L", "2×W", "3×L"])])  # fmt: skip
def test_the_page_speaks_its_own_language(czech_table, browser, tmp_path, lang, move, premiums) -> None:
    browser.get(czech_table)
    browser.execute_script("localStorage.setItem('partiar-lang', arguments[0])", lang)
    browser.get(czech_table)
    waiting(browser).until(lambda d: "ROZUM" in shown_text(d, "#game .facts"))
    folder = Path(os.environ.get("PARTIAR_SCREENSHOTS") or tmp_path)
    browser.save_screenshot(str(folder / f"sim-{lang}.png"))
    assert move in shown_text(browser, "#game .facts")
    corner, second, diagonal, inner = (shown_texts(browser, f'.cell[data-row="{r}"][data-col="{c}"]')[0]
                                       for r, c in ((0, 0), (0, 3), (1, 1), (1, 5)))  # fmt: skip
    assert [corner, second, diagonal, inner] == premiums
