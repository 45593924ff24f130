"""How a game starts at the table (``TableCommands``, a part of ``device.table.Table``): a new game and its header,
who starts, the chief referee's round commands and the hub's pairing (``device.table_round``,
``device.table_pairing``)."""

from __future__ import annotations

import logging
import time as _time
from pathlib import Path

from device import inputs
from device.clock.core import MoveClock
from device.journal_turn import TURN_KEY
from device.realtime import release_memory
from device.table_pairing import (
    PAIRING_FILE,
    is_paired,
    pairing_info,
    plays,
    replaceable,
    save_pairing,
    untouched,
)
from device.table_pairs import MISFIT_NOTICE_S, misfit, pairing_notice
from device.table_round import END, hub_round_steps, referee_clock_mode, referee_wait
from device.table_start import answer_start
from engine import game as g
from engine.draw import match_order
from engine.ruleset import customised
from shared.texts import phrase, text
from tablelink.pairing import TablePairing

log = logging.getLogger(__name__)


class TableCommands:
    """A game's start, the round's commands and the pairing (a part of ``device.table.Table``)."""

    @property
    def pairing_path(self) -> Path:
        return self.journal.path.with_name(PAIRING_FILE)

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
        self.clock = MoveClock(referee_clock_mode(self.clock_mode) if self.referee_time else self.clock_mode, now)
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

    def _on_round(self, command: str, now: float) -> None:
        """The chief referee's round commands (hub): start the clocks, warn, end the base time."""
        if command == "start" and not self.clock.started:
            self._clock_events(self.clock.start_game(now) or ())
            self._write_clock_checkpoint()  # on disk before the screens and pending.json: a restart never waits again
        elif command == "warning":
            self._notify((text("warning", self.lang), text("ten_minutes", self.lang)), 10.0)
        elif command == "end" and self.game.ended is None and self.game.abc_start is None:
            self._apply(g.BaseTimeExpired(at=self.wall()))

    def _on_hub_round(self, now: float) -> None:
        """The hub's round command (``hub_round``), scoped to its round (``device.table_round.hub_round_steps``): a
        late table starts its game time at the round's real start and takes the end of the base time if given."""
        command = self.hub_round
        if command is None:
            return
        running = self.clock.view(now).get("game_phase") != "not started"
        began = self.game.events[0].at if self.game.events else None
        followed = self._hub_round_followed[1] if self._hub_round_followed and began == self._hub_round_followed[0] else None
        steps = hub_round_steps(command, self.game, running, self.wall(), self._hub_clock_offset or 0.0, followed)
        if steps.ignored:
            log.info("round command %s (round %d) not for this game: %s", command.command, command.round, steps.ignored)
            return
        if steps.start_ago is not None:
            if steps.start_ago > 1.0:
                log.warning("round %d started %.0f s before this table heard of it: its game time runs from the "
                            "round's start", command.round, steps.start_ago)  # fmt: skip
            self._clock_events(self.clock.start_game(now, steps.start_ago) or ())
            if began is not None:
                self._hub_round_followed = (began, command.round)
            self._write_clock_checkpoint()  # on disk before the screens and pending.json: a restart never waits again
        if steps.warn:
            self._on_round("warning", now)
        if steps.end:
            self._on_round(END, now)

    def _on_hub_link(self, item: inputs.HubLink) -> None:
        """The broker connection came up, or failed for a new reason: the LCD and the log say so."""
        url = self.config.hub.broker
        if item.up:
            log.info(phrase("hub_log_up", self.lang).format(url=url))
            if self._standing_notice() is None:
                self._notify((text("hub_up", self.lang), ""), 5.0)
            return
        problem = item.problem or "unreachable"
        log.error(phrase("hub_log_down", self.lang).format(url=url, why=phrase(f"hub_why_{problem}", self.lang),
                                                          detail=item.detail))  # fmt: skip
        if self._standing_notice() is None:  # a refused journal line or a full card is said first
            self._notify((text("hub_down", self.lang), text(f"hub_{problem}", self.lang)), 15.0)

    def _on_pairing(self, pairing: TablePairing, now: float) -> None:
        """The hub's pairing for this table (``device.table_pairing``): kept on disk; the game starts from it
        unless a game is under way (then the next new game does; a change of the started round's players is
        ignored and logged)."""
        game = self.game
        wrong = misfit(pairing, len(self.config.players))
        if wrong is not None:  # a pairs pairing at a singles table or the other way: no wrong game is started
            log.error("pairing %s ignored: %s (a table of %d players, a pairing of %d)", pairing.id,
                      text(wrong, self.lang), len(self.config.players), len(pairing.players))  # fmt: skip
            self._notify((text(wrong, self.lang), text("call_referee", self.lang)), MISFIT_NOTICE_S)
            return
        if plays(game, pairing):  # the same pairing again (retained, after a reconnect) or a new id for it
            if pairing != self.pairing:
                save_pairing(self.pairing_path, pairing)
                self.pairing = pairing
            self._ack_pairing(pairing)
            return
        started = not untouched(game, self.clock.started)
        if is_paired(game) and game.info.get("round") == str(pairing.round) and started and game.result is None:
            log.warning("pairing %s of round %d (%s) ignored: the game of that round has started with %s",
                        pairing.id, pairing.round, " - ".join(pairing.names), " - ".join(game.players))  # fmt: skip
            return
        save_pairing(self.pairing_path, pairing)
        self.pairing = pairing
        self._ack_pairing(pairing)
        if not replaceable(game, self.clock.started):
            log.info("pairing of round %d kept for the next game: this one goes on", pairing.round)
            return
        self.new_game(now)
        log.info("round %d, table %s (unit %s): %s", pairing.round, pairing.table_label, pairing.table,
                 " - ".join(pairing.names))  # fmt: skip
        self._notify(pairing_notice(pairing, self.lang), 60.0)
        self._on_hub_round(now)  # the round may have started before the pairing came

    def _ack_pairing(self, pairing: TablePairing) -> None:
        """Tell the hub the pairing is on the card (``TablePublisher.ack_pairing``)."""
        if self.publisher is not None:
            self.publisher.ack_pairing(pairing)

    def _notice_is_pairing(self) -> bool:
        """The LCD shows the round's pairing ("Kolo 1 stůl 2 / Začíná Eva": ``_on_pairing``)."""
        notice, pairing = self.state.notice, self.pairing
        if notice is None or pairing is None:
            return False
        return notice.lines[0] == pairing_notice(pairing, self.lang)[0]
