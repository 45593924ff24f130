"""LCD write cost: the real charlcd library, real sleeps, on gpiozero mock pins / the fake I2C bus into the emulator.

Prints median, p99 and CPU time of: one character through the library; a full-screen rewrite; CharDisplay's diff
update for a move timer ticking (one or two changed characters per second, a longer change every ten seconds),
with the library's own E pulse (three 100 ns sleeps per pulse, each a trip through the scheduler), with the
table's (``device.lcd``: no sleeps around E once the LCD is initialised), and as the daemon writes: the table's
pulse with the writing thread at real-time priority (``device.lcd.PRIORITY``; the bench needs root or
CAP_SYS_NICE for that, and says so in the log otherwise), all in the same run.
Target: a timer tick's update under 20 ms (the table loop redraws every second; a longer write delays the next
input); the full rewrite's figure feeds bench/table.py's press-to-score budget.

    .venv/bin/python bench/lcd.py [--repeat N] [--load N]

``--load N`` starts N busy processes beside the bench (the other work of a busy Pi).

On a Pi with lgpio the pin writes cost more than mock pin writes, and the I2C backpack adds two bus transfers per
E pulse; the library's own sleeps (1 ms per byte, plus 6 E-pulse sleeps of >= 50 us on Linux) dominate everywhere.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory
from stats import as_deployed, line, measure, start_load, stop_load

from device.lcd import PRIORITY, CharDisplay, GpioLcdFactory, I2CLcdFactory
from device.lcd_pins import GpioLcdWiring
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
    variants = (
        ("library's E pulse", library_pulse(factory), None),
        ("table's E pulse", factory, None),
        (f"table's E pulse at SCHED_FIFO {PRIORITY} (the daemon's)", factory, PRIORITY),
    )
    for pulse, make_lcd, priority in variants:
        display = CharDisplay(make_lcd, columns, lines, priority=priority)
        display.show(clock_rows(columns, lines, 120))
        remaining = iter(range(119, -(10**6), -1))
        shown: list[list[str]] = []

        def tick(display=display, remaining=remaining, shown=shown) -> int:
            shown[:] = [clock_rows(columns, lines, next(remaining) % 120)]
            chars.append(display.show(shown[0]))
            return 1

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--load", type=int, default=0, help="busy processes the bench starts beside it")
    args = parser.parse_args()
    nice = as_deployed()
    busy = start_load(args.load, 600.0)
    try:
        print(f"at nice {nice} (the daemon's unit), {args.load} busy processes beside the bench; load average "
              f"{os.getloadavg()[0]:.1f}")
        for mode in ("gpio4", "i2c"):
            for columns, lines in ((16, 2), (20, 4)):
                bench(mode, columns, lines, args.repeat)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        stop_load(busy)


if __name__ == "__main__":
    main()
