"""The emulated MCP23008 on the fake I2C bus: the register file, adafruit_mcp230xx against it, the LCD backpack."""

# ruff: noqa: F811  (pytest fixtures imported from test_lcd_rig are redefined as test parameters)

from __future__ import annotations

import pytest
from adafruit_mcp230xx.mcp23008 import MCP23008 as LibraryMCP23008
from test_lcd_rig import i2c_rig, library_time, rig_20x4  # noqa: F401 (fixtures)

from hw_sim.mcp23008 import GPIO, GPPU, IOCON, IODIR, IPOL, MCP23008, OLAT, FakeI2C
from shared.timesource import FakeTime


def test_power_on_registers_are_all_inputs() -> None:
    chip = MCP23008()
    assert chip.register("IODIR") == 0xFF
    assert all(chip.register(name) == 0 for name in ("IPOL", "GPPU", "OLAT", "GPIO"))


def test_writes_auto_increment_the_register_pointer() -> None:
    chip = MCP23008()
    chip.write(bytes([IODIR, 0x0F, 0x02]))  # IODIR then IPOL
    assert chip.register("IODIR") == 0x0F and chip.register("IPOL") == 0x02
    chip.write(bytes([IODIR]))
    assert chip.read(2) == bytes([0x0F, 0x02])


def test_seqop_keeps_the_pointer_on_one_register() -> None:
    chip = MCP23008()
    chip.write(bytes([IOCON, 0x20]))
    chip.write(bytes([OLAT, 0x01, 0x03]))
    assert chip.register("OLAT") == 0x03 and chip.register("GPIO") == 0x00  # still all inputs


def test_gpio_reads_outputs_from_the_latch_and_inputs_through_ipol() -> None:
    driven: list[int] = []
    chip = MCP23008(on_output=driven.append)
    chip.inputs = 0b1000_0000
    chip.write(bytes([IPOL, 0b0100_0000]))
    chip.write(bytes([IODIR, 0b1100_0000]))  # 0-5 outputs, 6-7 inputs
    chip.write(bytes([GPIO, 0b1111_1111]))  # writing GPIO writes OLAT
    assert chip.register("OLAT") == 0xFF
    chip.write(bytes([GPIO]))
    assert chip.read(1) == bytes([0b1111_1111])  # input 6 inverted to 1, input 7 high
    assert driven[-1] == 0b1111_1111


def test_the_library_drives_the_emulated_expander() -> None:
    bus = FakeI2C()
    chip = MCP23008()
    bus.add(0x21, chip)
    mcp = LibraryMCP23008(bus, address=0x21)
    pin = mcp.get_pin(5)
    pin.switch_to_output(value=True)
    assert chip.register("IODIR") == 0xFF & ~(1 << 5)
    assert chip.register("OLAT") == 1 << 5 and pin.value is True
    mcp.gppu = 0x03
    assert chip.registers[GPPU] == 0x03


def test_a_missing_device_naks_and_the_library_says_so() -> None:
    bus = FakeI2C()
    with pytest.raises(ValueError, match="0x27"):
        LibraryMCP23008(bus, address=0x27)
    with pytest.raises(OSError):
        bus.writeto(0x27, b"\x00")


def test_the_bus_lock_is_exclusive_and_scan_lists_devices() -> None:
    bus = FakeI2C()
    bus.add(0x20, MCP23008())
    bus.add(0x24, MCP23008())
    assert bus.scan() == [0x20, 0x24]
    assert bus.try_lock() and not bus.try_lock()
    bus.unlock()
    assert bus.try_lock()
    with pytest.raises(ValueError, match="0x78"):
        bus.add(0x78, MCP23008())


def test_injected_faults_fail_exactly_that_many_transfers() -> None:
    bus = FakeI2C()
    bus.add(0x20, MCP23008())
    bus.fail_next(2)
    for _ in range(2):
        with pytest.raises(OSError, match="injected"):
            bus.writeto(0x20, bytes([IODIR, 0]))
    bus.writeto(0x20, bytes([IODIR, 0]))


def test_backpack_lcd_through_the_real_i2c_library(library_time: FakeTime) -> None:
    rig = i2c_rig(16, 2, library_time, address=0x23)
    charlcd = rig.factory()
    charlcd.backlight = True
    charlcd.message = "Backpack\nat 0x23"
    assert rig.lcd.text_rows() == ["Backpack".ljust(16), "at 0x23".ljust(16)]
    assert rig.lcd.backlight
    assert rig.backpack.expander.register("IODIR") == 0x01  # GP1-GP7 outputs, GP0 unused
    assert rig.lcd.counters.busy_violations == 0


def test_the_library_turns_the_backpack_backlight_off_after_init_unless_told(library_time: FakeTime) -> None:
    """A charlcd quirk the emulator reproduces: init leaves its backlight flag False and every I2C byte sends it."""
    rig = i2c_rig(16, 2, library_time)
    charlcd = rig.factory()
    assert rig.lcd.backlight  # lit during init
    charlcd.message = "x"
    assert not rig.lcd.backlight


def test_20x4_backpack_custom_glyphs(rig_20x4) -> None:
    charlcd = rig_20x4.factory()
    charlcd.create_char(7, [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F])
    charlcd.cursor_position(19, 3)
    charlcd.message = "\x07"
    assert rig_20x4.lcd.text_rows()[3] == " " * 19 + "\x07"
    assert rig_20x4.lcd.glyph(7)[1] == 0x11
