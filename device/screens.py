"""What the LCDs show, as plain text: one function of the table's view, testable without a display.

``render(view, lang, columns, lines, index, count)`` gives the rows (Unicode, Czech letters kept: the LCD layer,
``device.transliterate.LcdGlyphs``, draws or transliterates them) for LCD ``index`` of ``count``. With two LCDs
in a two-player game, LCD ``i`` faces player ``i``: "ty"/"you" and their own score first. With more than two
scores (doubles) they are listed in order, the game time giving way on a 16x2 if they need the room. Layout:

16x2::

    >Jana       1:47      who is on move (">" ; "ty" on the player's own LCD) and the move time
    123:98     31:05      scores, the base game time left (or "kolo A" in the playout)

Doubles (seed 003): the first row names the team and the player on move, in Polish doubles with the move of the
double move (``D1>Jana 1/2``); the scores are the teams' totals (20x4: ``D1 123  D2 98``).

20x4 adds the names with the scores, the last move (word and score) and a line for the game time and prompts.
A menu or a notice replaces the lower rows (16x2: both rows, the move time staying at the top right). A one-line
notice (the restart's ``Obnoveno, tah 27``: ``resumed_notice``) takes the last row of a 20x4 and the first row of
a two-line LCD, whose second row keeps the scores; the move time goes beside the notice if it fits, else a
running one beside the scores in place of the game time (the notice is never cut for it). Move time
under 10 s shows tenths (``9.3``); a countdown shows the next whole second/tenth up, so ``0:00`` appears only when
the time is over. A player's name that does not fit its place gives way from the front and keeps the surname
(``>B. Malý   1:47``; ``device.lcd_names``), also in a menu line or a notice the table made with the full name.

The view is ``device.table.Table.view()`` (``game``: ``engine`` game dict, ``clock``: ``MoveClock.view``, ``menu``,
``notice``, ``last_move``) or the flat form ``{"clock", "names", "scores", "player_on_move", "round",
"last_move", "prompt"}``; missing parts are left out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from device.lcd_names import fit_name, fit_names, lcd_name
from shared.texts import text

ROUNDS = ("A", "B", "C")
RACK_ENDS = ("played_out", "scoreless", "playout")
"""Ends after which the racks change the scores (a resignation or forfeit has a fixed result instead)."""


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


_CUTS: ContextVar[list[str] | None] = ContextVar("screen_cuts", default=None)
"""Where ``render(..., cuts=[...])`` collects the texts it had to cut (tests: every text must fit)."""


def _cut(s: str, width: int) -> str:
    out = s[: max(0, width)]
    cuts = _CUTS.get()
    if cuts is not None and out.rstrip() != s.rstrip():
        cuts.append(s)
    return out


def _fits(left: str, right: str, width: int) -> bool:
    return not right or not left or len(left) + 1 + len(right) <= width


def _lr(left: str, right: str, width: int) -> str:
    """``left`` and ``right`` on one row of ``width``; the left part is cut to make room."""
    if not right:  # nothing on the right: the whole row is the left part's
        return _cut(left, width).ljust(width)
    if len(right) >= width:
        return _cut(right, width)
    room = width - len(right) - (1 if left else 0)
    return (_cut(left, room).ljust(room) + (" " if left else "") + right) if room >= 0 else right


def _pair(left0: str, left1: str, right: str, width: int, keep_right: bool) -> list[str]:
    """Two rows with ``right`` (the move time) at the end of the first row it fits beside; without room it is
    left out unless ``keep_right`` (a running move time always shows; the first row's text gives way)."""
    if _fits(left0, right, width):
        return [_lr(left0, right, width), left1]
    if _fits(left1, right, width):
        return [left0, _lr(left1, right, width)]
    return [_lr(left0, right, width), left1] if keep_right else [left0, left1]


def _status_row(status: str, time: str, width: int, running: bool) -> str:
    """The status and the move time; a time that does not run (idle, awaiting a press) gives way to the text."""
    return _lr(status, time, width) if running or _fits(status, time, width) else status


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
        self.result: Mapping[str, Any] | None = game.get("result")
        self.racks_needed: list[int] = list(game.get("racks_needed") or [])
        self.blank_wait: int | None = view.get("blank_wait")
        self.referee_wait: str | None = view.get("referee_wait")
        self.last_move: Mapping[str, Any] | None = view.get("last_move")
        self.teams: Mapping[str, Any] | None = game.get("teams")
        self.lang = str(view.get("language") or "cs")
        if self.teams:  # doubles: the player on move is the game's (a Polish clock side is a team), scores per team
            self.on_move = game.get("player_on_move", on)
            self.scores = [int(x) for x in self.teams.get("totals") or []]
            team_result = self.teams.get("result")
            self.result = None if self.result is None or not team_result else {
                "final": team_result["final"], "played": self.scores, "winners": team_result["winners"],
                "reason": self.result.get("reason"), "outcome": self.result.get("outcome")}
        if self.clock.get("state") == "awaiting" and view.get("must_press") is not None:
            self.on_move = view["must_press"]  # after a time-out: the player whose press starts the next move
        self.challenged = self.ended and bool(game.get("pending_challenge"))
        """The play that closed the game is challenged: no result until the ruling (an upheld one reopens the game)."""
        if self.challenged:
            self.result, self.racks_needed = None, []
        self.menu: Sequence[str] | None = view.get("menu")
        self.notice: Sequence[str] | None = view.get("notice")
        self.prompt: str | None = view.get("prompt")
        self.result_page = int(view.get("result_page") or 0)

    def side_name(self, i: int) -> str:
        """A score's label: the player's name, or in doubles the team's tag (``D1``)."""
        return text("team_tag", self.lang).format(n=i + 1) if self.teams else self.name(i)

    def winner_name(self, i: int) -> str:
        """The winner: a player, or in doubles a team (``Jana + Petr``)."""
        names = (self.teams or {}).get("names")
        return str(names[i]) if names and 0 <= i < len(names) else self.name(i)

    def name(self, i: int | None) -> str:
        if i is None:
            return ""
        return self.names[i] if 0 <= i < len(self.names) else str(i + 1)

    def named(self, template: str, i: int | None, width: int) -> str:
        """``template`` with player ``i``'s name in the room ``width`` leaves (``device.lcd_names``)."""
        return fit_name(template, self.name(i), width, self.names)

    def who(self, i: int | None, owner: int | None, lang: str, template: str, width: int) -> str:
        """``template`` with "ty"/"you" on the player's own LCD, else the name in the room ``width`` leaves."""
        if owner is not None and owner == i:
            return template.format(name=text("clock_you", lang))
        return self.named(template, i, width)


def _time_text(f: _Facts) -> str:
    c = f.clock
    if f.ended:
        return ""
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


def _status_text(f: _Facts, lang: str, owner: int | None, width: int) -> str:
    """Row 1's left part in ``width``: what happens and who must press next."""
    state = f.clock.get("state")
    if f.ended:
        return text("game_over", lang)
    if f.blank_wait is not None:
        return text("name_blank", lang)
    if state == "paused":
        return text("paused", lang)
    if f.referee_wait == "start":  # a tournament round: the chief referee starts it (device.table_round)
        return text("round_wait", lang)
    if state == "idle" or not f.clock:
        return text("clock_start", lang) if f.clock else ""
    if state == "awaiting":  # after a time-out the timed-out player's press starts the next move
        return f.who(f.on_move, owner, lang, text("clock_press", lang), width)
    return f.who(f.on_move, owner, lang, ">{name}", width)


def _ordered(values: Sequence[Any], owner: int | None) -> list[Any]:
    """Two players' values with the LCD owner's first; more players in order."""
    if len(values) == 2 and owner in (0, 1):
        return [values[owner], values[1 - owner]]  # type: ignore[index]
    return list(values)


def _joined(values: Sequence[str]) -> str:
    return ":".join(values) if len(values) == 2 else " ".join(values)


def _team_status(f: _Facts, lang: str, width: int) -> str:
    """Doubles, a move running: the team's tag, the player on move (the name cut to fit) and in Polish doubles
    which move of the double move it is: ``D1>Jana 1/2``."""
    teams = f.teams or {}
    tag = text("team_tag", lang).format(n=int(teams.get("on_move", 0)) + 1)
    turn = teams.get("double_turn")
    tail = f" {turn}/2" if turn in (1, 2) else ""
    return f.named(f"{tag}>{{name}}{tail}", f.on_move, width)


def _scores_text(f: _Facts, owner: int | None) -> str:
    return _joined([str(s) for s in _ordered(f.scores, owner)]) if f.scores else ""


def _scores_row(f: _Facts, lang: str, owner: int | None, width: int) -> str:
    """A two-line LCD's second row: the scores and the game time (or the playout's round) if it fits."""
    scores, game = _scores_text(f, owner), _game_text(f, lang)
    return _lr(scores, game, width) if _fits(scores, game, width) else scores


def _game_text(f: _Facts, lang: str) -> str:
    if f.round is not None:
        return text("round_abc", lang).format(r=f.round)
    if f.referee_wait == "end":  # the table's own game time is over: the chief referee ends the base time
        return text("base_wait_short", lang)
    left = f.clock.get("game_left")
    return "" if left is None else format_duration(left)


def _names_scores(f: _Facts, width: int, owner: int | None, scores: Sequence[int] | None = None) -> str:
    scores = list(f.scores if scores is None else scores)
    if len(scores) != 2:
        return " ".join(str(s) for s in scores)
    cell = width // 2
    order = [owner, 1 - owner] if owner in (0, 1) else [0, 1]
    pairs = [(f.side_name(i), str(scores[i])) for i in order]  # type: ignore[index]
    if all(_fits(name, score, cell - 1) for name, score in pairs):  # two aligned halves
        return " ".join(_lr(name, score, cell - 1) for name, score in pairs)
    left, right = (f"{name} {score}" for name, score in pairs)  # long names: as compact as it takes
    if _fits(left, right, width):
        return _lr(left, right, width)
    # too long even so: the names' short forms (device.lcd_names) in the aligned halves
    pairs = [(lcd_name(name, cell - 2 - len(score), f.names), score) for name, score in pairs]
    return " ".join(_lr(name, score, cell - 1) for name, score in pairs)


_TURN_WORDS = {"pass": "pass", "exchange": "exchange", "timeout": "timeout", "penalty": "turn_lost",
               "blank_swap": "blank_swapped", "struck": "struck"}
"""The words of a turn that leaves no play on the board (``engine.game.MoveKind`` values -> ``TEXTS`` keys)."""


def _last_move_text(f: _Facts, lang: str) -> str:
    last = f.last_move
    if not last:
        return ""
    kind = last.get("kind")
    if kind == "withdrawn":
        main = str(last.get("word") or "").split(" ")[0]  # the main word: the cross words went with it
        return f"{main} {text('taken_back', lang)}".strip()
    if kind in _TURN_WORDS:
        return text(_TURN_WORDS[kind], lang)
    word = str(last.get("word") or kind or "")
    where = str(last.get("position") or "")
    score = last.get("score")
    head = f"{word} {where}".strip()
    return f"{head} {score:+d}" if isinstance(score, int) else head


# ------------------------------------------------------------------------------------------- the game's end
def result_pages(f: _Facts, lang: str, owner: int | None, columns: int = 16) -> list[tuple[str, str]]:
    """After the game, on a two-line LCD: the final result and the winner, then (if the racks changed the
    scores) the points played and the rack adjustments; pages alternate (``view["result_page"]``)."""
    if f.result is None:
        if f.racks_needed:
            return [(text("game_over", lang), f.named(text("racks_of", lang), f.racks_needed[0], columns))]
        return [(_end_title(f, lang), _scores_text(f, owner))]
    final = [int(v) for v in f.result.get("final") or f.scores]
    played = [int(v) for v in f.result.get("played") or final]
    final_row = text("final", lang).format(score=_joined([str(v) for v in _ordered(final, owner)]))
    pages = [(final_row, _winner(f, lang, columns))]
    adjust = [a - b for a, b in zip(final, played, strict=False)]
    if any(adjust) and f.result.get("reason") in RACK_ENDS:
        pages.append(
            (
                text("played", lang).format(score=_joined([str(v) for v in _ordered(played, owner)])),
                text("rack_points", lang).format(score=_joined([f"{v:+d}" for v in _ordered(adjust, owner)])),
            )
        )
    return pages


def _end_title(f: _Facts, lang: str) -> str:
    """Row 1 after the game's end: over, or its closing play challenged (the result waits for the ruling)."""
    return text("closing_challenged" if f.challenged else "game_over", lang)


def _winner(f: _Facts, lang: str, width: int) -> str:
    winners = list((f.result or {}).get("winners") or [])
    if (f.result or {}).get("outcome") == "void":  # 0:0 by kontumace without draw points
        return text("void_result", lang)
    if len(winners) != 1:
        return text("draw", lang)
    return fit_name(text("winner", lang), f.winner_name(winners[0]), width, f.names)


def _end_rows_4(f: _Facts, lang: str, columns: int, owner: int | None) -> list[str]:
    if f.result is None:
        needed = f.named(text("racks_of", lang), f.racks_needed[0], columns) if f.racks_needed else ""
        return [_end_title(f, lang), _names_scores(f, columns, owner), "", needed]
    final = [int(v) for v in f.result.get("final") or f.scores]
    played = [int(v) for v in f.result.get("played") or final]
    adjust = [a - b for a, b in zip(final, played, strict=False)]
    racks = ""
    if any(adjust) and f.result.get("reason") in RACK_ENDS:
        racks = text("rack_points", lang).format(score=_joined([f"{v:+d}" for v in _ordered(adjust, owner)]))
    return [text("game_over", lang), _names_scores(f, columns, owner, final), racks, _winner(f, lang, columns)]


# --------------------------------------------------------------------------------------------------- render
def render(
    view: Mapping[str, Any],
    lang: str,
    columns: int,
    lines: int,
    index: int = 0,
    count: int = 1,
    *,
    cuts: list[str] | None = None,
) -> tuple[str, ...]:
    """The ``lines`` rows of ``columns`` characters for LCD ``index`` of ``count`` (see the module doc).

    Texts too long for their place are cut; ``cuts`` (a list) collects each text that was. Raises ValueError for
    a display smaller than 16x2.
    """
    token = _CUTS.set(cuts)
    try:
        return _render(view, lang, columns, lines, index, count)
    finally:
        _CUTS.reset(token)


def _render(view: Mapping[str, Any], lang: str, columns: int, lines: int, index: int, count: int) -> tuple[str, ...]:
    if columns < 16 or lines < 2:
        raise ValueError(f"screens: an LCD of {columns}x{lines} is too small (16x2 at least)")
    f = _Facts(view)
    two = len(f.names or f.scores) == 2
    owner = index if count >= 2 and two and index in (0, 1) else None
    clock_time = _time_text(f)
    running = f.clock.get("state") == "running" and not f.ended
    named = [*f.names, *((f.teams or {}).get("names") or [])]  # a name in a menu or notice: short form if need be
    overlay = [fit_names(str(x), columns, named) for x in (f.menu or f.notice or ([f.prompt] if f.prompt else []))]
    # a running time keeps its place and the name gives way; one that does not run gives way to the text
    status = _status_text(f, lang, owner, columns - len(clock_time) - 1 if clock_time and running else columns)
    if f.teams and status.startswith(">"):  # doubles: the team, the player and the move of the double move
        status = _team_status(f, lang, columns - len(clock_time) - 1)
    one_line = not f.menu and f.notice is not None and len(f.notice) == 1
    if lines == 2:
        if one_line:  # the notice on row 1, the scores stay on row 2
            notice, scores = overlay[0], _scores_text(f, owner)
            if clock_time and _fits(notice, clock_time, columns):
                rows = [_lr(notice, clock_time, columns), _scores_row(f, lang, owner, columns)]
            elif running and _fits(scores, clock_time, columns):
                rows = [notice, _lr(scores, clock_time, columns)]  # the move time in place of the game time
            else:
                rows = [notice, _scores_row(f, lang, owner, columns)]
        elif overlay:
            if running and len(overlay) > 1 and not _fits(overlay[0], clock_time, columns):
                overlay[1] = fit_names(overlay[1], columns - len(clock_time) - 1, named)  # the time goes beside it
            rows = _pair(overlay[0], overlay[1] if len(overlay) > 1 else "", clock_time, columns, running)
        elif f.ended:
            pages = result_pages(f, lang, owner, columns)
            rows = list(pages[f.result_page % len(pages)])
        else:
            rows = [_status_row(status, clock_time, columns, running), _scores_row(f, lang, owner, columns)]
    else:
        if f.ended:
            rows = _end_rows_4(f, lang, columns, owner)
        else:
            rows = [_status_row(status, clock_time, columns, running)]
            rows.append(_names_scores(f, columns, owner))
            rows.append(_last_move_text(f, lang))
            game = _game_text(f, lang)
            rows.append(_lr(text("clock_game", lang), game, columns) if game and f.round is None else game)
        if overlay:
            rows[lines - len(overlay[: lines - 1]) :] = overlay[: lines - 1]
        rows += [""] * (lines - len(rows))
    return tuple(_cut(r, columns).ljust(columns) for r in rows[:lines])


NARROWEST = 16
"""Columns of the narrowest LCD (16x2): a notice the table makes for every LCD fits this."""


def resumed_notice(move: int, lang: str) -> str:
    """The one-line notice after a restart: the game is back at move ``move`` (``Obnoveno, tah 27`` /
    ``Resumed, move 27``). It fits ``NARROWEST`` columns up to move 999: where the comma would not
    (``Obnoveno, tah 100`` is 17), it is left out (``Obnoveno tah 100``, ``Resumed move 100``)."""
    line = text("resumed_at", lang).format(n=move)
    return line if len(line) <= NARROWEST else line.replace(",", "", 1)


RESULT_PAGE_SECONDS = 4.0
"""How long each page of the final result stays on a two-line LCD."""
