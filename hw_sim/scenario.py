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
(``hw_sim.sim_client.SimClient``) and raises ScenarioFailed naming the step's line. Both say what is wrong in
Czech or English (``ScenarioError.describe(lang)``, the wording in ``hw_sim.scenario_texts``).
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
from hw_sim.scenario_texts import PROBLEMS, problem

log = logging.getLogger(__name__)

DEFAULT_WAIT_SECONDS = 30.0
STEP_WAIT_SECONDS = 60.0
"""How long a step waits for the table to show what it did (a menu move, a score): generous, because a wait ends
as soon as the table shows it, and a loaded machine may take seconds where an idle one takes milliseconds."""
FAULT_KINDS = ("open", "short", "band")


class ScenarioError(Exception):
    """Base of the scenario errors: a problem code (``hw_sim.scenario_texts.PROBLEMS``) with its values, and once
    known where it is (the file, the line, the step). ``str()`` is the English message; ``describe(lang)`` says it
    in Czech or English."""

    def __init__(self, code: str, **values: object) -> None:
        self.code = code
        self.values = values
        self.source: str | None = None
        self.line_no: int | None = None
        self.step: str | None = None
        self.text: str | None = None
        super().__init__(self.describe("en"))

    def at(self, source: str, line_no: int | None = None, step: str | None = None,
           text: str | None = None) -> ScenarioError:
        """This error placed in ``source`` (at its line ``line_no``: the ``step`` run there, or the line's ``text``
        that is not a step); returns itself."""
        self.source, self.line_no, self.step, self.text = source, line_no, step, text
        self.args = (self.describe("en"),)
        return self

    def describe(self, lang: str = "cs") -> str:
        """The message in ``lang`` (``cs``, ``en``): the file, the line and the step where known, and the problem."""
        text = problem(self.code, lang, self.values)
        if self.source is None:
            return text
        if self.line_no is None:
            return problem("in_file", lang, {"source": self.source, "problem": text})
        if self.text is not None:
            return problem("at_text", lang, {"source": self.source, "line": self.line_no, "text": self.text,
                                             "problem": text})  # fmt: skip
        if self.step is None:
            return problem("at_line", lang, {"source": self.source, "line": self.line_no, "problem": text})
        return problem("at_step", lang, {"source": self.source, "line": self.line_no, "step": self.step,
                                         "problem": text})  # fmt: skip

    def __str__(self) -> str:
        return str(self.args[0])


class ScenarioSyntaxError(ScenarioError, ValueError):
    """A file that cannot be read or a line that is not a step: names the source and the line number."""


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
        raise ScenarioSyntaxError("not_square", text=text) from None


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
        raise ScenarioSyntaxError("not_number", what=what, text=text) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ScenarioSyntaxError("not_finite", what=what, text=text)
    return value


def _integer(text: str, what: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ScenarioSyntaxError("not_whole", what=what, text=text)
    return int(text)


def _within(words: list[str], default: float) -> float:
    if not words:
        return default
    if len(words) == 2 and words[0] == "within":
        seconds = _number(words[1], "wait")
        if seconds <= 0:
            raise ScenarioSyntaxError("wait_positive", text=words[1])
        return seconds
    raise ScenarioSyntaxError("expected_within", text=" ".join(words))


def _place(args: list[str]) -> Place:
    if len(args) != 3 or args[1].lower() != "at":
        raise ScenarioSyntaxError("expected_place")
    word, where = args[0], args[2]
    if not word.isalpha() and word != "?":
        raise ScenarioSyntaxError("word_letters", word=word)
    word = "a" if word == "?" else word
    try:
        position = Position.from_notation(where)
    except EngineError:
        if len(word) != 1:
            raise ScenarioSyntaxError("not_position", text=where) from None
        position = Position(parse_square(where), Direction.DOWN)
    dr, dc = position.direction.step
    end_row = position.square.row + dr * (len(word) - 1)
    end_col = position.square.col + dc * (len(word) - 1)
    if end_row >= SIZE or end_col >= SIZE:
        raise ScenarioSyntaxError("off_board", word=word, where=where)
    return Place(word, position)


def _remove(args: list[str]) -> Remove:
    if len(args) != 1:
        raise ScenarioSyntaxError("expected_remove")
    first_text, _, last_text = args[0].partition("..")
    first = parse_square(first_text)
    last = parse_square(last_text) if last_text else first
    if first.row != last.row and first.col != last.col:
        raise ScenarioSyntaxError("not_line", text=args[0])
    return Remove(first, last)


def _press(args: list[str]) -> Press:
    if not args:
        raise ScenarioSyntaxError("expected_press")
    name = args[0].lower()
    if name not in ("a", "b", "encoder"):
        raise ScenarioSyntaxError("unknown_button", text=args[0])
    hold = 0.0
    if len(args) == 3 and args[1].lower() == "hold":
        hold = _number(args[2], "hold")
        if not 0 <= hold <= 10:
            raise ScenarioSyntaxError("hold_range", text=args[2])
    elif len(args) != 1:
        raise ScenarioSyntaxError("expected_press_hold")
    return Press(name, hold)


def _turn(args: list[str]) -> Turn:
    if len(args) != 2 or args[0].lower() != "encoder":
        raise ScenarioSyntaxError("expected_turn")
    steps = _integer(args[1], "steps")
    if steps == 0 or abs(steps) > 100:
        raise ScenarioSyntaxError("steps_range", text=args[1])
    return Turn(steps)


def _advance(args: list[str]) -> Advance:
    if len(args) != 1:
        raise ScenarioSyntaxError("expected_advance")
    seconds = _number(args[0], "time")
    if seconds < 0:
        raise ScenarioSyntaxError("time_forward", text=args[0])
    return Advance(seconds)


def _wait(args: list[str]) -> WaitLcd | WaitDaemon:
    if args and args[0].lower() == "daemon":
        return WaitDaemon(_within(args[1:], 20.0))
    if len(args) < 2 or args[0].lower() != "lcd":
        raise ScenarioSyntaxError("expected_wait")
    if not args[1]:
        raise ScenarioSyntaxError("wait_empty")
    return WaitLcd(args[1], _within(args[2:], DEFAULT_WAIT_SECONDS))


def _choose(args: list[str]) -> Choose:
    if len(args) != 1 or not args[0].strip():
        raise ScenarioSyntaxError("expected_choose")
    return Choose(args[0])


def _expect(args: list[str]) -> ExpectScore:
    if len(args) < 3 or args[0].lower() not in ("score", "final"):
        raise ScenarioSyntaxError("expected_expect")
    return ExpectScore(tuple(_integer(a, "score") for a in args[1:]), final=args[0].lower() == "final")


def _flicker(args: list[str]) -> Flicker:
    if len(args) != 2:
        raise ScenarioSyntaxError("expected_flicker")
    times = _integer(args[1], "times")
    if not 1 <= times <= 1000:
        raise ScenarioSyntaxError("times_range", text=args[1])
    return Flicker(parse_square(args[0]), times)


def _fault(args: list[str]) -> Fault:
    if len(args) != 2 or args[1].lower() not in FAULT_KINDS:
        raise ScenarioSyntaxError("expected_fault", kinds=", ".join(FAULT_KINDS))
    return Fault(parse_square(args[0]), args[1].lower())


def _unfault(args: list[str]) -> Fault:
    if len(args) != 1:
        raise ScenarioSyntaxError("expected_unfault")
    return Fault(parse_square(args[0]), None)


def _fixed(step: Step, expected: tuple[str, ...]) -> Callable[[list[str]], Step]:
    def parse(args: list[str]) -> Step:
        if [a.lower() for a in args] != list(expected):
            raise ScenarioSyntaxError("expected_fixed", step=step.text())
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
    except ValueError:
        raise ScenarioSyntaxError("unbalanced_quotes") from None
    if not words:
        raise ScenarioSyntaxError("empty_step")
    parse = _KEYWORDS.get(words[0].lower())
    if parse is None:
        raise ScenarioSyntaxError("unknown_step", word=words[0], known=", ".join(_KEYWORDS))
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
        """Parse a whole scenario; raises ScenarioSyntaxError on the first bad line, or for a scenario without a
        step (empty or only comments: it would check nothing). A byte-order mark at the start (as some Windows
        editors save UTF-8) is not part of the first line."""
        out = []
        for no, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
            line = _strip_comment(raw).strip()
            if not line:
                continue
            try:
                out.append(ScriptLine(no, parse_step(line)))
            except ScenarioSyntaxError as e:
                raise e.at(source, no, text=raw.strip()) from None
        if not out:
            raise ScenarioSyntaxError("no_steps").at(source)
        return cls(source, tuple(out))

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        """Read and parse a scenario file; raises ScenarioSyntaxError naming the file (and the line: a step that
        does not parse, a byte that is not UTF-8), or the file's ``cannot_read`` problem (``reason``: the
        OSError, worded by ``read_problem``)."""
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as e:
            raise ScenarioSyntaxError("cannot_read", reason=e).at(str(p)) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line_start = data.rfind(b"\n", 0, e.start) + 1
            raise ScenarioSyntaxError("not_utf8", byte=f"0x{data[e.start]:02X}", column=e.start - line_start + 1).at(
                str(p), data.count(b"\n", 0, e.start) + 1) from None
        return cls.parse(text, str(p))

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
            raise ScenarioFailed("menu_not_open")
    for _ in range(MAX_MENU_TURNS):
        lines = menu_lines(state) or []
        if wanted in lines:
            client.press("encoder")
            # return once the table shows the push (menu closed or moved on), so the next step sees it
            if client.wait_for(lambda s, seen=lines: menu_lines(s) != seen, STEP_WAIT_SECONDS) is None:
                raise ScenarioFailed("menu_no_push", label=label, lines=lines)
            return
        client.turn(1)
        state = client.wait_for(lambda s, seen=lines: menu_lines(s) != seen, STEP_WAIT_SECONDS)
        if state is None:
            raise ScenarioFailed("menu_no_turn", lines=lines)
    raise ScenarioFailed("menu_no_entry", label=label, turns=MAX_MENU_TURNS)


def _lay(client: Any, step: Place) -> None:
    """Run a ``place`` step: lay its tiles on the sim's board (a square already holding that tile is left)."""
    cells = client.request("GET", "/api/board")["cells"]
    for row, col, tile in step.cells():
        there = cells[row][col]
        if there == tile:
            continue  # already on the board: part of the word, not of the move
        if there is not None:
            raise ScenarioFailed("cell_holds", position=step.position.notation(), cell=Square(row, col).classic(),
                                 there=there, tile=tile)
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
        raise ScenarioFailed("board_unseen", seconds=BOARD_SYNC_SECONDS)


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
                raise ScenarioFailed("lcd_missing", needle=step.needle, seconds=step.within, rows=rows)
        case WaitDaemon():
            if not client.wait_daemon(step.within):
                raise ScenarioFailed("daemon_silent", seconds=step.within)
        case ExpectScore():
            read = final_scores if step.final else scores
            state = client.wait_for(lambda s: read(s) == list(step.scores), STEP_WAIT_SECONDS)
            if state is None:
                raise ScenarioFailed("final_differs" if step.final else "score_differs", expected=list(step.scores),
                                     shown=read(client.latest() or {}))
        case Link():
            client.board(step.action)
            if step.action == "unplug":  # the table has noticed before the next step
                gone = client.wait_for(lambda s: ((s.get("panel") or {}).get("table") or {}).get("link_up") is False,
                                       BOARD_SYNC_SECONDS)
                if gone is None:
                    raise ScenarioFailed("unplug_unseen", seconds=BOARD_SYNC_SECONDS)
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
        raise e.at(source, line.line_no, line.step.text()) from None
    except (OSError, ValueError) as e:
        code = getattr(e, "problem", None)  # what the sim refused, worded here (SimClientError)
        if code in PROBLEMS:
            failed = ScenarioFailed(code, **e.values)  # type: ignore[attr-defined]
        else:
            failed = ScenarioFailed("sim_unreachable", kind=type(e).__name__, error=e)
        raise failed.at(source, line.line_no, line.step.text()) from e
