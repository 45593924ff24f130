"""What the table shows (``TableDisplay``, a part of ``device.table.Table``): the notices, the view for the LCDs,
the page and the hub, and the refresh that draws it."""

from __future__ import annotations

import errno
import logging
from collections.abc import Sequence
from typing import Any

from device import journal_referee as jr
from device.announce import announce
from device.screens import RESULT_PAGE_SECONDS, redraw_in
from device.table_doubles import awaited_player
from device.table_menu import open_move_words
from device.table_recovery import JOURNAL_FAILED_NOTICE_S
from device.table_round import referee_wait
from device.table_state import Notice
from engine.board import Direction, Square
from shared.texts import text

log = logging.getLogger(__name__)


class TableDisplay:
    """Notices, the view and the refresh (a part of ``device.table.Table``)."""

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

    def _squares(self, squares: Sequence[Square]) -> str:
        """Squares as the players read them (``engine.board.Notation.for_language``)."""
        return " ".join(s.notation(self.notation) for s in squares)

    def _cells(self, cells: Any) -> str:
        return self._squares([Square(r, c) for r, c in sorted(cells)])

    def notice_is(self, key: str) -> bool:
        return self.state.notice is not None and self.state.notice.lines[0] == text(key, self.lang)

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
