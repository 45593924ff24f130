"""The LCD test rig: the real charlcd library on gpiozero mock pins (or a fake I2C bus) into an emulated HD44780.

charlcd sleeps 1 ms before every byte and around every E pulse. The ``library_time`` fixture swaps the ``time``
module the library sees for a fake whose ``sleep`` advances a FakeTime, so the tests run fast and the emulator
checks the library's timing against the controller's execution times on that same clock. A Linux ``sleep`` never
returns before the timer slack (50 us by default) has passed, so the fake sleeps at least that long: charlcd's
100 ns E-pulse sleeps are what make its init dance meet the controller's 37 us command time.
Other LCD test modules import the fixtures from here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from device.lcd import GpioLcdFactory, I2CLcdFactory
from device.lcd_pins import GpioLcdWiring, import_charlcd
from hw_sim.hd44780 import HD44780, GpioFrontEnd, attach_gpio
from hw_sim.mcp23008 import Backpack, FakeI2C, add_backpack
from shared.timesource import FakeTime

LINUX_MIN_SLEEP = 50e-6
WIRING = GpioLcdWiring.parse("rs=GPIO25,e=GPIO24,d4=GPIO23,d5=GPIO17,d6=GPIO18,d7=GPIO22,backlight=GPIO4")


@pytest.fixture
def library_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeTime]:
    """A FakeTime that charlcd's ``time.sleep`` advances (restored after the test)."""
    clock = FakeTime(1000.0)

    def sleep(seconds: float) -> None:
        clock.advance(max(seconds, LINUX_MIN_SLEEP))

    fake = SimpleNamespace(sleep=sleep, monotonic=clock.now, time=clock.now)
    for name in ("character_lcd", "character_lcd_i2c"):
        monkeypatch.setattr(import_charlcd(name), "time", fake)
    yield clock


@dataclass
class GpioRig:
    """One LCD on the 4-bit GPIO hookup: the emulator, its pin watcher, the library factory."""

    lcd: HD44780
    front_end: GpioFrontEnd
    factory: GpioLcdFactory
    pins: MockFactory


@dataclass
class I2CRig:
    """One LCD behind an MCP23008 backpack on a fake bus."""

    lcd: HD44780
    backpack: Backpack
    bus: FakeI2C
    factory: I2CLcdFactory


def gpio_rig(
    columns: int, lines: int, clock: FakeTime | None = None, wiring: GpioLcdWiring = WIRING
) -> GpioRig:
    pins = MockFactory()
    lcd = HD44780(columns, lines, now=clock.now if clock else None)
    front_end = attach_gpio(lcd, pins, wiring)
    return GpioRig(lcd, front_end, GpioLcdFactory(wiring, columns, lines, pin_factory=pins), pins)


def i2c_rig(columns: int, lines: int, clock: FakeTime | None = None, address: int = 0x20) -> I2CRig:
    bus = FakeI2C()
    lcd = HD44780(columns, lines, now=clock.now if clock else None)
    backpack = add_backpack(bus, lcd, address)
    return I2CRig(lcd, backpack, bus, I2CLcdFactory(bus, columns, lines, address))


@pytest.fixture(params=["gpio4", "i2c"])
def rig_16x2(request: pytest.FixtureRequest, library_time: FakeTime) -> Iterator[Any]:
    """A 16x2 LCD on each wiring, library on fake time."""
    rig = gpio_rig(16, 2, library_time) if request.param == "gpio4" else i2c_rig(16, 2, library_time)
    yield rig
    rig.factory.close()


@pytest.fixture(params=["gpio4", "i2c"])
def rig_20x4(request: pytest.FixtureRequest, library_time: FakeTime) -> Iterator[Any]:
    """A 20x4 LCD on each wiring, library on fake time."""
    rig = gpio_rig(20, 4, library_time) if request.param == "gpio4" else i2c_rig(20, 4, library_time)
    yield rig
    rig.factory.close()


def test_library_sleeps_advance_the_fake_clock_only(library_time: FakeTime) -> None:
    rig = gpio_rig(16, 2, library_time)
    start = library_time.now()
    rig.factory()
    # 6 init bytes x (1 ms + 6 E-pulse sleeps) + the 3 ms after clear: the library's own pacing.
    assert library_time.now() - start == pytest.approx(6 * (1e-3 + 6 * LINUX_MIN_SLEEP) + 3e-3)
    rig.factory.close()
