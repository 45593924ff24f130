"""What the LCDs show, as plain text: one function of the table's view, testable without a display.

``render(view, lang, columns, lines, index, count)`` gives the rows (Unicode, Czech letters kept: the LCD layer,
``device.transliterate.LcdGlyphs``, draws or transliterates them) for LCD ``index`` of ``count``. With two LCDs
in a two-player game, LCD ``i`` faces player ``i``: "ty"/"you" and their own score first. With more than two
scores (doubles) they are listed in order, the game time giving way on a 16x2 if they need the room. Layout:

16x2::

    >Jana       1:47      who is on move (">" ; "ty" on the player's own LCD) and the move time
    123:98     31:05      scores, the base game time left (or "kolo A" in the playout)

20x4 adds the names with the scores, the last move (word and score) and a line for the game time and prompts.
A menu or a notice replaces the lower rows (16x2: both rows, the move time staying at the top right). Move time
under 10 s shows tenths (``9.3``); a countdown shows the next whole second/tenth up, so ``0:00`` appears only when
the time is over.

The view is ``device.table.Table.view()`` (``game``: ``engine`` game dict, ``clock``: ``MoveClock.view``, ``menu``,
``notice``, ``last_move``) or the flat form ``{"clock", "names", "scores", "player_on_move", "round",
"last_move", "prompt"}``; missing parts are left out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from device.texts import text

ROUNDS = ("A", "B", "C")


def format_move_time(seconds: float | None) -> str:
    """``1:47`` from 10 s up (whole seconds, rounded up), ``9.3`` below (tenths, rounded up); ``--`` for None."""
    if seconds is None:
        return "--"
    seconds = max(0.0, float(seconds))
    tenths = math.ceil(round(seconds * 10, 6))
    if tenths < 100:
        return f"{tenths // 10}.{tenths % 10}"
    return format_duration(seconds)


def format_duration(seconds: float) -> str:
    """``M:SS`` (``H:MM:SS`` from an hour up), rounded up to the whole second."""
    total = math.ceil(round(max(0.0, float(seconds)), 6))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def redraw_in(clock_view: Mapping[str, Any]) -> float | None:
    """Seconds until the rendered move time changes (0.1 s steps under 10 s), or None if it does not run."""
    if clock_view.get("state") != "running":
        return None
    left = clock_view.get("move_left")
    if left is None:
        budgets = clock_view.get("budgets")
        on = clock_view.get("player_on_move")
        if not budgets or on is None:
            return None
        left = budgets[on]
    step = 0.1 if left <= 10.0 else 1.0
    frac = math.fmod(left, step)
    return frac if frac > 1e-9 else step


def _cut(s: str, width: int) -> str:
    return s[: max(0, width)]


def _lr(left: str, right: str, width: int) -> str:
    """``left`` and ``right`` on one row of ``width``; the left part is cut to make room."""
    if len(right) >= width:
        return right[-width:]
    room = width - len(right) - (1 if left else 0)
    return (_cut(left, room).ljust(room) + (" " if left else "") + right) if room >= 0 else right


class _Facts:
    """The parts of a view the screens use, from either view form."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        game = view.get("game") or {}
        self.clock: Mapping[str, Any] = view.get("clock") or {}
        self.names: list[str] = [str(n) for n in (view.get("names") or view.get("players") or game.get("players") or [])]
        scores = view.get("scores") if "scores" in view else game.get("scores")
        self.scores: list[int] = list(scores or [])
        on = view.get("player_on_move", game.get("player_on_move"))
        if self.clock.get("state") in ("running", "awaiting", "paused") and self.clock.get("player_on_move") is not None:
            on = self.clock.get("player_on_move")
        self.on_move: int | None = on
        rnd = view.get("round") if "round" in view else game.get("phase")
        self.round: str | None = rnd if rnd in ROUNDS else None
        self.ended = bool(game.get("ended")) or self.clock.get("state") == "stopped"
        self.last_move: Mapping[str, Any] | None = view.get("last_move")
        self.menu: Sequence[str] | None = view.get("menu")
        self.notice: Sequence[str] | None = view.get("notice")
        self.prompt: str | None = view.get("prompt")

    def name(self, i: int | None) -> str:
        if i is None:
            return ""
        return self.names[i] if 0 <= i < len(self.names) else str(i + 1)


def _time_text(f: _Facts) -> str:
    c = f.clock
    left = c.get("move_left")
    if left is None and c.get("budgets") and f.on_move is not None and c.get("state") in ("running", "paused"):
        budgets = c["budgets"]
        left = budgets[f.on_move] if f.on_move < len(budgets) else None
    if c.get("state") == "idle":
        mt = c.get("move_time")
        return format_move_time(mt) if mt is not None else ""
    if c.get("state") in ("running", "paused") or left is not None:
        return format_move_time(left) if left is not None or c.get("move_time") is not None else ""
    if c.get("state") == "awaiting":
        return format_move_time(0.0)
    return ""


def _status_text(f: _Facts, lang: str, owner: int | None) -> str:
    state = f.clock.get("state")
    if f.ended:
        return text("game_over", lang)
    if state == "paused":
        return text("paused", lang)
    if state == "idle" or not f.clock:
        return text("clock_start", lang) if f.clock else ""
    if state == "awaiting":
        who = text("clock_you", lang) if owner is not None and owner == f.on_move else f.name(f.on_move)
        return text("clock_press", lang).format(name=who) if owner == f.on_move else text("timeout", lang)
    who = text("clock_you", lang) if owner is not None and owner == f.on_move else f.name(f.on_move)
    return ">" + who


def _scores_text(f: _Facts, owner: int | None) -> str:
    if not f.scores:
        return ""
    if len(f.scores) != 2:
        return " ".join(str(s) for s in f.scores)
    order = [owner, 1 - owner] if owner in (0, 1) else [0, 1]
    return ":".join(str(f.scores[i]) for i in order)


def _game_text(f: _Facts, lang: str) -> str:
    if f.round is not None:
        return text("round_abc", lang).format(r=f.round)
    left = f.clock.get("game_left")
    return "" if left is None else format_duration(left)


def _names_scores(f: _Facts, width: int, owner: int | None) -> str:
    if len(f.scores) != 2:
        return _scores_text(f, None)
    cell = width // 2
    parts = []
    for i in [owner, 1 - owner] if owner in (0, 1) else [0, 1]:
        score = str(f.scores[i])
        parts.append(_lr(f.name(i), score, cell - 1))
    return " ".join(parts)


def _last_move_text(f: _Facts) -> str:
    last = f.last_move
    if not last:
        return ""
    word = str(last.get("word") or last.get("kind") or "")
    score = last.get("score")
    return f"{word} {score:+d}" if isinstance(score, int) else word


def render(
    view: Mapping[str, Any], lang: str, columns: int, lines: int, index: int = 0, count: int = 1
) -> tuple[str, ...]:
    """The ``lines`` rows of ``columns`` characters for LCD ``index`` of ``count`` (see the module doc).

    Raises ValueError for a display smaller than 16x2.
    """
    if columns < 16 or lines < 2:
        raise ValueError(f"screens: an LCD of {columns}x{lines} is too small (16x2 at least)")
    f = _Facts(view)
    two = len(f.names or f.scores) == 2
    owner = index if count >= 2 and two and index in (0, 1) else None
    clock_time = _time_text(f)
    overlay = [str(x) for x in (f.menu or f.notice or ([f.prompt] if f.prompt else []))]
    rows: list[str] = [_lr(_status_text(f, lang, owner), clock_time, columns)]
    if lines == 2:
        if overlay:
            rows = [_lr(overlay[0], clock_time, columns), overlay[1] if len(overlay) > 1 else ""]
        else:
            scores, game = _scores_text(f, owner), _game_text(f, lang)
            rows.append(_lr(scores, game, columns) if len(scores) + len(game) < columns else scores)
    else:
        rows.append(_names_scores(f, columns, owner))
        rows.append(_last_move_text(f))
        game = _game_text(f, lang)
        bottom = _lr(text("clock_game", lang), game, columns) if game and f.round is None else game
        rows.append(bottom)
        if overlay:
            rows[lines - len(overlay[: lines - 1]) :] = overlay[: lines - 1]
        rows += [""] * (lines - len(rows))
    return tuple(_cut(r, columns).ljust(columns) for r in rows[:lines])
