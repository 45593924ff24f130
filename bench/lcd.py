"""LCD write cost: the real charlcd library, real sleeps, on gpiozero mock pins / the fake I2C bus into the emulator.

Prints medians of: one character through the library; a full-screen rewrite; CharDisplay's diff update for a move
timer ticking (one or two changed characters per second, a longer change every ten seconds).

    /work/venv/bin/python bench/lcd.py [--repeat N]

On a Pi with lgpio the pin writes cost more than mock pin writes, and the I2C backpack adds two bus transfers per
E pulse; the library's own sleeps (1 ms per byte, plus 6 E-pulse sleeps of >= 50 us on Linux) dominate everywhere.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory

from device.lcd import CharDisplay, GpioLcdFactory, I2CLcdFactory
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


def bench(mode: str, columns: int, lines: int, repeat: int) -> None:
    lcd, factory = make(mode, columns, lines)
    charlcd = factory()
    per_char = []
    for _ in range(repeat):
        text = "x" * columns
        t0 = time.perf_counter()
        charlcd.message = text
        per_char.append((time.perf_counter() - t0) / columns)
    full = []
    for i in range(repeat):
        rows = clock_rows(columns, lines, 120 - i)
        t0 = time.perf_counter()
        charlcd.clear()
        charlcd.message = "\n".join(r.ljust(columns) for r in rows)
        full.append(time.perf_counter() - t0)
    display = CharDisplay(factory, columns, lines)
    display.show(clock_rows(columns, lines, 120))
    ticks, chars = [], []
    for remaining in range(119, 119 - 4 * repeat, -1):
        t0 = time.perf_counter()
        chars.append(display.show(clock_rows(columns, lines, remaining)))
        ticks.append(time.perf_counter() - t0)
    assert lcd.text_rows()[0].startswith(clock_rows(columns, lines, remaining)[0])
    ms = 1000.0
    print(
        f"{mode:5} {columns}x{lines}: per char {statistics.median(per_char) * ms:5.2f} ms | "
        f"full rewrite {statistics.median(full) * ms:6.1f} ms ({columns * lines} cells) | "
        f"diff tick {statistics.median(ticks) * ms:5.2f} ms (median {statistics.median(chars):.0f} chars, "
        f"max {max(ticks) * ms:.1f} ms / {max(chars)} chars)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    for mode in ("gpio4", "i2c"):
        for columns, lines in ((16, 2), (20, 4)):
            bench(mode, columns, lines, args.repeat)


if __name__ == "__main__":
    main()
