"""``partiar duplicate --show``: a read-only page for the room, on loopback, refreshed live.

A duplicate referee projects it (or opens it on a second screen): the board with the last top play highlighted,
the current move's rack, the standings with percentages of the top, and the table of moves. In Czech, English with
``?lang=en`` (the page's switch). Nothing on it acts on the game; the top play of the move being played is never
shown before the referee closes the move.

The referee's terminal (``device.cli.duplicate.Session``) renders the page's content after every event it
journals, in both languages (``render_show``), and hands it to ``ShowServer.publish``: the server thread only
serves strings, it never reads the game while the terminal changes it. The page asks ``/api/state?after=N`` and
the server answers when the content is newer than version ``N`` (or after ``WAIT_SECONDS`` with the same), so a
closed move shows within a moment. Starlette on uvicorn, bound to 127.0.0.1 only.
"""

from __future__ import annotations

import html
import logging
import socket
import threading
from collections.abc import Mapping
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from device.texts import LANGUAGES, cli
from engine.board import PREMIUMS, SIZE, Premium, Square
from engine.duplicate import DuplicateGame
from engine.duplicate.results import TABLE_CSS, moves_table, standings_table, status_line

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
WAIT_SECONDS = 20.0
"""How long a page's request waits for newer content before it is answered with the same."""
MAX_WAITING = 16
"""Requests that may wait at once (a room has a projector or two); more are answered at once."""

_PREMIUM_CLASS = {Premium.DL: "dl", Premium.TL: "tl", Premium.DW: "dw", Premium.TW: "tw", Premium.NONE: ""}


def _t(key: str, lang: str, **values: object) -> str:
    return cli(f"ref_show_{key}", lang).format(**values)


def top_squares(game: DuplicateGame) -> set[int]:
    """The squares (board indexes) of the tiles the last closed move's top play laid."""
    last = game.rounds[-1] if game.rounds else None
    if last is None or last.top is None:
        return set()
    return {p.square.index for p in last.top.placements}


def board_html(game: DuplicateGame) -> str:
    """The board as an HTML table: premium squares coloured, letters (a blank's in lowercase, marked), the last
    top play's new tiles highlighted (class ``top``)."""
    highlight = top_squares(game)
    cols = "".join(f"<th>{Square(0, c).classic()[0]}</th>" for c in range(SIZE))
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
            cells.append(f'<td class="{cls}" data-square="{Square(r, c).classic()}">{letter}</td>')
        rows.append(f"<tr><th>{r + 1}</th>{''.join(cells)}</tr>")
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
let version = {version};
async function follow() {{
  for (;;) {{
    try {{
      const r = await fetch(`/api/state?after=${{version}}&lang={lang}`, {{cache: "no-store"}});
      const s = await r.json();
      if (s.version !== version) {{ version = s.version; document.getElementById("show").innerHTML = s.html; }}
    }} catch (e) {{
      await new Promise((done) => setTimeout(done, 2000));  // the referee's program stopped or restarts
    }}
  }}
}}
follow();
</script>
</body></html>
"""


class ShowServer:
    """The room's page on 127.0.0.1:``port`` (0: any free port; see ``.port``), served from its own thread.
    ``publish(content)`` hands it new content (``{"cs": ..., "en": ...}``); ``stop()`` ends it."""

    def __init__(self, port: int = 0, lang: str = "cs") -> None:
        self.lang = lang
        self._content: dict[str, str] = {code: "" for code in LANGUAGES}
        self._version = 0
        self._waiting = 0
        self._closed = False
        self._cond = threading.Condition()
        app = Starlette(routes=[Route("/", self._page), Route("/api/state", self._state)])
        self._socket = socket.create_server((HOST, port))
        self.port: int = self._socket.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=2)  # fmt: skip
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]},
                                        name="duplicate-show", daemon=True)  # fmt: skip
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def publish(self, content: Mapping[str, str]) -> None:
        """New content for the page (one text per language); waiting pages get it at once."""
        with self._cond:
            self._content.update(content)
            self._version += 1
            self._cond.notify_all()

    def _snapshot(self, lang: str) -> dict[str, Any]:
        return {"version": self._version, "html": self._content.get(lang, "")}

    def _wait(self, after: int, lang: str) -> dict[str, Any]:
        with self._cond:
            if self._waiting >= MAX_WAITING:
                return self._snapshot(lang)
            self._waiting += 1
            try:
                self._cond.wait_for(lambda: self._closed or self._version != after, WAIT_SECONDS)
            finally:
                self._waiting -= 1
            return self._snapshot(lang)

    def _lang(self, request: Request) -> str:
        lang = request.query_params.get("lang", self.lang)
        return lang if lang in LANGUAGES else self.lang

    async def _state(self, request: Request) -> Response:
        lang = self._lang(request)
        try:
            after = int(request.query_params.get("after", "-1"))
        except ValueError:
            return JSONResponse({"error": "after must be an integer version"}, status_code=400)
        return JSONResponse(await run_in_threadpool(self._wait, after, lang))

    async def _page(self, request: Request) -> Response:
        lang = self._lang(request)
        other = "en" if lang == "cs" else "cs"
        with self._cond:
            state = self._snapshot(lang)
        page = PAGE.format(lang=lang, title=html.escape(_t("title", lang)), table_css=TABLE_CSS, other=other,
                           other_label=_t("switch", lang), content=state["html"], version=state["version"])  # fmt: skip
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    def stop(self) -> None:
        """Answer the waiting pages, stop serving, close the socket."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._server.should_exit = True
        self._thread.join(10.0)
        self._socket.close()
