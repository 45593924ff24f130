"""What a club member sees on the simulator's page in the language they chose, whatever the table's own: the last
move's position and the premium squares in that language (a Czech table's page in English says ``8D`` and
``3×W``, not ``H4V`` and ``3×S``). The real daemon on manual time behind the page; headless Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hw_sim.scenario import Scenario, run_step

pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import needs_chromium, shown_text, shown_texts, waiting  # noqa: E402
from test_web_chromium import browser, real_sim  # noqa: E402, F401 - the fixtures

pytestmark = needs_chromium

MOVE = """wait daemon
press B
place ROZUM at 8D
press A
expect score 18 0
"""


@pytest.fixture(scope="module")
def czech_table(real_sim):  # noqa: F811 - the fixture
    """The real daemon of a Czech table (the default language) after ROZUM across from D8."""
    sim, client, _state_dir = real_sim
    for line in Scenario.parse(MOVE).lines:
        run_step(client, line.step)
    return sim.url


@pytest.mark.parametrize(("lang", "move", "premiums"), [("cs", "ROZUM H4V 18", ["3×S", "2×P", "2×S", "3×P"]),
                                                        ("en", "ROZUM 8D 18", ["3×W", "2×L", "2×W", "3×L"])])  # fmt: skip
def test_the_page_speaks_its_own_language(czech_table, browser, tmp_path, lang, move, premiums) -> None:  # noqa: F811
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
