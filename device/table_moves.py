"""A move at the table (``TableMoves``, a part of ``device.table.Table``): a press read against the board, the
move it ends (a play, a pass, an announced exchange), a blank waiting for its letter, the board's readings."""

from __future__ import annotations

import logging

from device.table_doubles import button_player, clock_side, presses_clock, side_players, team_sides
from device.table_menu import blank_letters
from device.table_round import START
from device.table_state import Grid, Notice
from engine import game as g
from engine.blanks import BlankRanking, rank_blank_letters
from engine.board import Square
from engine.game.teams import team_of
from engine.placement import GEOMETRY, IllegalPlacement, Placement, validate
from engine.tiles import BLANK, Tile
from shared.board_link import events as link_events
from shared.board_link.board_diff import BoardDiffError, diff_move, grid_of
from shared.texts import TEXTS, text

log = logging.getLogger(__name__)

DOUBLE_PRESS_S = 0.3
"""A press by the player who just came on move within this many seconds of the press that ended the other's move
is the same slap (both palms on the buttons), not a turn: it is ignored and the LCD says so. Two players hitting
arcade buttons "together" land within about 0.1 s of each other, while a player who sees the opponent's move end
and decides to pass needs a visual reaction (about 0.2-0.25 s at best) and a decision: over 0.4 s (docs/daemon.md).
"""


class TableMoves:
    """The players' presses and the board's readings (a part of ``device.table.Table``)."""

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
        recorded = grid_of(self.game.board)  # a square a later move filled is never asked back (pending.json lost)
        st.take_back = {(r, c) for r, c in st.take_back if grid[r][c] is not None and recorded[r][c] is None}
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
