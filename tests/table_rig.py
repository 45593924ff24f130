"""A table on a fake time source, fed inputs and board-link events directly (no pins, no serial): for the tests
of the table's logic. The full stack through the simulator is in test_sim_e2e."""

from __future__ import annotations

import contextlib
import os
import queue
import resource
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from device import inputs
from device.clock.modes import ClockMode, mode
from device.config import parse_config
from device.table import Grid, Table, grid_of
from engine.board import SIZE, Position
from engine.placement import placements_from_word
from shared.board_link.events import BoardChanged, LinkDown, LinkUp, Snapshot
from shared.journal import Journal, write_atomic
from shared.timesource import FakeTime

WALL_EPOCH = 1_790_000_000.0
"""The wall clock the rig's events are stamped with: the fake time plus this (a date in 2026)."""


class Rig:
    """One table with its fake time, its journal in ``state_dir`` and a physical board the test lays tiles on."""

    def __init__(
        self,
        state_dir: Path,
        *,
        time: FakeTime | None = None,
        extra: str = "",
        clock: str = "cas",
        players: tuple[str, ...] = ("Anna", "Bedřich"),
        clock_mode: ClockMode | None = None,
    ) -> None:
        self.state_dir = state_dir
        self.options = {"extra": extra, "clock": clock, "players": players, "clock_mode": clock_mode}
        self.time = time or FakeTime(0.0)
        names = ", ".join(f'"{p}"' for p in players)
        self.config = parse_config(
            f'[table]\nstate_dir = "{state_dir}"\nplayers = [{names}]\nclock = "{clock}"\n{extra}'
        )
        self.journal = Journal(self.config.journal_path)
        self.table = Table(
            config=self.config,
            time=self.time,
            clock_mode=clock_mode or mode(self.config.clock),
            journal=self.journal,
            wall=lambda: WALL_EPOCH + self.time.now(),
        )
        self.grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
        self._last_press: float | None = None

    # ---- the table's life
    def start(self, *, link: bool = True) -> bool:
        resumed = self.table.resume()
        if resumed and not any(any(row) for row in self.grid):  # the tiles lie where the game has them
            self.grid = [list(row) for row in grid_of(self.table.game.board)]
        if link:
            self.table.handle(inputs.LinkEvent(LinkUp("rig", 1)))
            self.table.handle(inputs.LinkEvent(Snapshot(self.frozen())))
        return resumed

    def close(self) -> None:
        self.table.journal.close()

    def restarted(self, *, link: bool = True) -> Rig:
        """The table started again from its files (after ``close``, or a ``PowerCut``): same folder, same config,
        the same tiles on the board, a fresh time source (a boot's monotonic clock starts anew)."""
        again = Rig(self.state_dir, time=type(self.time)(9000.0), **self.options)  # type: ignore[arg-type]
        again.grid = [list(row) for row in self.grid]
        again.start(link=link)
        return again

    # ---- the players' hands
    PRESS_GAP = 0.5
    """Fake seconds the rig lets pass before a press that follows another within this time: people do not press
    twice in less (``device.table.DOUBLE_PRESS_S`` takes such a press for the same slap). A test of the double
    press moves the time itself and calls ``table.handle``."""

    def handle_until(self, done: Callable[[], bool], timeout: float = 30.0) -> bool:
        """The table handles its inputs as they come (what the broker delivers, the publisher's reports) until
        ``done()`` (True) or ``timeout`` seconds (False)."""
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                self.table.handle(self.table.inputs.get(timeout=min(left, 1.0)))
            except queue.Empty:
                continue
        return True

    def press(self, player: int) -> None:
        if self._last_press is not None and self.time.now() - self._last_press < self.PRESS_GAP:
            self.time.advance(self.PRESS_GAP)
        self._last_press = self.time.now()
        self.table.handle(inputs.ButtonPressed(player))

    def menu(self, *path: str | int) -> None:
        """Walk the menu: open it, pick the item with this kind, then choices by label (or index); a confirmation
        step takes its "yes" label (``ano``) or "no" label (``ne``)."""
        table = self.table
        table.menu.close()
        table.handle(inputs.EncoderPushed())
        kinds = [item.kind for item in table.menu.items]
        first, *rest = path
        assert first in kinds, f"menu item {first!r} not offered; offered: {kinds}"
        table.handle(inputs.EncoderTurned(kinds.index(first) - table.menu.index))
        table.handle(inputs.EncoderPushed())
        self.menu_continue(*rest)

    def menu_continue(self, *rest: str | int) -> None:
        """Go on in the open item: choices by label (or index), "ano"/"ne" in a confirmation."""
        table = self.table
        for step in rest:
            menu = table.menu
            assert menu.open and menu.chosen is not None, f"menu closed before choosing {step!r}"
            if menu.in_confirmation:
                assert step in (menu.yes_label, menu.no_label), f"confirmation asked, got {step!r}"
                if (step == menu.yes_label) != menu.confirm_yes:
                    table.handle(inputs.EncoderTurned(1))
                table.handle(inputs.EncoderPushed())
                continue
            labels = [c.label for c in menu.chosen.choices]
            target = step if isinstance(step, int) else labels.index(step)
            table.handle(inputs.EncoderTurned(target - menu.choice_index))
            table.handle(inputs.EncoderPushed())

    def advance(self, seconds: float) -> None:
        self.time.advance(seconds)
        self.table.handle(inputs.Tick())

    # ---- the board
    def frozen(self) -> Grid:
        return tuple(tuple(row) for row in self.grid)

    def lay(self, word: str, at: str) -> list[tuple[int, int]]:
        """Put the tiles of ``word`` (GCG style: lowercase = blank, shown on the board as ``?``) at ``at``."""
        placements = placements_from_word(grid_board(self.grid), Position.from_notation(at), word)
        cells = []
        for p in placements:
            self.grid[p.square.row][p.square.col] = p.tile.rack_letter
            cells.append((p.square.row, p.square.col))
        self.send(cells)
        return cells

    def lift(self, cells: list[tuple[int, int]]) -> None:
        for r, c in cells:
            self.grid[r][c] = None
        self.send(cells)

    def send(self, cells: list[tuple[int, int]]) -> None:
        self.table.handle(inputs.LinkEvent(BoardChanged(self.frozen(), tuple(cells))))

    def lay_check_square(self, missing: list[tuple[int, int]]) -> None:
        """Lay the Czech set's 10x10 tile-set check square (top left) without the tiles at ``missing``."""
        from engine.tiles import tile_set

        for i, letter in enumerate(tile_set("czech").check_square()):
            self.grid[i // 10][i % 10] = letter
        for r, c in missing:
            self.grid[r][c] = None
        self.send(missing)

    def unplug(self) -> None:
        self.table.handle(inputs.LinkEvent(LinkDown("unplugged")))

    def replug(self) -> None:
        self.table.handle(inputs.LinkEvent(LinkUp("rig", 1)))
        self.table.handle(inputs.LinkEvent(Snapshot(self.frozen())))

    # ---- what the table shows
    @property
    def view(self) -> dict:
        return self.table.view()

    @property
    def notice(self) -> list[str] | None:
        return self.view["notice"]


def grid_board(grid: list[list[str | None]]):
    """A board with what lies on ``grid`` (blanks as the letter A: only occupancy matters for placement)."""
    from engine.board import Board, Square
    from engine.tiles import BLANK, Tile

    board = Board()
    for r in range(SIZE):
        for c in range(SIZE):
            letter = grid[r][c]
            if letter is not None:
                board.put(Square(r, c), Tile("A", blank=True) if letter == BLANK else Tile(letter))
    return board


def started_rig(state_dir: Path) -> Iterator[Rig]:
    """A started rig for a pytest fixture (``yield from started_rig(tmp_path)``), closed afterwards."""
    rig = Rig(state_dir)
    rig.start()
    yield rig
    rig.close()


def first_move(rig: Rig) -> list[tuple[int, int]]:
    """B's press starts A's clock; A lays ROZUM at 8D (R on a DL, M on the centre) and presses: 18 points."""
    rig.press(1)
    cells = rig.lay("ROZUM", "8D")
    rig.press(0)
    return cells


class PowerCut(BaseException):
    """The power goes at this instant: nothing after it is written."""


def cut_power_writing(monkeypatch, rig: Rig, name: str, act) -> Rig:
    """Cut the power when the table writes the file ``name`` (clock.json, pending.json) during ``act()``; the
    journal written before it stays. Returns a new table started on the same folder with the same board."""

    def cut(path, text):
        if path.name == name:
            raise PowerCut
        return write_atomic(path, text)

    monkeypatch.setattr("device.table_recovery.write_atomic", cut)
    with pytest.raises(PowerCut):
        act()
    monkeypatch.undo()
    rig.close()
    return rig.restarted()


def cut_journal_op(monkeypatch, path, cut_at: int, how: str) -> list[str]:
    """Cut the power (``PowerCut``) at the ``cut_at``-th file operation on the journal's name (a rename to or
    from it, a link, an append), ``how`` "before" or "after" it; returns the operations seen, for messages."""
    path = os.fspath(path)
    seen: list[str] = []
    real_replace, real_link, real_append = os.replace, os.link, Journal.append

    def op(name, do):
        n = len(seen)
        seen.append(name)
        if n == cut_at and how == "before":
            raise PowerCut
        do()
        if n == cut_at:
            raise PowerCut

    def replace(src, dst, **kw):
        if path in (os.fspath(src), os.fspath(dst)):
            return op("replace", lambda: real_replace(src, dst, **kw))
        return real_replace(src, dst, **kw)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "link", lambda src, dst, **kw: op("link", lambda: real_link(src, dst, **kw)))
    monkeypatch.setattr(Journal, "append", lambda self, record: op("append", lambda: real_append(self, record)))
    return seen


@contextlib.contextmanager
def file_size_limit(size: int) -> Iterator[None]:
    """The kernel refuses (EFBIG) any write that would take a file of this process past ``size`` bytes, as a full
    card refuses a write: a real error from the file system, not a patched Python call (``RLIMIT_FSIZE``, its signal
    ignored so that the write fails instead of the process). A write that crosses the limit is a short write first."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)
