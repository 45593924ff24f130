"""What a person sees on the hub's table page, in headless Chromium: at a phone's width the board and the scores
do not overlap and nothing runs off the screen; at a projector's width the page fills no more than the screen;
the English page writes positions in the classic notation the table's LCD and score sheet use in English (the
Czech one in ČAS notation); a finished game's time line has no separator left dangling. Screenshots go to
``$PARTIAR_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import pytest
from test_game_scripted import GOLDEN_SCRIPT

from engine.game import Game, Start
from engine.game.script import run_script
from engine.ruleset import preset
from hub import HubServer, HubStore

pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import emulate_screen, needs_chromium, shown_text, shown_texts, waiting  # noqa: E402
from test_hub_pages import browser, shots  # noqa: E402, F401 - the fixtures

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def hub_url():
    store = HubStore()
    game = run_script(GOLDEN_SCRIPT)  # ROZUM across from row H column 7: H7V in ČAS notation, 8G classic
    swap = Game()  # 001, alternative rule 1
    swap.apply(Start(0, ("Jan", "Eva"), preset("home", blank_swap=True)))
    run_script("play H7V rOZUM\nswap_blank H7", swap)
    resigned = run_script("start cas Jan Eva\nplay H7V ROZUM\nresign 1")  # 0:100 whatever was played
    corrected = run_script("start cas Jan Eva\nplay H7V ROZUM\ncorrection 0 -5 špatně sečteno\nwarn 1 ruší\npass")
    for table, events in (("7", game.events), ("8", swap.events), ("9", resigned.events), ("10", corrected.events)):
        for seq, event in enumerate(events):
            store.add_event({"v": 1, "table": table, "game": "g1", "seq": seq, "event": event.to_json()})
    server = HubServer(store, "127.0.0.1", 0)
    server.start()
    yield f"http://127.0.0.1:{server.port}"
    server.stop()
    store.db.close()


def open_page(driver, url: str, lang: str, width: int, height: int, table: str = "7") -> None:
    """The page in ``lang`` on a screen ``width`` CSS pixels wide (a phone's is narrower than a headless window
    can be, so the screen is emulated), once the game's moves are on it."""
    emulate_screen(driver, width, height)
    driver.get(url + "/")
    driver.execute_script("localStorage.setItem('partiar-lang', arguments[0])", lang)
    driver.get(url + f"/table/{table}")
    waiting(driver).until(lambda d: shown_texts(d, "#history tr"))  # the moves come in one message


def overlap(driver, a: str, b: str) -> bool:
    return driver.execute_script(
        "const [p, q] = [arguments[0], arguments[1]].map(s => document.querySelector(s).getBoundingClientRect());"
        "return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom", a, b)  # fmt: skip


@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844), (1920, 1080)])
def test_the_table_page_fits_a_phone_and_a_projector(hub_url, browser, shots, width, height) -> None:  # noqa: F811
    open_page(browser, hub_url, "cs", width, height)
    browser.save_screenshot(str(shots / f"hub-table-{width}.png"))
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    assert not overlap(browser, "#board", ".side")
    cell = browser.execute_script("return document.querySelector('#board .cell').getBoundingClientRect().width")
    assert cell >= (width - 40) / 15 - 2 if width < 600 else cell > 30  # the board takes the phone's width
    if width >= 1600:  # a projector: the board as high as the screen, and all of it on the screen
        box = browser.execute_script("const r = document.querySelector('#board').getBoundingClientRect();"
                                     "return [r.width, r.bottom]")  # fmt: skip
        assert box[0] >= 850 and box[1] <= height


@pytest.mark.parametrize(("lang", "first", "fifth"), [("cs", "H7V ROZUM 16", "E11S JEPMŽ 20"),
                                                      ("en", "8G ROZUM 16", "K5 JEPMŽ 20")])  # fmt: skip
def test_positions_in_the_languages_notation(hub_url, browser, shots, lang, first, fifth) -> None:  # noqa: F811
    open_page(browser, hub_url, lang, 1200, 900)
    browser.save_screenshot(str(shots / f"hub-table-{lang}.png"))
    moves = [row.split("\t")[2] for row in shown_texts(browser, "#history tr")]
    assert moves[0] == first
    assert fifth in moves
    assert shown_text(browser, "#last-move") == moves[-1]


def test_a_finished_game_without_a_clock_shows_no_dangling_separator(hub_url, browser) -> None:  # noqa: F811
    open_page(browser, hub_url, "cs", 1200, 900)
    separator = browser.execute_script(
        "return getComputedStyle(document.querySelector('#game-time .phase'), '::before').content")
    assert shown_text(browser, "#game-time") == "konec"
    assert separator in ("none", "normal")


@pytest.mark.parametrize(("lang", "none"), [("cs", "žádné"), ("en", "none")])
def test_the_status_page_says_when_nothing_was_refused(hub_url, browser, lang, none) -> None:  # noqa: F811
    browser.get(hub_url + "/")
    browser.execute_script("localStorage.setItem('partiar-lang', arguments[0])", lang)
    browser.get(hub_url + "/status")
    waiting(browser).until(lambda d: shown_texts(d, "#counts tr"))
    assert shown_texts(browser, "#rejected-list tr") == [none]
    assert shown_texts(browser, "#disagreement-list tr") == [none]


@pytest.mark.parametrize(("lang", "swap"), [("cs", "výměna žolíku"), ("en", "blank swapped")])
def test_every_kind_of_turn_has_words_in_the_pages_language(hub_url, browser, lang, swap) -> None:  # noqa: F811
    """A blank swapped for its tile (001, alternative rule 1) showed its code name "blank_swap" on both pages."""
    open_page(browser, hub_url, lang, 1200, 900, table="8")
    moves = [row.split("\t")[2] for row in shown_texts(browser, "#history tr")]
    assert moves[-1] == swap


@pytest.mark.parametrize(("lang", "played_out", "resigned"), [
    ("cs", "Konečný výsledek 15:23 · zbylé kameny −19 / −10 · vítěz Eva (tahy bez položení kamenů)",
     "Konečný výsledek 100:0 · vítěz Jan (vzdáno)"),
    ("en", "Final result 15:23 · racks −19 / −10 · winner Eva (scoreless turns)",
     "Final result 100:0 · winner Jan (resigned)")])  # fmt: skip
def test_the_final_result_names_rack_points_only_when_the_racks_counted(hub_url, browser, lang, played_out,  # noqa: F811
                                                                        resigned) -> None:  # fmt: skip
    """A resignation's 100:0 is fixed (004): it said "zbytky +84 / 0", the difference from the points played. The
    words are the seeds' and the sheet's: "zbylé kameny"; "tahy bez položení kamenů" (it said "šest tahů bez
    bodů", but a ČAS game ends after four)."""
    open_page(browser, hub_url, lang, 1200, 900)
    assert shown_text(browser, "#final") == played_out
    open_page(browser, hub_url, lang, 1200, 900, table="9")
    assert shown_text(browser, "#final") == resigned


@pytest.mark.parametrize(("lang", "rows"), [
    ("cs", ["1\tJan\tH7V ROZUM 16\t16", "\tJan\toprava rozhodčího −5 (špatně sečteno)\t",
            "\tEva\tnapomenutí (ruší)\t", "2\tEva\tpas\t0"]),
    ("en", ["1\tJan\t8G ROZUM 16\t16", "\tJan\treferee's correction −5 (špatně sečteno)\t",
            "\tEva\twarning (ruší)\t", "2\tEva\tpass\t0"])])  # fmt: skip
def test_the_referees_record_stands_between_the_moves(hub_url, browser, shots, lang, rows) -> None:  # noqa: F811
    """Jan's score is 11 after ROZUM 16: the page says why, as the score sheet's referee's record does."""
    open_page(browser, hub_url, lang, 390, 844, table="10")
    browser.save_screenshot(str(shots / f"hub-referee-record-{lang}.png"))
    assert shown_texts(browser, ".score[data-player='0']") == ["11"]
    assert [r.strip("\n") for r in shown_texts(browser, "#history tr")] == rows


PREMIUM_COUNTS = {"p-T": 8, "p-D": 17, "p-t": 12, "p-d": 24}
"""The standard board's premium squares (engine.board): triple word, double word (the centre too), triple and
double letter."""


def premium_classes(driver, board: str) -> dict[str, int]:
    return driver.execute_script(
        "const out = {}; for (const c of document.querySelectorAll(arguments[0] + ' .cell'))"
        " for (const k of c.classList) if (k.startsWith('p-')) out[k] = (out[k] || 0) + 1; return out;", board)  # fmt: skip


@pytest.mark.parametrize(("lang", "labels"), [("cs", ["3×S", "2×P", "2×S", "3×P"]), ("en", ["3×W", "2×L", "2×W", "3×L"])])
def test_the_live_boards_show_the_premium_squares(hub_url, browser, shots, lang, labels) -> None:  # noqa: F811
    """The table page and the overview's cards drew every empty square alike: now they are coloured as on a real
    board, an empty one on the table page says what it is, and a tile laid on one covers it."""
    open_page(browser, hub_url, lang, 1200, 900)
    browser.save_screenshot(str(shots / f"hub-table-premiums-{lang}.png"))
    assert premium_classes(browser, "#board") == PREMIUM_COUNTS
    corner, second, diagonal, inner = browser.execute_script(
        "return [[0, 0], [0, 3], [1, 1], [1, 5]].map(([r, c]) => {"
        " const n = document.querySelector(`#board .cell[data-row='${r}'][data-col='${c}']`);"
        " return getComputedStyle(n, '::after').content.replaceAll('\"', ''); })")  # fmt: skip
    assert [corner, second, diagonal, inner] == labels
    centre = browser.execute_script(
        "const n = document.querySelector(\"#board .cell[data-row='7'][data-col='7']\");"
        "return [n.className, n.dataset.letter, getComputedStyle(n).backgroundColor, getComputedStyle(n, '::after').content]")
    assert centre[0] == "cell p-D" and centre[1] != ""  # the golden game's first word crosses the centre
    assert centre[2] == "rgb(243, 217, 164)" and centre[3] in ("none", "normal")  # the tile's colour, no label
    browser.get(hub_url + "/")
    waiting(browser).until(lambda d: d.execute_script("return document.querySelectorAll('.board.mini').length") >= 4)
    for table in browser.execute_script("return [...document.querySelectorAll('.table-card')].map(c => c.dataset.table)"):
        assert premium_classes(browser, f".table-card[data-table='{table}'] .board.mini") == PREMIUM_COUNTS
    browser.save_screenshot(str(shots / f"hub-overview-premiums-{lang}.png"))


@pytest.mark.parametrize(("lang", "title"), [("cs", "Skóre v průběhu hry"), ("en", "Score over the game")])
def test_the_table_page_shows_the_score_over_the_game(hub_url, browser, shots, lang, title) -> None:  # noqa: F811
    """The golden game's chart (engine.score_chart, drawn by the hub): a line a player through the running totals
    after each of their turns, then the final 15:23; a phone shows it whole."""
    for width, height in ((1200, 900), (390, 844)):
        open_page(browser, hub_url, lang, width, height)
        waiting(browser).until(lambda d: d.execute_script("return document.querySelectorAll('#chart polyline').length")
                               == 2)  # fmt: skip
        browser.execute_script("document.getElementById('chart').scrollIntoView()")
        browser.save_screenshot(str(shots / f"hub-table-chart-{lang}-{width}.png"))
        chart = browser.execute_script(
            "const s = document.querySelector('#chart svg'); const r = s.getBoundingClientRect();"
            "return [s.querySelector('title').textContent,"
            " [...s.querySelectorAll('polyline')].map(p => p.dataset.totals), r.left, r.right, r.height]")  # fmt: skip
        assert chart[:2] == [title, ["0,16,19,19,19,34,34,34,15", "0,0,13,33,33,33,33,23"]]
        assert chart[2] >= 0 and chart[3] <= width and chart[4] > 80


def test_the_chart_of_a_table_without_a_game_is_not_found(hub_url) -> None:
    import urllib.error
    import urllib.request

    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(hub_url + "/api/table/99/chart.svg", timeout=30)
    assert info.value.code == 404
    with urllib.request.urlopen(hub_url + "/api/table/7/chart.svg?lang=en", timeout=30) as answer:
        assert answer.headers["Content-Type"].startswith("image/svg+xml")
        assert "<title>Score over the game</title>" in answer.read().decode("utf-8")
