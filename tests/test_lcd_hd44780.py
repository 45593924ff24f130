"""The emulated HD44780, driven by the real charlcd library through gpiozero mock pins (and directly)."""

# ruff: noqa: F811  (pytest fixtures imported from test_lcd_rig are redefined as test parameters)

from __future__ import annotations

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory
from test_lcd_rig import WIRING, gpio_rig, library_time, rig_16x2, rig_20x4  # noqa: F401 (fixtures)

from hw_sim.hd44780 import HD44780, PIN_HISTORY, HD44780Error, attach_gpio
from shared.timesource import FakeTime


def send(lcd: HD44780, byte: int, rs: bool = False) -> None:
    """One byte over the 4-bit bus, as two strobes."""
    lcd.strobe(rs, byte >> 4)
    lcd.strobe(rs, byte & 0xF)


def init_4bit(lcd: HD44780, two_line: bool = True) -> None:
    for nibble in (3, 3, 3, 2):
        lcd.strobe(False, nibble)
    for byte in (0x28 if two_line else 0x20, 0x0C, 0x06, 0x01):
        send(lcd, byte)


# ------------------------------------------------------------------------ the real library over mock pins
def test_library_init_leaves_a_clear_lit_display_in_4_bit_two_line_mode(
    rig_16x2, library_time: FakeTime
) -> None:
    rig_16x2.factory()
    lcd = rig_16x2.lcd
    assert not lcd.eight_bit and lcd.two_line and lcd.display_on
    assert not lcd.cursor_on and not lcd.blink_on and lcd.increment
    assert lcd.text_rows() == [" " * 16] * 2
    assert lcd.counters.commands == 8  # 3 x "8-bit" + switch to 4-bit + control, function, entry, clear
    assert lcd.counters.busy_violations == 0


def test_message_on_16x2(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.message = "Hello\nworld!"
    assert rig_16x2.lcd.text_rows() == ["Hello".ljust(16), "world!".ljust(16)]
    assert rig_16x2.lcd.counters.chars == 11
    assert rig_16x2.lcd.counters.busy_violations == 0


def test_20x4_rows_use_the_real_address_map(rig_20x4) -> None:
    charlcd = rig_20x4.factory()
    for row, text in enumerate(["row zero", "row one", "row two", "row three"]):
        charlcd.cursor_position(2, row)
        charlcd.message = text
    lcd = rig_20x4.lcd
    assert lcd.text_rows() == [
        "  row zero".ljust(20),
        "  row one".ljust(20),
        "  row two".ljust(20),
        "  row three".ljust(20),
    ]
    assert lcd.ddram[0x14 + 2 : 0x14 + 9] == b"row two"
    assert lcd.ddram[0x54 + 2 : 0x54 + 11] == b"row three"


def test_writing_past_the_end_of_row_0_continues_on_row_2_of_a_20x4(rig_20x4) -> None:
    charlcd = rig_20x4.factory()
    charlcd.message = "A" * 20 + "BC"  # the address counter runs 0x13 -> 0x14, the start of row 2
    assert rig_20x4.lcd.text_rows()[0] == "A" * 20
    assert rig_20x4.lcd.text_rows()[2] == "BC".ljust(20)


def test_custom_characters_land_in_cgram_and_show_where_used(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    heart = [0x00, 0x0A, 0x1F, 0x1F, 0x0E, 0x04, 0x00, 0x00]
    charlcd.create_char(3, heart)
    charlcd.message = "I\x03U"
    lcd = rig_16x2.lcd
    assert lcd.glyph(3) == heart
    assert lcd.glyphs()[0] == [0] * 8
    assert lcd.text_rows()[0] == "I\x03U".ljust(16)
    assert lcd.printable_rows()[0] == "I₃U".ljust(16)
    assert lcd.counters.glyph_bytes == 8


def test_clear_blanks_ddram_and_homes_the_cursor(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.message = "junk\nmore junk"
    charlcd.clear()
    charlcd.message = "X"
    assert rig_16x2.lcd.text_rows() == ["X".ljust(16), " " * 16]
    assert rig_16x2.lcd.counters.busy_violations == 0  # the library waits out clear's 1.52 ms


def test_display_off_shows_nothing_but_keeps_ddram(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.message = "kept"
    charlcd.display = False
    assert rig_16x2.lcd.text_rows() == [" " * 16] * 2
    assert rig_16x2.lcd.cells()[0][:4] == list(b"kept")
    charlcd.display = True
    assert rig_16x2.lcd.text_rows()[0] == "kept".ljust(16)


def test_cursor_and_blink_flags(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.cursor = True
    charlcd.blink = True
    assert rig_16x2.lcd.cursor_on and rig_16x2.lcd.blink_on
    charlcd.cursor = False
    assert not rig_16x2.lcd.cursor_on and rig_16x2.lcd.blink_on


def test_display_shift_moves_the_window(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.message = "abc"
    charlcd.move_left()
    assert rig_16x2.lcd.text_rows()[0] == "bc".ljust(16)
    charlcd.move_right()
    charlcd.move_right()
    assert rig_16x2.lcd.text_rows()[0] == " abc".ljust(16)
    charlcd.home()
    assert rig_16x2.lcd.text_rows()[0] == "abc".ljust(16)


def test_right_to_left_entry_mode_writes_backwards(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.text_direction = charlcd.RIGHT_TO_LEFT
    charlcd.message = "abc"
    assert rig_16x2.lcd.text_rows()[0] == " " * 13 + "cba"


def test_backlight_follows_its_pin_or_port_bit(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.backlight = True
    charlcd.message = "x"
    assert rig_16x2.lcd.backlight
    charlcd.backlight = False
    charlcd.message = "y"
    assert not rig_16x2.lcd.backlight


def test_a_desynchronised_4_bit_interface_is_repaired_by_the_library_init(rig_16x2) -> None:
    charlcd = rig_16x2.factory()
    charlcd.message = "before"
    rig_16x2.lcd.strobe(False, 0)  # a stray E pulse (noise): every later byte is split across two
    charlcd.message = "garbage"
    assert rig_16x2.lcd.text_rows()[0] != "garbage".ljust(16)
    charlcd = rig_16x2.factory()  # 0x33, 0x32 re-enters 8-bit mode from any nibble phase, then 4-bit
    charlcd.message = "after"
    assert rig_16x2.lcd.text_rows() == ["after".ljust(16), " " * 16]


def test_with_exact_100_ns_sleeps_the_library_init_would_outrun_the_controller(monkeypatch) -> None:
    """A documented fact: charlcd relies on sleep(1e-7) lasting far longer (it does on Linux and CircuitPython)."""
    from types import SimpleNamespace

    from device.lcd_pins import import_charlcd

    clock = FakeTime()
    monkeypatch.setattr(import_charlcd(), "time", SimpleNamespace(sleep=clock.advance))
    rig = gpio_rig(16, 2, clock)
    rig.factory()
    assert rig.lcd.counters.busy_violations > 0
    rig.factory.close()


def test_the_emulator_sees_the_library_with_real_sleeps() -> None:
    """No fake time: the library's own sleeps, a short message (about 20 bytes, a few tens of ms)."""
    rig = gpio_rig(16, 2)
    charlcd = rig.factory()
    charlcd.message = "real\ntime"
    assert rig.lcd.text_rows() == ["real".ljust(16), "time".ljust(16)]
    rig.factory.close()


# --------------------------------------------------------------------------------- the controller itself
def test_power_on_state_is_8_bit_one_line_display_off() -> None:
    lcd = HD44780(16, 2)
    assert lcd.eight_bit and not lcd.two_line and not lcd.display_on
    assert lcd.text_rows() == [" " * 16] * 2


def test_8_bit_mode_latches_whole_bytes() -> None:
    lcd = HD44780(16, 2)
    lcd.strobe(False, 0x3, 0x8)  # function set: 8-bit, 2 lines
    lcd.strobe(False, 0x0, 0xC)  # display on
    lcd.strobe(True, 0x4, 0x1)  # "A"
    assert lcd.eight_bit and lcd.two_line
    assert lcd.text_rows()[0] == "A".ljust(16)


def test_two_line_address_counter_wraps_from_line_1_end_to_line_2() -> None:
    lcd = HD44780(16, 2)
    init_4bit(lcd)
    send(lcd, 0x80 | 0x27)
    for ch in b"xy":
        send(lcd, ch, rs=True)
    assert lcd.ddram[0x27] == ord("x") and lcd.ddram[0x40] == ord("y")
    send(lcd, 0x80 | 0x67)
    for ch in b"pq":
        send(lcd, ch, rs=True)
    assert lcd.ddram[0x67] == ord("p") and lcd.ddram[0x00] == ord("q")


def test_one_line_mode_shows_only_the_first_line() -> None:
    lcd = HD44780(16, 2)
    init_4bit(lcd, two_line=False)
    send(lcd, 0x80 | 0x40)
    send(lcd, ord("Z"), rs=True)
    assert lcd.text_rows() == [" " * 16, " " * 16]
    send(lcd, 0x80)
    send(lcd, ord("Y"), rs=True)
    assert lcd.text_rows()[0] == "Y".ljust(16)


def test_entry_mode_shift_keeps_the_cursor_still() -> None:
    lcd = HD44780(16, 2)
    init_4bit(lcd)
    send(lcd, 0x80 | 16)  # just off the right edge
    send(lcd, 0x07)  # increment + shift display
    for ch in b"ab":
        send(lcd, ch, rs=True)
    assert lcd.text_rows()[0] == " " * 14 + "ab"


def test_cgram_address_then_data_writes_glyph_rows_then_ddram_again() -> None:
    lcd = HD44780(16, 2)
    init_4bit(lcd)
    send(lcd, 0x40 | (5 << 3) | 2)  # glyph 5, row 2
    send(lcd, 0xFF, rs=True)  # only 5 bits are stored
    assert lcd.glyph(5) == [0, 0, 0x1F, 0, 0, 0, 0, 0] and lcd.cursor() is None
    send(lcd, 0x80 | 0x41)
    send(lcd, 0x0D, rs=True)  # code 13 shows glyph 5
    assert lcd.text_rows()[1] == " \x05".ljust(16)
    assert lcd.cursor() == (2, 1)


def test_busy_time_violations_are_counted() -> None:
    clock = FakeTime()
    lcd = HD44780(16, 2, now=clock.now)
    init_4bit(lcd)  # no time passes at all
    assert lcd.counters.busy_violations > 0
    lcd.reset_counters()
    clock.advance(0.01)
    send(lcd, 0x01)
    clock.advance(0.001)  # clear needs 1.52 ms
    send(lcd, ord("a"), rs=True)
    assert lcd.counters.busy_violations == 1


def test_rom_a00_differs_from_ascii_at_backslash_and_tilde() -> None:
    lcd = HD44780(16, 2)
    init_4bit(lcd)
    for ch in (0x5C, 0x7E, 0x7F, 0xE4):
        send(lcd, ch, rs=True)
    assert lcd.printable_rows()[0] == "¥→←?".ljust(16)


def test_geometry_and_slot_errors_are_specific() -> None:
    with pytest.raises(HD44780Error, match="12x3"):
        HD44780(12, 3)
    with pytest.raises(HD44780Error, match="0-7"):
        HD44780(16, 2).glyph(8)


def test_to_dict_is_plain_data_for_the_web_page() -> None:
    lcd = HD44780(20, 4)
    init_4bit(lcd)
    view = lcd.to_dict()
    assert view["rows"] == [" " * 20] * 4 and len(view["cgram"]) == 8 and view["display_on"] is True
    assert len(view["cells"]) == 4 and all(len(r) == 20 for r in view["cells"])


def test_listeners_hear_every_byte() -> None:
    lcd = HD44780(16, 2)
    heard: list[int] = []
    lcd.listeners.append(lambda: heard.append(lcd.counters.commands))
    init_4bit(lcd)
    assert len(heard) == 4 + 2 * 4


def test_pins_opened_before_the_emulator_are_refused() -> None:
    pins = MockFactory()
    device = DigitalOutputDevice(WIRING.e, pin_factory=pins)
    with pytest.raises(HD44780Error, match="GPIO24"):
        attach_gpio(HD44780(16, 2), pins, WIRING)
    device.close()


def test_watched_pins_keep_a_bounded_history(library_time: FakeTime) -> None:
    rig = gpio_rig(16, 2, library_time)
    charlcd = rig.factory()
    for _ in range(3):
        charlcd.message = "x" * 16 + "\n" + "y" * 16
    enable = rig.pins.pin(WIRING.e)
    assert len(enable.states) == PIN_HISTORY
    rig.front_end.close()
    charlcd.message = "z"
    assert rig.lcd.text_rows()[0][0] == "x"  # no longer watched
    rig.factory.close()
