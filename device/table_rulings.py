"""What the game's rulings ask of the table (``TableRulings``, a part of ``device.table.Table``): the game's outputs
acted on (tiles to take back or put back, the move held meanwhile, a lost turn's tiles, warnings), the referee's
menu actions that need the referee's yes, corrections, a blank swapped, the lexicon's hint, the tile-set check."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from device.menu import Action
from device.table_doubles import clock_side, presses_clock
from device.table_lost_turn import lost_turn_tiles
from device.table_menu import CORRECTION, VOID, ZERO_DRAW, corrected_score, side_labels
from device.tile_check import check_tile_set
from engine import game as g
from engine.board import Square
from engine.game.doubles import announce_target
from shared.board_link.board_diff import grid_of
from shared.texts import text

log = logging.getLogger(__name__)

REFEREE_CONFIRMED = ("no_show", "warning", "disqualify")
"""Menu actions that end a game or sanction a player: asked again, for the referee's yes."""


def _confirmed_event(action: Action, at: float) -> g.Event:
    """The game event of a referee-confirmed menu action (``REFEREE_CONFIRMED``)."""
    if action.kind == "no_show" and isinstance(action.value, tuple):
        return g.Forfeit(at=at, absent=tuple(int(p) for p in action.value))
    player = int(str(action.value))
    if action.kind == "warning":
        return g.RefereeWarning(at=at, player=player)
    return g.Resign(at=at, player=player, disqualified=True)


class TableRulings:
    """The game's rulings at the table (a part of ``device.table.Table``)."""

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
