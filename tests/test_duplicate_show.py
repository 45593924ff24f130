"""``partiar duplicate --show``: the room's page on a real server on loopback (desk/show.py), its live
refresh (server-sent events), both languages, the page in headless Chromium (a screenshot kept in the test's tmp
dir) and its reconnecting after the server restarts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from chromium import needs_chromium, start_chromium, waiting
from mosquitto_fixture import SseClient
from polling import wait_until
from small_lexicon import CAT_WORDS, generator, write_index
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from desk.show import ShowServer, render_show, top_squares
from engine.duplicate import DuplicateGame
from eventstream.server import ServerThread
from shared.texts import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent


def slip(player: str, position: str, word: str, claimed: int) -> dict[str, object]:
    return {"type": "slip", "player": player, "position": position, "word": word, "claimed": claimed,
            "accept_unknown": None}  # fmt: skip


def played_game() -> DuplicateGame:
    """One closed move (rack CATSEAX) and the next rack drawn: Ann found the top play, Bob a smaller one."""
    game = DuplicateGame(["Ann", "Bob"], generator(CAT_WORDS))
    game.apply({"type": "draw", "tiles": "CATSEAX"})
    top = game.current.top  # type: ignore[union-attr]
    assert top is not None
    game.apply(slip("Ann", top.notation(game.notation), top.word, top.score))
    game.apply(slip("Bob", "8H", "CAT", 10))
    game.apply({"type": "close"})
    return game


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.status, r.read().decode("utf-8")


def publish(server: ShowServer, game: DuplicateGame) -> None:
    server.publish({lang: render_show(game, lang) for lang in LANGUAGES})


@pytest.mark.parametrize(("score", "cs", "en"), [(1, "1 bod", "1 point"), (3, "3 body", "3 points"),
                                                (5, "5 bodů", "5 points"), (12, "12 bodů", "12 points")])  # fmt: skip
def test_the_caption_says_points_in_the_languages_number_form(score: int, cs: str, en: str) -> None:
    """Czech nouns after a number: 1 bod, 2-4 body, 5 and more bodů."""
    from desk.show import _t

    values = {"move": 4, "position": "H8V", "word": "KOČKA", "score": score}
    assert _t("last_top", "cs", **values) == f"Nejlepší tah 4: H8V KOČKA, {cs}"
    assert _t("last_top", "en", **values) == f"Top play 4: H8V KOČKA, {en}"


def test_the_content_shows_the_last_top_play_and_not_the_current_one() -> None:
    game = played_game()
    top = game.rounds[0].top
    assert top is not None
    squares = top_squares(game)
    assert squares == {p.square.index for p in top.placements} and len(squares) == len(top.placements)
    page = render_show(game, "cs")
    highlighted = re.findall(r'<td class="[^"]*\btop\b[^"]*" data-square="(\w+)">(\w)</td>', page)
    assert {square for square, _ in highlighted} == {p.square.classic() for p in top.placements}
    assert f"Nejlepší tah 1: {top.notation(game.notation)} {top.word}, {top.score} bodů" in page
    assert "Ann" in page and "Bob" in page and "% maxima" in page
    assert "Tah 2: losuje se" in page
    english = render_show(game, "en")
    assert f"Top play 1: {top.notation(game.notation)} {top.word}, {top.score} points" in english
    assert "% of top" in english
    # the next rack drawn: the room sees the rack, never its top play before the referee closes the move
    game.apply({"type": "draw", "tiles": "".join(sorted(game.bag.elements()))[: game.to_draw()]})
    if game.current is not None:
        upcoming = game.current.top
        page = render_show(game, "cs")
        assert f"Tah 2: {game.current.rack}" in page
        assert upcoming is None or "Nejlepší tah 2" not in page


def board_labels(page: str) -> tuple[list[str], list[str]]:
    """The board's column headers and row headers as the page shows them."""
    board = page[page.index('<table class="board">') : page.index("</table>")]
    rows = board.split("<tr>")[1:]
    return re.findall(r"<th>(\w*)</th>", rows[0])[1:], [re.match(r"<th>(\w+)</th>", r).group(1) for r in rows[1:]]  # type: ignore[union-attr]


def test_a_czech_board_is_labelled_in_cas_notation_as_the_caption_and_the_slips() -> None:
    """Issue 29, item 2: with Czech tiles the caption, the slips and the terminal write ČAS notation (row letter,
    column number): the board's rows are lettered A-O and its columns numbered 1-15, so the square the caption
    names is the highlighted one at that row and column. An English game keeps the classic labels."""
    from engine.lexicon.alphabet import czech_alphabet

    game = DuplicateGame(["Eva", "Jan"], generator(["kočka", "oko", "kos"], czech_alphabet(), "czech"))
    game.apply({"type": "draw", "tiles": "KOČKASE"})
    top = game.current.top  # type: ignore[union-attr]
    assert top is not None
    game.apply(slip("Eva", top.notation(game.notation), top.word, top.score))
    game.apply({"type": "close"})
    page = render_show(game, "cs")
    columns, rows = board_labels(page)
    assert columns == [str(n) for n in range(1, 16)] and rows == list("ABCDEFGHIJKLMNO")
    position = top.notation(game.notation)  # e.g. H4V: row H, column 4, across
    assert f"Nejlepší tah 1: {position} " in page
    highlighted = re.findall(r'<td class="[^"]*\btop\b[^"]*" data-square="(\w+)">', page)
    assert position[:-1] in highlighted and len(highlighted) == len(top.placements)
    first = min(p.square for p in top.placements)
    assert (rows[first.row], columns[first.col]) == (position[0], position[1:-1])
    english_columns, english_rows = board_labels(render_show(played_game(), "cs"))
    assert english_columns == list("ABCDEFGHIJKLMNO") and english_rows == [str(n) for n in range(1, 16)]


def test_a_real_server_on_loopback_serves_the_page_and_streams_each_new_content() -> None:
    game = DuplicateGame(["Ann", "Bob"], generator(CAT_WORDS))
    server = ShowServer(0, "cs")
    streams: list[SseClient] = []
    try:
        publish(server, game)
        status, page = get(server.url)
        assert status == 200 and "<h1>Opisovaný Scrabble</h1>" in page and 'href="?lang=en"' in page
        assert "Zatím žádný tah" in page and 'new EventSource("/api/events?lang=cs")' in page
        _, english = get(server.url + "?lang=en")
        assert "<h1>Duplicate Scrabble</h1>" in english and 'href="?lang=cs"' in english
        czech = SseClient(server.port, "/api/events").start()  # the server's language
        streams += [czech, SseClient(server.port, "/api/events?lang=en").start()]
        streams.append(SseClient(server.port, "/api/events?lang=xx").start())  # unknown: the server's language
        for stream in streams:
            assert stream.wait_for(lambda got: len(got) == 1, 60), stream.error
        first = [stream.received[0][1]["html"] for stream in streams]
        assert "Zatím žádný tah" in first[0] and "No move yet" in first[1] and first[2] == first[0]
        # the referee closes a move: every open page gets the new content in its language at once
        publish(server, played_game())
        for stream in streams:
            assert stream.wait_for(lambda got: len(got) == 2, 60), stream.error
        assert "Nejlepší tah 1:" in czech.received[1][1]["html"] and "Top play 1:" in streams[1].received[1][1]["html"]
    finally:
        server.stop()
        for stream in streams:
            stream.close()
    assert server.url.startswith("http://127.0.0.1:")
    assert all(wait_until(lambda s=stream: s.error is not None, 30) for stream in streams), "a stream outlived stop()"


@needs_chromium
def test_the_page_reconnects_after_the_server_restarts(tmp_path: Path) -> None:
    """The referee's program stops (the page loses its stream), something refuses the page's stream for a while,
    and the program starts again on the same port with the game further on: the open page follows the new server
    without a reload."""
    game = DuplicateGame(["Ann", "Bob"], generator(CAT_WORDS))
    server = ShowServer(0, "cs")
    port = server.port
    driver = None
    try:
        publish(server, game)
        driver = start_chromium(tmp_path / "profile", height=900, page_load=60)
        driver.get(server.url)

        def page(script: str):
            return lambda d: d.execute_script(f"return {script}")

        waiting(driver, 60).until(page('document.body.dataset.live === "true"'))
        server.stop()
        waiting(driver, 60).until(page('document.body.dataset.live === "false"'))
        # first something else on the port that refuses the stream (a 503): the browser gives that stream up for
        # good, and the page opens a new one
        refused = threading.Semaphore(0)

        async def busy(_request: object) -> Response:
            refused.release()
            return Response("busy", 503)

        other = ServerThread(Starlette(routes=[Route("/api/events", busy)]), port, name="test-busy").start()
        try:
            assert refused.acquire(timeout=60) and refused.acquire(timeout=60), "the page gave up after a 503"
        finally:
            other.stop()
        server = ShowServer(port, "cs")  # the program restarted: a new server, its version count from 0 again
        publish(server, played_game())
        caption = 'document.querySelector("p.caption").textContent'
        waiting(driver, 120).until(page(f'{caption}.startsWith("Nejlepší tah 1")'))
        assert driver.execute_script("return document.body.dataset.live") == "true"
        assert driver.execute_script("return document.querySelectorAll('table.board td.top').length") >= 2
    finally:
        if driver is not None:
            driver.quit()
        server.stop()


@needs_chromium
def test_partiar_duplicate_show_in_headless_chromium(tmp_path: Path) -> None:
    """The command as a referee runs it, ``--show --show-port 0``, moves played on its terminal; the page in
    headless Chromium shows the board with the top play highlighted and the results, and follows the next move
    without a reload (screenshots kept in the tmp dir and ``$PARTIAR_ARTIFACTS``)."""
    index = write_index(tmp_path / "english.dawg", CAT_WORDS)
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "duplicate", str(tmp_path / "game"), "--players", "Ann,Bob",
         "--draw", "referee", "--tiles", "english", "--lexicon", str(index), "--show", "--show-port", "0"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        encoding="utf-8", env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    driver = None
    try:
        url = None
        for line in proc.stdout:
            if "Stránka pro sál:" in line:
                url = line.split(": ", 1)[1].strip()
                break
        assert url and url.startswith("http://127.0.0.1:"), "no page address printed"
        for pipe in (proc.stdout, proc.stderr):  # read on, so the program never waits on a full pipe
            threading.Thread(target=pipe.read, daemon=True).start()
        driver = start_chromium(tmp_path / "profile", height=900, page_load=60)
        driver.get(url)

        def read(selector: str) -> str:  # in one script: the page re-renders whenever the referee acts
            return driver.execute_script(f"return document.querySelector('{selector}').textContent")

        def read_all(selector: str) -> list[str]:
            return driver.execute_script(
                f"return Array.from(document.querySelectorAll('{selector}')).map((e) => e.textContent)"
            )

        assert read("h1") == "Opisovaný Scrabble" and read("p.caption") == "Zatím žádný tah"

        def caption(text: str):
            return lambda d: text in read("p.caption")

        for line in ("CATSEAX", "", "Ann H8 CATS 12", "Bob H8 CAT 10", "konec"):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        waiting(driver, 120).until(caption("Nejlepší tah 1"))  # no reload: it follows
        journal = (tmp_path / "game" / "journal.jsonl").read_text(encoding="utf-8")
        assert '"type": "close"' in journal or '"type":"close"' in journal
        highlighted = read_all("table.board td.top")
        assert 2 <= len(highlighted) <= 7 and all(highlighted)
        assert sorted(read_all("table.standings td.player")) == ["Ann", "Bob"]
        assert "% maxima" in read("table.standings")
        shot = tmp_path / "duplicate_show_cs.png"
        driver.save_screenshot(str(shot))
        driver.get(url + "?lang=en")
        assert read("h1") == "Duplicate Scrabble" and "Top play 1:" in read("p.caption")
        shot_en = tmp_path / "duplicate_show_en.png"
        driver.save_screenshot(str(shot_en))
        for path in (shot, shot_en):
            assert path.stat().st_size > 10_000
            if os.environ.get("PARTIAR_ARTIFACTS"):
                shutil.copy(path, Path(os.environ["PARTIAR_ARTIFACTS"]) / path.name)
    finally:
        if driver is not None:
            driver.quit()
        proc.stdin.close()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
