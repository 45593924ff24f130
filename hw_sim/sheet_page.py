"""``GET /sheet?lang=cs|en`` of the sim's page: the current game's score sheet (partiář), printable.

The same sheet ``partiar sheet --html`` writes: the table's journal replayed (``device.cli.sheet.load_game``, its
longest valid prefix) and rendered by ``engine.scoresheet.render_html`` (one A4 page). Before the table has
written a game, or from a journal with no valid start, a short page says so (404) in the page's language.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse

from device.cli.sheet import load_game
from engine.errors import EngineError
from engine.scoresheet import LABELS, render_html
from shared.gcg_texts import os_reason

NO_GAME = {
    "cs": ("Partiář", "Zatím není žádná hra: stůl ještě nezapsal začátek hry."),
    "en": ("Score sheet", "No game yet: the table has not written a game's start."),
}
"""What the link says before there is a game to show, by language: the title and the text (a journal that cannot
be read adds why, worded by ``shared.gcg_texts.os_reason``)."""


def sheet_html(journal: Path, lang: str) -> tuple[int, str]:
    """The status and the page: 200 and the sheet, or 404 and why there is none."""
    try:
        game, _damage = load_game(journal)
    except (OSError, EngineError) as e:
        title, text = NO_GAME[lang]
        if isinstance(e, OSError):
            text += f" ({os_reason(e, lang)})"
        return 404, (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
                     f"</head><body><p>{html.escape(text)}</p></body></html>\n")  # fmt: skip
    return 200, render_html(game, lang)


def sheet_endpoint(journal: Path) -> Callable[[Request], Awaitable[HTMLResponse]]:
    """The Starlette endpoint serving ``journal``'s sheet (``?lang=``: ``cs`` by default)."""

    async def endpoint(request: Request) -> HTMLResponse:
        lang = request.query_params.get("lang", "cs")
        if lang not in LABELS or lang not in NO_GAME:
            lang = "cs"
        status, page = await run_in_threadpool(sheet_html, journal, lang)
        return HTMLResponse(page, status, headers={"Cache-Control": "no-store"})

    return endpoint
