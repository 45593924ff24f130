"""The power-cut sweep: a short game on the rig, the power cut at every step boundary (every durable write the
table makes: each journal line, each clock checkpoint and pending-choice file; a journal line half written; the
end of every input). Used by ``tests/test_power_sweep.py`` (one fixed game, CI) and ``bench/sweep.py`` (many
random games).

A game is played on the rig (``tests/table_rig.py``: the real Table, journal, checkpoint and pending
files, fake time) with a short base time, so that it goes through a play, a challenge upheld and its tiles taken
back, a pass, the base time's end and the A-B-C playout, the time-out of a move, and the end-of-game rack entry.
At each write the state folder is copied as the power would leave it (the files as written so far; a torn copy
has half of the journal line being written), with the tiles lying on the board at that instant. Each copy is then
restarted as a table after a power cut would be (a new monotonic clock, the board's snapshot), and must show
exactly the table before the input the cut came in, or exactly the table after it: the game (board, scores,
history, racks, result), the clock (state, who is on move, move and base time left, the phase), what the two LCDs
show (the notice aside: a restart says it resumed), the tiles to take back or put back, and the menu.

``play_referee`` is a second short game for the referee's questions (no-show, warnings, the exclusion asked after
the third warning), swept the same way.

Copying the folder at the instant of each write is the same as cutting the power there: a restart reads nothing
but those files and the board.

The clock checkpoint is written by the daemon's writer thread (``device.checkpoint_writer``), after the input that
took it. The sweep runs that thread and lets it write at fixed points only (``Sweep.release``), so the cuts come
in the same order every run: after every other input, as the loop waits for it (a paused clock...), and after a
journal line of the next input: a checkpoint taken before an event and written after it. Until it is written, a
cut may also show the table before the input that took it (``Copy.first``). It is held back only while the fake
time stands still (the next input is a press after a tile laid, a menu step), and never after a tick (the time
moved: a tick's checkpoint held back would give back its fake 25-50 s, where the daemon's writer takes
milliseconds): a disk that hangs longer costs the clock that time, as it did when the loop itself waited
(docs/daemon.md). ``bench/soak.py`` cuts a whole tournament game, then goes on playing it.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from table_rig import Rig

import device.table_recovery as table_mod
from device import inputs
from device.checkpoint_writer import CheckpointWriter
from device.clock.modes import mode
from device.screens import render
from device.table import Table
from shared.journal import Journal, encode_records
from shared.timesource import FakeTime

A, B = 0, 1
CLOCK = dataclasses.replace(mode("cas"), game_time=300.0, warning_before=60.0)
"""The ČAS clock with a 5-minute base time: the playout comes after a few moves."""

CHECKPOINT_PERIOD = 25.0
"""The clock checkpoint's period here (the daemon's is 2 s). Time moves in ticks of one or two periods, each of
which writes a checkpoint, as each wake of the daemon's loop does while a move runs: a cut after a tick is exact.
A cut between a game event's journal line and the checkpoint that follows it comes up to two periods after the
last checkpoint, and must still be exact: the event's own time says how long the clock ran on
(``device.table._ran_after``). (Between two ticks with no event, the time since the last checkpoint is given back:
at most one period, 2 s in the daemon; the soak and docs/daemon.md count it.)"""

SINGLES = "EAIOENSTVKLPDJRAEIO"
"""Letters laid one at a time down column H under ROZUM's M, then along row 15 (``single_tile``)."""


def single_square(n: int) -> tuple[int, int]:
    cells = [(r, 7) for r in range(8, 15)] + [(14, c) for c in range(8, 15)] + [(14, c) for c in range(6, -1, -1)]
    return cells[n]


def observe(table: Table) -> dict[str, Any]:
    """What a restart must bring back: the game, the clock, the LCDs (notice and result page aside), the tiles
    asked to be moved, the menu (a confirmation's cursor aside: it comes back on "no")."""
    view = table.view()
    steady = {**view, "notice": None, "resumed": False, "result_page": 0}
    lcds = [render(steady, table.lang, 16, 2, table._player_at(i), 2) for i in range(2)]
    menu = table.menu
    if menu.in_confirmation:  # a confirmation comes back on "no" (a restart never says yes for a player)
        yes, no = f"> {menu.yes_label}", f"> {menu.no_label}"
        lcds = [tuple(row.replace(yes, no.ljust(len(yes))) for row in rows) for rows in lcds]
    clock = {k: v for k, v in view["clock"].items() if k != "signal"}
    return {
        "game": view["game"],
        "clock": clock,
        "lcds": lcds,
        "take_back": view["take_back"],
        "put_back": view["put_back"],
        "blanks": view["blanks"],
        "blank_wait": view["blank_wait"],
        "menu": menu.state(),
    }


@dataclasses.dataclass
class Copy:
    """The state folder as a power cut at one instant leaves it."""

    folder: Path
    grid: list[list[str | None]]
    inputs: int
    """Inputs the table had finished when the power went (the cut came in the next one, or just after this)."""
    what: str
    first: int
    """The earliest state a restart may show: ``inputs``, or the state before the input whose clock checkpoint
    the writer thread has not written yet."""


class Sweep:
    """Records the table's state after every input and copies the state folder at every durable write."""

    def __init__(self, rig: Rig, root: Path) -> None:
        self.rig = rig
        self.root = root
        self.states: list[dict[str, Any]] = []
        self.copies: list[Copy] = []
        self.loop = threading.current_thread()
        self.writer = CheckpointWriter(lambda path, text: table_mod.write_atomic(path, text))
        rig.table.checkpoints = self.writer
        self._gate = threading.Semaphore(0)
        self._wrote = threading.Semaphore(0)
        self.lagging: int | None = None
        """The state whose clock checkpoint is still to be written (the writer is held back)."""
        self.lag_time = 0.0
        """The fake time when the writer was held back: it writes before the time moves on."""
        self.late = 0
        """Checkpoints written after a journal line that came after them."""

    def release(self) -> None:
        """Let the writer thread write what it holds; wait for it (it writes only when let)."""
        writer = self.writer
        while not writer.idle:
            before = writer._written  # noqa: SLF001 (the sweep holds the writer at its write)
            self._gate.release()
            assert self._wrote.acquire(timeout=60), "the checkpoint writer did not write"
            with writer._cond:  # noqa: SLF001
                assert writer._cond.wait_for(lambda n=before: writer._written != n, 60)  # noqa: SLF001
        self.lagging = None

    def copy(self, what: str, torn: bytes = b"") -> None:
        folder = self.root / f"cut{len(self.copies):04d}"
        shutil.copytree(self.rig.state_dir, folder)
        if torn:
            with open(folder / "journal.jsonl", "ab") as f:
                f.write(torn)
        grid = [list(row) for row in self.rig.grid]
        inputs = len(self.states) - 1
        first = inputs if self.lagging is None else min(inputs, self.lagging - 1)
        self.copies.append(Copy(folder, grid, inputs, what, first))

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real_append, real_atomic, real_handle = Journal.append, table_mod.write_atomic, Table.handle
        real_wait = CheckpointWriter.wait
        sweep = self

        def append(journal: Journal, record: dict[str, Any]) -> None:
            line = encode_records([record]).encode("utf-8")
            sweep.copy(f"torn {record['type']}", torn=line[: len(line) // 2])
            real_append(journal, record)
            sweep.copy(f"after {record['type']}")
            if not sweep.writer.idle:
                sweep.late += 1
                sweep.release()  # a checkpoint taken before this line, written after it

        def atomic(path: Path, text: str) -> None:
            writer_thread = threading.current_thread() is not sweep.loop
            if writer_thread:
                sweep._gate.acquire()
            try:
                real_atomic(path, text)
                sweep.copy(f"after {Path(path).name}")
            finally:
                if writer_thread:
                    sweep._wrote.release()

        def wait(writer: CheckpointWriter, timeout: float | None = None) -> bool:
            sweep.release()  # the loop waits for the writer: let it write
            return real_wait(writer, 60.0)

        def handle(table: Table, item: object) -> None:
            if sweep.lagging is not None and table.time.now() != sweep.lag_time:
                sweep.release()  # written before the time moves on
            real_handle(table, item)
            sweep.states.append(observe(table))
            if sweep.lagging is not None:
                pass  # held back since an earlier input at this same time: still
            elif len(sweep.states) % 2 or isinstance(item, inputs.Tick):
                sweep.release()  # this input's checkpoint written before the next input
            elif not sweep.writer.idle:
                sweep.lagging, sweep.lag_time = len(sweep.states) - 1, table.time.now()  # ... or in its course
            sweep.copy(f"after input {type(item).__name__}")

        monkeypatch.setattr(Journal, "append", append)
        monkeypatch.setattr(table_mod, "write_atomic", atomic)
        monkeypatch.setattr(CheckpointWriter, "wait", wait)
        monkeypatch.setattr(Table, "handle", handle)


def play(rig: Rig, rng: random.Random | None = None) -> None:
    """The short game: a play, a word challenged and withdrawn, a pass, single tiles until the base time ends, the
    A-B-C playout with a time-out in it, and the racks entered at the end. With ``rng``, a random game of the same
    steps: tick lengths (one or two checkpoint periods), passes, exchanges, challenges upheld or rejected."""
    tick = (lambda: rng.choice((1.0, 1.5, 2.0)) * CHECKPOINT_PERIOD) if rng else (lambda: 50.0)
    rig.press(B)  # Bedřich starts Anna's clock
    rig.advance(25.0)
    rig.lay("ROZUM", "8D")
    rig.press(A)  # 18
    rig.advance(25.0)
    uhel = rig.lay("UHEL", "G8")
    rig.press(B)
    rig.menu("challenge_word", "UHEL")  # Anna challenges: the clock stops for the referee
    rig.menu("ruling", "oprávněná")  # upheld: Bedřich takes the tiles back, Anna is on move
    rig.lift(uhel)
    n = 0
    turn = 0
    while rig.table.game.abc_start is None:  # single tiles, about 100 s each, until the base time is over
        rig.advance(tick())
        rig.advance(min(tick(), 110.0 - 2 * CHECKPOINT_PERIOD) if rng else 50.0)
        what = ("pass" if turn == 1 else "tile") if rng is None else rng.choice(("tile", "tile", "pass", "exchange"))
        if rig.table.game.scoreless_streak:  # two scoreless rounds would end the game: a tile
            what = "tile"
        if what == "exchange" and rig.table.game.bag_count >= 7:
            rig.menu("exchange", str(rng.randint(1, 7)) if rng else "3", "ano")
            rig.press(rig.table.game.player_on_move)
        elif what == "pass" or what == "exchange":
            rig.press(rig.table.game.player_on_move)
        else:
            n = lay_single(rig, n, rng)
        turn += 1
    timed_out = False
    while rig.table.game.ended is None:
        player = rig.table.game.player_on_move
        if not timed_out:  # the move time runs out: the player who ran out starts the next move (004)
            rig.advance(60.0)
            rig.advance(62.0)
            timed_out = True
            rig.press(player)
            continue
        rig.advance(30.0)
        n = lay_single(rig, n, rng)
    unseen = sorted(rig.table.game.unseen().elements())
    while rig.table.game.racks_needed:
        player = rig.table.game.racks_needed[0]
        count = rig.table.game.rack_counts[player]
        rack, unseen = unseen[:count], unseen[count:]
        rig.menu("racks", *list(rack), "hotovo", "ano")
    assert rig.table.game.result is not None


def play_referee(rig: Rig, rng: random.Random | None = None) -> None:
    """The referee's questions (``TableState.referee_ok``): a no-show asked and answered no, three warnings each
    confirmed, the exclusion asked at once after the third and refused, a fourth warning, the exclusion asked
    again and confirmed (the game ends), then a dispute forfeited 0:0 and the 0:0 question (void or a draw) answered.
    Each question is answered by turning to the choice, then pushing, so the
    cuts fall while a question is on the LCD, with the cursor on either choice. ``rng``: unused (one fixed game)."""
    rig.press(B)
    rig.advance(25.0)
    rig.menu("no_show", "Anna")  # Bedřich reports Anna absent; the referee says no
    rig.menu_continue("ne")
    rig.lay("ROZUM", "8D")
    rig.press(A)
    for n in (1, 2, 3, 4):
        rig.advance(25.0)
        rig.menu("warning", f"Bedřich ({n}.)")
        rig.menu_continue("ano: Bedřich")
        if n >= 3:  # the chief referee's question comes at once: kept the first time, excluded the second
            assert rig.table.menu.open and rig.table.state.referee_ok is not None
            rig.menu_continue("ne" if n == 3 else "ano: Bedřich")
    assert rig.table.game.result is not None
    rig.menu("dispute_forfeit", "nikdo", "ano")  # then a dispute forfeited 0:0, and asked: void or a draw
    rig.menu_continue("remíza", "ano")
    assert rig.table.game.result.outcome == "draw"


RULINGS = 'base_time = "referee"'
"""The config of ``play_rulings``: a tournament table, the chief referee's word on the clock."""


def play_rulings(rig: Rig, rng: random.Random | None = None) -> None:
    """Issue 26's rulings on a tournament table (``RULINGS``): a tile missing at the set check, the referee called
    and ruling "hrát s ní"; the round started from the menu; a move that times out with ROZUM on the board (the
    tiles asked back); an exchange announced and ended by the press; the table's own base time over and the
    referee's end from the menu. ``rng``: unused (one fixed game)."""
    rig.lay_check_square([(0, 0)])
    rig.menu("check", "ano")
    rig.menu_continue("hrát s ní", "ano")  # the menu opened on the referee's question
    rig.lift([(r, c) for r in range(10) for c in range(10)])
    rig.menu("round_start", "ano")
    rig.press(B)
    cells = rig.lay("ROZUM", "8D")
    rig.advance(120.0)  # Anna's move times out with ROZUM on the board (at the tick's instant: no time after it)
    rig.press(A)
    rig.lift(cells)
    rig.advance(30.0)  # ticks longer than a checkpoint period (a shorter one's time is given back at a restart)
    rig.menu("exchange", "3", "ano")
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.advance(30.0)
    rig.press(A)
    rig.advance(60.0)
    rig.press(B)
    rig.advance(60.0)  # the table's own five minutes are over: it waits for the referee
    assert rig.view["referee_wait"] == "end"
    rig.menu("round_end", "ano")
    assert rig.table.game.abc_start is not None


def lay_single(rig: Rig, n: int, rng: random.Random | None) -> int:
    """The player on move lays the ``n``-th single tile and presses; with ``rng`` the next player may challenge it
    (upheld: the tile comes off, rejected: a cross). Returns the index of the next tile."""
    r, c = single_square(n)
    rig.grid[r][c] = SINGLES[n]
    rig.send([(r, c)])
    rig.press(rig.table.game.player_on_move)
    if rng is None or rng.random() < 0.7 or rig.table.game.ended is not None or not rig.table.game.open_move:
        return n + 1
    word = [item for item in rig.table._menu_items() if item.kind == "challenge_word"]
    if not word:
        return n + 1
    rig.menu("challenge_word", word[0].choices[0].label)
    upheld = rng.random() < 0.5
    rig.menu("ruling", "oprávněná" if upheld else "neoprávněná")
    if upheld:
        rig.lift([(r, c)])
        return n
    return n + 1


def restarted(copy: Copy, options: dict[str, Any], n: int) -> Rig:
    again = Rig(copy.folder, time=FakeTime(9000.0 + n), **options)
    again.grid = [list(row) for row in copy.grid]
    again.start()
    return again


def differences(want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    return [f"{key}: expected {want[key]!r}, got {got[key]!r}" for key in want if want[key] != got[key]]




def sweep_game(
    folder: Path, monkeypatch: pytest.MonkeyPatch, rng: random.Random | None = None, script: Any = play,
    extra: str = "",
) -> tuple[Sweep, list[str]]:
    """Play the game (``script``: ``play`` or ``play_referee``) in ``folder``, copying the state at every write; restart every copy. Returns the
    sweep and the cuts whose restart showed neither the table before nor the table after that input."""
    monkeypatch.setattr("os.fsync", lambda fd: None)  # the copies stand for the disk; keep the run short
    monkeypatch.setattr(table_mod, "CHECKPOINT_PERIOD", CHECKPOINT_PERIOD)
    rig = Rig(folder / "game", clock_mode=CLOCK, extra=extra)
    rig.start()
    sweep = Sweep(rig, folder)
    sweep.install(monkeypatch)
    sweep.states.append(observe(rig.table))  # the table as it started
    try:
        script(rig, rng)
        sweep.release()
    finally:
        monkeypatch.undo()
        sweep.release()
        sweep.writer.close()
        rig.table.checkpoints = None
        monkeypatch.setattr("os.fsync", lambda fd: None)
        monkeypatch.setattr(table_mod, "CHECKPOINT_PERIOD", CHECKPOINT_PERIOD)
        rig.close()
    problems = []
    for n, copy in enumerate(sweep.copies):
        again = restarted(copy, rig.options, n)
        got = observe(again.table)
        again.close()
        allowed = sweep.states[copy.first : copy.inputs + 2]
        if got not in allowed:
            nearer = min(allowed, key=lambda s: len(differences(s, got)))
            problems.append(f"cut {n} ({copy.what}, input {copy.inputs}): {differences(nearer, got)}")
    return sweep, problems
