"""LCD write cost: the real charlcd library, real sleeps, on gpiozero mock pins / the fake I2C bus into the emulator;
and the timer tick through the whole daemon.

Prints median, p99 and CPU time of: one character through the library; a full-screen rewrite; CharDisplay's diff
update for a move timer ticking (one or two changed characters per second, a longer change every ten seconds),
with the library's own E pulse (three 100 ns sleeps per pulse, each a trip through the scheduler), with the
table's (``device.lcd``: no sleeps around E once the LCD is initialised), with the table's pulse and the writes at
real-time priority (``device.lcd.PRIORITY``) called from a thread at normal priority (as this bench measured
before issue 18: the write hands the thread its normal policy back at its end, and the bench's timer then waits
for a core behind the busy processes: those were the outliers of 12-89 ms at ``--load 6``), and as the daemon
writes: the same called from a thread at the loop's ``SCHED_FIFO`` priority (``device.hardware.LOOP_PRIORITY``),
all in the same run. Real-time priority needs root or CAP_SYS_NICE; without it the log says so and those rows run
at normal priority.

``--daemon PAIRS`` adds the tick through the whole daemon (``device.hardware.build_table`` on the simulator's
panel, the real reader with the board in a process of its own laying and lifting a tile every 2 s, the buzzer's
process): from the deadline the loop waited for to the end of the LCD write that shows the new time, the part
until the loop runs Python again (the kernel's wake-up and the interpreter lock), the loop's CPU per tick, the
garbage collector's passes, one full pass over the daemon's heap, the loop's part of the clock checkpoint (the
hand-over to its writer thread; the whole write on code before it) and the checkpoint's disk writes; the
daemon started as before issue 18's fix and as now (``bench/startup.py``), alternated in blocks of one move on
the home clock (~1 min each: the LCD redraws every second, every 0.1 s in the last 10).

Target: a timer tick's update under 20 ms p99 (the table loop redraws every second; a longer write delays the
next input); the full rewrite's figure feeds bench/table.py's press-to-score budget.

    .venv/bin/python bench/lcd.py [--repeat N] [--load N] [--daemon PAIRS [--startup now] [--daemon-only]]

Old code against new (issue 18's tick): a worktree of the old commit on ``PYTHONPATH`` (it comes before the
installed checkout), the runs alternated back to back, ``--daemon 1 --startup now --daemon-only`` each.

``--load N`` starts N busy processes beside the bench (the other work of a busy Pi).

On a Pi with lgpio the pin writes cost more than mock pin writes, and the I2C backpack adds two bus transfers per
E pulse; the library's own sleeps (1 ms per byte, plus 6 E-pulse sleeps of >= 50 us on Linux) dominate everywhere.
The emulator and the simulator's panel add CPU time here that a Pi does not spend.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import queue
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gpiozero.pins.mock import MockFactory
from startup import STARTUPS, Startup, alternated
from stats import Timing, as_deployed, line, measure, start_load, stop_load
from table import board_process

from device.hardware import LOOP_PRIORITY
from device.lcd import PRIORITY, CharDisplay, GpioLcdFactory, I2CLcdFactory
from device.lcd_pins import GpioLcdWiring
from device.realtime import realtime
from hw_sim.hd44780 import HD44780, attach_gpio
from hw_sim.mcp23008 import FakeI2C, add_backpack

WIRING = GpioLcdWiring.parse("rs=GPIO25,e=GPIO24,d4=GPIO23,d5=GPIO17,d6=GPIO18,d7=GPIO22,backlight=GPIO4")


def make(mode: str, columns: int, lines: int) -> tuple[HD44780, Callable[[], object]]:
    lcd = HD44780(columns, lines, now=time.monotonic)
    if mode == "gpio4":
        pins = MockFactory()
        attach_gpio(lcd, pins, WIRING)
        return lcd, GpioLcdFactory(WIRING, columns, lines, pin_factory=pins)
    bus = FakeI2C()
    add_backpack(bus, lcd)
    return lcd, I2CLcdFactory(bus, columns, lines)


def clock_rows(columns: int, lines: int, remaining: int) -> list[str]:
    """A typical clock screen: the player on move with a ticking move timer, the other's total."""
    rows = [f"Hrac A  {remaining // 60}:{remaining % 60:02d}", "Hrac B  1:54  312", "skore 287", "tahu 14"]
    return [r[:columns] for r in rows[:lines]]


def library_pulse(factory: Callable[[], object]) -> Callable[[], object]:
    """``factory`` with the library's own E pulse (the table's replaced by the class's again)."""

    def make_lcd() -> object:
        lcd = factory()
        del lcd._pulse_enable  # type: ignore[attr-defined]
        return lcd

    return make_lcd


def bench(mode: str, columns: int, lines: int, repeat: int) -> None:
    lcd, factory = make(mode, columns, lines)
    charlcd = factory()

    def one_line() -> int:
        charlcd.message = "x" * columns
        return columns

    per_char = measure(one_line, repeat)
    step = iter(range(10**6))

    def full_rewrite() -> int:
        rows = clock_rows(columns, lines, 120 - next(step) % 120)
        charlcd.clear()
        charlcd.message = "\n".join(r.ljust(columns) for r in rows)
        return 1

    full = measure(full_rewrite, repeat)
    chars: list[int] = []
    results = {}
    variants = (  # (label, LCD factory, the writes' priority, the calling loop's priority)
        ("library's E pulse", library_pulse(factory), None, None),
        ("table's E pulse", factory, None, None),
        (f"table's E pulse at SCHED_FIFO {PRIORITY}, called at normal priority (as measured before 18)", factory,
         PRIORITY, None),
        (f"table's E pulse at SCHED_FIFO {PRIORITY}, called from a loop at SCHED_FIFO {LOOP_PRIORITY} (the daemon's)",
         factory, PRIORITY, LOOP_PRIORITY),
    )
    for pulse, make_lcd, priority, caller in variants:
        display = CharDisplay(make_lcd, columns, lines, priority=priority)
        display.show(clock_rows(columns, lines, 120))
        remaining = iter(range(119, -(10**6), -1))
        shown: list[list[str]] = []

        def tick(display=display, remaining=remaining, shown=shown) -> int:
            shown[:] = [clock_rows(columns, lines, next(remaining) % 120)]
            chars.append(display.show(shown[0]))
            return 1

        with realtime(caller):  # the bench's thread as the daemon's loop runs (None: as it is)
            results[pulse] = measure(tick, 4 * repeat)
        assert lcd.text_rows()[0].startswith(shown[0][0]), "the emulated LCD does not show what was written"
        assert lcd.counters.busy_violations == 0, "a byte reached the controller while it was busy"
    print(f"{mode:5} {columns}x{lines}: ({columns * lines} cells; a tick changes {statistics.median(chars):.0f} "
          f"characters, at most {max(chars)})")
    print(line("  per character (library's E pulse)", per_char, None))
    print(line("  full rewrite (library's E pulse)", full, None))
    for pulse, ticks in results.items():
        target = "< 20 ms" if pulse.endswith("(the daemon's)") else None
        print(line(f"  timer tick (diff update), {pulse}", ticks, target, ticks.p99 < 0.02))


# ------------------------------------------------------------------------------------- the tick through the daemon
@dataclass
class Ticks:
    """One start-up's ticks: each ``latency`` from the deadline the loop waited for to the end of the LCD write
    that shows the new time, ``wake`` from the deadline to the loop running Python again (the kernel's wake-up and
    the interpreter lock), ``cpu`` the loop's CPU time for the tick; ``full_gc`` one full collection's time."""

    latency: list[float] = field(default_factory=list)
    wake: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    full_gc: list[float] = field(default_factory=list)
    passes: dict[int, list[float]] = field(default_factory=dict)
    """The garbage collector's passes while the clock ran (any thread), by generation."""
    checkpoints: list[float] = field(default_factory=list)
    """The loop's part of the clock checkpoint (``clock.json``, every 2 s while a move runs): the whole write and
    its two fsyncs before the writer thread (``device.checkpoint_writer``), the hand-over since."""
    disk_writes: list[float] = field(default_factory=list)
    """The checkpoint's writes to the disk themselves (``write_atomic``), on whichever thread does them."""
    ticking: bool = False


class _WaitTraced:
    """The table's input queue with its ``get`` wrapped (a ``queue.SimpleQueue``'s methods cannot be replaced);
    everything else, ``put`` from the other threads included, is the queue's own."""

    def __init__(self, inputs: object, get: object) -> None:
        self._inputs, self.get = inputs, get

    def __getattr__(self, name: str) -> object:
        return getattr(self._inputs, name)


def trace_ticks(table: object, into: Ticks) -> None:
    """Wrap the table's wait, its deadline and its first LCD: a timer tick that changes the LCD is one sample."""
    state: dict[str, object] = {"deadline": None, "woke": None, "rows": None}
    next_deadline, get = table._next_deadline, table.inputs.get  # type: ignore[attr-defined]

    def deadline() -> float | None:
        state["deadline"] = next_deadline()
        return state["deadline"]  # type: ignore[return-value]

    def wait(timeout: float | None = None) -> object:
        state["woke"] = None
        try:
            return get(timeout=timeout)
        except queue.Empty:  # the timer: the loop makes this a Tick
            state["woke"] = (time.monotonic(), time.thread_time())
            raise

    display = table.displays[0]  # type: ignore[attr-defined]
    show = display.show

    def timed_show(rows: list[str]) -> object:
        written = show(rows)
        woke, due = state["woke"], state["deadline"]
        if woke is not None and due is not None and list(rows) != state["rows"]:
            at, cpu = woke  # type: ignore[misc]
            into.latency.append(time.monotonic() - due)  # type: ignore[operator]
            into.wake.append(at - due)  # type: ignore[operator]
            into.cpu.append(time.thread_time() - cpu)
        state["rows"], state["woke"] = list(rows), None
        return written

    checkpoint = table._write_clock_checkpoint  # type: ignore[attr-defined]

    def timed_checkpoint(**kwargs: object) -> None:
        t0 = time.perf_counter()
        checkpoint(**kwargs)
        into.checkpoints.append(time.perf_counter() - t0)

    table._next_deadline, display.show = deadline, timed_show  # type: ignore[attr-defined]
    table.inputs = _WaitTraced(table.inputs, wait)  # type: ignore[attr-defined]
    table._write_clock_checkpoint = timed_checkpoint  # type: ignore[attr-defined]
    import device.table_recovery as table_mod
    from shared.journal import write_atomic  # the real one (an earlier block's wrapper is replaced)

    def timed_write(path: object, text: str) -> None:
        t0 = time.perf_counter()
        write_atomic(path, text)  # type: ignore[arg-type]
        if str(path).endswith("clock.json"):
            into.disk_writes.append(time.perf_counter() - t0)

    table_mod.write_atomic = timed_write  # type: ignore[assignment]


def daemon_block(startup: Startup, into: Ticks, seed: int, seconds: float) -> None:
    """The whole daemon on the simulator's panel (gpiozero mock pins, the emulated 16x2 LCD, the real reader, its
    buzzer process; the board in a process of its own, ``bench/table.py``'s) started the ``startup`` way
    (``bench/startup.py``); B starts A's move on the home clock (1 min: the LCD redraws every second, every 0.1 s in
    the last 10), the bench stops it after ``seconds`` or before the time runs out."""
    from device.config import parse_config
    from device.hardware import close_all
    from hw_sim.daemon import table_on_panel

    fork = multiprocessing.get_context("fork")  # before this block's threads exist
    conn, child_conn = fork.Pipe()
    child = fork.Process(target=board_process, args=(child_conn, seed), daemon=True)
    child.start()
    config = parse_config(
        f'[table]\nstate_dir = "{tempfile.mkdtemp(prefix="partiar-bench-lcd-")}"\npin_factory = "mock"\n'
        f'serial_url = "{conn.recv()}"\nplayers = ["Anna", "Bedřich"]\nclock = "home"\n'
    )
    with startup.threads():
        table, closers, panel = table_on_panel(config)
        trace_ticks(table, into)
        table.resume()
        startup.settled()
        loop = threading.Thread(target=table.run, name="table", daemon=True)
        loop.start()
    pause = threading.Event()
    try:
        for _ in range(200):
            if table.latest_view.get("link_up"):
                break
            pause.wait(0.05)
        panel.press("b")
        into.ticking = True
        end, laid = time.monotonic() + seconds, False
        while time.monotonic() < end:
            left = table.latest_view.get("clock", {}).get("move_left")
            if left is not None and left < 0.5:
                break
            # a tile laid on the centre, lifted, laid again every 2 s: the daemon's reader decodes each change
            conn.send([(7, 7, None if laid else "A")])
            conn.recv()
            laid = not laid
            pause.wait(2.0 if left is None else max(0.05, min(2.0, left - 0.5)))
        into.ticking = False
    finally:
        table.stop()
        loop.join(10)
        t0 = time.perf_counter()
        gc.collect()  # one full pass over the heap as the daemon has it (its loop stopped: no tick waits for it)
        into.full_gc.append(time.perf_counter() - t0)
        close_all(closers)
        conn.send(None)
        child.join(10)
        startup.close()


def bench_daemon(pairs: int, seconds: float, startups: tuple[str, ...] = STARTUPS) -> None:
    runs = {startup: Ticks() for startup in startups}
    current: list[Ticks] = []
    started: dict[int, float] = {}

    def on_gc(phase: str, info: dict[str, int]) -> None:  # every pass in the process, any thread
        if phase == "start":
            started[threading.get_ident()] = time.perf_counter()
        elif current and current[0].ticking and threading.get_ident() in started:
            took = time.perf_counter() - started.pop(threading.get_ident())
            current[0].passes.setdefault(info["generation"], []).append(took)

    gc.callbacks.append(on_gc)
    try:
        for i, startup in alternated(pairs, startups):
            current[:] = [runs[startup.name]]
            daemon_block(startup, runs[startup.name], i + 1, seconds)
            current.clear()
    finally:
        gc.callbacks.remove(on_gc)
    print(f"the tick through the daemon (emulated 16x2 on the panel, home clock), {pairs} x {seconds:.0f} s per "
          f"start-up, alternated; load average {os.getloadavg()[0]:.1f}")
    for startup, ticks in runs.items():
        total = Timing(ticks.latency, statistics.median(ticks.cpu))
        print(line(f"  start-up {startup}: deadline -> LCD written ({len(ticks.latency)} ticks)", total, "p99 < 20 ms",
                   total.p99 < 0.02, cpu=f"CPU {statistics.median(ticks.cpu) * 1e3:.2f} ms/tick"))
        print(line("    deadline -> the loop runs (wake-up, interpreter lock)", Timing(ticks.wake, None), None, cpu=""))
        passes = ", ".join(f"gen{g} {len(t)}x max {max(t) * 1e3:.2f} ms" for g, t in sorted(ticks.passes.items()))
        print(f"    garbage collector during the block: {passes or 'no pass'}; one full pass at the block's end: "
              f"{', '.join(f'{t * 1e3:.2f} ms' for t in ticks.full_gc)}")
        if ticks.checkpoints:
            print(line(f"    the loop's clock checkpoint writes ({len(ticks.checkpoints)})", Timing(ticks.checkpoints, None),
                       None, cpu=""))
        if ticks.disk_writes:
            print(line(f"    the clock checkpoint's disk writes, any thread ({len(ticks.disk_writes)})",
                       Timing(ticks.disk_writes, None), None, cpu=""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--load", type=int, default=0, help="busy processes the bench starts beside it")
    parser.add_argument("--daemon", type=int, default=0, metavar="PAIRS",
                        help="also time the tick through the whole daemon: PAIRS blocks per start-up (~1 min each)")
    parser.add_argument("--daemon-seconds", type=float, default=60.0, help=argparse.SUPPRESS)
    parser.add_argument("--startup", choices=STARTUPS, help="the tick through the daemon with this start-up only")
    parser.add_argument("--daemon-only", action="store_true", help="only the tick through the daemon")
    args = parser.parse_args()
    nice = as_deployed()
    busy = start_load(args.load, 600.0 + 130.0 * args.daemon)
    try:
        print(f"at nice {nice} (the daemon's unit), {args.load} busy processes beside the bench; load average "
              f"{os.getloadavg()[0]:.1f}")
        for mode in ("gpio4", "i2c") if not args.daemon_only else ():
            for columns, lines in ((16, 2), (20, 4)):
                bench(mode, columns, lines, args.repeat)
        if args.daemon:
            import device

            print(f"the daemon's code: {os.path.dirname(device.__file__)}")
            bench_daemon(args.daemon, args.daemon_seconds, (args.startup,) if args.startup else STARTUPS)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        stop_load(busy)


if __name__ == "__main__":
    main()
