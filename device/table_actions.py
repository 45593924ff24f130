"""The table's menu (``TableActions``, a part of ``device.table.Table``): the items offered for the situation
(``device.table_menu``) and what each action does."""

from __future__ import annotations

import logging
from typing import Any

from device import journal_referee as jr
from device.clock.core import MoveClock
from device.clock.modes import mode as clock_preset
from device.menu import Action, Choice, Item
from device.table_doubles import clock_mode_for, clock_side, presses_clock
from device.table_menu import menu_items, open_move_words, side_labels
from device.table_pairing import is_paired
from device.table_round import END, START, round_items
from device.table_start import START_KINDS
from engine import game as g
from engine.blanks import BlankRanking
from engine.board import SIZE
from engine.ruleset import customised
from engine.tiles import BLANK
from shared.board_link.board_diff import grid_of
from shared.texts import text

log = logging.getLogger(__name__)


class TableActions:
    """The menu's items and actions (a part of ``device.table.Table``)."""

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
