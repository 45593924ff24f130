"""``partiar duplicate --show``: a read-only page for the room, on loopback, refreshed live.

A duplicate referee projects it (or opens it on a second screen): the board with the last top play highlighted,
the current move's rack, the standings with percentages of the top, and the table of moves. In Czech, English with
``?lang=en`` (the page's switch). Nothing on it acts on the game; the top play of the move being played is never
shown before the referee closes the move.

The referee's terminal (``desk.duplicate.Session``) renders the page's content after every event it
journals, in both languages (``render_show``), and hands it to ``ShowServer.publish``: the server thread only
serves strings, it never reads the game while the terminal changes it. The page follows ``/api/events``, server-
sent events of its language's content (the content now, then after every publish), so a closed move shows at
once; when the referee's program stops or restarts, the page reconnects by itself and gets the content anew. The
same stream and server thread as the simulator's page (``eventstream``): Starlette on uvicorn, 127.0.0.1 only.
"""

from __future__ import annotations

import html
import logging
import threading
from collections.abc import Mapping
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from desk.referee_texts import say
from engine.board import LETTERS, PREMIUMS, SIZE, Notation, Premium, Square
from engine.duplicate import DuplicateGame
from engine.duplicate.results import TABLE_CSS, moves_table, standings_table, status_line
from eventstream.changes import Broadcaster, state_stream
from eventstream.server import ServerThread
from shared.texts import LANGUAGES

log = logging.getLogger(__name__)

RETRY_MS = 2000
"""A page whose stream failed for good (the browser gave up: the server refused it) opens a new one this long
after; while the browser retries by itself (the server went away), it waits for the browser."""

_PREMIUM_CLASS = {Premium.DL: "dl", Premium.TL: "tl", Premium.DW: "dw", Premium.TW: "tw", Premium.NONE: ""}


def _t(key: str, lang: str, **values: object) -> str:
    return say(f"show_{key}", lang, **values)


def top_squares(game: DuplicateGame) -> set[int]:
    """The squares (board indexes) of the tiles the last closed move's top play laid."""
    last = game.rounds[-1] if game.rounds else None
    if last is None or last.top is None:
        return set()
    return {p.square.index for p in last.top.placements}


def board_html(game: DuplicateGame) -> str:
    """The board as an HTML table: premium squares coloured, letters (a blank's in lowercase, marked), the last
    top play's new tiles highlighted (class ``top``). Its rows and columns are named as the caption, the slips and
    the terminal name them (``game.notation``): in ČAS notation the rows A-O and the columns 1-15 (``K4`` is row
    K, column 4), in classic notation the columns A-O and the rows 1-15; each square's ``data-square`` is its name
    in that notation."""
    highlight = top_squares(game)
    cas = game.notation is not Notation.CLASSIC
    cols = "".join(f"<th>{c + 1 if cas else LETTERS[c]}</th>" for c in range(SIZE))
    rows = [f"<tr><th></th>{cols}</tr>"]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            index = r * SIZE + c
            tile = game.board.cells[index]
            classes = [_PREMIUM_CLASS[PREMIUMS[index]]]
            letter = ""
            if tile is not None:
                classes.append("tile")
                letter = html.escape(tile.letter)
                if tile.blank:
                    classes.append("blank")
            if index in highlight:
                classes.append("top")
            cls = " ".join(x for x in classes if x)
            name = Square(r, c).notation(game.notation)
            cells.append(f'<td class="{cls}" data-square="{name}">{letter}</td>')
        rows.append(f"<tr><th>{LETTERS[r] if cas else r + 1}</th>{''.join(cells)}</tr>")
    return f'<table class="board">{"".join(rows)}</table>'


def render_show(game: DuplicateGame, lang: str = "cs") -> str:
    """The page's content for the game as it is now, in ``lang``."""
    e = html.escape
    last = game.rounds[-1] if game.rounds else None
    if last is None:
        caption = _t("no_move_yet", lang)
    elif last.top is None:
        caption = _t("last_no_top", lang, move=last.number)
    else:
        top = last.top
        caption = _t("last_top", lang, move=last.number, position=top.notation(game.notation), word=top.word,
                     score=top.score)  # fmt: skip
    if game.over:
        now = ""
    elif game.current is not None:
        now = _t("rack", lang, move=game.current.number, rack=game.current.rack)
    else:
        now = _t("drawing", lang, move=game.move)
    return f"""<div class="head"><h1>{e(_t("title", lang))}</h1><p class="now">{e(now)}</p>
<p class="meta">{e(status_line(game, lang))}</p></div>
<div class="main"><div class="left">{board_html(game)}<p class="caption">{e(caption)}</p></div>
<div class="right">{standings_table(game, lang)}{moves_table(game, lang)}</div></div>"""


PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: "DejaVu Sans", Arial, sans-serif; margin: 12px; background: #fafaf7; }}
h1 {{ font-size: 22px; margin: 0; }}
.head {{ display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }}
p.now {{ font-size: 20px; font-weight: bold; font-family: "DejaVu Sans Mono", monospace; margin: 4px 0; }}
p.meta {{ color: #444; margin: 4px 0; }}
.main {{ display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }}
table.board {{ border-collapse: collapse; margin: 0; }}
table.board th {{ font-size: 11px; color: #555; padding: 0 3px; border: none; }}
table.board td {{ width: 32px; height: 32px; border: 1px solid #999; text-align: center; padding: 0;
  font-size: 18px; font-weight: bold; background: #e9e4d4; }}
table.board td.dl {{ background: #b7dcf0; }} table.board td.tl {{ background: #4f9fd6; }}
table.board td.dw {{ background: #f3c0c4; }} table.board td.tw {{ background: #d9464f; }}
table.board td.tile {{ background: #f5deb3; color: #222; }}
table.board td.blank {{ color: #a33; font-style: italic; }}
table.board td.top {{ background: #ffd21f; outline: 3px solid #c05800; outline-offset: -3px; }}
p.caption {{ font-size: 18px; font-weight: bold; }}
nav {{ position: absolute; top: 12px; right: 16px; }}
{table_css}
</style></head><body>
<nav><a href="?lang={other}">{other_label}</a></nav>
<div id="show">{content}</div>
<script>
// the content of the stream's messages: now, then after every move; a restarted server sends it anew
const show = document.getElementById("show");
let shown = null;
function follow() {{
  const events = new EventSource("/api/events?lang={lang}");
  events.onopen = () => {{ document.body.dataset.live = "true"; }};
  events.onmessage = (message) => {{
    const html = JSON.parse(message.data).html;
    if (html !== shown) {{ shown = html; show.innerHTML = html; }}
  }};
  events.onerror = () => {{
    document.body.dataset.live = "false";
    if (events.readyState === EventSource.CLOSED) {{ events.close(); setTimeout(follow, {retry}); }}
  }};
}}
follow();
</script>
</body></html>
"""


class ShowServer:
    """The room's page on 127.0.0.1:``port`` (0: any free port; see ``.port``), served from its own thread.
    ``publish(content)`` hands it new content (``{"cs": ..., "en": ...}``); ``stop()`` ends it. Raises OSError
    if the port is taken."""

    def __init__(self, port: int = 0, lang: str = "cs") -> None:
        self.lang = lang
        self._content: dict[str, str] = {code: "" for code in LANGUAGES}
        self._lock = threading.Lock()
        self.changes = Broadcaster()
        app = Starlette(routes=[Route("/", self._page), Route("/api/events", self._events)])
        self.http = ServerThread(app, port, name="duplicate-show", streams=self.changes).start()

    @property
    def port(self) -> int:
        return self.http.port

    @property
    def url(self) -> str:
        return self.http.url

    def publish(self, content: Mapping[str, str]) -> None:
        """New content for the page (one text per language); the open pages get it at once."""
        with self._lock:
            self._content.update(content)
        self.changes.bump()

    def state(self, lang: str) -> dict[str, Any]:
        """What the page's stream sends: ``{"html": content in lang}``."""
        with self._lock:
            return {"html": self._content.get(lang, "")}

    def _lang(self, request: Request) -> str:
        lang = request.query_params.get("lang", self.lang)
        return lang if lang in LANGUAGES else self.lang

    async def _events(self, request: Request) -> Response:
        lang = self._lang(request)
        return state_stream(lambda: self.state(lang), self.changes)

    async def _page(self, request: Request) -> Response:
        lang = self._lang(request)
        other = "en" if lang == "cs" else "cs"
        page = PAGE.format(lang=lang, title=html.escape(_t("title", lang)), table_css=TABLE_CSS, other=other,
                           other_label=_t("switch", lang), content=self.state(lang)["html"], retry=RETRY_MS)  # fmt: skip
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    def stop(self) -> None:
        """End the pages' streams, stop serving, close the socket."""
        self.http.stop()
