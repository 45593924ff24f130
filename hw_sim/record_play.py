"""A GCG game record played at the simulated table as the players would, and the table's result checked against it.

``plan_record`` turns a record (``engine.gcg``) into scenario steps (``hw_sim.scenario``, their public text form):
each play's tiles laid on the board (a blank as a lowercase letter: the board reads a blank tile, whose letter is
then named on the menu when the table asks), the player's button, passes and exchanges on the menu ("Pas",
"Výměna" and the count, each confirmed), a challenged word on the menu with the referee's ruling (a phony taken
off the board when the table says "Vrať kameny"; a valid word's 5-point bonus), the racks entered when the table
asks for them, and the final result. ``NEW_GAME`` clears the board and starts the next game on the menu.

The plan is checked against the rules first, with the engine's own game (``engine.game``, the one the table runs)
fed the events the players' steps will make: a record the table cannot play as players would raises Unplayable
with the reason (another tile set, a score the rules do not give, an overtime penalty, an illegal position, a record
that stops before the game's end). A challenge of the closing play is played on the end-of-game menu.

``check_result`` compares what the table shows and keeps with the record: the final result on every LCD, the GCG
export of the game's journal (``partiar sheet --gcg``: ``engine.game.export.to_gcg``) event for event, and the
score sheet's totals (``engine.scoresheet.sheet``). Racks during the game are unknown to the table and not
compared; player nicks are compared by seat.

    python -m hw_sim.record_play RECORD.gcg [--first A|B]     # prints the scenario, or why it cannot be played
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.cli.sheet import load_game
from device.screens import RESULT_PAGE_SECONDS
from engine import game as g
from engine.board import Notation
from engine.errors import EngineError
from engine.game.export import to_gcg
from engine.gcg import (
    GcgChallengeBonus,
    GcgEndRack,
    GcgEvent,
    GcgExchange,
    GcgGame,
    GcgPass,
    GcgPhonyWithdrawn,
    GcgPlay,
    GcgRackPenalty,
    GcgTimePenalty,
    decode_gcg,
    read_gcg,
)
from engine.replay import ReplayError, differences, infer_going_out, replay, tile_set_name
from engine.ruleset import Ruleset, customised
from engine.scoresheet import LABELS, sheet
from engine.tiles import tile_set
from hw_sim.scenario import (
    STEP_WAIT_SECONDS,
    BoardLayout,
    Choose,
    Press,
    Scenario,
    ScenarioFailed,
    WaitLcd,
    failing_at,
    lcd_rows,
    lcd_screens,
    run_step,
)
from shared.texts import text

RULESET = "english"
"""The ruleset of the records' table: English tiles, 5 points for a valid word challenged, going out gains twice
the opponent's rack (GCG records from tournament software)."""
CLOCK = "free"
"""The records' table clock: scores only (a record's time use is unknown; no move is timed out)."""
BUTTONS = ("A", "B")
LCD_COLUMNS = 16
"""The records' table has 16x2 LCDs (``table_config``)."""
THINK_SECONDS = 10
"""Manual time advanced before each turn (the clock ignores a press within its debounce of the last one)."""
NEW_GAME = "".join(step.text() + "\n" for step in (BoardLayout("clear"), Choose(text("new_game", "cs")),
                                                    Choose(text("yes", "cs"))))  # fmt: skip
"""Steps after a checked game: the board cleared, a new game on the menu (the other player starts it)."""


class Unplayable(ValueError):
    """A record the table cannot play as players would; the message says why (file and line where it helps)."""


@dataclass(frozen=True)
class RecordGame:
    """A record planned for the table: the scenario (from the start press to the final result), the seat of each
    nick, the record's events in the comparable form (``comparable``), the final scores by seat, and for each
    scenario line whose press ends a play the scores by seat the LCDs then show."""

    source: str
    record: GcgGame
    seat_of: dict[str, int]
    scenario: Scenario
    expected: tuple[tuple[Any, ...], ...]
    final: tuple[int, ...]
    play_presses: dict[int, tuple[int, ...]] = field(default_factory=dict)
    events: tuple[g.Event, ...] = ()
    """The engine's events the table's journal will hold for the game (the ``Start`` first), as the plan was
    checked with: what a table publishes to the hub."""


def read_record(path: str | Path) -> GcgGame:
    """A GCG file read with the engine's reader; raises OSError or engine.gcg.GcgError naming the file."""
    p = Path(path)
    return read_gcg(decode_gcg(p.read_bytes(), p.name), p.name)


def table_ruleset() -> Ruleset:
    """The records' table's ruleset (``RULESET`` as the table's config names it)."""
    return customised(RULESET, {})


class _Planner:
    """State of one ``plan_record``: the engine's game the steps drive, the record's running totals, the lines."""

    def __init__(self, record: GcgGame, first_seat: int, lang: str) -> None:
        self.record = record
        self.lang = lang
        self.rules = table_ruleset()
        self.tiles = tile_set(self.rules.tile_set)
        nicks = [p.nick for p in record.players]
        if len(nicks) != 2:
            raise Unplayable(f"{record.source}: {len(nicks)} players (the table plays two)")
        starter = next((e.nick for e in record.events), nicks[0])
        other = nicks[1] if starter == nicks[0] else nicks[0]
        self.order = (starter, other)  # playing order
        self.seat_of = {starter: first_seat, other: 1 - first_seat}
        self.game = g.Game()
        self.at = 0.0
        self.totals = dict.fromkeys(nicks, 0)
        self.lines: list[str] = []
        self.play_presses: dict[int, tuple[int, ...]] = {}
        self.apply(g.Start(at=0.0, players=self.order, ruleset=self.rules), None)

    def label(self, key: str) -> str:
        return text(key, self.lang)

    def step(self, line: str) -> None:
        self.lines.append(line)

    def choose(self, label: str) -> None:
        self.step(Choose(label).text())

    def apply(self, event: g.Event, source_line: int | None) -> list[g.Output]:
        self.at += 1.0
        try:
            return self.game.apply(event)
        except EngineError as e:
            where = f"{self.record.source}:{source_line}" if source_line else self.record.source
            raise Unplayable(f"{where}: the table would refuse it: {e}") from None

    def button(self, nick: str) -> str:
        return BUTTONS[self.seat_of[nick]]

    def seat_scores(self) -> tuple[int, ...]:
        by_seat = [0, 0]
        for nick, total in self.totals.items():
            by_seat[self.seat_of[nick]] = total
        return tuple(by_seat)

    def expect(self) -> None:
        self.step("expect score " + " ".join(str(self.totals[n]) for n in self.order))

    def on_move(self, event: GcgEvent) -> None:
        if self.game.ended is not None:
            raise Unplayable(f"{self.record.source}:{event.line}: the game is over at the table ({self.game.ended.value})"
                             " before this line")  # fmt: skip
        nick = self.order[self.game.player_on_move]
        if nick != event.nick:
            raise Unplayable(f"{self.record.source}:{event.line}: {event.nick} moves, but {nick} is on move")

    def play(self, event: GcgPlay, play: Any) -> None:
        self.on_move(event)
        placements = tuple(play.placements)
        self.apply(g.Play(at=self.at, placements=placements), event.line)
        self.totals[event.nick] = event.total
        self.step(f"advance {THINK_SECONDS}")
        self.step(f"place {play.main.notation()} at {event.position.notation(Notation.CLASSIC)}")
        self.step(f"press {self.button(event.nick)}")
        blanks = sorted((p for p in placements if p.tile.blank), key=lambda p: (p.square.row, p.square.col))
        if blanks:  # the table asks for the letters (row by row, as it lists the unnamed blanks)
            for p in blanks:
                self.choose(p.tile.letter)
            self.choose(self.label("done"))
        elif self.game.ended is None:  # (the closing play's press brings up the final result instead)
            self.play_presses[len(self.lines)] = self.seat_scores()
        self.expect()

    def challenge(self, event: GcgPhonyWithdrawn | GcgChallengeBonus, previous: GcgEvent | None) -> None:
        if not isinstance(previous, GcgPlay) or previous.nick != event.nick:
            raise Unplayable(f"{self.record.source}:{event.line}: a challenge that does not follow the player's play")
        upheld = isinstance(event, GcgPhonyWithdrawn)
        if not upheld and event.score != self.rules.rejected_challenge_points:
            raise Unplayable(f"{self.record.source}:{event.line}: a challenge bonus of {event.score} (the "
                             f"{self.rules.name} ruleset gives {self.rules.rejected_challenge_points})")  # fmt: skip
        words = self.game.open_words()
        if not words:
            raise Unplayable(f"{self.record.source}:{event.line}: no word of the play can be challenged now")
        word = words[0][2]
        open_move = self.game.open_move
        assert open_move is not None
        squares = [p.square for p in self.game.history[open_move.index].placements]
        self.apply(g.ChallengeWord(at=self.at, word=0), event.line)
        self.apply(g.Ruling(at=self.at, upheld=upheld), event.line)
        self.totals[event.nick] = event.total
        self.step(f"advance {THINK_SECONDS}")
        self.choose(self.label("challenge_word"))
        self.choose(word)
        self.choose(self.label("ruling"))
        self.choose(self.label("upheld" if upheld else "rejected"))
        if upheld:  # the table says which tiles to take back ("Vrať kameny" over the squares, as far as they fit)
            squares = sorted(squares, key=lambda s: (s.row, s.col))
            named = " ".join(s.notation(Notation.for_language(self.lang)) for s in squares)
            self.step(WaitLcd(named[:LCD_COLUMNS].rstrip()).text())
            for square in squares:
                self.step(f"remove {square.classic()}")
        self.expect()

    def turn(self, event: GcgPass | GcgExchange) -> None:
        self.on_move(event)
        self.step(f"advance {THINK_SECONDS}")
        if isinstance(event, GcgPass):
            self.apply(g.Pass(at=self.at), event.line)
            self.choose(self.label("pass"))
        else:
            self.apply(g.Exchange(at=self.at, count=event.count), event.line)
            self.choose(self.label("exchange"))
            self.choose(str(event.count))
        self.choose(self.label("yes"))
        if isinstance(event, GcgExchange):  # announced on the menu, ended by the player's press
            self.step(f"press {self.button(event.nick)}")
        self.totals[event.nick] = event.total
        self.expect()

    def racks(self, lines: dict[str, GcgRackPenalty]) -> None:
        """The racks the table asks for after a scoreless end, in its order, from the record's rack lines."""
        while self.game.racks_needed:
            nick = self.order[self.game.racks_needed[0]]
            entry = lines.get(nick)
            if entry is None:
                raise Unplayable(f"{self.record.source}: the table asks for {nick}'s rack, the record has no line")
            self.apply(g.RackEntry(at=self.at, player=self.game.racks_needed[0], rack=entry.left), entry.line)
            self.choose(self.label("racks"))
            for letter in entry.left:
                self.choose(letter)  # a blank is '?' on the menu too
            self.choose(self.label("done"))
            self.choose(self.label("yes"))


def plan_record(record: GcgGame, *, first_seat: int = 0, lang: str = "cs") -> RecordGame:
    """The scenario that plays ``record`` at the records' table (``RULESET``, ``CLOCK``) with the first mover on
    seat ``first_seat`` (0: button A). Raises Unplayable naming why the table cannot play it as players would."""
    p = _Planner(record, first_seat, lang)
    rules, tiles, source = p.rules, p.tiles, record.source
    named = tile_set_name(record)
    if named is not None and named != rules.tile_set:
        raise Unplayable(f"{source}: the {named} tile set (the table has the {rules.tile_set} set)")
    timed = next((e for e in record.events if isinstance(e, GcgTimePenalty)), None)
    if timed is not None:
        raise Unplayable(f"{source}:{timed.line}: an overtime penalty (the table's clock is {CLOCK})")
    try:
        steps = list(replay(record, tiles, rules.scoring))
        wrong = differences(record, tiles, rules.scoring)
    except ReplayError as exc:
        raise Unplayable(f"an illegal position or letter: {exc}") from None
    if wrong:
        raise Unplayable(f"a score the rules do not give: {wrong[0].describe(source)}")
    going_out = infer_going_out(record, tiles)
    if going_out is not None and going_out != rules.scoring.going_out:
        raise Unplayable(f"{source}: going out counts {going_out} (the {rules.name} ruleset: {rules.scoring.going_out})")
    p.step(f"press {BUTTONS[1 - first_seat]}")  # the opponent starts the first player's clock
    previous: GcgEvent | None = None
    rack_lines: dict[str, GcgRackPenalty] = {}
    for step in steps:
        e = step.event
        if isinstance(e, GcgPlay):
            p.play(e, step.play)
        elif isinstance(e, GcgPhonyWithdrawn | GcgChallengeBonus):
            p.challenge(e, previous)
        elif isinstance(e, GcgPass | GcgExchange):
            p.turn(e)
        elif isinstance(e, GcgEndRack):
            if p.game.went_out is None or p.order[p.game.went_out] != e.nick:
                raise Unplayable(f"{source}:{e.line}: {e.nick} goes out, not so at the table")
            p.totals[e.nick] = e.total
        elif isinstance(e, GcgRackPenalty):
            rack_lines[e.nick] = e
            p.totals[e.nick] = e.total
        previous = e
    if p.game.ended is None:
        raise Unplayable(f"{source}: the record stops before the end of the game")
    p.racks(rack_lines)
    result = p.game.result
    final = tuple(p.totals[n] for n in p.order)
    if result is None or tuple(result.final) != final:
        raise Unplayable(f"{source}: the table's result would be {result and result.final}, the record's {final}")
    p.step("expect final " + " ".join(map(str, final)))
    scenario = Scenario.parse("".join(line + "\n" for line in p.lines), source)
    expected = tuple(comparable(record, p.seat_of))
    return RecordGame(source, record, p.seat_of, scenario, expected, p.seat_scores(), p.play_presses,
                      tuple(p.game.events))  # fmt: skip


# ----------------------------------------------------------------------------------------------- comparing
def comparable(game: GcgGame, seat_of: dict[str, int]) -> list[tuple[Any, ...]]:
    """The events of a record as what the table can reproduce: kind, seat, the play's main word and position
    (written in full, blanks lowercase; a single tile: its square and letter, as a tile that forms two words has
    no main word the table could know), the counts and racks the table knows, score, running total. A withdrawn
    phony written ``-- +0`` (old Quackle files) counts by its running total."""
    rules = table_ruleset()
    out: list[tuple[Any, ...]] = []
    last: dict[str, int] = {}
    for step in replay(game, tile_set(rules.tile_set), rules.scoring):
        e, seat = step.event, seat_of[step.event.nick]
        before = last.get(e.nick, 0)
        last[e.nick] = e.total
        match e:
            case GcgPlay():
                assert step.play is not None
                if len(step.play.placements) == 1:  # which of its words is the main one, only the player knows
                    tile = step.play.placements[0]
                    out.append(("play", seat, tile.square.classic(), tile.tile.notation(), e.score, e.total))
                else:
                    where = step.play.position.notation(Notation.CLASSIC)
                    out.append(("play", seat, where, step.play.main.notation(), e.score, e.total))
            case GcgPhonyWithdrawn():
                out.append(("withdrawn", seat, e.score or e.total - before, e.total))
            case GcgPass():
                out.append(("pass", seat, e.score, e.total))
            case GcgExchange():
                out.append(("exchange", seat, e.count, e.score, e.total))
            case GcgChallengeBonus():
                out.append(("challenge bonus", seat, e.score, e.total))
            case GcgEndRack():
                out.append(("went out", seat, "".join(sorted(e.left)), e.score, e.total))
            case GcgRackPenalty():
                out.append(("rack", seat, "".join(sorted(e.left)), e.score, e.total))
            case GcgTimePenalty():
                out.append(("time", seat, e.score, e.total))
    return out


def final_lcd_text(planned: RecordGame, seat: int, lang: str = "cs") -> str:
    """What seat ``seat``'s LCD shows on the result's first page: its own final score first."""
    own, other = planned.final[seat], planned.final[1 - seat]
    return text("final", lang).format(score=f"{own}:{other}")


def check_lcds(client: Any, planned: RecordGame, lang: str = "cs") -> list[str]:
    """The final result on every LCD (one per seat, its own score first) as the record has it; [] if so. The
    result's pages alternate: the first page is brought up by advancing the manual time."""
    table = ((client.latest() or {}).get("panel") or {}).get("table") or {}
    if int(table.get("result_page") or 0) % 2:
        client.advance(RESULT_PAGE_SECONDS)
    wanted = [final_lcd_text(planned, seat, lang) for seat in range(len(planned.final))]
    if client.wait_for(lambda state: _lcds_show(state, wanted), STEP_WAIT_SECONDS) is None:
        return [f"LCDs show {lcd_screens(client.latest() or {})}, expected rows with {wanted}"]
    return []


def check_journal(planned: RecordGame, journal: Path, seats: tuple[str, ...]) -> list[str]:
    """What the game's journal keeps that differs from the record ([] if nothing): its GCG export (what
    ``partiar sheet --gcg`` writes) event by event, the result by seat, the score sheet's final totals.
    ``seats`` are the configured players in seat order."""
    problems = []
    game, damage = load_game(journal)
    if damage is not None:
        problems.append(f"journal damaged: {damage.describe(journal)}")
    exported = to_gcg(game)
    seat_of = {p.nick: seats.index(p.name) for p in exported.players}
    try:
        got = comparable(exported, seat_of)
    except ReplayError as e:
        problems.append(f"the journal's GCG export does not replay: {e}")
        got = []
    for i, (want, have) in enumerate(zip(planned.expected, got, strict=False)):
        if want != have:
            problems.append(f"event {i + 1}: record {want}, table {have}")
            break
    if len(got) != len(planned.expected):
        problems.append(f"{len(got)} events exported, the record has {len(planned.expected)}")
    result = game.result
    by_seat: list[int] | None = None
    if result is not None:
        by_seat = [0] * len(seats)
        for p, score in enumerate(result.final):
            by_seat[seats.index(game.players[p])] = score
    if by_seat is None or tuple(by_seat) != planned.final:
        problems.append(f"the game's result by seat is {by_seat}, the record's {list(planned.final)}")
    totals = dict(sheet(game, "en").summary).get(LABELS["en"]["final"])
    want_sheet = tuple(str(planned.final[seats.index(name)]) for name in game.players)
    if totals != want_sheet:
        problems.append(f"the score sheet's totals are {totals}, the record's {want_sheet}")
    return problems


def check_result(client: Any, planned: RecordGame, journal: Path, seats: tuple[str, ...], lang: str = "cs") -> list[str]:
    """Everything the finished game at the table shows and keeps that differs from its record (empty: all
    agree): ``check_lcds`` and ``check_journal``."""
    return check_lcds(client, planned, lang) + check_journal(planned, journal, seats)


def _lcds_show(state: dict[str, Any], wanted: list[str]) -> bool:
    """Whether LCD ``i`` has a row with the words of ``wanted[i]`` (whole words: ``45:3`` is not in ``145:30``),
    for every LCD."""

    def has(rows: list[str], words: str) -> bool:
        return any(f" {' '.join(words.split())} " in f" {' '.join(row.split())} " for row in rows)

    lcds = lcd_screens(state)
    return len(lcds) == len(wanted) and all(has(rows, w) for w, rows in zip(wanted, lcds, strict=True))


# ----------------------------------------------------------------------------------------------- running
def run_record(client: Any, planned: RecordGame, on_latency: Callable[[float], None] | None = None) -> None:
    """Play a planned record through a ``SimClient`` step by step; raises ScenarioFailed naming the line.

    ``on_latency`` gets, for each press that ends a play, the seconds from sending the press to the sim until a
    state pushed to this client has the new scores on every LCD: the press through the panel, the table's loop,
    the LCD's emulated controller, the panel's and the sim's event streams."""
    for line in planned.scenario.lines:
        scores = planned.play_presses.get(line.line_no)
        with failing_at(planned.source, line):
            if scores is not None and isinstance(line.step, Press):
                wanted = [f"{scores[s]}:{scores[1 - s]}" for s in range(len(scores))]
                start = time.perf_counter()
                run_step(client, line.step)
                if client.wait_for(lambda state, w=wanted: _lcds_show(state, w), STEP_WAIT_SECONDS) is None:
                    raise ScenarioFailed("lcds_not_showing", wanted=wanted, rows=lcd_rows(client.latest() or {}))
                if on_latency is not None:
                    on_latency(time.perf_counter() - start)
            else:
                run_step(client, line.step)


def table_config(players: tuple[str, str] = ("Hráč A", "Hráč B")) -> str:
    """The TOML config of the records' table (the sim adds its own keys): the records' ruleset and clock, two
    16x2 LCDs (one per player, as at a tournament)."""
    names = ", ".join(f'"{n}"' for n in players)
    return (
        f'[table]\nruleset = "{RULESET}"\nclock = "{CLOCK}"\nplayers = [{names}]\n\n'
        f"[display]\ncount = 2\ncolumns = {LCD_COLUMNS}\nlines = 2\n"
    )


def playable_records(paths: list[Path], report: Callable[[str], None] = print) -> list[GcgGame]:
    """The records of ``paths`` the table can play (each skipped one is reported with its reason)."""
    out = []
    for path in paths:
        try:
            record = read_record(path)
            plan_record(record)
        except (OSError, EngineError, Unplayable) as e:
            report(f"skipped {path.name}: {e}")
            continue
        out.append(record)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hw_sim.record_play", description=__doc__.splitlines()[0])
    parser.add_argument("record", type=Path, help="a GCG file")
    parser.add_argument("--first", choices=BUTTONS, default="A", help="the first mover's button (default A)")
    args = parser.parse_args(argv)
    try:
        planned = plan_record(read_record(args.record), first_seat=BUTTONS.index(args.first))
    except (OSError, EngineError, Unplayable) as e:
        print(f"cannot play {args.record.name}: {e}", file=sys.stderr)
        return 1
    print(f"# {planned.source} at a table with this config (partiar sim --config FILE --scenario THIS):")
    for line in table_config().splitlines():
        print(f"#   {line}")
    print("wait daemon")
    sys.stdout.write(planned.scenario.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
