"""Scenario files: a readable script of what happens at the table, one step per line, run against a live sim.

Format (UTF-8 text; ``#`` starts a comment; blank lines are ignored; keywords are case-insensitive)::

    place ROZUM at 8D        # a word from a classic position (8D across, D8 down); lowercase letter = blank tile
    place A at H8            # one tile on a square (classic: column letter, row number)
    remove 8D..8H            # the tiles from one square to another (a row or column), or one square: remove H8
    press A                  # player A's button; also: press B, press encoder, press A hold 2.5
    turn encoder +3          # the menu encoder, detents (negative = counter-clockwise)
    advance 30               # move the daemon's manual time forward by seconds
    wait lcd "ROZUM"         # until some LCD row contains the text (default 30 s), or: wait lcd "X" within 10
    choose "Výměna"          # menu: open it if closed, turn until the cursor line is "> Výměna", push
    expect score 18 0        # the players' scores now (doubles: the teams' totals)
    expect final 162 178     # the result after the end-of-game rack adjustments (doubles: per team)
    unplug / replug          # the board's USB cable
    flicker H8 5             # the tile on H8 loses contact 5 times
    fault H8 open            # a cell fault (open, short, band); unfault H8 clears it
    check square             # lay out the tile-set check square; clear board empties the board
    kill daemon / restart daemon / wait daemon

``Scenario.parse`` raises ScenarioSyntaxError naming the file and line; every step formats back to its line
(``Step.text()``), so a parsed scenario round-trips. ``run_scenario`` drives a running sim through its HTTP API
(``hw_sim.sim_client.SimClient``) and raises ScenarioFailed naming the step's line.
"""

from __future__ import annotations

import contextlib
import logging
import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.transliterate import GLYPHS
from engine.board import SIZE, Direction, Position, Square
from engine.errors import EngineError
from hw_sim.hd44780 import GLYPH_MARKERS

log = logging.getLogger(__name__)

DEFAULT_WAIT_SECONDS = 30.0
STEP_WAIT_SECONDS = 60.0
"""How long a step waits for the table to show what it did (a menu move, a score): generous, because a wait ends
as soon as the table shows it, and a loaded machine may take seconds where an idle one takes milliseconds."""
FAULT_KINDS = ("open", "short", "band")


class ScenarioError(Exception):
    """Base of the scenario errors."""


class ScenarioSyntaxError(ScenarioError, ValueError):
    """A line that is not a step: names the source, the line number and the text."""

    def __init__(self, source: str, line_no: int, line: str, reason: str) -> None:
        super().__init__(f"{source}:{line_no}: {reason}: {line.strip()!r}")
        self.source = source
        self.line_no = line_no
        self.reason = reason


class ScenarioFailed(ScenarioError, AssertionError):
    """A step that did not hold (or could not be done) while running; names the line and what was seen."""


# ----------------------------------------------------------------------------------------------- squares
def square_text(square: Square) -> str:
    return square.classic()


def parse_square(text: str) -> Square:
    """A square written classic style (``H8``) or as a position (``8H``): raises ValueError naming the text."""
    try:
        return Square.from_classic(text)
    except EngineError:
        pass
    try:
        return Position.from_notation(text).square
    except EngineError:
        raise ValueError(f"not a square (e.g. H8): {text!r}") from None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ----------------------------------------------------------------------------------------------- steps
@dataclass(frozen=True, slots=True)
class Place:
    """Lay tiles from a position; ``word`` in GCG case (lowercase = a blank tile, whose letter the menu names)."""

    word: str
    position: Position

    def text(self) -> str:
        if len(self.word) == 1 and self.position.direction is Direction.DOWN:
            return f"place {self.word} at {self.position.square.classic()}"
        return f"place {self.word} at {self.position.notation()}"

    def cells(self) -> list[tuple[int, int, str]]:
        """``(row, col, tile)`` per letter, the tile as the board reads it (``?`` for a blank)."""
        dr, dc = self.position.direction.step
        r, c = self.position.square.row, self.position.square.col
        out = []
        for i, ch in enumerate(self.word):
            row, col = r + dr * i, c + dc * i
            out.append((row, col, "?" if ch.islower() else ch))
        return out


@dataclass(frozen=True, slots=True)
class Remove:
    """Take the tiles off the squares from ``first`` to ``last`` (one row or column, inclusive)."""

    first: Square
    last: Square

    def text(self) -> str:
        if self.first == self.last:
            return f"remove {self.first.classic()}"
        return f"remove {self.first.classic()}..{self.last.classic()}"

    def cells(self) -> list[tuple[int, int]]:
        (r0, c0), (r1, c1) = (self.first.row, self.first.col), (self.last.row, self.last.col)
        rows = range(min(r0, r1), max(r0, r1) + 1)
        cols = range(min(c0, c1), max(c0, c1) + 1)
        return [(r, c) for r in rows for c in cols]


@dataclass(frozen=True, slots=True)
class Press:
    """Press a button: ``a``, ``b`` or ``encoder``; held for ``hold`` seconds."""

    button: str
    hold: float = 0.0

    def text(self) -> str:
        name = "encoder" if self.button == "encoder" else self.button.upper()
        return f"press {name}" + (f" hold {self.hold:g}" if self.hold else "")


@dataclass(frozen=True, slots=True)
class Turn:
    """Turn the encoder by ``steps`` detents."""

    steps: int

    def text(self) -> str:
        return f"turn encoder {self.steps:+d}"


@dataclass(frozen=True, slots=True)
class Advance:
    """Move the daemon's manual time forward."""

    seconds: float

    def text(self) -> str:
        return f"advance {self.seconds:g}"


@dataclass(frozen=True, slots=True)
class WaitLcd:
    """Wait until some row of some LCD contains ``needle``."""

    needle: str
    within: float = DEFAULT_WAIT_SECONDS

    def text(self) -> str:
        return f"wait lcd {_quote(self.needle)}" + (
            "" if self.within == DEFAULT_WAIT_SECONDS else f" within {self.within:g}"
        )


@dataclass(frozen=True, slots=True)
class Choose:
    """Pick a menu entry by its label: open the menu if it is closed, turn until the cursor line reads
    ``> label``, push. Reads the table's menu lines (plain text, with diacritics), not the LCD."""

    label: str

    def text(self) -> str:
        return "choose " + _quote(self.label)


@dataclass(frozen=True, slots=True)
class WaitDaemon:
    """Wait until the daemon's panel answers (after a start, kill or restart)."""

    within: float = 20.0

    def text(self) -> str:
        return "wait daemon" + ("" if self.within == 20.0 else f" within {self.within:g}")


@dataclass(frozen=True, slots=True)
class ExpectScore:
    """The players' scores, in seat order: as played (``score``), or the final result after the end-of-game rack
    adjustments (``final``)."""

    scores: tuple[int, ...]
    final: bool = False

    def text(self) -> str:
        return f"expect {'final' if self.final else 'score'} " + " ".join(str(s) for s in self.scores)


@dataclass(frozen=True, slots=True)
class Link:
    """``unplug`` or ``replug`` the board's cable."""

    action: str

    def text(self) -> str:
        return self.action


@dataclass(frozen=True, slots=True)
class Flicker:
    """The tile on a square loses contact ``times`` times."""

    square: Square
    times: int

    def text(self) -> str:
        return f"flicker {self.square.classic()} {self.times}"


@dataclass(frozen=True, slots=True)
class Fault:
    """Inject a cell fault (``kind`` open/short/band) or clear it (``kind`` None)."""

    square: Square
    kind: str | None

    def text(self) -> str:
        if self.kind is None:
            return f"unfault {self.square.classic()}"
        return f"fault {self.square.classic()} {self.kind}"


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """``check square`` (the tile-set check layout) or ``clear board``."""

    layout: str

    def text(self) -> str:
        return "check square" if self.layout == "check_square" else "clear board"


@dataclass(frozen=True, slots=True)
class Daemon:
    """``kill daemon`` (SIGKILL: the supervisor restarts it) or ``restart daemon``."""

    action: str

    def text(self) -> str:
        return f"{self.action} daemon"


Step = (
    Place
    | Remove
    | Press
    | Turn
    | Advance
    | WaitLcd
    | Choose
    | WaitDaemon
    | ExpectScore
    | Link
    | Flicker
    | Fault
    | BoardLayout
    | Daemon
)

MAX_MENU_TURNS = 80
"""``choose`` gives up after this many detents (more than any menu of the table has entries)."""


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} must be a number, got {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{what} must be a finite number, got {text!r}")
    return value


def _integer(text: str, what: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueError(f"{what} must be a whole number, got {text!r}")
    return int(text)


def _within(words: list[str], default: float) -> float:
    if not words:
        return default
    if len(words) == 2 and words[0] == "within":
        seconds = _number(words[1], "the wait")
        if seconds <= 0:
            raise ValueError(f"the wait must be positive, got {words[1]!r}")
        return seconds
    raise ValueError(f"expected 'within SECONDS', got {' '.join(words)!r}")


def _place(args: list[str]) -> Place:
    if len(args) != 3 or args[1].lower() != "at":
        raise ValueError("expected 'place WORD at POSITION'")
    word, where = args[0], args[2]
    if not word.isalpha() and word != "?":
        raise ValueError(f"the word must be letters (lowercase = blank), got {word!r}")
    word = "a" if word == "?" else word
    try:
        position = Position.from_notation(where)
    except EngineError:
        if len(word) != 1:
            raise ValueError(f"not a position (8H across, H8 down): {where!r}") from None
        position = Position(parse_square(where), Direction.DOWN)
    dr, dc = position.direction.step
    end_row = position.square.row + dr * (len(word) - 1)
    end_col = position.square.col + dc * (len(word) - 1)
    if end_row >= SIZE or end_col >= SIZE:
        raise ValueError(f"{word!r} at {where} runs off the board")
    return Place(word, position)


def _remove(args: list[str]) -> Remove:
    if len(args) != 1:
        raise ValueError("expected 'remove SQUARE' or 'remove FIRST..LAST'")
    first_text, _, last_text = args[0].partition("..")
    first = parse_square(first_text)
    last = parse_square(last_text) if last_text else first
    if first.row != last.row and first.col != last.col:
        raise ValueError(f"{args[0]!r} is not one row or column")
    return Remove(first, last)


def _press(args: list[str]) -> Press:
    if not args:
        raise ValueError("expected 'press A', 'press B' or 'press encoder'")
    name = args[0].lower()
    if name not in ("a", "b", "encoder"):
        raise ValueError(f"unknown button {args[0]!r} (A, B or encoder)")
    hold = 0.0
    if len(args) == 3 and args[1].lower() == "hold":
        hold = _number(args[2], "the hold")
        if not 0 <= hold <= 10:
            raise ValueError(f"hold must be 0-10 s, got {args[2]!r}")
    elif len(args) != 1:
        raise ValueError("expected 'press BUTTON' or 'press BUTTON hold SECONDS'")
    return Press(name, hold)


def _turn(args: list[str]) -> Turn:
    if len(args) != 2 or args[0].lower() != "encoder":
        raise ValueError("expected 'turn encoder +N' or 'turn encoder -N'")
    steps = _integer(args[1], "the steps")
    if steps == 0 or abs(steps) > 100:
        raise ValueError(f"steps must be 1-100 either way, got {args[1]!r}")
    return Turn(steps)


def _advance(args: list[str]) -> Advance:
    if len(args) != 1:
        raise ValueError("expected 'advance SECONDS'")
    seconds = _number(args[0], "the time")
    if seconds < 0:
        raise ValueError(f"time only goes forward, got {args[0]!r}")
    return Advance(seconds)


def _wait(args: list[str]) -> WaitLcd | WaitDaemon:
    if args and args[0].lower() == "daemon":
        return WaitDaemon(_within(args[1:], 20.0))
    if len(args) < 2 or args[0].lower() != "lcd":
        raise ValueError('expected wait lcd "TEXT" [within SECONDS] or wait daemon')
    if not args[1]:
        raise ValueError("the text to wait for is empty")
    return WaitLcd(args[1], _within(args[2:], DEFAULT_WAIT_SECONDS))


def _choose(args: list[str]) -> Choose:
    if len(args) != 1 or not args[0].strip():
        raise ValueError('expected choose "LABEL"')
    return Choose(args[0])


def _expect(args: list[str]) -> ExpectScore:
    if len(args) < 3 or args[0].lower() not in ("score", "final"):
        raise ValueError("expected 'expect score N N' or 'expect final N N'")
    return ExpectScore(tuple(_integer(a, "a score") for a in args[1:]), final=args[0].lower() == "final")


def _flicker(args: list[str]) -> Flicker:
    if len(args) != 2:
        raise ValueError("expected 'flicker SQUARE TIMES'")
    times = _integer(args[1], "the times")
    if not 1 <= times <= 1000:
        raise ValueError(f"times must be 1-1000, got {args[1]!r}")
    return Flicker(parse_square(args[0]), times)


def _fault(args: list[str]) -> Fault:
    if len(args) != 2 or args[1].lower() not in FAULT_KINDS:
        raise ValueError(f"expected 'fault SQUARE KIND' with KIND one of {', '.join(FAULT_KINDS)}")
    return Fault(parse_square(args[0]), args[1].lower())


def _unfault(args: list[str]) -> Fault:
    if len(args) != 1:
        raise ValueError("expected 'unfault SQUARE'")
    return Fault(parse_square(args[0]), None)


def _fixed(step: Step, expected: tuple[str, ...]) -> Callable[[list[str]], Step]:
    def parse(args: list[str]) -> Step:
        if [a.lower() for a in args] != list(expected):
            raise ValueError(f"expected {step.text()!r}")
        return step

    return parse


_KEYWORDS: dict[str, Callable[[list[str]], Step]] = {
    "place": _place,
    "remove": _remove,
    "press": _press,
    "turn": _turn,
    "advance": _advance,
    "wait": _wait,
    "expect": _expect,
    "choose": _choose,
    "unplug": _fixed(Link("unplug"), ()),
    "replug": _fixed(Link("replug"), ()),
    "flicker": _flicker,
    "fault": _fault,
    "unfault": _unfault,
    "check": _fixed(BoardLayout("check_square"), ("square",)),
    "clear": _fixed(BoardLayout("clear"), ("board",)),
    "kill": _fixed(Daemon("kill"), ("daemon",)),
    "restart": _fixed(Daemon("restart"), ("daemon",)),
}


def parse_step(line: str) -> Step:
    """One step from its text (no comment); raises ValueError naming what is wrong."""
    try:
        words = shlex.split(line, posix=True)
    except ValueError as e:
        raise ValueError(f"unbalanced quotes ({e})") from None
    if not words:
        raise ValueError("empty step")
    parse = _KEYWORDS.get(words[0].lower())
    if parse is None:
        raise ValueError(f"unknown step {words[0]!r} (known: {', '.join(_KEYWORDS)})")
    return parse(words[1:])


def _strip_comment(line: str) -> str:
    """The line without a ``#`` comment (a ``#`` inside double quotes is text)."""
    quoted = False
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


@dataclass(frozen=True, slots=True)
class ScriptLine:
    """A step and the line it came from."""

    line_no: int
    step: Step


@dataclass(frozen=True)
class Scenario:
    """A parsed scenario: its steps with their line numbers, and where it came from."""

    source: str
    lines: tuple[ScriptLine, ...]

    @property
    def steps(self) -> list[Step]:
        return [s.step for s in self.lines]

    @classmethod
    def parse(cls, text: str, source: str = "<scenario>") -> Scenario:
        """Parse a whole scenario; raises ScenarioSyntaxError on the first bad line."""
        out = []
        for no, raw in enumerate(text.splitlines(), start=1):
            line = _strip_comment(raw).strip()
            if not line:
                continue
            try:
                out.append(ScriptLine(no, parse_step(line)))
            except ValueError as e:
                raise ScenarioSyntaxError(source, no, raw, str(e)) from None
        return cls(source, tuple(out))

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        """Read and parse a scenario file; raises ScenarioSyntaxError (OSError if unreadable)."""
        p = Path(path)
        return cls.parse(p.read_text(encoding="utf-8"), str(p))

    def text(self) -> str:
        """The steps, one per line (comments are not kept)."""
        return "".join(step.text() + "\n" for step in self.steps)


# ----------------------------------------------------------------------------------------------- running
_LETTER_DRAWN = {bitmap: letter for letter, bitmap in GLYPHS.items()}
"""A custom glyph's bitmap -> the Czech letter it draws (the daemon's glyphs, ``device.transliterate``)."""


def lcd_screens(state: dict[str, Any]) -> list[list[str]]:
    """The rows of each LCD in a sim state (``state["panel"]["lcds"]``), read as a player reads them: a custom glyph
    that draws a letter is that letter (``Vrať kameny``), any other keeps its marker (``hw_sim.hd44780``)."""
    screens = []
    for lcd in (state.get("panel") or {}).get("lcds") or []:
        cgram = lcd.get("cgram") or []
        seen = {marker: _LETTER_DRAWN.get(tuple(cgram[slot]), marker) if slot < len(cgram) else marker
                for slot, marker in enumerate(GLYPH_MARKERS)}  # fmt: skip
        screens.append(["".join(seen.get(ch, ch) for ch in row) for row in lcd.get("rows") or []])
    return screens


def lcd_rows(state: dict[str, Any]) -> list[str]:
    """Every row of every LCD (``lcd_screens``), one list."""
    return [row for screen in lcd_screens(state) for row in screen]


def final_scores(state: dict[str, Any]) -> list[int] | None:
    """The final result (after the rack adjustments) from the table view, or None while there is none."""
    table = (state.get("panel") or {}).get("table") or {}
    game = table.get("game") if isinstance(table, dict) else None
    teams = game.get("teams") if isinstance(game, dict) else None
    if isinstance(teams, dict):  # doubles: the teams' result
        result = teams.get("result")
    else:
        result = game.get("result") if isinstance(game, dict) else None
    return [int(s) for s in result["final"]] if isinstance(result, dict) else None


def scores(state: dict[str, Any]) -> list[int] | None:
    """The players' scores from the table view (``game.scores`` or ``game.players[i].score``), or None."""
    table = (state.get("panel") or {}).get("table") or {}
    game = table.get("game") if isinstance(table, dict) else None
    if not isinstance(game, dict):
        return None
    teams = game.get("teams")
    if isinstance(teams, dict) and isinstance(teams.get("totals"), list):  # doubles: the teams' totals
        return [int(s) for s in teams["totals"]]
    if isinstance(game.get("scores"), list):
        return [int(s) for s in game["scores"]]
    players = game.get("players")
    if isinstance(players, list) and all(isinstance(p, dict) and "score" in p for p in players):
        return [int(p["score"]) for p in players]
    return None


def menu_lines(state: dict[str, Any]) -> list[str] | None:
    """The table's open menu as its lines (``["MENU", "> Pas"]``), or None when it is closed."""
    table = (state.get("panel") or {}).get("table")
    menu = table.get("menu") if isinstance(table, dict) else None
    return list(menu) if isinstance(menu, list) and any(menu) else None


def _choose_entry(client: Any, label: str) -> None:
    wanted = "> " + label
    state = client.latest() or {}
    if menu_lines(state) is None:
        client.press("encoder")
        state = client.wait_for(lambda s: menu_lines(s) is not None, STEP_WAIT_SECONDS)
        if state is None:
            raise ScenarioFailed("the menu did not open on a push of the encoder")
    for _ in range(MAX_MENU_TURNS):
        lines = menu_lines(state) or []
        if wanted in lines:
            client.press("encoder")
            # return once the table shows the push (menu closed or moved on), so the next step sees it
            if client.wait_for(lambda s, seen=lines: menu_lines(s) != seen, STEP_WAIT_SECONDS) is None:
                raise ScenarioFailed(f"the menu did not take the push on {label!r} (shows {lines!r})")
            return
        client.turn(1)
        state = client.wait_for(lambda s, seen=lines: menu_lines(s) != seen, STEP_WAIT_SECONDS)
        if state is None:
            raise ScenarioFailed(f"the menu did not move on a turn of the encoder (shows {lines!r})")
    raise ScenarioFailed(f"no menu entry {label!r} after {MAX_MENU_TURNS} detents")


def _lay(client: Any, step: Place) -> None:
    """Run a ``place`` step: lay its tiles on the sim's board (a square already holding that tile is left)."""
    cells = client.request("GET", "/api/board")["cells"]
    for row, col, tile in step.cells():
        there = cells[row][col]
        if there == tile:
            continue  # already on the board: part of the word, not of the move
        if there is not None:
            raise ScenarioFailed(
                f"{step.position.notation()}: cell {Square(row, col).classic()} holds {there!r}, not {tile!r}"
            )
        client.board("place", row=row, col=col, letter=tile)


BOARD_SYNC_SECONDS = STEP_WAIT_SECONDS
"""How long a placed or lifted tile may take to reach the table (debounce + frame + loop: well under 1 s idle)."""


def _await_board(client: Any, cells: dict[tuple[int, int], str | None], *, replugged: bool = False) -> None:
    """Wait until the table's reading of the board (``table.physical``) shows ``cells``: the link, the
    debouncer and the table's loop have all seen the change before the next step."""

    def shows(state: dict[str, Any]) -> bool:
        table = (state.get("panel") or {}).get("table") or {}
        grid = table.get("physical") if isinstance(table, dict) else None
        if replugged and table.get("link_up") is not True:
            return False
        return isinstance(grid, list) and all(grid[r][c] == tile for (r, c), tile in cells.items())

    if not replugged and client.request("GET", "/api/board").get("plugged") is False:
        return  # the cable is out: the table sees the board again at the replug
    table = ((client.latest() or {}).get("panel") or {}).get("table")
    if isinstance(table, dict) and "game" in table and "physical" not in table:
        return  # a daemon that does not report its board reading (the sim's own test stub): nothing to wait for
    if client.wait_for(shows, BOARD_SYNC_SECONDS) is None:
        raise ScenarioFailed(f"the table did not see the board change within {BOARD_SYNC_SECONDS:g} s")


def run_step(client: Any, step: Step) -> None:
    """Do one step through a ``SimClient``; raises ScenarioFailed if a wait or expectation does not hold."""
    match step:
        case Place():
            _lay(client, step)
            _await_board(client, {(r, c): tile for r, c, tile in step.cells()})
        case Choose():
            _choose_entry(client, step.label)
        case Remove():
            for row, col in step.cells():
                client.board("remove", row=row, col=col)
            _await_board(client, dict.fromkeys(step.cells()))
        case Press():
            client.press(step.button, step.hold)
        case Turn():
            client.turn(step.steps)
        case Advance():
            client.advance(step.seconds)
        case WaitLcd():
            state = client.wait_for(lambda s: any(step.needle in row for row in lcd_rows(s)), step.within)
            if state is None:
                rows = lcd_rows(client.latest() or {})
                raise ScenarioFailed(
                    f"no LCD row contains {step.needle!r} after {step.within:g} s; rows: {rows!r}"
                )
        case WaitDaemon():
            if not client.wait_daemon(step.within):
                raise ScenarioFailed(f"the daemon did not answer within {step.within:g} s")
        case ExpectScore():
            read = final_scores if step.final else scores
            state = client.wait_for(lambda s: read(s) == list(step.scores), STEP_WAIT_SECONDS)
            if state is None:
                raise ScenarioFailed(
                    f"expected {'final ' if step.final else ''}scores {list(step.scores)}, "
                    f"the table shows {read(client.latest() or {})}"
                )
        case Link():
            client.board(step.action)
            if step.action == "unplug":  # the table has noticed before the next step
                gone = client.wait_for(lambda s: ((s.get("panel") or {}).get("table") or {}).get("link_up") is False,
                                       BOARD_SYNC_SECONDS)
                if gone is None:
                    raise ScenarioFailed(f"the table did not notice the unplug within {BOARD_SYNC_SECONDS:g} s")
            if step.action == "replug":  # the table has the board's snapshot before the next step
                cells = client.request("GET", "/api/board")["cells"]
                grid = {(r, c): t for r, row in enumerate(cells) for c, t in enumerate(row)}
                _await_board(client, grid, replugged=True)
        case Flicker():
            client.board("flicker", row=step.square.row, col=step.square.col, times=step.times)
        case Fault():
            if step.kind is None:
                client.board("unfault", row=step.square.row, col=step.square.col)
            else:
                client.board("fault", row=step.square.row, col=step.square.col, kind=step.kind)
        case BoardLayout():
            client.board(step.layout)
        case Daemon():
            client.daemon(step.action)


def run_scenario(
    client: Any, scenario: Scenario, on_step: Callable[[ScriptLine], None] | None = None
) -> None:
    """Run every step in order; raises ScenarioFailed naming the file, line and step that failed."""
    for line in scenario.lines:
        if on_step is not None:
            on_step(line)
        log.info("%s:%d: %s", scenario.source, line.line_no, line.step.text())
        with failing_at(scenario.source, line):
            run_step(client, line.step)


@contextlib.contextmanager
def failing_at(source: str, line: ScriptLine) -> Iterator[None]:
    """A step's failure (ScenarioFailed, or the sim's client raising OSError/ValueError) as ScenarioFailed naming the
    file, the line and the step."""
    try:
        yield
    except ScenarioFailed as e:
        raise ScenarioFailed(f"{source}:{line.line_no}: {line.step.text()}: {e}") from None
    except (OSError, ValueError) as e:
        raise ScenarioFailed(f"{source}:{line.line_no}: {line.step.text()}: {type(e).__name__}: {e}") from e
