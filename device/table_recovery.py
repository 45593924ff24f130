"""What the table keeps beside the journal and brings back after a restart (``TableRecovery``, a part of
``device.table.Table``): the game replayed from the journal (a damaged one repaired), the clock from its checkpoint
(``clock.json``), what the players were asked (``pending.json``), and a card that refuses writes."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from device import card_reserve
from device import journal_referee as jr
from device.clock.core import MoveClock
from device.journal_turn import replay_record
from device.menu import Action
from device.screens import resumed_notice
from device.table_pairing import load_pairing
from device.table_rulings import REFEREE_CONFIRMED, _confirmed_event
from device.table_state import Notice
from engine import game as g
from engine.board import SIZE
from engine.errors import EngineError
from shared.errors import JournalWriteError
from shared.journal import SetAside, salvage, write_atomic
from shared.texts import text

log = logging.getLogger(__name__)

CHECKPOINT_PERIOD = 2.0
"""Seconds between clock checkpoints while a move runs: a power cut loses at most this much move time."""

RESUMED_NOTICE_S = 4.0
"""How long the LCDs say the game is back after a restart (one line: the scores stay in view, device.screens)."""

JOURNAL_FAILED_NOTICE_S = 24 * 3600.0
"""A journal line the card refused: the LCDs say so until a line is written again (the notice's own end is only a
bound)."""

RESUME_RULES = {"remaining": "continue", "full": "restart", "paused": "paused"}
"""Config ``table.resume`` -> ``MoveClock.restore`` rule."""

JOURNAL_EVENTS = "journal_events"
"""Key of the clock checkpoint and the pending file: how many journal events the game had when they were written
(the journal is written first; a power cut between the two writes leaves them behind, and the table catches up)."""

WALL_KEY = "wall"
"""Key of the clock checkpoint: the wall clock when it was written. A game event journaled after it (a power cut
came before the next checkpoint) carries its own wall time, so the restart knows how long the clock ran on."""

GAME_KEY = "game"
"""Key of the same files: which game they belong to (its start event's time): a file left by the previous game
(a power cut just after a new game started) is not applied to the new one."""


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


class TableRecovery:
    """The restart and the files beside the journal (a part of ``device.table.Table``)."""

    @property
    def clock_path(self) -> Path:
        return self.journal.path.with_name("clock.json")

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
