"""The sim's page in headless Chromium (Debian's ``chromium`` + ``chromium-driver``, driven by Selenium).

A person's clicks: tiles onto the board from the palette and the keyboard, a tile lifted, the check square, the
player buttons and the encoder, the language switch. What is compared:
- the DOM: board cells against the sim's ``/api/board``, the LCD rows (``data-text``) against the panel's rows;
- one screenshot of the board region against ``tests/data/web_board_reference.png``, loosely: the same size
  (±4 px) and a coarse colour histogram (64 bins) within an L1 distance of 0.15, so fonts and anti-aliasing may
  differ between machines but a missing board, wrong premium colours or a blank page fail.
Screenshots are kept in the test's tmp dir (and in ``$PARTIAR_ARTIFACTS`` if set). Set
``PARTIAR_UPDATE_REFERENCE=1`` to rewrite the reference from this run.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
import zlib
from pathlib import Path

import pytest

from device.screens import RESULT_PAGE_SECONDS
from hw_sim.sim import Sim
from hw_sim.sim_client import SimClient

selenium = pytest.importorskip("selenium", reason="selenium is a test dependency of the web page tests")
from chromium import columns, needs_chromium, start_chromium, waiting  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

REFERENCE = Path(__file__).with_name("data") / "web_board_reference.png"
STUB = str(Path(__file__).with_name("sim_stub_daemon.py"))

pytestmark = needs_chromium


class FakeBoard:
    def place(self, row: int, col: int, letter: str) -> None: ...
    def remove(self, row: int, col: int) -> None: ...
    def set_fault(self, row: int, col: int, kind: str | None) -> None: ...
    def flicker(self, row: int, col: int, times: int) -> None: ...


class FakeDevice:
    port_path = "/dev/pts/fake"

    def unplug(self) -> None: ...
    def replug(self) -> None: ...


def decode_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and RGB pixels of an 8-bit, non-interlaced RGB/RGBA PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(line)
        prev = line
    pixels = [(row[x], row[x + 1], row[x + 2]) for row in rows for x in range(0, stride, channels)]
    return width, height, pixels


def histogram(pixels: list[tuple[int, int, int]]) -> list[float]:
    bins = [0] * 64
    for r, g, b in pixels:
        bins[(r >> 6) << 4 | (g >> 6) << 2 | (b >> 6)] += 1
    return [n / len(pixels) for n in bins]


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    state_dir = tmp_path_factory.mktemp("sim")
    s = Sim(
        state_dir,
        port=0,
        board=FakeBoard(),
        device=FakeDevice(),
        daemon_argv=[sys.executable, STUB, "manual"],
        time_mode="manual",
    )
    s.start()
    client = SimClient(s.url)
    assert client.wait_daemon(20), s.log_path.read_text()
    yield s, client
    client.close()
    s.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def cell(driver, row: int, col: int):
    return driver.find_element(By.CSS_SELECTOR, f'.cell[data-row="{row}"][data-col="{col}"]')


def letter_at(driver, row: int, col: int) -> str:
    """The letter a board cell shows (read in one script: the page re-renders on every pushed state)."""
    return driver.execute_script(
        "return document.querySelector(`.cell[data-row='${arguments[0]}'][data-col='${arguments[1]}']`).dataset.letter",
        row,
        col,
    )


def lcd_texts(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('.lcd-row')].map(r => r.dataset.text)")


def texts(driver, selector: str) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", selector
    )


def test_a_game_played_by_clicks(sim, browser, tmp_path) -> None:
    s, client = sim
    wait = waiting(browser)
    browser.get(s.url)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    assert browser.find_element(By.ID, "press-a").text == "Tlačítko A"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".cell")) == 225

    # a word by clicks: H8 then R from the palette, then the keyboard for the rest, typed at once, faster than the
    # sim answers (the selection moves right with each key, not with each answer)
    cell(browser, 7, 7).click()
    browser.find_element(By.CSS_SELECTOR, '.letter[data-letter="R"]').click()
    browser.switch_to.active_element.send_keys("OZUM")
    wait.until(lambda d: "".join(letter_at(d, 7, c) for c in range(7, 12)) == "ROZUM")
    cell(browser, 8, 7).click()
    browser.find_element(By.CSS_SELECTOR, '.letter[data-letter="?"]').click()
    wait.until(lambda d: letter_at(d, 8, 7) == "?")
    board = client.request("GET", "/api/board")["cells"]
    assert "".join(board[7][7:12]) == "ROZUM" and board[8][7] == "?"
    dom = [[letter_at(browser, r, c) or None for c in range(15)] for r in range(7, 9)]
    assert dom == board[7:9]
    assert texts(browser, '.letter[data-letter="R"] sub') == ["2"]  # 3 R in the Czech set, 1 on the board

    # the player buttons and the encoder reach the daemon's gpiozero devices; the LCD shows what it wrote
    browser.find_element(By.ID, "press-b").click()
    wait.until(lambda d: "A:0 B:1" in lcd_texts(d)[0])
    browser.find_element(By.ID, "press-a").click()
    browser.find_element(By.ID, "turn-cw").click()
    browser.find_element(By.ID, "turn-cw").click()
    browser.find_element(By.ID, "turn-ccw").click()
    wait.until(lambda d: lcd_texts(d) == ["A:1 B:1".ljust(16), "ENC:1 P:0".ljust(16)])
    panel_rows = client.wait_for(lambda st: st["panel"]["lcds"][0]["rows"][1].startswith("ENC:1"), 60)[
        "panel"
    ]["lcds"][0]["rows"]
    assert lcd_texts(browser) == panel_rows
    assert texts(browser, "#game td.score") == ["1", "1"]

    board_png = browser.find_element(By.ID, "board").screenshot_as_png
    (tmp_path / "board.png").write_bytes(board_png)
    browser.save_screenshot(str(tmp_path / "page.png"))
    artifacts = os.environ.get("PARTIAR_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        for name in ("board.png", "page.png"):
            shutil.copy(tmp_path / name, Path(artifacts) / name)
    if os.environ.get("PARTIAR_UPDATE_REFERENCE"):
        REFERENCE.parent.mkdir(exist_ok=True)
        REFERENCE.write_bytes(board_png)
    width, height, pixels = decode_png(board_png)
    ref_width, ref_height, ref_pixels = decode_png(REFERENCE.read_bytes())
    assert abs(width - ref_width) <= 4 and abs(height - ref_height) <= 4, (
        (width, height),
        (ref_width, ref_height),
    )
    distance = sum(abs(a - b) for a, b in zip(histogram(pixels), histogram(ref_pixels), strict=True))
    assert distance < 0.15, distance

    # lift a tile by clicking it; lay out the check square; switch the language
    cell(browser, 8, 7).click()
    wait.until(lambda d: letter_at(d, 8, 7) == "")
    assert client.request("GET", "/api/board")["cells"][8][7] is None
    browser.find_element(By.ID, "check-square").click()
    wait.until(lambda d: d.execute_script("return document.querySelectorAll('.cell.tile').length") == 100)
    assert letter_at(browser, 9, 9) == "?" and letter_at(browser, 0, 0) == "A"
    assert browser.execute_script("return [...document.querySelectorAll('.letter')].every(b => b.disabled)")
    browser.find_element(By.ID, "lang").click()
    wait.until(lambda d: d.find_element(By.ID, "press-a").text == "Button A")
    browser.find_element(By.ID, "clear-board").click()
    wait.until(lambda d: d.execute_script("return document.querySelectorAll('.cell.tile').length") == 0)


def test_time_controls_and_daemon_badge(sim, browser) -> None:
    s, client = sim
    wait = waiting(browser)
    browser.get(s.url)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    assert browser.find_element(By.ID, "time-controls").is_displayed()
    before = client.latest()["panel"]["time"]
    browser.find_element(By.CSS_SELECTOR, '[data-advance="60"]').click()
    assert client.wait_for(lambda st: st["panel"] and st["panel"]["time"] == before + 60, 60)
    assert browser.find_element(By.ID, "daemon").get_attribute("data-state") == "up"


@pytest.fixture(scope="module")
def real_sim(tmp_path_factory):
    """The real stack behind the page: the daemon (``python -m hw_sim.daemon``) on mock pins, the firmware logic on
    a pty, manual time."""
    state_dir = tmp_path_factory.mktemp("real-sim")
    s = Sim(state_dir, port=0, time_mode="manual")
    s.start()
    client = SimClient(s.url)
    assert client.wait_daemon(30), s.log_path.read_text()
    yield s, client, state_dir
    client.close()
    s.stop()


def test_a_tournament_move_played_by_clicks_on_the_real_daemon(real_sim, browser, tmp_path) -> None:
    s, client, state_dir = real_sim
    wait = waiting(browser)
    browser.get(s.url)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    assert client.wait_for(lambda st: ((st.get("panel") or {}).get("table") or {}).get("link_up") is True, 60)

    browser.find_element(By.ID, "press-b").click()  # B starts A's clock
    assert client.wait_for(lambda st: table_view_of(st).get("clock", {}).get("state") == "running", 15)
    # ROZUM at 8D by clicks: D8, then R from the palette, then the keyboard (the selection moves right)
    cell(browser, 7, 3).click()
    browser.find_element(By.CSS_SELECTOR, '.letter[data-letter="R"]').click()
    for key in "OZUM":
        browser.switch_to.active_element.send_keys(key)
    assert client.wait_for(lambda st: "".join(c or "." for c in table_view_of(st)["physical"][7][3:8]) == "ROZUM", 60)
    browser.find_element(By.ID, "press-a").click()
    wait.until(lambda d: any("18:0" in row for row in lcd_texts(d)))  # the real screens, through the emulated LCD
    assert texts(browser, "#game td.score") == ["18", "0"]

    # B challenges ROZUM from the encoder: turn to the item, push, push on the word, then the referee rules
    def choose(label: str) -> None:
        for _ in range(60):
            menu = table_view_of(client.latest()).get("menu")
            if menu and menu[1] == "> " + label:
                browser.find_element(By.ID, "press-encoder").click()
                client.wait_for(lambda st, seen=menu: table_view_of(st).get("menu") != seen, 15)
                return
            if not menu:
                browser.find_element(By.ID, "press-encoder").click()
            else:
                browser.find_element(By.ID, "turn-cw").click()
            client.wait_for(lambda st, seen=menu: table_view_of(st).get("menu") != seen, 15)
        raise AssertionError(f"no menu entry {label!r}; menu {table_view_of(client.latest()).get('menu')}")

    choose("Námitka slovo")
    choose("ROZUM")
    assert client.wait_for(lambda st: table_view_of(st).get("game", {}).get("pending_challenge"), 15)
    choose("Rozhodnutí")
    choose("neoprávněná")
    assert client.wait_for(lambda st: table_view_of(st).get("game", {}).get("crosses") == [0, 1], 15)
    browser.save_screenshot(str(tmp_path / "real-page.png"))
    journal = (state_dir / "journal.jsonl").read_text(encoding="utf-8")
    assert [line.split('"type":"')[1].split('"')[0] for line in journal.splitlines()] == [
        "start", "info", "play", "challenge_word", "ruling",
    ]  # fmt: skip


def table_view_of(state: dict) -> dict:
    return ((state or {}).get("panel") or {}).get("table") or {}


# ------------------------------------------------------------------------------------- a whole short game
def text_of(driver, selector: str) -> str | None:
    """The text of the first element matching ``selector``, read in one script (the page re-renders on every
    pushed state, so a found element may be gone a moment later)."""
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e && e.textContent", selector)


def lcd_lines(lcd: dict) -> list[str]:
    """An emulated LCD's rows as Czech text: each custom glyph (CGRAM 0-7, mirrored at 8-15) read back as the
    letter whose 5x8 pattern it holds (``device.transliterate.GLYPHS``)."""
    from device.transliterate import GLYPHS

    by_pattern = {tuple(rows): letter for letter, rows in GLYPHS.items()}
    out = []
    for codes in lcd["cells"]:
        out.append("".join(by_pattern.get(tuple(lcd["cgram"][c & 7]), "▯") if c < 16 else chr(c) for c in codes))
    return out


@pytest.fixture(scope="module")
def game_sim(tmp_path_factory):
    """The real daemon with two 16x2 LCDs facing Jana and Petr, in Czech, on manual time."""
    state_dir = tmp_path_factory.mktemp("game-sim")
    config = state_dir / "table.toml"
    config.write_text('[table]\nplayers = ["Jana", "Petr"]\n[display]\ncount = 2\n', encoding="utf-8")
    s = Sim(state_dir / "sim", port=0, time_mode="manual", config_file=config)
    s.start()
    client = SimClient(s.url)
    assert client.wait_daemon(30), s.log_path.read_text()
    yield s, client
    client.close()
    s.stop()


def test_a_short_game_played_on_the_page_ends_with_the_result_on_the_page_and_both_lcds(
    game_sim, browser, tmp_path
) -> None:
    s, client = game_sim
    wait = waiting(browser)
    browser.get(s.url)
    browser.execute_script("localStorage.setItem('partiar-lang', 'cs')")
    browser.get(s.url)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    assert client.wait_for(lambda st: table_view_of(st).get("link_up") is True, 20)
    view = lambda: table_view_of(client.latest())  # noqa: E731
    click = lambda element_id: browser.find_element(By.ID, element_id).click()  # noqa: E731

    def lcds() -> list[list[str]]:
        return [lcd_lines(lcd) for lcd in client.latest()["panel"]["lcds"]]

    def shot(name: str) -> None:
        browser.save_screenshot(str(tmp_path / f"{name}.png"))
        artifacts = os.environ.get("PARTIAR_ARTIFACTS")
        if artifacts:
            Path(artifacts).mkdir(parents=True, exist_ok=True)
            shutil.copy(tmp_path / f"{name}.png", Path(artifacts) / f"game-{name}.png")

    # the Czech board letters its rows (ČAS notation): ROZUM at H4V, typed from H4
    assert texts(browser, "#board .label.row")[7] == "H" and texts(browser, "#board .label.col")[3] == "4"
    assert browser.find_element(By.CSS_SELECTOR, '.cell[data-row="7"][data-col="3"]').get_attribute("aria-label") == "H4"
    click("press-b")  # Petr starts Jana's clock
    assert client.wait_for(lambda st: table_view_of(st).get("clock", {}).get("state") == "running", 10)
    wait.until(lambda d: texts(d, "#game td.time")[0] == "2:00")  # the time column, from what the daemon sends
    assert columns(browser, "main > section") == 2  # the board beside the table's parts on a desktop
    cell(browser, 7, 3).click()
    browser.find_element(By.CSS_SELECTOR, '.letter[data-letter="R"]').click()
    for key in "OZUM":
        browser.switch_to.active_element.send_keys(key)
    assert client.wait_for(lambda st: "".join(c or "." for c in table_view_of(st)["physical"][7][3:8]) == "ROZUM", 10)
    click("press-a")
    assert client.wait_for(lambda st: table_view_of(st).get("game", {}).get("scores") == [18, 0], 10)
    wait.until(lambda d: "ROZUM H4V 18" in (text_of(d, "#game .facts") or ""))

    # Petr lets his time run out: the page and both LCDs say that Petr must press
    for _ in range(2):
        browser.find_element(By.CSS_SELECTOR, '[data-advance="60"]').click()
    browser.find_element(By.CSS_SELECTOR, '[data-advance="1"]').click()
    assert client.wait_for(lambda st: table_view_of(st).get("clock", {}).get("state") == "awaiting", 30)
    browser.find_element(By.CSS_SELECTOR, '[data-advance="10"]').click()  # the time-out notice goes
    assert client.wait_for(lambda st: lcd_lines(st["panel"]["lcds"][0])[0].startswith("Petr: stiskni"), 10)
    wait.until(lambda d: text_of(d, "#next") == "Čas vypršel, stiskne: Petr")
    assert text_of(browser, "#game tr.on-move td.name") == "Petr (stiskne)"
    # the daemon writes the LCDs one after the other, character by character: wait for Jana's screen too
    assert client.wait_for(lambda st: lcd_lines(st["panel"]["lcds"][1])[0].startswith("ty: stiskni"), 10), lcds()
    shot("timeout")
    click("press-b")  # the loop below picks the button from the state: wait until it shows this press handled
    assert client.wait_for(lambda st: table_view_of(st)["clock"]["state"] != "awaiting", 20), view()["clock"]
    while view()["game"]["ended"] is None:  # passes (a press with no new tiles) until the scoreless end
        before = len(view()["game"]["history"])
        browser.find_element(By.CSS_SELECTOR, '[data-advance="1"]').click()
        click("press-a" if view()["clock"]["player_on_move"] == 0 else "press-b")
        assert client.wait_for(lambda st, n=before: len(table_view_of(st)["game"]["history"]) > n, 10)
    assert view()["game"]["ended"] == "scoreless"
    wait.until(lambda d: "Konec hry: zapište zbylé kameny hráče Jana" in text_of(d, "#next"))

    # the referee enters the tiles left on the encoder, as the LCD asks
    def choose(label: str) -> None:
        for _ in range(60):
            menu = view().get("menu")
            if menu and menu[1] == "> " + label:
                click("press-encoder")
                client.wait_for(lambda st, seen=menu: table_view_of(st).get("menu") != seen, 10)
                return
            click("press-encoder" if not menu else "turn-cw")
            client.wait_for(lambda st, seen=menu: table_view_of(st).get("menu") != seen, 10)
        raise AssertionError(f"no menu entry {label!r}; menu {view().get('menu')}")

    for rack in ("AEINOSU", "AEINOST"):
        choose("Zbylé kameny")
        for letter in rack:
            choose(letter)
            assert columns(browser, "main > section") == 2  # the playout's menu keeps the page's two columns
        choose("hotovo")
        choose("ano")  # the racks end the game: the table asks to confirm them, starting on "ne"
    assert client.wait_for(lambda st: table_view_of(st).get("game", {}).get("result"), 10)
    browser.find_element(By.CSS_SELECTOR, '[data-advance="10"]').click()  # past every notice

    # the page: the result with the rack adjustments, the winner, nobody marked to press
    wait.until(lambda d: d.find_elements(By.ID, "result"))
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#result tr')].map(r => [...r.children].map(c => c.textContent))"
    )
    assert rows == [
        ["", "Jana", "Petr"],
        ["Body zahrané", "18", "0"],
        ["Zbylé kameny", "-8 (AEINOSU)", "-7 (AEINOST)"],
        ["Celkem", "10", "-7"],
    ]
    assert text_of(browser, "#result .winner") == "Vítěz: Jana"
    assert columns(browser, "main > section") == 2  # and so does the result
    assert text_of(browser, "#result .ended-by") == "Konec hry: tahy bez položení kamenů"
    assert texts(browser, "#game td.score") == ["10", "-7"] and texts(browser, "#game td.time") == ["", ""]
    assert not browser.find_elements(By.CSS_SELECTOR, "#game tr.on-move")
    assert text_of(browser, "#next") == "Konec hry: nikdo nemačká; nová hra z nabídky"
    facts = text_of(browser, "#game .facts")
    assert "pravidla: ČAS" in facts and "fáze: konec" in facts and "normal" not in facts
    shot("result")

    # both LCDs: the final result and the winner, then the points played and the tiles left, a page every
    # RESULT_PAGE_SECONDS of the table's time. Each second is advanced through the client, whose answer comes once
    # the table has handled it and its screens are written (the panel's ``seq``), so no screen is read half-written
    # (a click on the page's time button is not waited for like that).
    pages = {
        (("Konec 10:-7", "Vítěz: Jana"), ("Konec -7:10", "Vítěz: Jana")),
        (("Hráno 18:0", "Kameny -8:-7"), ("Hráno 0:18", "Kameny -7:-8")),
    }
    seen = set()
    for _ in range(3 * int(RESULT_PAGE_SECONDS)):
        client.advance(1)
        seen.add(tuple(tuple(row.rstrip() for row in lcd) for lcd in lcds()))
        if pages <= seen:
            break
    assert pages <= seen, seen
    browser.find_element(By.ID, "lang").click()
    wait.until(lambda d: (text_of(d, "#result .winner") or "") == "Winner: Jana")
    assert texts(browser, "#board .label.col")[3] == "D"  # classic notation in English
    shot("result-en")


def test_time_buttons_are_hidden_in_real_time_and_say_so_in_czech(tmp_path_factory, browser) -> None:
    state_dir = tmp_path_factory.mktemp("real-time")
    s = Sim(state_dir, port=0, board=FakeBoard(), device=FakeDevice(), daemon_argv=[sys.executable, STUB])
    s.start()
    try:
        client = SimClient(s.url)
        assert client.wait_daemon(20)
        browser.get(s.url)
        browser.execute_script("localStorage.setItem('partiar-lang', 'cs')")
        browser.get(s.url)
        waiting(browser).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        assert not browser.find_element(By.ID, "time-controls").is_displayed()
        browser.execute_script("document.querySelector('[data-advance=\"60\"]').click()")  # used anyway
        assert text_of(browser, "#status").startswith("Čas tu běží skutečně")
        client.close()
    finally:
        s.stop()


def test_the_page_asks_again_for_a_stream_the_server_refused(browser) -> None:
    """A server that refuses the page's live stream (a 503: more connections than it takes) makes the browser
    give that stream up for good; the page then opens a new one by itself, so it follows the sim again once the
    server has room, without a reload."""
    import threading

    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from eventstream.server import ServerThread

    refused = threading.Semaphore(0)

    async def busy(_request: object) -> Response:
        refused.release()
        return Response("busy", 503)

    page = Path(__file__).resolve().parents[1] / "hw_sim" / "web"
    app = Starlette(routes=[Route("/api/events", busy), Mount("/", StaticFiles(directory=page, html=True))])
    server = ServerThread(app, 0, name="test-busy").start()
    try:
        browser.get(f"http://127.0.0.1:{server.port}/")
        assert refused.acquire(timeout=60), "the page never asked for its stream"
        waiting(browser, 60).until(lambda d: "Spojení se simulátorem" in d.find_element(By.ID, "status").text)
        assert refused.acquire(timeout=60), "the page gave up its stream after a 503"
    finally:
        server.stop()
