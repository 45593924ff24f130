"""The table: one loop that owns the game, the move clock, the menu, the board's reading and the displays.

Devices never call into the table's state: their callbacks put an input (``device.inputs``) on ``Table.inputs``
and the loop (``run``) consumes them one at a time on its own thread. Every game event is checked by the game,
appended to the journal (flushed and fsynced) and only then acted on (clock, displays, buzzer, hub). The clock's
state is checkpointed next to the journal so a restart resumes the move time too (``config.resume``).
"""

from __future__ import annotations

import errno
import json
import logging
import queue
import threading
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device import card_reserve, inputs
from device import journal_referee as jr
from device.announce import announce
from device.board_link import events as link_events
from device.board_link.board_diff import BoardDiffError, diff_move, grid_of
from device.checkpoint_writer import CheckpointWriter
from device.clock import events as clock_events
from device.clock.core import MoveClock
from device.clock.modes import ClockMode
from device.clock.modes import mode as clock_preset
from device.errors import JournalWriteError
from device.journal import Journal, SetAside, salvage, write_atomic
from device.journal_turn import TURN_KEY, replay_record, stamped
from device.menu import Action, Choice, Item, Menu
from device.publish.topics import TablePairing
from device.realtime import realtime, release_memory
from device.screens import RESULT_PAGE_SECONDS, redraw_in, resumed_notice
from device.table_doubles import (
    awaited_player,
    button_player,
    clock_mode_for,
    clock_side,
    presses_clock,
    side_players,
    team_sides,
)
from device.table_lost_turn import lost_turn_tiles
from device.table_menu import (
    CORRECTION,
    VOID,
    ZERO_DRAW,
    blank_letters,
    corrected_score,
    menu_items,
    open_move_words,
    side_labels,
)
from device.table_pairing import (
    PAIRING_FILE,
    is_paired,
    load_pairing,
    pairing_info,
    plays,
    replaceable,
    save_pairing,
    untouched,
)
from device.table_round import END, START, referee_clock_mode, referee_wait, round_items
from device.table_start import START_KINDS, answer_start
from device.texts import TEXTS, text
from device.tile_check import check_tile_set
from engine import game as g
from engine.blanks import BlankRanking, rank_blank_letters
from engine.board import SIZE, Direction, Notation, Square
from engine.draw import match_order
from engine.errors import EngineError
from engine.game.doubles import announce_target
from engine.game.teams import team_of
from engine.placement import GEOMETRY, IllegalPlacement, Placement, validate
from engine.ruleset import customised
from engine.tiles import BLANK, Tile

log = logging.getLogger(__name__)

Grid = tuple[tuple[str | None, ...], ...]
"""A physical board as the link reports it: 15 rows of 15 cells, a letter, ``?`` for a blank, or None."""

CHECKPOINT_PERIOD = 2.0
"""Seconds between clock checkpoints while a move runs: a power cut loses at most this much move time."""

RESUMED_NOTICE_S = 4.0
"""How long the LCDs say the game is back after a restart (one line: the scores stay in view, device.screens)."""

JOURNAL_FAILED_NOTICE_S = 24 * 3600.0
"""A journal line the card refused: the LCDs say so until a line is written again (the notice's own end is only a
bound)."""

PLAN_REFRESH_S = 10.0
"""The clock's signal plan reaches 15 s ahead (``MoveClock.signal_plan``); while nothing but time passes, the table
hands the driver a fresh one after this many seconds (an input or a clock event re-plans at once)."""

DOUBLE_PRESS_S = 0.3
"""A press by the player who just came on move within this many seconds of the press that ended the other's move
is the same slap (both palms on the buttons), not a turn: it is ignored and the LCD says so. Two players hitting
arcade buttons "together" land within about 0.1 s of each other, while a player who sees the opponent's move end
and decides to pass needs a visual reaction (about 0.2-0.25 s at best) and a decision: over 0.4 s (docs/daemon.md).
"""

RESUME_RULES = {"remaining": "continue", "full": "restart", "paused": "paused"}
"""Config ``table.resume`` -> ``MoveClock.restore`` rule."""

REFEREE_CONFIRMED = ("no_show", "warning", "disqualify")
"""Menu actions that end a game or sanction a player: asked again, for the referee's yes."""

JOURNAL_EVENTS = "journal_events"
"""Key of the clock checkpoint and the pending file: how many journal events the game had when they were written
(the journal is written first; a power cut between the two writes leaves them behind, and the table catches up)."""
WALL_KEY = "wall"
"""Key of the clock checkpoint: the wall clock when it was written. A game event journaled after it (a power cut
came before the next checkpoint) carries its own wall time, so the restart knows how long the clock ran on."""
GAME_KEY = "game"
"""Key of the same files: which game they belong to (its start event's time): a file left by the previous game
(a power cut just after a new game started) is not applied to the new one."""


def empty_grid() -> Grid:
    return tuple(tuple(None for _ in range(SIZE)) for _ in range(SIZE))


@dataclass
class Notice:
    """A short message shown in place of the menu lines until ``until`` (time source seconds) or replaced: two
    lines, or one that leaves the scores in view (``device.screens``)."""

    lines: tuple[str, str] | tuple[str]
    until: float


@dataclass
class TableState:
    """What the table knows beyond the game and the clock (not journaled: rebuilt from the board and the link)."""

    physical: Grid = field(default_factory=empty_grid)
    link_up: bool = False
    link_paused: bool = False
    faults: dict[tuple[int, int], str] = field(default_factory=dict)
    blank_letters: dict[tuple[int, int], str] = field(default_factory=dict)
    take_back: set[tuple[int, int]] = field(default_factory=set)
    put_back: dict[tuple[int, int], str] = field(default_factory=dict)
    notice: Notice | None = None
    tile_check: dict[str, Any] | None = None
    referee_ok: tuple[Action, tuple[str, str]] | None = None
    """A menu action that waits for the referee's yes (no-show, warning, disqualification) and its label (kept in
    ``pending.json``: a restart asks it again)."""
    dispute_zero: bool = False
    """The referee forfeited a dispute 0:0 and is asked whether it is void or a draw (004 E does not say); kept in
    ``pending.json``."""
    possible_no_show: int | None = None
    irregular_asked: frozenset[Any] | None = None
    """The tiles of a play against the placing rules the player was asked to confirm by pressing again."""
    blank_wait: int | None = None
    """The player whose press found an unnamed blank: their move time stands still until they name it."""
    exchange: tuple[int, int] | None = None
    """An exchange announced on the menu as (the turn, the count): the player's press ends the move with it, as at
    a real table (kept in ``pending.json``; it lapses when the turn ends otherwise, a time-out too)."""
    take_back_hold: bool = False
    """The move time of the player on move stands at its start while tiles to take back lie on the board (an
    upheld challenge's, a timed-out move's): it runs, in full, from the moment the last is lifted (004 "Po
    rozhodnutí o oprávněnosti námitky se začíná doba vymezená na tah měřit od začátku"). Kept in ``pending.json``."""


class Table:
    """The daemon's state owner. Built from its parts (``device.hardware``); ``run()`` is the loop.

    ``render(view, index)`` gives the rows for LCD ``index``; ``signal(edge)`` switches the buzzer for a clock
    ``SignalEdge``; ``publisher`` (optional) gets every journaled event and the state for the hub; ``lexicon``
    (optional, ``word in lexicon``) marks challenged words for the referee.
    """

    def __init__(
        self,
        *,
        config: Any,
        time: Any,
        clock_mode: ClockMode,
        journal: Journal,
        wall: Callable[[], float] = _time.time,
        displays: Sequence[Any] = (),
        render: Callable[[dict[str, Any], int], Sequence[str]] | None = None,
        signal: Callable[[Any], None] | None = None,
        led: Any = None,
        on_change: Callable[[dict[str, Any]], None] | None = None,
        link: Any = None,
        lexicon: Any = None,
        publisher: Any = None,
        heartbeat: Callable[[], object] | None = None,
        heartbeat_period: float | None = None,
        priority: int | None = None,
    ) -> None:
        self.config = config
        self.lang = config.language
        self.time = time
        self.wall = wall
        self.clock_mode = clock_mode_for(clock_mode, customised(config.ruleset, config.rules), len(config.players))
        self.referee_time = getattr(config, "base_time", "table") == "referee"
        """A tournament table: the chief referee starts and ends the base time (``device.table_round``)."""
        if self.referee_time:
            self.clock_mode = referee_clock_mode(self.clock_mode)
        self.journal = journal
        self.displays = list(displays)
        self.render = render
        self.signal = signal
        self.led = led
        self.on_change = on_change
        self.link = link
        self.lexicon = lexicon
        self.publisher = publisher
        self.heartbeat = heartbeat
        self.heartbeat_period = heartbeat_period
        self.priority = priority
        """``SCHED_FIFO`` priority the loop (``run``) runs at (None: the thread's own). Every input is bounded work
        (one move at most) that players wait for, and the loop sleeps in between: on a busy Pi it must not wait for
        a core behind other work, neither to wake for a press nor while it handles one."""
        self._next_heartbeat: float | None = None
        # SimpleQueue: its put() is reentrant. The SIGTERM handler puts Stop on the loop's own thread, maybe while
        # the loop is inside get(); a queue.Queue's lock there deadlocked the daemon's stop (test_table_stop).
        self.inputs: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.menu = Menu(
            title=text("menu", self.lang),
            back_label=text("back", self.lang),
            yes_label=text("yes", self.lang),
            no_label=text("no", self.lang),
        )
        self.state = TableState()
        self.game = g.Game()
        self.clock = MoveClock(self.clock_mode, time.now())
        self.resumed = False
        self.latest_view: dict[str, Any] = {}
        self._stopped = False
        self._journal_failing = False
        self._card_error: OSError | None = None
        """The card refuses the clock checkpoint (full, read-only): the move time stops (a restart would give it
        back) and the LCDs say so until a checkpoint is written again (retried every ``CHECKPOINT_PERIOD``)."""
        self._reports: list[jr.Report] = []
        """What a damaged journal's repair set aside, not yet acknowledged by the referee (``device.journal_referee``)."""
        self._journal_question = False
        """The journal's game is not the config's: the clock waits for the referee's answer."""
        self._next_checkpoint: float | None = None
        self.checkpoints: CheckpointWriter | None = None
        """The clock checkpoint's writer thread while the loop runs (``run``); None: written on the calling thread
        (a test driving ``handle`` itself)."""
        self._next_redraw: float | None = None
        self._clock_dirty = False
        self._replan = True
        """Something besides time passing may have changed the clock's signal: plan again (``_flush``)."""
        self._lasting: dict[str, Any] | None = None
        """The view's lasting parts as the last refresh computed them (``_refresh``)."""
        self._plan_fresh_until: float | None = None
        self._pending_written: str | None = None
        self._pending_shown: str | None = None
        """``pending.json`` as last written, without the journal layer's keys."""
        self._pending_deferred: str | None = None
        """``pending.json`` to write after the screens (only the journal layer's keys changed)."""
        self.notation = Notation.for_language(self.lang)
        self._ranking_cache: tuple[object, BlankRanking | None] = (None, None)
        self._last_press: dict[int, float] = {}
        self._move_ended_at: tuple[int, float] | None = None
        """Who ended a move with their button, and when (the double-press window)."""
        self._blank_wait_ended = False
        """At resume: the journal has the move a blank's wait ended in, the clock checkpoint may still be paused."""
        self._lost_turn_due = False
        """At resume: the journal has a time-out pending.json has not (a power cut between the two): the tiles the
        timed-out move left are asked back at the board's first reading."""
        self._menu_to_restore: object = None
        """The menu's position read from ``pending.json`` at resume, until the board's first snapshot (the items
        offered depend on the board: a blank being named)."""
        self.pairing: TablePairing | None = None
        """The round's pairing at this table from the hub (``device.table_pairing``), kept in ``pairing.json``."""

    # ----------------------------------------------------------------------------------------------- startup
    @property
    def clock_path(self) -> Path:
        return self.journal.path.with_name("clock.json")

    @property
    def pairing_path(self) -> Path:
        return self.journal.path.with_name(PAIRING_FILE)

    @property
    def seats(self) -> tuple[str, ...]:
        """The players by seat (buttons, LCDs): the pairing's in its order for a game started from one (the
        first named sits at A and starts), else the configured ones."""
        return tuple(self.game.players) if is_paired(self.game) else tuple(self.config.players)

    def resume(self) -> bool:
        """Rebuild the game from the journal and the clock from its checkpoint; True if a game was resumed.

        With an empty journal a new game starts. The game goes on from the journal's longest valid prefix: a line
        that is not a record (garbage, a torn write) or an event the game refuses ends it; the file as it was is
        kept as ``journal.jsonl.damaged-N``, the journal is rewritten with the valid part, and the LCD and the log
        say so with the line.
        """
        self.pairing = load_pairing(self.pairing_path)
        card_reserve.ensure(self.journal.path.parent)  # while the card has room (device.card_reserve)
        game = g.Game()
        outputs: list[list[g.Output]] = []
        records, set_aside = salvage(self.journal.path, lambda r: outputs.append(replay_record(game, r)))
        if set_aside:
            self._repair_journal(records, set_aside)
        self._reports += jr.open_reports(self.journal.path)
        if not game.events:
            try:
                self._start_game(pairing=self.pairing)
            except JournalWriteError as e:  # a full card: the start is written once it takes a line
                self._journal_failed(e)
            self._refresh()
            return False
        self.game = game
        self._load_pending(outputs)
        if len(game.events) == 1:
            try:
                self._game_info()  # the power went between the start and its header
            except JournalWriteError as e:
                self._journal_failed(e)
        checkpoint = self._read_clock_checkpoint()
        now = self.time.now()
        if checkpoint is not None and not self._same_game(checkpoint):
            log.warning("clock checkpoint %s is of another game: the clock starts afresh", self.clock_path)
            checkpoint = None
        if checkpoint is not None:
            written_at = checkpoint.pop(JOURNAL_EVENTS, len(game.events))
            checkpoint.pop(GAME_KEY, None)
            written_wall = checkpoint.pop(WALL_KEY, None)
            waited = checkpoint.pop("blank_wait", None)
            if checkpoint.pop("take_back_hold", False) is True and checkpoint.get("state") == "paused":
                # the clock held for tiles to take back; pending.json, written first, may already say they are off
                # (a power cut between the two writes): the board's first reading releases it (``_on_board``)
                self.state.take_back_hold = True
            if waited is not None and isinstance(written_at, int) and written_at < len(game.events):
                self._blank_wait_ended = True  # paused while a blank was named; the move it ended is journaled
            try:
                behind = written_at if isinstance(written_at, int) and 0 <= written_at <= len(outputs) else len(outputs)
                later = game.events[behind:]
                ran = _ran_after(checkpoint, written_wall, later)
                self.clock = self._restore_clock(checkpoint, now, later, ran)
                self._catch_up_clock(outputs[behind:], now)
            except (EngineError, ValueError, KeyError, TypeError) as e:
                log.error("clock checkpoint %s unusable (%s): the clock waits for a start press", self.clock_path, e)
        self.resumed = True
        self._journal_question = jr.differs(game, self.config) and not jr.continued(self.journal.path, game, self.config)
        if self._journal_question:
            log.error("the journal's game (%s, %s) is not the config's: the clock waits for the referee",
                      ", ".join(game.players), game.ruleset.name)  # fmt: skip
        standing = self._standing_notice()
        if standing is None or standing.lines[0] == text("take_back", self.lang):  # the tiles are asked for after it
            self._notify((resumed_notice(len(game.history) + 1, self.lang),), RESUMED_NOTICE_S)
        log.info("resumed a game of %d events from %s", len(game.events), self.journal.path)
        self._reconcile_clock(now)
        self._hold_for_take_back(now)  # a power cut between the ruling's record and the hold
        self._restore_menu(final=False)
        try:
            self._sync_base_time()
        except EngineError as e:
            log.error("base time expiry refused at resume: %s", e)
        except JournalWriteError as e:
            self._journal_failed(e)
        if self._journal_question and self.clock.state == "running" and not self.clock.paused:
            self.clock.pause(now)
        self._checkpoint_clock()  # the restored clock, and the periodic checkpoints from here on
        self._refresh()
        self._flush()
        return True

    def _repair_journal(self, good: list[dict[str, Any]], set_aside: list[SetAside]) -> None:
        """Keep the journal as it was aside (``journal.jsonl.damaged-N``) with a report of the lines set aside,
        then rewrite it with the records that still apply (``device.journal.salvage``); the LCDs show what was set
        aside until the referee acknowledges it. A card that refuses the repair gets it before the next record."""
        path = self.journal.path
        bad = [s for s in set_aside if not s.torn]
        for s in set_aside:
            log.error("%s:%d: set aside (%s)", path, s.line, s.reason)
        aside = self.journal.replace(good, before=(lambda aside: jr.write_report(aside, bad)) if bad else None)
        kept = aside.name if aside is not None else "(kept aside once the card takes it)"
        log.error("%s: the game goes on from the %d records that apply; the journal as it was: %s", path, len(good), kept)
        if bad and aside is None:  # shown now; its report is written with the repair
            self._reports.append(jr.Report("", tuple(bad)))

    def _start_game(
        self, players: tuple[str, ...] | None = None, *, rotate: bool = False, pairing: TablePairing | None = None
    ) -> None:
        """Start a game (``players`` in playing order; else the pairing's, else the configured order) with its
        sheet header (the pairing's tournament, round, place, date and players' ids when there is one);
        ``rotate``: the previous game's journal is archived in the same step (``Journal.rotate``), so a power cut
        never leaves an empty journal that would start the configured order instead of the match's next one."""
        ruleset = customised(self.config.ruleset, self.config.rules)
        at = self.wall()
        if pairing is not None:
            start = g.Start(at=at, players=pairing.names, ruleset=ruleset)
            events = [start, pairing_info(pairing, at)]
        else:
            events = [g.Start(at=at, players=players or tuple(self.config.players), ruleset=ruleset), self._info(at)]
        if not rotate:
            for event in events:
                self._apply(event)
            return
        game = g.Game()
        outputs = [out for event in events for out in game.apply(event)]  # refused: nothing is written
        self._checkpoints_written()
        self.journal.rotate([{**event.to_json(), TURN_KEY: 0} for event in events])
        self.game = game
        if self.publisher is not None:
            for seq, event in enumerate(events):
                self.publisher.publish_event(seq, event.to_json())
        for out in outputs:
            self._on_output(out, self.time.now())

    def _info(self, at: float) -> g.GameInfo:
        """The score sheet's header (004): the table and the date and time the game started, in the table's local
        time."""
        started = _time.strftime("%d.%m.%Y %H:%M", _time.localtime(at))
        return g.GameInfo(at=at, started=started, table=self.config.name)

    def _game_info(self) -> None:
        """The header journaled at resume if a power cut came between the start and its header (a journal
        written before ``Journal.rotate`` wrote both at once)."""
        if not self.game.events or any(isinstance(e, g.GameInfo) for e in self.game.events):
            return
        self._apply(self._info(self.game.events[0].at))

    # -------------------------------------------------------------------------------------------- the loop
    def run(self) -> None:
        """Consume inputs until a Stop arrives. Waits for the next input or the next deadline, whichever first."""
        # started before the loop raises its priority: the writer runs at the daemon's (device.checkpoint_writer)
        self.checkpoints = CheckpointWriter(
            self._write_state_file, tag=len(self.game.events),
            on_outcome=lambda error: self.inputs.put(inputs.CheckpointOutcome(error)),
            failing=self._card_error is not None,
        )  # fmt: skip
        try:
            with realtime(self.priority):
                self._run()
        finally:
            writer, self.checkpoints = self.checkpoints, None
            writer.close()

    def _run(self) -> None:
        self._refresh()
        self._beat()
        while not self._stopped:
            timeout = self.time.timeout_until(self._next_deadline())
            try:
                item = self.inputs.get(timeout=timeout)
            except queue.Empty:
                item = inputs.Tick()
            self.handle(item)
            if self._next_heartbeat is not None and self.time.now() >= self._next_heartbeat:
                self._beat()
        self._write_clock_checkpoint(durable=True)

    def _beat(self) -> None:
        """Tell the watchdog the loop is alive (it runs on this thread, so a hung loop stops the beats)."""
        if self.heartbeat is None or not self.heartbeat_period:
            return
        self.heartbeat()
        self._next_heartbeat = self.time.now() + self.heartbeat_period

    def _next_deadline(self) -> float | None:
        deadlines = [self.clock.next_deadline(), self._next_checkpoint, self._next_heartbeat, self._next_redraw]
        if self.state.notice is not None:
            deadlines.append(self.state.notice.until)
        due = [d for d in deadlines if d is not None]
        return min(due) if due else None

    def handle(self, item: object) -> None:
        """Process one input (the loop calls this; tests may call it directly on the loop's thread)."""
        try:
            self._handle(item)
        except JournalWriteError as e:
            self._journal_failed(e)

    def _journal_failed(self, error: JournalWriteError) -> None:
        """The card refused a journal line (full, read-only, an I/O error): the game stays as the journal holds it
        (``_apply`` took the event back), the table keeps running, the clock stops for the referee (no player's
        time runs while nothing can be recorded) and both LCDs say so until a line is written again. The referee
        resumes the clock from the menu once the card is put right; a move that was not recorded is still on the
        board and is recorded by the next press."""
        log.error("%s: the game goes on as the journal holds it; the clock waits for the referee", error)
        now = self.time.now()
        if self.clock.state == "running" and not self.clock.paused:
            self.clock.pause(now)
            self._checkpoint_clock()
        self._journal_failing = True
        if not self.game.events:  # the start refused: the loop wakes to try it again (``_handle``)
            self._next_checkpoint = now + CHECKPOINT_PERIOD
        self.state.notice = self._journal_failed_notice()
        self._refresh()

    def _journal_failed_notice(self) -> Notice:
        lines = (text("journal_failed", self.lang), text("call_referee", self.lang))
        return Notice(lines, self.time.now() + JOURNAL_FAILED_NOTICE_S)

    def _standing_notice(self) -> Notice | None:
        """What the LCDs say while it stands, first things first: a journal line refused, the clock checkpoint
        refused ("Karta plná!" for a full card), the journal's game not the config's, lines a repair set aside, tiles
        to take back ("Vrať kameny")."""
        if self._journal_failing:
            return self._journal_failed_notice()
        lines: tuple[str, str] | None = None
        if self._card_error is not None:
            full = self._card_error.errno in (errno.ENOSPC, errno.EDQUOT)
            lines = (text("card_full" if full else "card_error", self.lang), text("call_referee", self.lang))
        elif self._journal_question:
            lines = (text("journal_differs", self.lang), text("call_referee", self.lang))
        elif self._reports:
            lines = jr.report_lines(self._reports, self.lang)
        elif self.state.take_back:  # until the last tile to take back is off the board, a restart too
            lines = (text("take_back", self.lang), self._cells(self.state.take_back))
        return None if lines is None else Notice(lines, self.time.now() + JOURNAL_FAILED_NOTICE_S)

    def _on_checkpoint_outcome(self, error: OSError | None) -> None:
        """The card refused the clock checkpoint (``error``), or took one again (None)."""
        if error is None:
            if self._card_error is not None:
                log.warning("the clock checkpoint is written again: the card takes writes")
                self._card_error = None
                card_reserve.ensure(self.journal.path.parent)  # whole again for the next time it fills
                if self.notice_is("card_full") or self.notice_is("card_error"):
                    self.state.notice = None
            return
        first, self._card_error = self._card_error is None, error
        if first:
            log.error("the card refuses the clock checkpoint (%s): the move time waits for the referee", error)
        if first or self.notice_is("card_full") or self.notice_is("card_error"):
            self.state.notice = self._standing_notice()
        if self.clock.state == "running" and not self.clock.paused:
            self.clock.pause(self.time.now())
            self._replan = True
            self._checkpoint_clock()
        self._next_checkpoint = self.time.now() + CHECKPOINT_PERIOD

    def _handle(self, item: object) -> None:
        if not isinstance(item, inputs.Tick):
            self._replan = True
        if isinstance(item, inputs.ButtonPressed | inputs.EncoderPushed | inputs.RoundCommand):
            # before the input's time is taken: the buzzer writes no edge this input could withdraw until the
            # plan that follows it (edges the plan keeps are written then)
            self._hold_signal(self.time.now())
        now = self.time.now()
        try:
            if isinstance(item, inputs.Stop):
                self._stopped = True
                return
            if isinstance(item, inputs.Settle):
                item.done.set()
                return
            if isinstance(item, inputs.CheckpointOutcome):
                self._on_checkpoint_outcome(item.error)
            if not self.game.events:  # the card refused the start: written once it takes a line
                self._start_game(pairing=self.pairing)
            self._advance_clock(now)
            if isinstance(item, (inputs.ButtonPressed, inputs.EncoderTurned, inputs.EncoderPushed)):
                self._menu_to_restore = None  # a player acted: the menu is theirs now
            if isinstance(item, inputs.ButtonPressed):
                if not self._journal_question:  # which game is played is the referee's answer first
                    self._on_button(self._player_at(item.player), now)
            elif isinstance(item, inputs.EncoderTurned):
                self.menu.turn(item.steps)
            elif isinstance(item, inputs.EncoderPushed):
                action = self.menu.push()
                if action is not None:
                    self._on_action(action, now)
            elif isinstance(item, inputs.LinkEvent):
                self._on_link(item.event, now)
            elif isinstance(item, inputs.RoundCommand):
                self._on_round(item.command, now)
            elif isinstance(item, inputs.PairingReceived) and isinstance(item.pairing, TablePairing):
                self._on_pairing(item.pairing, now)
        except EngineError as e:  # a refused event: the game is untouched; tell the table
            log.warning("refused: %s", e)
            self._notify((text("refused", self.lang), ""), 5.0)
        self._advance_clock(self.time.now())
        self._reconcile_clock(self.time.now())
        self._refresh(tick=isinstance(item, inputs.Tick))
        if self._next_checkpoint is not None and self.time.now() >= self._next_checkpoint:
            self._clock_dirty = True
        self._flush()

    def _flush(self) -> None:
        """Hand the signal driver the clock's coming edges (it switches the buzzer at their exact instants, even
        if this loop wakes late); write what the input changed besides the journal (written before acting).

        A timer tick changes nothing but the time: the plan handed over before still holds (it reaches 15 s
        ahead), so it is renewed only every ``PLAN_REFRESH_S`` (planning copies the clock: a third of a tick's
        CPU time)."""
        if self._replan or self._plan_fresh_until is None or self.time.now() >= self._plan_fresh_until:
            self._plan_signal()
        if self._pending_deferred is not None:
            self._write_pending(self._pending_deferred, self._pending_shown or "")
        if self._clock_dirty:
            self._write_clock_checkpoint()

    def _hold_signal(self, now: float) -> None:
        hold = getattr(self.signal, "hold", None)
        if hold is not None:
            hold(now)

    def _plan_signal(self) -> None:
        """Hand the signal driver the clock's coming edges (this also ends a hold)."""
        plan = getattr(self.signal, "plan", None)
        self._replan = False
        if plan is not None:
            now = self.time.now()
            plan(self.clock.signal_plan(now), now)
            self._plan_fresh_until = now + PLAN_REFRESH_S

    def stop(self) -> None:
        """Ask the loop to end (thread-safe)."""
        self.inputs.put(inputs.Stop())

    def settle(self, timeout: float = 60.0) -> bool:
        """Block (another thread) until the loop has handled every input queued before this call."""
        done = threading.Event()
        self.inputs.put(inputs.Settle(done))
        return done.wait(timeout)

    # ------------------------------------------------------------------------------------------- the clock
    def _advance_clock(self, now: float) -> None:
        self._clock_events(self.clock.advance(now))

    def _clock_events(self, events: Sequence[object]) -> None:
        for ev in events:
            self._on_clock_event(ev)

    def _on_clock_event(self, ev: object) -> None:
        if isinstance(ev, clock_events.SignalEdge):
            if self.signal is not None:
                self.signal(ev)
            return
        log.info("clock: %s", ev)
        if isinstance(ev, clock_events.PressIgnored):
            return
        self._replan = True
        self._checkpoint_clock()
        if self.game.ended is not None:
            return
        if isinstance(ev, clock_events.PossibleNoShow):
            self.state.possible_no_show = ev.player
        elif isinstance(ev, clock_events.TimeOut):
            if ev.player == clock_side(self.game, self.game.player_on_move) and self.game.pending is None:
                on = self.game.player_on_move  # Polish doubles: the double move is the team's
                polish = self.game.ruleset.doubles == "polish"
                name = self.game.side_names[team_of(on)] if polish else self.game.players[on]
                self._apply(g.TimeOut(at=self.wall()))
                if self.state.possible_no_show == ev.player:  # 004: the referee declares a no-show, not the table
                    self._notify((text("no_show_q", self.lang), text("call_referee", self.lang)), 30.0)
                else:
                    self._notify((text("timeout", self.lang), name), 6.0)
                self._take_back_lost_turn()
            self.state.possible_no_show = None
        elif isinstance(ev, clock_events.GameTimeWarning):
            if not self.referee_time:  # at a tournament the referee announces it (the hub's ``warning``)
                self._notify((text("warning", self.lang), text("ten_minutes", self.lang)), 10.0)
        elif isinstance(ev, clock_events.GameTimeExpired):
            if self.referee_time and self.game.abc_start is None:  # the table's own time: the referee ends it
                self._notify((text("base_wait", self.lang), text("base_wait_2", self.lang)), 30.0)
            self._sync_base_time()
        elif isinstance(ev, clock_events.BudgetExpired):
            self._notify((text("timeout", self.lang), self.seats[ev.player]), 30.0)

    def _layer_keys(self) -> dict[str, Any]:
        """Which game, at which journal length, a file written next to the journal describes."""
        start = self.game.events[0].at if self.game.events else None
        return {JOURNAL_EVENTS: len(self.game.events), GAME_KEY: start, "blank_wait": self.state.blank_wait,
                "take_back_hold": self.state.take_back_hold}

    def _same_game(self, data: dict[str, Any]) -> bool:
        """Whether a checkpoint or pending file belongs to this game (files without the key: yes)."""
        if GAME_KEY not in data:
            return True
        start = self.game.events[0].at if self.game.events else None
        return bool(data[GAME_KEY] == start and int(data.get(JOURNAL_EVENTS, 0)) <= len(self.game.events))

    def _catch_up_clock(self, later: Sequence[Sequence[g.Output]], now: float) -> None:
        """The clock restored from a checkpoint written before the journal's last events (a power cut between the
        two writes): what those events did to the clock is done again (a challenge pauses it, a ruling restarts
        the move, the end of the game stops it); whose move it is follows the game (``_reconcile_clock``)."""
        if not later:
            return
        log.warning("the clock checkpoint is %d journal events behind: the clock catches up", len(later))
        for outs in later:
            for out in outs:
                if isinstance(out, (g.RestartMoveClock, g.GameEnded, g.GameReopened)):
                    self._clock_output(out, now)
        if self.game.pending is not None and self.clock.state == "running":
            self._reconcile_clock(now)  # a move ended, then a challenge: the side now on move waits paused
            self.clock.pause(now)
        elif self._blank_wait_ended and self.clock.paused and self.game.pending is None:
            self.clock.resume(now)  # paused while the blank was named; the move it ended is journaled

    def _sync_base_time(self) -> None:
        """The base game time's end is journaled the moment the clock reaches it (``base_time_expired``), and the
        journal is the authority after a restart: a clock restored from a checkpoint written before the expiry is
        told the base time is over; a clock that expired while the game could not take it yet gets it now."""
        game = self.game
        if game.ended is not None or game.ruleset.playout != "abc" or self.referee_time:
            return
        if game.abc_start is None and self.clock.view(self.time.now()).get("game_phase") == "expired":
            self._apply(g.BaseTimeExpired(at=self.wall()))

    def _restore_clock(
        self, checkpoint: dict[str, Any], now: float, later: Sequence[g.Event] = (), ran: float = 0.0
    ) -> MoveClock:
        """The clock from its checkpoint, with what the journal's newer events (``later``: journaled after the
        checkpoint was written, a power cut between the two writes) say the clock did: it ran ``ran`` seconds
        more (``_ran_after``), a move time ran out (the clock then waits for the timed-out side's press, the rest
        of that move time gone from the game time), the base time is over."""
        mode_sides = int(checkpoint.get("mode", {}).get("sides", self.clock_mode.sides))
        timed_out = any(isinstance(e, g.TimeOut) for e in later)
        if timed_out and checkpoint.get("state") == "running" and not checkpoint.get("mode", {}).get("auto_start"):
            side = checkpoint.get("on_move")
            move_time = checkpoint.get("mode", {}).get("move_time")
            elapsed = checkpoint.get("move_elapsed")
            if isinstance(side, int) and move_time is not None and elapsed is not None and mode_sides > 1:
                left = max(0.0, float(move_time) - float(elapsed))
                log.warning("the journal has a time-out the clock checkpoint has not: the journal wins")
                game_left = checkpoint.get("game_left")
                checkpoint = {
                    **checkpoint,
                    "state": "awaiting",
                    "after_await": (side + 1) % mode_sides,
                    "move_elapsed": None,
                    "game_left": None if game_left is None else max(0.0, float(game_left) - left),
                    "chimes": [],
                }
        if self.game.abc_start is not None and not checkpoint.get("expired") and checkpoint.get("game_left") is not None:
            log.warning("the journal has the base time over, the clock checkpoint not yet: the journal wins")
            checkpoint = {**checkpoint, "game_left": 0.0, "expired": True, "warned": True, "chimes": []}
        return MoveClock.restore(checkpoint, now - ran, RESUME_RULES[self.config.resume])

    def _reconcile_clock(self, now: float) -> None:
        """The game decides who is on move (a lost penalty turn skips a player): the clock follows it."""
        if self.game.ended is not None or self.clock.state != "running":
            return
        on_move = self.clock.player_on_move
        side = clock_side(self.game, self.game.player_on_move)
        if on_move is not None and on_move != side and self.clock_mode.sides > 1:
            self.clock.set_on_move(side, now)
            self._replan = True
            self._checkpoint_clock()

    def _checkpoint_clock(self) -> None:
        """Mark the clock's state to be written (once per handled input, after the displays: ``_flush``)."""
        self._clock_dirty = True

    def _write_clock_checkpoint(self, *, durable: bool = False) -> None:
        """Write the clock's state atomically next to the journal; then again every CHECKPOINT_PERIOD.

        While the loop runs, its writer thread writes it (``device.checkpoint_writer``: the loop never waits for
        the fsyncs of a running clock's checkpoints); the loop waits (bounded) for one it needs on disk before it
        goes on: a clock that no longer runs (paused, stopped, the game over) and ``durable`` (the shutdown)."""
        self._clock_dirty = False
        running = self.clock.state == "running" and self.game.ended is None
        try:
            snapshot = {**self.clock.snapshot(self.time.now()), **self._layer_keys(), WALL_KEY: self.wall()}
            text = json.dumps(snapshot)
            if self.checkpoints is None:
                self._write_state_file(self.clock_path, text)
                self._on_checkpoint_outcome(None)
            else:
                self.checkpoints.submit(self.clock_path, text, len(self.game.events))
                if durable or not running:
                    self.checkpoints.wait()
        except OSError as e:
            log.error("cannot write the clock checkpoint %s: %s", self.clock_path, e)
            self._on_checkpoint_outcome(e)
        waiting = self._card_error is not None or (self._journal_failing and not self.game.events)  # retried
        # the game time runs without a move too (a paused move, before the first press after "Start kola"): its
        # checkpoints go on, so a restart never gives it back beyond one period (issue 34)
        due = running or waiting or self._game_time_runs()
        self._next_checkpoint = self.time.now() + CHECKPOINT_PERIOD if due else None

    def _game_time_runs(self) -> bool:
        if self.game.ended is not None or self.clock.state == "stopped":
            return False
        return self.clock.view(self.time.now()).get("game_phase") in ("base", "warning")

    @staticmethod
    def _write_state_file(path: Path, text: str) -> None:
        """A state file beside the journal (clock checkpoint, ``pending.json``), from the card's reserve if the card
        is full (``device.card_reserve``: it lands, and ``WrittenFromReserve`` says the card is full)."""
        card_reserve.write(lambda p, t: write_atomic(p, t), path, text)

    def _checkpoints_written(self) -> None:
        """Wait (bounded) until the checkpoints handed to the writer are on disk: before the journal rotates, no
        checkpoint of the old game is still to land."""
        if self.checkpoints is not None:
            self.checkpoints.wait()

    def _read_clock_checkpoint(self) -> dict[str, Any] | None:
        if not self.clock_path.exists():
            return None
        try:
            data = json.loads(self.clock_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            log.error("clock checkpoint %s unreadable (%s): the clock waits for a start press", self.clock_path, e)
            return None
        return data if isinstance(data, dict) else None

    # ------------------------------------------------------------------------------------------ the game
    def _apply(self, event: g.Event) -> list[g.Output]:
        """Check an event with the game, journal it durably, then act on the game's outputs."""
        record = stamped(event, self.game)  # the turn it was written at: a repair never gives it to another
        outputs = self.game.apply(event)  # raises GameError and leaves the game untouched if refused
        if self.checkpoints is not None and self.checkpoints.written_tag < len(self.game.events) - 1:
            # the checkpoint on disk is behind the journal already: one more line would leave it two moves behind
            # (a restart catches up one); the writer's newer one first (it is there within a write's time)
            self.checkpoints.wait()
        try:
            self.journal.append(record)
        except JournalWriteError:
            self.game = g.Game.replay(self.game.events[:-1])  # from memory: the card may not even read back
            raise
        if self._journal_failing:  # written again: the card is right again
            self._journal_failing = False
            self.state.notice = None
        if self.publisher is not None:
            self.publisher.publish_event(len(self.game.events) - 1, record)
        now = self.time.now()
        for out in outputs:
            self._on_output(out, now)
        if any(isinstance(out, (g.TakeBack, g.RestartMoveClock, g.GameReopened)) for out in outputs):
            self._hold_for_take_back(now)
        return outputs

    def _clock_output(self, out: g.RestartMoveClock | g.GameEnded | g.GameReopened, now: float) -> None:
        if isinstance(out, g.RestartMoveClock):
            if self.clock.paused:
                self.clock.resume(now)
            self.clock.restart_move(now)
        elif isinstance(out, g.GameReopened):
            self.clock.reopen(clock_side(self.game, out.player), now)
        else:
            self.clock.stop(now)
        self._checkpoint_clock()

    def _on_output(self, out: g.Output, now: float) -> None:
        if isinstance(out, g.RestartMoveClock):
            self._clock_output(out, now)
        elif isinstance(out, g.GameReopened):  # the take-back notice before it says what to do
            self._clock_output(out, now)
        elif isinstance(out, (g.TakeBack, g.PutBack)):
            self._pending_output(out)
            self._save_pending()
            if isinstance(out, g.TakeBack):
                self._notify((text("take_back", self.lang), self._cells(self.state.take_back)), 15.0)  # all to lift
            else:
                self._notify((text("put_back", self.lang), self._squares(out.squares)), 15.0)
        elif isinstance(out, g.TurnLost):
            self._notify((text("turn_lost", self.lang), self.game.players[out.player]), 6.0)
        elif isinstance(out, g.PhaseChanged) and out.phase.value in ("A", "B", "C"):
            self._notify((text("base_time_over", self.lang), text("round_abc", self.lang).format(r=out.phase.value)), 8.0)
        elif isinstance(out, g.ScoreAnnounced):
            diff = out.announced - out.table_score
            self._notify((text("announced", self.lang).format(score=out.announced),
                          text("table_score", self.lang).format(score=out.table_score, diff=diff)), 20.0)  # fmt: skip
        elif isinstance(out, g.WarningGiven):
            name = self.game.players[out.player]
            self._notify((text("warned", self.lang).format(n=out.warnings), name), 10.0)
            if out.exclusion_due:  # 004: the chief referee decides the exclusion, asked at once (never the table's)
                self._ask_referee(*self._exclusion_question(out.player))
        elif isinstance(out, g.BeyondSet):
            self._notify((text("beyond_set", self.lang).format(letters=out.letters), text("call_referee", self.lang)),
                         30.0)  # fmt: skip
        elif isinstance(out, g.GameEnded):
            self._clock_output(out, now)
            self.state.notice = None  # the end screens say it, with the result (device.screens)

    def _pending_output(self, out: g.TakeBack | g.PutBack) -> None:
        """What a ruling asks of the players on the board: tiles to take off, or to put back (with their letter)."""
        if isinstance(out, g.TakeBack):
            self.state.take_back |= {(s.row, s.col) for s in out.squares}
            return
        for s in out.squares:
            tile = self.game.board.cells[s.index]
            if tile is not None:
                self.state.put_back[(s.row, s.col)] = tile.rack_letter

    def _on_button(self, button: int, now: float) -> None:
        if self.game.ended is not None or button >= len(self.game.players) or self._set_waits():
            return
        if self._referee_wait() == START:  # 004: the games of a round start together at the referee's word
            self._notify((text("round_wait", self.lang), text("round_wait_2", self.lang)), 8.0)
            return
        if self.state.blank_wait is not None:
            self._wait_for_blank()  # the move ends when the blank is named
            return
        if self.game.doubles:  # the buttons are the teams': the team of the button's seat (the order may start
            button = team_of(button)  # from another seat: ``StartOrder``, a match's next game)
        player = button_player(self.game, button)
        side = clock_side(self.game, player)
        awaited = self.clock.awaiting_press
        if self.game.doubles and awaited is not None and team_of(side_players(self.game, awaited)[0]) == button:
            side = awaited  # after a time-out the team whose time ran out starts the next move
        if self.game.doubles:  # the team at the table pressed: none of its sides is a no-show
            for s in team_sides(self.game, button):
                self.clock.mark_present(s, now)
        if self.clock.paused:
            self._clock_events(self.clock.press(side, now))  # the clock logs and ignores it
            if self.state.take_back_hold:  # the move waits for the tiles: the LCD says which
                self._notify((text("take_back", self.lang), self._cells(self.state.take_back)), 8.0)
            else:
                self._notify((text("paused", self.lang), ""), 3.0)
            return
        if awaited is not None and side == awaited:  # the late press of a timed-out move: what lies new is theirs
            self._take_back_lost_turn()
        ends_move = (
            self.clock.state == "running"
            and player == self.game.player_on_move
            and side == self.clock.player_on_move
        )
        if self.game.ruleset.doubles == "polish":  # a press may end a move without the clock: debounce it here
            last = self._last_press.get(button)
            if last is not None and now - last < self.clock_mode.debounce:
                return
            self._last_press[button] = now
        ended = self._move_ended_at
        if ends_move and ended is not None and ended[0] != player and now - ended[1] < DOUBLE_PRESS_S:
            log.info("press of player %d %.3f s after player %d's: a double press, ignored", player, now - ended[1],
                     ended[0])  # fmt: skip
            self._notify((text("double_press", self.lang), text("not_counted", self.lang)), 4.0)
            return
        if ends_move and not presses_clock(self.game):  # Polish doubles: the first move of a double move
            if self._end_move(player):
                self._move_ended_at = (player, now)
            return
        if ends_move and not self._end_move(player):
            return
        if ends_move:
            self._move_ended_at = (player, now)
        started = self.clock.started
        self._clock_events(self.clock.press(side, now))  # a beep the press cuts is cut here, at once
        if not started and self.clock.started and self._notice_is_pairing():
            self.state.notice = None  # the game is on: the move time takes the LCD ("Kolo 1 stůl 1:58" was cut)
        # the new plan follows the screens (``_flush``): the driver is held since the press (``handle``), so no
        # edge of the old plan sounds meanwhile, and the new move's first edge is seconds away
        self._checkpoint_clock()
        self._hold_for_take_back(now)  # the late press of a timed-out move whose tiles still lie

    def _hold_for_take_back(self, now: float) -> None:
        """Tiles to take back lie on the board (``TableState.take_back_hold``): the move just started or restarted
        (an upheld challenge, the late press after a time-out) stands at its start until they are lifted."""
        st = self.state
        if not st.take_back or self.game.ended is not None or self.game.pending is not None:
            return
        if self.clock.state != "running":  # held already, paused for something else, awaiting a press, stopped
            return
        self.clock.restart_move(now)
        self.clock.pause(now)
        st.take_back_hold = True
        self._replan = True
        self._checkpoint_clock()
        self._save_pending()

    def _release_take_back_hold(self, now: float) -> None:
        """The last tile to take back is off the board: the held move's time runs from now, in full (unless the
        clock waits for something else meanwhile: the referee resumes it)."""
        st = self.state
        st.take_back_hold = False
        blocked = self._card_error is not None or self._journal_failing or self._journal_question
        if self.clock.paused and not blocked and not st.link_paused and st.blank_wait is None and self.game.pending is None:
            self.clock.resume(now)
            self.clock.restart_move(now)
            self._replan = True
        self._checkpoint_clock()

    def _take_back_lost_turn(self) -> None:
        """A move timed out (004: "Při ztrátě práva na tah hráč žádné kameny ani nepokládá na desku"): the tiles it
        left on the board, and any laid until the timed-out player's late press, are nobody's move: the table asks
        for them back ("Vrať kameny"), as after an upheld challenge, and never reads them as the next move."""
        left = lost_turn_tiles(self.state.physical, grid_of(self.game.board))
        if not left or left <= self.state.take_back:
            return
        self.state.take_back |= left
        self._save_pending()
        self._notify((text("take_back", self.lang), self._cells(self.state.take_back)), 15.0)

    def _end_move(self, player: int) -> bool:
        """Turn what lies on the board into the player's move (a play, or a pass if nothing new); False with a
        notice if the board does not show a move that can be taken."""
        placements = self._read_move()
        if placements is None:
            return False
        exchange = self._announced_exchange()
        if exchange is not None:
            if placements:  # tiles laid after the exchange was announced: the table does not guess which it is
                self._notify((text("exchange_announced", self.lang).format(n=exchange),
                              text("exchange_board", self.lang)), 8.0)  # fmt: skip
                return False
            self.state.exchange = None
            if self._notice_is_exchange():
                self.state.notice = None
            self._apply(g.Exchange(at=self.wall(), count=exchange))
            self._save_pending()
            return True
        if not placements:
            self._apply(g.Pass(at=self.wall()))
            return True
        irregular = False
        try:
            validate(self.game.board, placements)
        except IllegalPlacement as e:
            # 004: a play against the placing rules stands unless challenged; the table refuses the first press
            # (a misread tile is put right) and records the tiles as laid on a second press of the same tiles
            laid = frozenset((p.square, p.tile) for p in placements)
            if e.reason not in GEOMETRY or self.state.irregular_asked != laid:
                self.state.irregular_asked = laid if e.reason in GEOMETRY else None
                reason = text("reason_" + e.reason.name.lower(), self.lang)
                second = text("press_again", self.lang) if e.reason in GEOMETRY else reason
                self._notify((text("irregular" if e.reason in GEOMETRY else "illegal", self.lang), second), 8.0)
                return False
            irregular = True
        self.state.irregular_asked = None
        self._apply(g.Play(at=self.wall(), placements=tuple(placements), irregular=irregular))
        self.state.blank_letters.clear()
        self._save_pending()
        return True

    def _announced_exchange(self) -> int | None:
        """The count of the exchange announced for the move now running, or None (an older one has lapsed)."""
        announced = self.state.exchange
        if announced is None or announced[0] != len(self.game.history) or self.game.ended is not None:
            return None
        return announced[1]

    def _notice_is_pairing(self) -> bool:
        """The LCD shows the round's pairing ("Kolo 1 stůl 2 / Začíná Eva": ``_on_pairing``)."""
        notice, pairing = self.state.notice, self.pairing
        if notice is None or pairing is None:
            return False
        return notice.lines[0] == text("round_table", self.lang).format(r=pairing.round, t=pairing.table)

    def _notice_is_exchange(self) -> bool:
        """The LCD shows the announced exchange ("Výměna 3 / stiskni tlačítko")."""
        notice = self.state.notice
        return notice is not None and notice.lines[1:] == (text("press_button", self.lang),)

    def _read_move(self) -> list[Placement] | None:
        """The new tiles on the board as placements, or None (with a notice) if the board cannot be read as a
        move: link down, tiles to take back or put back, tiles moved, a blank without a letter."""
        if not self.state.link_up:
            self._notify((text("link_down", self.lang), ""), 6.0)
            return None
        if self.state.put_back:
            self._notify((text("put_back", self.lang), self._cells(self.state.put_back)), 8.0)
            return None
        try:
            new = diff_move(grid_of(self.game.board), self.state.physical)
        except BoardDiffError as e:
            log.warning("board: %s", e)
            self._notify((text("put_back", self.lang), self._cells(e.cells)), 8.0)  # what lay there before
            return None
        still = sorted(self.state.take_back & {(r, c) for r, c, _ in new})
        if still:
            self._notify((text("take_back", self.lang), self._cells(still)), 8.0)
            return None
        placements = []
        for row, col, letter in new:
            if letter == BLANK:
                named = self.state.blank_letters.get((row, col))
                if named is None:
                    self._wait_for_blank()
                    return None
                placements.append(Placement(Square(row, col), Tile(named, blank=True)))
            else:
                placements.append(Placement(Square(row, col), Tile(letter)))
        return placements

    def _wait_for_blank(self) -> None:
        """A press found a blank without a letter: open the letter menu (likely letters first) and stop the move
        time until the player names it (naming a blank takes none of the player's time); the move then ends."""
        self.menu.set_items(self._menu_items())
        self.menu.open_item("blank")
        self._notify((text("name_blank", self.lang), ""), 6.0)
        if self.state.blank_wait is None and self.clock.state == "running":
            self.clock.pause(self.time.now())
            self.state.blank_wait = self.game.player_on_move
            self._checkpoint_clock()

    def _end_blank_wait(self, now: float, *, finish_move: bool) -> None:
        """The blank was named (``finish_move``: end the move as the player's press asked) or taken off."""
        player = self.state.blank_wait
        if player is None:
            return
        self.state.blank_wait = None
        self.clock.resume(now)
        self._checkpoint_clock()
        if finish_move:
            button = team_of(player) if self.game.doubles else player  # doubles: the buttons are the teams'
            self._last_press.pop(button, None)  # the press that found the blank, not a bounce
            self._on_button(button, now)

    def _blank_ranking(self) -> BlankRanking | None:
        """The letters to offer for the unnamed blanks on the board, likely ones first (needs the lexicon);
        computed once per board position."""
        if self.lexicon is None:
            return None
        key = (len(self.game.events), self.state.physical, tuple(sorted(self.state.blank_letters.items())))
        if self._ranking_cache[0] == key:
            return self._ranking_cache[1]
        ranking = None
        try:
            new = diff_move(grid_of(self.game.board), self.state.physical)
        except BoardDiffError:
            new = []
        unnamed = [Square(r, c) for r, c in self._unnamed_blanks()]
        if unnamed:
            named = []
            for row, col, letter in new:
                if letter == BLANK and (row, col) in self.state.blank_letters:
                    named.append(Placement(Square(row, col), Tile(self.state.blank_letters[(row, col)], blank=True)))
                elif letter != BLANK:
                    named.append(Placement(Square(row, col), Tile(letter)))
            letters = blank_letters(self.game)
            ranking = rank_blank_letters(self.game.board, named, unnamed, letters, self.lexicon.__contains__)
        self._ranking_cache = (key, ranking)
        return ranking

    def _board_unchanged(self) -> bool:
        if self.state.physical != grid_of(self.game.board) and self.state.link_up:
            self._notify((text("board_error", self.lang), text("remove_tiles", self.lang)), 6.0)
            return False
        return True

    @property
    def pending_path(self) -> Path:
        return self.journal.path.with_name("pending.json")

    def _save_pending(self) -> None:
        """What the table asked of the players and they have not finished: blank letters confirmed on the menu,
        tiles to take off or put back after a ruling, where the menu is (the item, the value under the cursor,
        the values picked), the referee's open question (``TableState.referee_ok``), and a clock paused because the
        board was unplugged (it resumes at the snapshot). Written atomically next to the journal whenever it changes,
        before the LCD shows it, so a restart comes back to exactly what the players saw (``device.menu.Menu.restore``)."""
        st = self.state
        menu = self._menu_to_restore if self._menu_to_restore is not None else self.menu.state()
        data = {
            "blanks": [[r, c, t] for (r, c), t in sorted(st.blank_letters.items())],
            "take_back": sorted([r, c] for r, c in st.take_back),
            "put_back": [[r, c, t] for (r, c), t in sorted(st.put_back.items())],
            "menu": menu,
            "link_paused": st.link_paused,
            "blank_wait": st.blank_wait,
            "referee_ok": _asked_json(st.referee_ok),
            "dispute_zero": st.dispute_zero,
            "exchange": list(st.exchange) if st.exchange is not None else None,
            "take_back_hold": st.take_back_hold,
            **self._layer_keys(),
        }
        text = json.dumps(data, ensure_ascii=False)
        if text == self._pending_written:
            self._pending_deferred = None
            return
        shown = json.dumps({k: v for k, v in data.items() if k not in (JOURNAL_EVENTS, GAME_KEY)}, ensure_ascii=False)
        if shown == self._pending_shown:
            # only the journal's length moved (a move played, nothing pending): what a restart comes back to is
            # the same, as pending.json written before the journal's last events is (``_load_pending``); written
            # after the screens (``_flush``), so the score shows without waiting for its fsyncs
            self._pending_deferred = text
            return
        self._write_pending(text, shown)

    def _write_pending(self, text: str, shown: str) -> None:
        self._pending_deferred = None
        try:
            self._write_state_file(self.pending_path, text)
        except card_reserve.WrittenFromReserve as e:
            log.warning("%s written from the card's reserve: %s", self.pending_path, e)
        except OSError as e:
            log.error("cannot write %s: %s", self.pending_path, e)
            return
        self._pending_written = text
        self._pending_shown = shown

    def _load_pending(self, outputs: Sequence[Sequence[g.Output]]) -> None:
        """Read ``pending.json`` back, as the layer it is over the journal at its length then (``events``): the
        game's outputs for the events journaled after it was written (a power cut between the two writes) are
        applied again: tiles to take back or put back; a move played consumed the named blanks; and the menu's
        position is not brought back (the players see the table after those events)."""

        def cell(r: object, c: object) -> tuple[int, int]:
            rc = (int(r), int(c))  # type: ignore[call-overload]
            if not (0 <= rc[0] < SIZE and 0 <= rc[1] < SIZE):
                raise ValueError(f"cell {rc} off the board")
            return rc

        try:
            data = json.loads(self.pending_path.read_text(encoding="utf-8"))
            blanks = {cell(r, c): str(t) for r, c, t in data.get("blanks", [])}
            take_back = {cell(r, c) for r, c in data.get("take_back", [])}
            put_back = {cell(r, c): str(t) for r, c, t in data.get("put_back", [])}
            menu = data.get("menu")
            link_paused = data.get("link_paused") is True
            blank_wait = data.get("blank_wait")
            blank_wait = blank_wait if isinstance(blank_wait, int) and not isinstance(blank_wait, bool) else None
            asked = _asked_from_json(data.get("referee_ok"))
            dispute_zero = data.get("dispute_zero") is True
            exchange = _exchange_from_json(data.get("exchange"))
            hold = data.get("take_back_hold") is True
            written_at = int(data.get(JOURNAL_EVENTS, len(outputs)))
            if not self._same_game(data) or written_at > len(outputs):
                raise ValueError("written for another game or a longer journal than the one resumed")
        except FileNotFoundError:
            written_at, blanks, take_back, put_back, menu, link_paused, blank_wait = 0, {}, set(), {}, None, False, None
            asked, dispute_zero, exchange, hold = None, False, None, False
        except (OSError, ValueError, TypeError, AttributeError) as e:
            log.error("%s not used (%s): the table asks again", self.pending_path, e)
            written_at, blanks, take_back, put_back, menu, link_paused, blank_wait = 0, {}, set(), {}, None, False, None
            asked, dispute_zero, exchange, hold = None, False, None, False
        self.state.take_back_hold = hold and bool(take_back)
        self.state.exchange = exchange  # lapses by itself if the journal's turn moved on (``_announced_exchange``)
        self.state.blank_letters, self.state.take_back, self.state.put_back = blanks, take_back, put_back
        self.state.referee_ok, self.state.dispute_zero = asked, dispute_zero
        later = list(outputs[written_at:]) if 0 <= written_at <= len(outputs) else []
        if later:
            log.warning("%d journal events newer than %s: their pending effects are applied again", len(later),
                        self.pending_path.name)
            menu = None
            if blank_wait is not None:  # the blank was named and the move recorded: the wait is over
                blank_wait, self._blank_wait_ended = None, True
            for event, outs in zip(self.game.events[written_at:], later, strict=False):
                if isinstance(event, g.Play):
                    self.state.blank_letters.clear()
                if isinstance(event, g.TimeOut):  # its tiles are asked back once the board is read
                    self._lost_turn_due = True
                asked = self.state.referee_ok
                if asked is not None and _confirmed_event(asked[0], event.at).to_json() == event.to_json():
                    self.state.referee_ok = None  # the referee's yes is journaled: not asked again
                if isinstance(event, g.DisputeForfeit):
                    self.state.dispute_zero = False  # the 0:0 question answered
                for out in outs:
                    if isinstance(out, (g.TakeBack, g.PutBack)):
                        self._pending_output(out)
                    elif isinstance(out, g.WarningGiven) and out.exclusion_due:  # asked at once, as it was (_on_output)
                        self.state.referee_ok = self._exclusion_question(out.player)
            called = any(isinstance(e, g.SetChecked) and e.referee == "called" for e in self.game.events[written_at:])
            if called and self.game.set_ruling == "called":  # the set check's question, opened at once (as it was)
                self.menu.set_items(self._menu_items())
                self.menu.open_item("set_ruling")
                menu = self.menu.state()
                self.menu.close()
            if self.state.referee_ok is not None:  # the question still open is on the LCD again
                self._ask_referee(*self.state.referee_ok)
                menu = self.menu.state()
                self.menu.close()
        self._menu_to_restore = menu
        self.state.link_paused = link_paused  # the clock paused for an unplugged board resumes at its snapshot
        self.state.blank_wait = blank_wait  # a press waiting for its blank's letter ends the move once it is named

    def _restore_menu(self, *, final: bool) -> None:
        """Put the menu back where it was before the restart, if its item is offered now; ``final``: the board's
        reading is in, so what cannot be restored now is asked again from a neutral state."""
        data = self._menu_to_restore
        if data is None:
            return
        self.menu.set_items(self._menu_items())
        if self.menu.restore(data) or final:
            self._menu_to_restore = None
            log.info("menu after the restart: %s", self.menu.state())

    # ------------------------------------------------------------------------------------------ the menu
    def _unnamed_blanks(self) -> list[tuple[int, int]]:
        before = grid_of(self.game.board)
        return [
            (r, c)
            for r in range(SIZE)
            for c in range(SIZE)
            if self.state.physical[r][c] == BLANK and before[r][c] is None and (r, c) not in self.state.blank_letters
        ]

    def _menu_items(self) -> list[Any]:
        if self._journal_question:  # only the referee's answer: which game this table plays
            choices = (Choice(text("journal_continue", self.lang), "continue"), Choice(text("journal_new_game", self.lang), "new"))
            return [Item("journal_game", text("journal_game_q", self.lang), choices, confirm=True)]
        return self._play_menu_items() + ([Item("bad_record_ok", text("bad_record_ok", self.lang))] if self._reports else [])

    def _play_menu_items(self) -> list[Any]:
        """The running game's menu: the game's items, and the round's start and end for the referee."""
        unnamed = bool(self._unnamed_blanks())
        ranking = self._blank_ranking() if unnamed else None
        items = self._game_menu_items(unnamed, ranking)
        if self.state.referee_ok is not None or self.state.dispute_zero or self.game.pending is not None:
            return items  # a question the referee answers first
        rounds = round_items(self.game, self.clock.view(self.time.now()), self.referee_time, self.lang)
        return rounds + items if self._referee_wait() == START else items + rounds

    def _game_menu_items(self, unnamed: bool, ranking: BlankRanking | None) -> list[Any]:
        return menu_items(
            self.game,
            paused=self.clock.paused and self.state.blank_wait is None and not self.state.take_back_hold,
            unnamed_blanks=unnamed,
            clock_started=self.clock.started,
            lang=self.lang,
            referee_ok=self.state.referee_ok[1] if self.state.referee_ok else None,
            dispute_zero=self.state.dispute_zero,
            likely_letters=ranking.likely if ranking is not None else (),
            seats=() if is_paired(self.game) else self.seats,  # the pairing names who starts: no draw
            exchange_announced=self._announced_exchange() is not None,
        )

    def _on_action(self, action: Action, now: float) -> None:
        if action.kind in ("journal_game", "bad_record_ok"):
            self._on_journal_answer(action, now)
            return
        kind, value = action.kind, action.value
        player = self.game.player_on_move
        side = clock_side(self.game, player)
        if kind == "exchange":  # announced: the player's press ends the move with it (``_end_move``)
            if self.clock.state == "running" and self.clock.player_on_move == side and self._board_unchanged():
                self.state.exchange = (len(self.game.history), int(value))
                self._save_pending()
                self._notify((text("exchange_announced", self.lang).format(n=int(value)),
                              text("press_button", self.lang)), 180.0)  # fmt: skip
        elif kind == "exchange_cancel":
            self.state.exchange = None
            if self._notice_is_exchange():
                self.state.notice = None
        elif kind == "challenge_exchange":
            self._apply(g.ChallengeExchange(at=self.wall()))
            self._pause_for_ruling(now)
        elif kind == "pass":
            if self.clock.state != "running" or self.clock.player_on_move != side or not self._board_unchanged():
                return
            event = g.Pass(at=self.wall())
            press = presses_clock(self.game)
            self._apply(event)
            if press:
                self._clock_events(self.clock.press(side, now))
            self._checkpoint_clock()
        elif kind == "plays_first":
            self._apply(g.PlaysFirst(at=self.wall(), player=int(value)))
        elif kind == "challenge_word":
            self._apply(g.ChallengeWord(at=self.wall(), word=int(value)))
            self._pause_for_ruling(now)
            self._show_lexicon_status(open_move_words(self.game)[int(value)])
        elif kind in ("challenge_score", "challenge_placement"):
            cls = g.ChallengeScore if kind == "challenge_score" else g.ChallengePlacement
            self._apply(cls(at=self.wall()))
            self._pause_for_ruling(now)
        elif kind == "ruling":
            self._apply(g.Ruling(at=self.wall(), upheld=bool(value)))
            self._drop_lexicon_hint()
        elif kind == "appeal":
            self._apply(g.AppealRuling(at=self.wall(), upheld_for_appellant=bool(value)))
        elif kind == "pause":
            if self.clock.started:
                self.clock.pause(now)
                self._checkpoint_clock()
        elif kind == "resume":
            self.clock.resume(now)
            self.state.link_paused = False
            self.state.blank_wait = None
            self.state.take_back_hold = False  # the referee's word: the move runs, tiles lying or not
            self._checkpoint_clock()
        elif kind == "blank":
            for square, letter in zip(self._unnamed_blanks(), [v for v in value if v != "back"], strict=False):
                self.state.blank_letters[square] = str(letter)
            self._save_pending()
            if not self._unnamed_blanks() and self.notice_is("name_blank"):
                self.state.notice = None  # named: the question is answered (also on a time that stands still)
            if not self._unnamed_blanks():
                self._end_blank_wait(now, finish_move=True)
        elif kind == "racks" and self.game.racks_needed:
            self._apply(g.RackEntry(at=self.wall(), player=self.game.racks_needed[0], rack="".join(map(str, value))))
        elif kind == "resign" and isinstance(value, int):
            # 004: resigning while the opponent is on move, the opponent may finish that move first
            after = self.game.side_of(value) != self.game.side_of(player)
            self._apply(g.Resign(at=self.wall(), player=value, after_turn=after))
            if after and self.game.ended is None:  # Polish doubles: the other team's whole double move (003)
                finish = "finish_double" if self.game.ruleset.doubles == "polish" else "finish_move"
                labels = side_labels(self.game, self.lang)  # doubles: the team's tag (D1)
                name, on = labels[self.game.side_of(value)], labels[self.game.side_of(self.game.player_on_move)]
                second, seconds = text(finish, self.lang), 15.0
                if self.clock.awaiting_press is not None:  # the resigning side's own time-out: nobody's time runs,
                    # so the LCD names who finishes, then says again who must press to start that move
                    second, seconds = text("finish_after", self.lang).format(name=on), 6.0
                self._notify((text("resigned", self.lang).format(name=name), second), seconds)
        elif kind == "swap_blank" and isinstance(value, int):
            self._swap_blank(value, now)
        elif kind == "new_game":
            self.new_game(now)
        elif kind == "check":
            self._check_tile_set()
        elif kind in ("round_start", "round_end"):  # the referee's word given on the table (no hub, or it is down)
            self._on_round(START if kind == "round_start" else END, now)
        elif kind == "set_ruling" and self.game.set_check is not None and value in ("put_right", "as_found"):
            missing, extra = self.game.set_check
            self._apply(g.SetChecked(at=self.wall(), missing=missing, extra=extra, referee=str(value)))
        elif kind in START_KINDS:
            self._on_start(kind, value, now)
        else:
            self._on_referee_action(action, now)

    def _on_journal_answer(self, action: Action, now: float) -> None:
        """The referee's answer about the journal (``device.journal_referee``), recorded before it acts."""
        path = self.journal.path
        if action.kind == "bad_record_ok":
            jr.acknowledge(path, [r for r in self._reports if r.aside], self.wall())
            self._reports = []
            if self.notice_is("bad_record"):
                self.state.notice = None
            return
        if not self._journal_question or action.value not in ("continue", "new"):
            return
        jr.record_journal_game(path, self.game, self.config, str(action.value), self.wall())
        if action.value == "continue":  # the journal's game, its players and rules; the clock waits for "Pokračovat"
            self.config = jr.journal_config(self.game, self.config)
            ruleset = customised(self.config.ruleset, self.config.rules)
            self.clock_mode = clock_mode_for(clock_preset(self.config.clock), ruleset, len(self.config.players))
            if self.clock.mode.sides != self.clock_mode.sides:  # no checkpoint of the journal's clock was usable
                self.clock = MoveClock(self.clock_mode, now)
            self._journal_question = False
        else:  # the config's game; the journal's is archived (journal-NNNN.jsonl)
            self.new_game(now, fresh=True)
            self._journal_question = False
        if self.notice_is("journal_differs"):
            self.state.notice = None
        log.info("the referee: %s with the journal's game", action.value)

    def _on_referee_action(self, action: Action, now: float) -> None:
        """The referee's flows (004): announced score, rack and sheet challenges, rack count, and - after the
        referee's yes - no-show, warning, disqualification."""
        kind, value = action.kind, action.value
        at = self.wall()
        if kind in REFEREE_CONFIRMED:
            item = next((i for i in self.menu.items if i.kind == kind), None)
            players = value if isinstance(value, tuple) else (value,)
            who = (text("nobody_came", self.lang) if len(players) > 1
                   else self.game.players[int(str(players[0]))])  # fmt: skip
            self._ask_referee(action, (item.label if item else kind, who))
            return
        if kind == "referee_ok":
            asked, self.state.referee_ok = self.state.referee_ok, None
            if value and asked is not None:
                self._apply(_confirmed_event(asked[0], at))
        elif kind in ("challenge_rack", "challenge_sheet"):
            challenge = g.ChallengeRack if kind == "challenge_rack" else g.ChallengeSheet
            self._apply(challenge(at=at, player=int(str(value))))
            self._pause_for_ruling(now)
        elif kind == "rack_report" and isinstance(value, tuple):
            self._apply(g.RackReport(at=at, player=int(value[0]), count=int(value[1])))
        elif kind.startswith(CORRECTION) and isinstance(value, tuple):
            self._correct(int(kind.removeprefix(CORRECTION)), value, at)
        elif kind == "dispute_forfeit" and isinstance(value, int):
            if value == VOID:  # 0:0: void or a draw? The seed leaves it to the referee: asked at once
                self.state.dispute_zero = True
                self.menu.set_items(self._menu_items())
                self.menu.open_item("dispute_zero")
            else:
                self._apply(g.DisputeForfeit(at=at, winner=value))
        elif kind == "dispute_zero" and self.state.dispute_zero:
            self._apply(g.DisputeForfeit(at=at, winner=None, draw=value == ZERO_DRAW))
            self.state.dispute_zero = False
        elif kind == "announce_ok" and (target := announce_target(self.game)) is not None:
            self._apply(g.Announce(at=at, score=self.game.history[target].engine_score))
        elif kind == "announce" and isinstance(value, tuple):
            digits = "".join(str(v) for v in value if v != "back")
            if digits:
                self._apply(g.Announce(at=at, score=int(digits)))

    def _exclusion_question(self, player: int) -> tuple[Action, tuple[str, str]]:
        """The chief referee's question after a third warning (004: the exclusion is never the table's)."""
        return Action("disqualify", player), (text("exclusion_due", self.lang), self.game.players[player])

    def _ask_referee(self, action: Action, label: tuple[str, str]) -> None:
        """Ask the referee's yes for ``action`` at once: the menu opens on the question, nothing else offered."""
        self.state.referee_ok = (action, label)
        self.menu.set_items(self._menu_items())
        self.menu.open_item("referee_ok")

    def _correct(self, side: int, keys: tuple[object, ...], at: float) -> None:
        """The referee's corrected score of a player (doubles: a team; recorded on its first-listed player): the
        difference to the score shown now is journaled (004 E; zero too: the referee's decision is on the sheet)."""
        score = corrected_score(keys)
        if score is None:
            self._notify((text("correction_bad", self.lang), "".join(map(str, keys))), 8.0)
            return
        diff = score - self.game.shown_total(side)
        self._apply(g.Correction(at=at, player=side, points=diff))
        self._notify((text("corrected", self.lang).format(name=side_labels(self.game, self.lang)[side]),
                      text("corrected_score", self.lang).format(score=score, diff=diff)), 20.0)  # fmt: skip

    def _swap_blank(self, index: int, now: float) -> None:
        """001 alternative rule 1: the player on move has put the letter's tile where the blank lay (square
        ``index``) and taken the blank: the turn is used, the next player's clock starts."""
        player = self.game.player_on_move
        side = clock_side(self.game, player)
        if self.clock.state != "running" or self.clock.player_on_move != side:
            return
        square = Square.from_index(index)
        tile = self.game.board[square]
        expected = [list(row) for row in grid_of(self.game.board)]
        expected[square.row][square.col] = tile.letter if tile is not None else None
        if [list(row) for row in self.state.physical] != expected and self.state.link_up:
            self._notify((text("swap_on_board", self.lang), square.notation(self.notation)), 8.0)
            return
        press = presses_clock(self.game)
        self._apply(g.SwapBlank(at=self.wall(), row=square.row, col=square.col))
        if press:
            self._clock_events(self.clock.press(side, now))
        self._checkpoint_clock()

    def _show_lexicon_status(self, word: str) -> None:
        """For the referee: whether the challenged word is in the lexicon (a hint; the referee rules)."""
        if self.lexicon is None:
            return
        status = self._word_status(word)
        self._notify((word, text("word_known" if status == "known" else "word_unknown", self.lang)), 60.0)

    def _drop_lexicon_hint(self) -> None:
        """The referee has ruled: the hint was for the ruling, the LCD shows the game again (a notice the ruling
        itself gave, such as the tiles to take back, stays)."""
        notice = self.state.notice
        if notice is not None and notice.lines[1:] in ((text("word_known", self.lang),), (text("word_unknown", self.lang),)):
            self.state.notice = None

    def _pause_for_ruling(self, now: float) -> None:
        if self.clock.state == "running":
            self.clock.pause(now)
        self._checkpoint_clock()

    def _check_tile_set(self) -> None:
        """Before the first move a set found wrong is the referee's (004 "přivolají rozhodčího ... Rozhodčí zjedná
        nápravu"): the finding is journaled with the referee called, the game waits for the ruling (the menu asks
        it); a complete re-check after it records the set put right."""
        result = check_tile_set(self.state.physical, self.game.tiles)
        self.state.tile_check = {"missing": result.missing, "extra": result.extra, "complete": result.complete}
        if not self.game.history and self.game.ended is None:
            called = self.game.set_check if self.game.set_ruling == "called" else None
            if result.complete and called is not None:
                event = g.SetChecked(at=self.wall(), missing=called[0], extra=called[1], referee="put_right")
            else:
                event = g.SetChecked(at=self.wall(), missing=result.missing, extra=result.extra,
                                     referee="" if result.complete else "called")  # fmt: skip
            try:
                self._apply(event)
            except g.GameError as e:
                log.warning("tile-set check not recorded: %s", e)
        if result.complete:
            lines = (text("set_ok", self.lang), "")
        else:
            lines = (
                text("set_missing", self.lang).format(tiles=result.missing or "-"),
                text("set_extra", self.lang).format(tiles=result.extra or "-"),
            )
        self._notify(lines, 20.0)
        if self.game.set_ruling == "called":
            self.menu.set_items(self._menu_items())
            self.menu.open_item("set_ruling")

    def _referee_wait(self) -> str | None:
        """What the table waits for the chief referee's word on (``device.table_round.referee_wait``)."""
        return referee_wait(self.game, self.clock.view(self.time.now()), self.referee_time)

    def _set_waits(self) -> bool:
        """The referee is called to the tile set and has not ruled: the game does not start (004)."""
        if self.game.set_ruling != "called" or self.game.history or self.clock.started:
            return False
        self._notify((text("set_wait", self.lang), text("call_referee", self.lang)), 8.0)
        return True

    def _on_start(self, kind: str, value: object, now: float) -> None:
        """Who starts (``device.table_start``): the draw and the decision are game events, journaled."""
        answer = answer_start(self.game, self.seats, kind, value, self.lang, self._apply, self.wall())
        if answer.notice is not None:
            self._notify(answer.notice, 10.0)
        if answer.reopen:
            self.menu.set_items(self._menu_items())
            self.menu.open_item("start_draw")  # the next player's tile

    def new_game(self, now: float, *, fresh: bool = False) -> None:
        """Archive the journal and start a fresh game and clock (the pending file and the clock checkpoint of the
        old game are of another game from the new start on: a power cut in between never carries them over).
        A match's next game with the same players is started by the next player (004); with the hub's pairing,
        the pairing's game starts (its first named player starts); ``fresh``: the config's order (not the journal's
        match)."""
        previous = self.game.players
        same = not fresh and sorted(previous) == sorted(self.config.players)
        if self.pairing is not None:
            self._start_game(rotate=True, pairing=self.pairing)
        else:
            self._start_game(match_order(previous, 1) if same else None, rotate=True)  # 004: players take turns
        self.clock = MoveClock(self.clock_mode, now)
        self.state.blank_letters.clear()
        self.state.take_back.clear()
        self.state.put_back.clear()
        self.state.link_paused = False
        self.state.tile_check = None
        self.state.blank_wait = None
        self.state.referee_ok, self.state.dispute_zero = None, False  # the old game's questions
        self.state.exchange = None
        self.state.take_back_hold = False
        self.resumed = False
        self._save_pending()
        self._checkpoint_clock()
        log.info("a new game: %d objects of the last one collected, free memory handed back", release_memory())

    # ------------------------------------------------------------------------------------------ the link
    def _on_link(self, event: object, now: float) -> None:
        if isinstance(event, link_events.LinkUp):
            self.state.link_up = True
            if self.notice_is("link_down"):  # replaces the unplugged notice; never hides another one
                self._notify((text("link_up", self.lang), ""), 3.0)
        elif isinstance(event, link_events.LinkDown):
            self.state.link_up = False
            self._notify((text("link_down", self.lang), ""), 3600.0)
            if self.clock.state == "running" and self.game.ended is None:
                self.clock.pause(now)  # nobody can finish a move that the table cannot see
                self.state.link_paused = True
                self._checkpoint_clock()
        elif isinstance(event, (link_events.Snapshot, link_events.BoardChanged)):
            self.state.link_up = True
            self._on_board(event.grid, now)
        elif isinstance(event, link_events.CellFault):
            if event.kind is None:
                self.state.faults.pop((event.row, event.col), None)
            else:
                self.state.faults[(event.row, event.col)] = event.kind
                square = Square(event.row, event.col).notation(self.notation)
                kind = text(f"fault_{event.kind}", self.lang) if f"fault_{event.kind}" in TEXTS else event.kind
                self._notify((text("cell_fault", self.lang).format(square=square), kind), 8.0)

    def _on_board(self, grid: Grid, now: float) -> None:
        st = self.state
        st.physical = tuple(tuple(row) for row in grid)
        pending = (st.take_back, st.put_back, st.blank_letters)
        st.take_back = {(r, c) for r, c in st.take_back if grid[r][c] is not None}
        st.put_back = {rc: t for rc, t in st.put_back.items() if grid[rc[0]][rc[1]] != t}
        st.blank_letters = {rc: t for rc, t in st.blank_letters.items() if grid[rc[0]][rc[1]] == BLANK}
        if (st.take_back, st.put_back, st.blank_letters) != pending:
            self._save_pending()
        if pending[0] != st.take_back and self.notice_is("take_back") and st.notice is not None:
            if st.take_back:  # the squares still to lift
                st.notice = Notice((text("take_back", self.lang), self._cells(st.take_back)), st.notice.until)
            else:
                st.notice = None  # every tile is off the board: "Vrať kameny" would be a stale order
        if st.take_back_hold and not st.take_back:
            self._release_take_back_hold(now)
        if not self.game.history and self.clock.state == "running" and self.clock.player_on_move is not None:
            if grid != grid_of(self.game.board):  # tiles being laid: the player on move is at the table
                self.clock.mark_present(self.clock.player_on_move, now)
        if self.state.link_paused:
            self.state.link_paused = False
            if self.notice_is("link_down"):
                self.state.notice = None
            self.clock.resume(now)
            self._checkpoint_clock()
        self._restore_menu(final=True)
        if self._lost_turn_due:  # a time-out journaled after pending.json: its tiles, as ``_take_back_lost_turn``
            self._lost_turn_due = False
            if self.clock.awaiting_press is not None:
                self._take_back_lost_turn()
        if self.state.blank_wait is not None and not self._unnamed_blanks():
            # named (a restart between the naming and the move's record): the move ends as the press asked;
            # taken off the board: the move goes on
            named = any(grid[r][c] == BLANK for r, c in self.state.blank_letters)
            self._end_blank_wait(now, finish_move=named)
        if self._unnamed_blanks() and not self.menu.open and self.clock.started:  # not the set check's square
            self.menu.set_items(self._menu_items())
            self.menu.open_item("blank")

    def _player_at(self, seat: int) -> int:
        """The game's player (playing order) at a seat (the configured order: buttons, LCDs). The starting player
        alternates across a match, the seats stay."""
        seats = self.seats
        players = self.game.players
        if seat >= len(players) or sorted(players) != sorted(seats):
            return seat
        return players.index(seats[seat])

    def _squares(self, squares: Sequence[Square]) -> str:
        """Squares as the players read them (``engine.board.Notation.for_language``)."""
        return " ".join(s.notation(self.notation) for s in squares)

    def _cells(self, cells: Any) -> str:
        return self._squares([Square(r, c) for r, c in sorted(cells)])

    def notice_is(self, key: str) -> bool:
        return self.state.notice is not None and self.state.notice.lines[0] == text(key, self.lang)

    def _on_round(self, command: str, now: float) -> None:
        """The chief referee's round commands (hub): start the clocks, warn, end the base time."""
        if command == "start" and not self.clock.started:
            self._clock_events(self.clock.start_game(now) or ())
            self._write_clock_checkpoint()  # on disk before the screens and pending.json: a restart never waits again
        elif command == "warning":
            self._notify((text("warning", self.lang), text("ten_minutes", self.lang)), 10.0)
        elif command == "end" and self.game.ended is None and self.game.abc_start is None:
            self._apply(g.BaseTimeExpired(at=self.wall()))

    def _on_pairing(self, pairing: TablePairing, now: float) -> None:
        """The hub's pairing for this table (``device.table_pairing``): kept on disk; the game starts from it
        unless a game is under way (then the next new game does; a change of the started round's players is
        ignored and logged)."""
        game = self.game
        if len(self.config.players) != len(pairing.players):
            log.error("pairing %s ignored: a table of %d players (doubles are paired by hand)", pairing.id,
                      len(self.config.players))  # fmt: skip
            return
        if plays(game, pairing):  # the same pairing again (retained, after a reconnect) or a new id for it
            if pairing != self.pairing:
                save_pairing(self.pairing_path, pairing)
                self.pairing = pairing
            return
        started = not untouched(game, self.clock.started)
        if is_paired(game) and game.info.get("round") == str(pairing.round) and started and game.result is None:
            log.warning("pairing %s of round %d (%s) ignored: the game of that round has started with %s",
                        pairing.id, pairing.round, " - ".join(pairing.names), " - ".join(game.players))  # fmt: skip
            return
        save_pairing(self.pairing_path, pairing)
        self.pairing = pairing
        if not replaceable(game, self.clock.started):
            log.info("pairing of round %d kept for the next game: this one goes on", pairing.round)
            return
        self.new_game(now)
        log.info("round %d, table %s: %s starts against %s", pairing.round, pairing.table, *pairing.names)
        self._notify((text("round_table", self.lang).format(r=pairing.round, t=pairing.table),
                      text("starts", self.lang).format(name=pairing.names[0])), 60.0)  # fmt: skip

    # ----------------------------------------------------------------------------------------- display
    def _notify(self, lines: tuple[str, str] | tuple[str], seconds: float) -> None:
        self.state.notice = Notice(lines, self.time.now() + seconds)

    def view(self) -> dict[str, Any]:
        """The table's state as plain data: for the LCD renderer, the web page and the hub."""
        return self._timed_view(self._lasting_view())

    def _lasting_view(self) -> dict[str, Any]:
        """The view's parts that change only on an input or a clock event (a timer tick reuses them)."""
        game = self.game
        last = game.history[-1] if game.history else None
        return {
            "name": self.config.name,
            "language": self.lang,
            "players": list(game.players or self.config.players),
            "game": game.to_dict(),
            "last_move": None if last is None else {
                "word": " ".join(last.words),
                "position": last.position.notation(self.notation) if last.position else None,
                "at": None if last.position is None else [  # for a page in another language than the table's
                    last.position.square.row, last.position.square.col, last.position.direction is Direction.ACROSS],
                "score": last.score,
                "player": last.player,
                "kind": last.kind.value,
            },
            "notation": self.notation.value,
            "physical": [list(row) for row in self.state.physical],
            "faults": [[r, c, k] for (r, c), k in sorted(self.state.faults.items())],
            "take_back": sorted(list(rc) for rc in self.state.take_back),
            "put_back": sorted([r, c, t] for (r, c), t in self.state.put_back.items()),
            "blanks": sorted([r, c, t] for (r, c), t in self.state.blank_letters.items()),
            "tile_check": self.state.tile_check,
            "blank_wait": self.state.blank_wait,
            "take_back_hold": self.state.take_back_hold,
        }

    def _timed_view(self, lasting: dict[str, Any]) -> dict[str, Any]:
        """``lasting`` with the parts that run with the time (the clock, a notice's end, the result's page)."""
        now = self.time.now()
        notice = self.state.notice
        if notice is not None and now >= notice.until:
            self.state.notice = notice = None
        if notice is None:  # another notice came and went: what still stands is shown again
            self.state.notice = notice = self._standing_notice()
        game = self.game
        view = {
            **lasting,
            "clock": self.clock.view(now),
            "menu": list(self.menu.lines(text("back", self.lang))) if self.menu.open else None,
            "notice": list(notice.lines) if notice else None,
            "link_up": self.state.link_up,
            "lexicon": self._lexicon_status(open_move_words(game)) if game.pending is not None or self.menu.open else {},
            "resumed": self.resumed,
            "must_press": self._must_press(),
            "result_page": int(now // RESULT_PAGE_SECONDS) if game.result is not None else 0,
        }
        view["referee_wait"] = referee_wait(game, view["clock"], self.referee_time)
        view["says"] = {lang: announce(view, lang) for lang in ("cs", "en")}
        return view

    def _must_press(self) -> int | None:
        """After a time-out: the player whose press starts the next move (``awaited_player``), for the LCD and the
        page alike; else None."""
        side = self.clock.awaiting_press
        return None if side is None or self.game.ended is not None else awaited_player(self.game, side)

    def _lexicon_status(self, words: Sequence[str]) -> dict[str, str]:
        if self.lexicon is None:
            return {}
        return {w: self._word_status(w) for w in words}

    def _word_status(self, word: str) -> str:
        """The lexicon's hint for a word; under 001's reverse reading (``reverse_words``) either reading counts."""
        assert self.lexicon is not None
        status = str(self.lexicon.status(word))
        if status != "known" and self.game.ruleset.reverse_words:
            status = str(self.lexicon.status(word[::-1]))
        return status

    def _refresh(self, tick: bool = False) -> None:
        """Offer the menu items, show the view. A timer ``tick`` that changed nothing but the time (no input, no
        clock event: ``_replan`` unset) reuses the last refresh's menu items and the view's lasting parts."""
        lasting = self._lasting if tick and not self._replan else None
        if lasting is None:
            self.menu.set_items(self._menu_items())
        self._save_pending()  # before the LCD shows it: what the players see is what a restart comes back to
        if lasting is None:
            lasting = self._lasting = self._lasting_view()
        view = self._timed_view(lasting)
        self.latest_view = view
        redraw = redraw_in(view["clock"])
        if redraw is None and self.game.result is not None:  # the final result's pages alternate
            now = self.time.now()
            redraw = RESULT_PAGE_SECONDS - now % RESULT_PAGE_SECONDS
        self._next_redraw = None if redraw is None else self.time.now() + redraw
        if self.render is not None:
            for i, display in enumerate(self.displays):
                try:
                    display.show(self.render(view, self._player_at(i)))
                except OSError as e:  # an LCD error must never stop the table
                    log.error("LCD %d write failed: %s", i, e)
        if self.led is not None:
            self.led.value = 1 if self.state.link_up and not self.state.faults else 0
        if self.publisher is not None:
            self.publisher.publish_state(view)
        if self.on_change is not None:
            self.on_change(view)


def _ran_after(checkpoint: dict[str, Any], written_wall: object, later: Sequence[g.Event]) -> float:
    """Seconds a running clock surely ran after its checkpoint: until the first game event journaled after it
    (its ``at`` is the wall clock, as the checkpoint's ``wall``). Without it, the time since the checkpoint is given
    back (at most ``CHECKPOINT_PERIOD``). Bounded by two checkpoint periods (a wall clock set forward in between
    never eats a move time), and 0 with a time-out among them (``Table._restore_clock`` takes its time off)."""
    if not later or checkpoint.get("state") != "running" or any(isinstance(e, g.TimeOut) for e in later):
        return 0.0
    if isinstance(written_wall, bool) or not isinstance(written_wall, int | float):
        return 0.0
    ran = min(max(0.0, later[0].at - float(written_wall)), 2 * CHECKPOINT_PERIOD)
    mode = checkpoint.get("mode", {})
    elapsed = checkpoint.get("move_elapsed")
    move_time = mode.get("move_time") if isinstance(mode, dict) else None
    if isinstance(move_time, int | float) and isinstance(elapsed, int | float):
        ran = min(ran, max(0.0, float(move_time) - float(elapsed) - 1e-3))  # no time-out the journal has not got
    return ran


def _asked_json(asked: tuple[Action, tuple[str, str]] | None) -> dict[str, Any] | None:
    """The referee's open question (``TableState.referee_ok``) as ``pending.json`` keeps it."""
    if asked is None:
        return None
    action, label = asked
    value = list(action.value) if isinstance(action.value, tuple) else action.value
    return {"kind": action.kind, "value": value, "label": list(label)}


def _asked_from_json(data: object) -> tuple[Action, tuple[str, str]] | None:
    """``_asked_json`` read back; ValueError for anything it cannot have written."""
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("kind") not in REFEREE_CONFIRMED:
        raise ValueError(f"referee question {data!r} unknown")
    value, label = data.get("value"), data.get("label")
    players = value if isinstance(value, list) else [value]
    if not players or any(isinstance(p, bool) or not isinstance(p, int) for p in players):
        raise ValueError(f"referee question for {value!r}: not players")
    if not isinstance(label, list) or len(label) != 2 or not all(isinstance(t, str) for t in label):
        raise ValueError(f"referee question's label {label!r} is not two texts")
    return Action(str(data["kind"]), tuple(players) if isinstance(value, list) else value), (label[0], label[1])


def _exchange_from_json(data: object) -> tuple[int, int] | None:
    """``TableState.exchange`` as ``pending.json`` keeps it; ValueError for anything it cannot have written."""
    if data is None:
        return None
    if (not isinstance(data, list) or len(data) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in data)
            or not 1 <= data[1] <= 7):
        raise ValueError(f"announced exchange {data!r} is not [turn, count]")
    return data[0], data[1]


def _confirmed_event(action: Action, at: float) -> g.Event:
    """The game event of a referee-confirmed menu action (``REFEREE_CONFIRMED``)."""
    if action.kind == "no_show" and isinstance(action.value, tuple):
        return g.Forfeit(at=at, absent=tuple(int(p) for p in action.value))
    player = int(str(action.value))
    if action.kind == "warning":
        return g.RefereeWarning(at=at, player=player)
    return g.Resign(at=at, player=player, disqualified=True)



