"""Crash-consistency soak: a whole tournament game played many times, the power cut at every instant that matters.

    python bench/soak.py [--trials 1000] [--seed 1] [--scenario tests/scenarios/tournament_game.txt] [--kill9 N]

The game is a scenario file (``hw_sim.scenario``, the bundled ČAS tournament game by default) played on the real
``device.table.Table`` with its real journal, clock checkpoint and pending-choice files on disk, the real menu and
the real rules engine; the hardware boundary is replaced as in ``tests/table_rig.py`` (inputs and board readings
handed to the loop, a fake monotonic time). First one uninterrupted run gives the reference: the final journal,
the score sheet and the GCG record, and the table's state after every input.

Each trial then plays the same game and cuts the power once (or more):

- **at a durable write** (every write the table makes: a journal line, the clock checkpoint, the pending-choice
  file, a journal repair), chosen in turn so that the trials cover every write of the game, menu steps included:
  before the write, after it, or (a journal line) half written;
- **with the journal damaged** after the cut: a line of garbage, a torn line with bytes that are not UTF-8, or an
  event the game refuses, appended to the journal;

then starts a new table on the same folder (a new monotonic time, as after a reboot; the wall clock goes on),
plugs the board in (its snapshot), and goes on as the players would: an input whose effect the restarted table
does not show is done again (a press, a turn, a push), one whose effect it shows is not. At the end the trial's
journal, score sheet and GCG must equal the reference. It prints trials, identical, different (with the first
differing event), failed restarts (a restart that raised, or a table state the uninterrupted game never had).

``--kill9 N`` also runs N real ``kill -9`` trials through the simulator (``partiar sim``: the daemon as its own
process on mock pins, the board on a pseudo-terminal, the real protocol), killing at random steps.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import device.table_recovery as table_mod
import shared.journal as journal_mod
from device import inputs
from device.clock.modes import mode
from device.config import parse_config
from device.journal_turn import replay_record
from device.table import Table
from engine.board import SIZE
from engine.game import Game
from engine.game.export import game_gcg
from engine.scoresheet import render_text
from hw_sim import scenario as sc
from shared.board_link.events import BoardChanged, LinkUp, Snapshot
from shared.journal import Journal, read_journal
from shared.timesource import FakeTime

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENARIO = ROOT / "tests" / "scenarios" / "tournament_game.txt"
WALL_EPOCH = 1_790_000_000.0
CHECKPOINT_PERIOD = 10.0
"""The table's clock checkpoint period in the soak (the daemon's is 2 s): the harness's time moves in ticks of
this length, as the daemon's loop wakes at each checkpoint while a move runs. A cut loses at most one period of
move time (given back to the player, as after any power cut), so clock-driven events (a time-out, the base
time's end) may come up to one period later after a cut; everything else must be identical. A longer period
than the daemon's keeps 1,000 whole games within the time; the logic under test is the same."""
CLOCK_DRIVEN = ("timeout", "base_time_expired")
PRESS_GAP = 0.5
"""Seconds a hand needs between two presses (the table takes two within 0.3 s for one slap)."""
JOURNAL_DAMAGE = ("garbage", "torn_non_utf8", "refused")


class PowerCut(BaseException):
    """The power goes now: nothing after this instant is written (not an Exception: nothing may catch it)."""


# ------------------------------------------------------------------------------------------- power cuts
class Cutter:
    """Counts the table's durable writes and cuts the power at the ``at``-th one (``how``: before it, after it,
    or, for a journal line, half of it written)."""

    def __init__(self) -> None:
        self.count = 0
        self.at: int | None = None
        self.how = "before"

    def arm(self, at: int | None, how: str = "before") -> None:
        self.count, self.at, self.how = 0, at, how

    def write(self, do: Callable[[], None], torn: Callable[[], None] | None = None) -> None:
        n = self.count
        self.count += 1
        if self.at is None or n != self.at:
            do()
            return
        self.at = None  # one cut per arming
        if self.how == "after":
            do()
        elif self.how == "torn" and torn is not None:
            torn()
        raise PowerCut


CUTTER = Cutter()


@contextlib.contextmanager
def power_cuts() -> Iterator[Cutter]:
    """Route the table's durable writes through ``CUTTER`` (the journal's append and the atomic file writes)."""
    real_append, real_atomic = Journal.append, journal_mod.write_atomic

    def append(self: Journal, record: dict[str, Any]) -> None:
        line = journal_mod.encode_records([record]).encode("utf-8")

        def torn() -> None:
            with open(self.path, "ab") as f:
                f.write(line[: max(1, len(line) // 2)])

        CUTTER.write(lambda: real_append(self, record), torn)

    def atomic(path: Any, text: str) -> None:
        CUTTER.write(lambda: real_atomic(path, text))

    real_period = table_mod.CHECKPOINT_PERIOD
    Journal.append = append  # type: ignore[method-assign]
    table_mod.write_atomic = atomic
    journal_mod.write_atomic = atomic  # the journal's own repair (``Journal.replace``)
    table_mod.CHECKPOINT_PERIOD = CHECKPOINT_PERIOD
    try:
        yield CUTTER
    finally:
        Journal.append = real_append  # type: ignore[method-assign]
        table_mod.write_atomic = real_atomic
        journal_mod.write_atomic = real_atomic
        table_mod.CHECKPOINT_PERIOD = real_period


# ------------------------------------------------------------------------------------------- the game
Input = tuple[Any, ...]
"""("press", player) | ("turn", steps) | ("push",) | ("board", ((row, col, tile or None), ...)) | ("advance", s)"""


@dataclass
class Run:
    """One table on a state folder, with the harness's board and clocks (the wall clock survives restarts)."""

    state_dir: Path
    wall: float = 0.0
    grid: list[list[str | None]] = field(default_factory=lambda: [[None] * SIZE for _ in range(SIZE)])
    table: Table | None = None
    restarts: int = 0
    players: tuple[str, ...] = ("Anna", "Bedřich")

    def boot(self) -> Table:
        """A table as after a power-up: new monotonic time, the journal resumed, the board plugged in."""
        names = ", ".join(f'"{p}"' for p in self.players)
        config = parse_config(f'[table]\nstate_dir = "{self.state_dir}"\nplayers = [{names}]\nclock = "cas"\n')
        time_source = FakeTime(1000.0 * self.restarts)
        table = Table(
            config=config,
            time=time_source,
            clock_mode=mode(config.clock),
            journal=Journal(config.journal_path),
            wall=lambda: WALL_EPOCH + self.wall,
        )
        self.table = table
        table.resume()
        table.handle(inputs.LinkEvent(LinkUp("soak", 1)))
        table.handle(inputs.LinkEvent(Snapshot(self.frozen())))
        return table

    def frozen(self) -> tuple[tuple[str | None, ...], ...]:
        return tuple(tuple(row) for row in self.grid)

    def close(self) -> None:
        if self.table is not None:
            self.table.journal.close()

    def do(self, item: Input) -> None:
        """One input to the table (the board's cells change whether or not the table is alive to see it)."""
        table = self.table
        assert table is not None
        kind = item[0]
        if kind == "board":
            for r, c, tile in item[1]:
                self.grid[r][c] = tile
            table.handle(inputs.LinkEvent(BoardChanged(self.frozen(), tuple((r, c) for r, c, _ in item[1]))))
        elif kind == "advance":
            table.time.advance(item[1])
            self.wall += item[1]
            table.handle(inputs.Tick())
        elif kind == "press":
            table.time.advance(PRESS_GAP)
            self.wall += PRESS_GAP
            table.handle(inputs.ButtonPressed(item[1]))
        elif kind == "turn":
            table.handle(inputs.EncoderTurned(item[1]))
        elif kind == "push":
            table.handle(inputs.EncoderPushed())
        else:
            raise ValueError(f"unknown input {item!r}")


def inputs_of_step(run: Run, step: Any, record: list[Input], after: Callable[[], None] = lambda: None) -> None:
    """Do one scenario step on the run's table, recording the concrete inputs it took (``after`` each one)."""

    def do(item: Input) -> None:
        record.append(item)
        run.do(item)
        after()

    table = run.table
    assert table is not None
    match step:
        case sc.Place():
            cells = tuple((r, c, t) for r, c, t in step.cells() if run.grid[r][c] != t)
            for cell in cells:  # a hand lays one tile after another
                do(("board", (cell,)))
        case sc.Remove():
            for r, c in step.cells():
                do(("board", ((r, c, None),)))
        case sc.Press():
            if step.button == "encoder":
                do(("push",))
            else:
                do(("press", 0 if step.button == "a" else 1))
        case sc.Turn():
            do(("turn", step.steps))
        case sc.Advance():
            left = step.seconds
            while left > 0:  # the daemon's loop wakes at least every checkpoint period while a move runs
                tick = min(left, CHECKPOINT_PERIOD)
                do(("advance", tick))
                left -= tick
        case sc.Choose():
            wanted = "> " + step.label
            if not table.menu.open:
                do(("push",))
            for _ in range(sc.MAX_MENU_TURNS):
                if wanted in table.menu.lines():
                    do(("push",))
                    return
                do(("turn", 1))
            raise sc.ScenarioFailed("menu_no_entry", label=step.label, turns=sc.MAX_MENU_TURNS)
        case sc.ExpectScore():
            game = table.game
            got = list(game.result.final) if step.final and game.result else list(game.scores)
            if got != list(step.scores):
                raise sc.ScenarioFailed("final_differs" if step.final else "score_differs", expected=list(step.scores), shown=got)
        case sc.WaitLcd() | sc.WaitDaemon():
            pass
        case _:
            raise sc.ScenarioFailed("not_played", step=step.text())


def state_of(table: Table) -> dict[str, Any]:
    """What a player sees of the table after an input, and what the restart must come back to: the journal's
    length, the menu (a confirmation's cursor aside: it comes back on "no"), the pending choices, the clock."""
    menu = table.menu.state()
    if menu is not None:
        menu = {k: v for k, v in menu.items()}
    clock = table.clock.view(table.time.now())
    return {
        "events": len(table.game.events),
        "menu": menu,
        "confirm_yes": table.menu.in_confirmation and table.menu.confirm_yes,
        "blanks": sorted(table.state.blank_letters.items()),
        "take_back": sorted(table.state.take_back),
        "put_back": sorted(table.state.put_back.items()),
        "clock": [clock.get("state"), clock.get("player_on_move"), clock.get("move_left"), clock.get("game_left")],
    }


def results(state_dir: Path) -> dict[str, Any]:
    """The trial's outcome: the journal, the score sheet and the GCG of the game it holds."""
    records = list(read_journal(state_dir / "journal.jsonl"))
    game = Game()
    for record in records:
        replay_record(game, record)
    return {"journal": records, "sheet": render_text(game, "cs"), "gcg": game_gcg(game)}


@dataclass
class Reference:
    inputs: list[Input]
    states: list[dict[str, Any]]  # states[k]: after inputs[:k]
    walls: list[float]  # walls[k]: the wall clock before inputs[k] (a redone input happens "at the same time")
    result: dict[str, Any]
    writes: int
    marks: list[int] = field(default_factory=list)  # marks[k]: durable writes made before inputs[k]


def reference(steps: list[Any], folder: Path, players: tuple[str, ...] = ("Anna", "Bedřich")) -> Reference:
    """The uninterrupted game: its inputs, the table's state after each, its results, its durable writes."""
    run = Run(folder, players=players)
    with power_cuts() as cutter:
        cutter.arm(None)
        table = run.boot()
        record: list[Input] = []
        states = [state_of(table)]
        walls = [run.wall]
        marks = [cutter.count]

        def after() -> None:
            states.append(state_of(table))
            walls.append(run.wall)
            marks.append(cutter.count)

        for step in steps:
            inputs_of_step(run, step, record, after)
        run.close()
        writes = cutter.count
    return Reference(record, states, walls[:-1], results(folder), writes, marks[:-1])


# ------------------------------------------------------------------------------------------- one trial
@dataclass
class Outcome:
    identical: bool
    failed_restart: str = ""
    first_difference: str = ""
    cuts: int = 0


CLOCK_TOLERANCE = CHECKPOINT_PERIOD + PRESS_GAP
"""Seconds the move and game time left may differ after a restart (the time since the last checkpoint)."""


def _same_but_cursor(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same table for a player: the same record, menu and pending choices, the clock in the same state for
    the same player with about the same time left; a confirmation's cursor aside (it comes back on "no")."""
    skip = ("confirm_yes", "clock")
    if {k: v for k, v in a.items() if k not in skip} != {k: v for k, v in b.items() if k not in skip}:
        return False
    (sa, pa, *ta), (sb, pb, *tb) = a["clock"], b["clock"]
    close = all(x == y or (x is not None and y is not None and abs(x - y) <= CLOCK_TOLERANCE) for x, y in zip(ta, tb, strict=False))
    return (sa, pa) == (sb, pb) and close


def damage_journal(path: Path, how: str) -> None:
    with open(path, "ab") as f:
        if how == "garbage":
            f.write(b"this is not json\n")
        elif how == "torn_non_utf8":
            f.write(b'{"type":"pass","at":1,"x":"\xc5')
        elif how == "refused":  # two tiles not in one line: refused in any game
            f.write(b'{"type":"play","at":1.0,"placements":[[7,7,"K",false],[0,0,"O",false]]}\n')


def trial(ref: Reference, folder: Path, cut_at: int, how: str, damage: str | None) -> Outcome:
    """Play the reference inputs with the power cut at the ``cut_at``-th durable write, restart, go on."""
    run = Run(folder)
    k = 0
    cuts = 0
    with power_cuts() as cutter:
        cutter.arm(cut_at, how)
        try:
            run.boot()
        except PowerCut:
            k = -1
        while k < len(ref.inputs):
            if k >= 0:
                try:
                    run.wall = ref.walls[k]
                    run.do(ref.inputs[k])
                    k += 1
                    continue
                except PowerCut:
                    pass
            # the power went during input k (or the first boot): restart and see how far the table got
            cuts += 1
            run.close()
            if damage is not None:
                damage_journal(folder / "journal.jsonl", damage)
                damage = None
            run.restarts += 1
            try:
                table = run.boot()
            except PowerCut:
                k = max(k, 0)
                continue
            except Exception as e:  # noqa: BLE001 - a restart that raises is what the soak counts
                return Outcome(False, failed_restart=f"restart after input {k}: {type(e).__name__}: {e}", cuts=cuts)
            now = state_of(table)
            k = max(k, 0)
            done, redo = ref.states[k + 1] if k < len(ref.inputs) else None, ref.states[k]
            if done is not None and _same_but_cursor(now, done):
                target, k = done, k + 1
            elif _same_but_cursor(now, redo):
                target = redo
            else:
                return Outcome(
                    False,
                    failed_restart=f"after a cut in input {k} {ref.inputs[k]!r} the table shows a state the game "
                    f"never had: {now} (expected {redo} or {done})",
                    cuts=cuts,
                )
            if target["confirm_yes"] and not now["confirm_yes"]:
                run.do(("turn", 1))  # the confirmation came back on "no": the player turns to "yes" again
        run.close()
    got = results(folder)
    if same_results(ref.result, got):
        return Outcome(True, cuts=cuts)
    return Outcome(False, first_difference=first_difference(ref.result, got), cuts=cuts)


def same_record(want: dict[str, Any], got: dict[str, Any]) -> bool:
    """Equal, but a clock-driven event's time may be up to one checkpoint period later (see CHECKPOINT_PERIOD)."""
    if want.get("type") in CLOCK_DRIVEN and want.get("type") == got.get("type"):
        rest = {k: v for k, v in want.items() if k != "at"} == {k: v for k, v in got.items() if k != "at"}
        return rest and 0 <= got["at"] - want["at"] <= CHECKPOINT_PERIOD + 1e-6
    return want == got


def same_results(want: dict[str, Any], got: dict[str, Any]) -> bool:
    a, b = want["journal"], got["journal"]
    return (
        len(a) == len(b)
        and all(same_record(x, y) for x, y in zip(a, b, strict=True))
        and want["sheet"] == got["sheet"]
        and want["gcg"] == got["gcg"]
    )


def first_difference(want: dict[str, Any], got: dict[str, Any]) -> str:
    a, b = want["journal"], got["journal"]
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if not same_record(x, y):
            return f"journal event {i + 1}: expected {json.dumps(x, ensure_ascii=False)}, got {json.dumps(y, ensure_ascii=False)}"
    if len(a) != len(b):
        return f"journal: expected {len(a)} events, got {len(b)}"
    return "the sheet or the GCG differ" if want["sheet"] != got["sheet"] else "the GCG differs"


# --------------------------------------------------------------------------------------------- the plan
def plan(ref: Reference, trials: int, rng: random.Random) -> Iterator[tuple[int, str, str | None]]:
    """The cuts: every durable write of the game in turn (before it, after it, torn, the mode changing from pass
    to pass), spread evenly over the game when there are fewer trials than writes; random writes after three
    passes. One trial in five also damages the journal after the cut."""
    hows = ("before", "after", "torn")
    writes = ref.writes
    for t in range(trials):
        if trials < writes:
            cut_at, how = t * writes // trials, hows[t % len(hows)]
        elif t < writes * len(hows):
            cut_at, how = t % writes, hows[(t // writes + t) % len(hows)]
        else:
            cut_at, how = rng.randrange(writes), rng.choice(hows)
        damage = JOURNAL_DAMAGE[(t // 5) % len(JOURNAL_DAMAGE)] if t % 5 == 4 else None
        yield cut_at, how, damage


@dataclass
class Summary:
    trials: int = 0
    identical: int = 0
    different: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    cuts: int = 0

    def line(self) -> str:
        return (
            f"trials {self.trials}  identical {self.identical}  different {len(self.different)}  "
            f"failed restarts {len(self.failed)}  (power cuts {self.cuts})"
        )


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """The table's logs of the repairs the soak provokes are silenced, and put back as they were."""
    logger = logging.getLogger("device")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def soak(trials: int, seed: int, scenario: Path, report: Callable[[str], None] = print, jobs: int = 1) -> Summary:
    with quiet():
        return _soak(trials, seed, scenario, report, jobs)


def _soak(trials: int, seed: int, scenario: Path, report: Callable[[str], None], jobs: int) -> Summary:
    steps = sc.Scenario.load(scenario).steps
    shm = Path("/dev/shm")  # RAM: the fsyncs cost nothing, the write order is the same
    root = Path(tempfile.mkdtemp(prefix="partiar-soak-", dir=shm if shm.is_dir() else None))
    try:
        ref = reference(steps, root / "reference")
        report(
            f"reference: {len(ref.inputs)} inputs, {ref.writes} durable writes, {len(ref.result['journal'])} "
            f"journal events ({scenario.name})"
        )
        summary = Summary()
        specs = [(ref, root / f"t{t}", cut_at, how, damage) for t, (cut_at, how, damage) in
                 enumerate(plan(ref, trials, random.Random(seed)))]  # fmt: skip
        if jobs > 1:
            ctx = multiprocessing.get_context("fork")
            with ctx.Pool(jobs) as pool:
                outcomes = pool.starmap(_trial_in_folder, specs, chunksize=4)
        else:
            outcomes = [_trial_in_folder(*spec) for spec in specs]
        for (_ref, _folder, cut_at, how, damage), (t, out) in zip(specs, enumerate(outcomes), strict=True):
            summary.trials += 1
            summary.cuts += out.cuts
            what = f"trial {t} (cut at write {cut_at} {how}{', journal ' + damage if damage else ''})"
            if out.identical:
                summary.identical += 1
            elif out.failed_restart:
                summary.failed.append(f"{what}: {out.failed_restart}")
            else:
                summary.different.append(f"{what}: {out.first_difference}")
        return summary
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _trial_in_folder(ref: Reference, folder: Path, cut_at: int, how: str, damage: str | None) -> Outcome:
    try:
        with quiet():
            return trial(ref, folder, cut_at, how, damage)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", type=Path, default=DEFAULT_SCENARIO)
    ap.add_argument("--jobs", type=int, default=2, help="trials run in this many processes (default 2)")
    ap.add_argument("--kill9", type=int, default=0, help="also N real kill -9 trials through the simulator")
    args = ap.parse_args()
    t0, c0 = time.perf_counter(), _cpu()
    summary = soak(args.trials, args.seed, args.scenario, jobs=args.jobs)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    print(summary.line())
    for line in (summary.different + summary.failed)[:10]:
        print("  " + line)
    print(
        f"  {wall:.1f} s wall, {cpu:.1f} s CPU ({1000 * cpu / max(1, summary.trials):.0f} ms CPU per trial), "
        f"{args.jobs} processes, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    ok = not summary.different and not summary.failed
    if args.kill9:
        ok = kill9(args.kill9, args.seed, args.scenario) and ok
    return 0 if ok else 1


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the trial workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def kill9(n: int, seed: int, scenario: Path) -> bool:
    """N real kill -9 of the daemon at random steps of the scenario, through the simulator."""
    from hw_sim.sim import Sim
    from hw_sim.sim_client import SimClient

    steps = [s for s in sc.Scenario.load(scenario).steps if not isinstance(s, (sc.WaitDaemon,))]
    rng = random.Random(seed)
    kill_after = set(rng.sample(range(len(steps)), min(n, len(steps))))
    folder = Path(tempfile.mkdtemp(prefix="partiar-kill9-"))
    t0 = time.perf_counter()
    kills = failed = 0
    try:
        with Sim(folder, port=0, time_mode="manual") as sim, SimClient(sim.url) as client:
            if not client.wait_daemon(60.0):
                print("kill -9: the daemon did not come up")
                return False
            for i, step in enumerate(steps):
                sc.run_step(client, step)
                if i not in kill_after:
                    continue
                old = sim.daemon.pid
                sim.daemon.kill()
                kills += 1
                back = client.wait_for(
                    lambda s, old=old: (s.get("daemon") or {}).get("pid") not in (None, old)
                    and ((s.get("panel") or {}).get("table") or {}).get("resumed") is True
                    and ((s.get("panel") or {}).get("table") or {}).get("link_up") is True,
                    60.0,
                )
                if back is None:
                    failed += 1
                    print(f"kill -9 after step {i}: the daemon did not come back")
                    return False
        ref_folder = folder / "ref"
        ref = results(folder) if (folder / "journal.jsonl").exists() else None
        from device.config import TableConfig

        uninterrupted = reference(sc.Scenario.load(scenario).steps, ref_folder, TableConfig().players)
        got = [_strip_at(r) for r in ref["journal"]] if ref is not None else []
        want = [_strip_at(r) for r in uninterrupted.result["journal"]]
        same = got == want
        if not same:
            diff = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), min(len(want), len(got)))
            print(f"kill -9: first difference at event {diff + 1}: expected "
                  f"{want[diff] if diff < len(want) else None}, got {got[diff] if diff < len(got) else None}")
        print(
            f"kill -9: {kills} kills through the simulator, failed restarts {failed}, final journal "
            f"{'identical' if same else 'DIFFERENT'} to the uninterrupted game (wall times aside), "
            f"{time.perf_counter() - t0:.1f} s"
        )
        return same and failed == 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _strip_at(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what the wall clock wrote into it (the simulator's is the real one): its time, and the
    start time on the score sheet's header."""
    return {k: v for k, v in record.items() if k not in ("at", "started", "table")}


if __name__ == "__main__":
    sys.exit(main())
