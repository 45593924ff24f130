"""The table: one loop that owns the game, the move clock, the menu, the board's reading and the displays.

Devices never call into the table's state: their callbacks put an input (``device.inputs``) on ``Table.inputs``
and the loop (``run``) consumes them one at a time on its own thread. Every game event is checked by the game,
appended to the journal (flushed and fsynced) and only then acted on (clock, displays, buzzer, hub). The clock's
state is checkpointed next to the journal so a restart resumes the move time too (``config.resume``).
"""

from __future__ import annotations

import logging
import queue
import threading
import time as _time
from collections.abc import Callable, Sequence
from typing import Any

from device import inputs
from device import journal_referee as jr
from device.checkpoint_writer import CheckpointWriter
from device.clock import events as clock_events
from device.clock.core import MoveClock
from device.clock.modes import ClockMode
from device.journal_turn import stamped
from device.menu import Menu
from device.realtime import realtime
from device.table_actions import TableActions
from device.table_commands import TableCommands
from device.table_display import TableDisplay
from device.table_doubles import clock_mode_for, clock_side
from device.table_moves import DOUBLE_PRESS_S, TableMoves
from device.table_pairing import is_paired
from device.table_recovery import (
    CHECKPOINT_PERIOD,
    GAME_KEY,
    JOURNAL_EVENTS,
    JOURNAL_FAILED_NOTICE_S,
    RESUME_RULES,
    RESUMED_NOTICE_S,
    WALL_KEY,
    TableRecovery,
    _ran_after,
)
from device.table_round import referee_clock_mode
from device.table_rulings import REFEREE_CONFIRMED, TableRulings
from device.table_state import Grid, Notice, TableState, empty_grid
from engine import game as g
from engine.blanks import BlankRanking
from engine.board import Notation
from engine.errors import EngineError
from engine.game.teams import team_of
from engine.ruleset import customised
from shared.board_link.board_diff import grid_of
from shared.errors import JournalWriteError
from shared.journal import Journal
from shared.texts import text
from tablelink.pairing import TablePairing
from tablelink.rounds import RoundCommand

__all__ = [
    "CHECKPOINT_PERIOD", "DOUBLE_PRESS_S", "GAME_KEY", "JOURNAL_EVENTS", "JOURNAL_FAILED_NOTICE_S", "PLAN_REFRESH_S",
    "REFEREE_CONFIRMED", "RESUMED_NOTICE_S", "RESUME_RULES", "WALL_KEY", "Grid", "Notice", "Table", "TableState",
    "_ran_after", "empty_grid", "grid_of",
]  # fmt: skip
"""The names the table's users and tests take from here (its parts hold them)."""

log = logging.getLogger(__name__)


PLAN_REFRESH_S = 10.0
"""The clock's signal plan reaches 15 s ahead (``MoveClock.signal_plan``); while nothing but time passes, the table
hands the driver a fresh one after this many seconds (an input or a clock event re-plans at once)."""


class Table(TableRecovery, TableRulings, TableCommands, TableActions, TableMoves, TableDisplay):
    """The daemon's state owner. Built from its parts (``device.hardware``); ``run()`` is the loop.

    Split by what it decides, one part a module: the restart and the files beside the journal
    (``device.table_recovery``), the game's rulings (``device.table_rulings``), a game's start, the round's
    commands and the pairing (``device.table_commands``), the menu (``device.table_actions``), presses and the
    board (``device.table_moves``), what it shows (``device.table_display``); here the loop, the clock and the
    journaled event.

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
        self._referee_config = getattr(config, "base_time", "table") == "referee"
        """A tournament table: the chief referee starts and ends the base time (``device.table_round``)."""
        if self._referee_config:
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
        self.hub_round: RoundCommand | None = None
        """The hub's last round command with its round's state (``tablelink.rounds``): applied again when a game
        of its round starts (the pairing may come after the round's start)."""
        self._hub_clock_offset: float | None = None
        """The hub's wall clock minus the table's, from the last command that came live (its ``sent`` was the hub's
        now when it arrived); None: only retained ones so far (the clocks are taken to agree)."""
        self._hub_round_followed: tuple[float, int] | None = None
        """(the game's start, round): the hub's start of that round acted on the game (its later commands follow)."""

    # ----------------------------------------------------------------------------------------------- startup


    @property
    def referee_time(self) -> bool:
        """The chief referee starts and ends the base time: a tournament table (``base_time = "referee"``), and
        every game started from the hub's pairing whatever ``base_time`` says."""
        return self._referee_config or is_paired(self.game)

    @property
    def seats(self) -> tuple[str, ...]:
        """The players by seat (buttons, LCDs): the pairing's in its order for a game started from one (the
        first named sits at A and starts), else the configured ones."""
        return tuple(self.game.players) if is_paired(self.game) else tuple(self.config.players)


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
            elif isinstance(item, inputs.RoundCommand) and isinstance(item.state, RoundCommand):
                self.hub_round = item.state
                if item.live:
                    self._hub_clock_offset = item.state.sent - self.wall()
                self._on_hub_round(now)
            elif isinstance(item, inputs.RoundCommand):
                self._on_round(item.command, now)
            elif isinstance(item, inputs.HubLink):
                self._on_hub_link(item)
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


    def _sync_base_time(self) -> None:
        """The base game time's end is journaled the moment the clock reaches it (``base_time_expired``), and the
        journal is the authority after a restart: a clock restored from a checkpoint written before the expiry is
        told the base time is over; a clock that expired while the game could not take it yet gets it now."""
        game = self.game
        if game.ended is not None or game.ruleset.playout != "abc" or self.referee_time:
            return
        if game.abc_start is None and self.clock.view(self.time.now()).get("game_phase") == "expired":
            self._apply(g.BaseTimeExpired(at=self.wall()))


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


    # ------------------------------------------------------------------------------------------ the link


