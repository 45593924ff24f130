"""CharDisplay: changed characters only, glyphs, recovery; the real charlcd library into the emulated HD44780."""

# ruff: noqa: F811  (pytest fixtures imported from test_lcd_rig are redefined as test parameters)

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_lcd_rig import gpio_rig, i2c_rig, library_time, rig_16x2, rig_20x4  # noqa: F401 (fixtures)

from device.lcd import CharDisplay, LcdContentError
from shared.timesource import FakeTime

E_ACUTE = [0x02, 0x04, 0x0E, 0x11, 0x1F, 0x10, 0x0E, 0x00]  # é
C_CARON = [0x0A, 0x04, 0x0E, 0x10, 0x10, 0x11, 0x0E, 0x00]  # č


def display_for(rig, **kwargs) -> CharDisplay:
    return CharDisplay(rig.factory, rig.lcd.columns, rig.lcd.lines, **kwargs)


def test_first_show_writes_only_the_non_blank_cells(rig_16x2) -> None:
    display = display_for(rig_16x2)
    assert display.show(["Hrac A  1:58", "Hrac B  2:00"]) == 18  # the spaces are already there
    assert rig_16x2.lcd.text_rows() == ["Hrac A  1:58".ljust(16), "Hrac B  2:00".ljust(16)]
    assert rig_16x2.lcd.counters.chars == 18


def test_a_ticking_move_timer_writes_one_or_two_characters(rig_16x2) -> None:
    display = display_for(rig_16x2)
    display.show(["Hrac A  1:58", "Hrac B  2:00"])
    rig_16x2.lcd.reset_counters()
    assert display.show(["Hrac A  1:57", "Hrac B  2:00"]) == 1
    assert display.show(["Hrac A  1:49", "Hrac B  2:00"]) == 2
    assert display.show(["Hrac A  1:49", "Hrac B  2:00"]) == 0
    counters = rig_16x2.lcd.counters
    assert counters.chars == 3 and counters.address_sets == 2 and counters.commands == 2
    assert rig_16x2.lcd.text_rows()[0] == "Hrac A  1:49".ljust(16)


def test_each_run_of_changed_cells_costs_one_cursor_move(rig_20x4) -> None:
    display = display_for(rig_20x4)
    display.show(["abcdefghij", "", "", ""])
    rig_20x4.lcd.reset_counters()
    assert display.show(["aXYdefghiZ", "", "row two", "  x"]) == 3 + 6 + 1
    assert rig_20x4.lcd.counters.address_sets == 5  # "XY", "Z", "row", "two" (row 2: its space is there), "x"
    assert rig_20x4.lcd.text_rows()[2] == "row two".ljust(20)


def test_rows_are_cut_padded_and_codes_folded(rig_16x2, caplog: pytest.LogCaptureFixture) -> None:
    display = display_for(rig_16x2)
    with caplog.at_level(logging.WARNING):
        display.show(["x" * 20, "a\x0ab\u0159", "extra"])
    assert rig_16x2.lcd.text_rows() == ["x" * 16, "a\x02b?".ljust(16)]
    assert display.rows() == ["x" * 16, "a\x02b?".ljust(16)]
    assert "extra row" in caplog.text and "U+0159" in caplog.text


def test_missing_rows_are_blank(rig_16x2) -> None:
    display = display_for(rig_16x2)
    display.show(["one", "two"])
    display.show(["one"])
    assert rig_16x2.lcd.text_rows() == ["one".ljust(16), " " * 16]


@pytest.mark.parametrize("bad", ["just a string", [b"bytes"], [None]])
def test_rows_that_are_not_strings_are_refused(rig_16x2, bad) -> None:
    with pytest.raises(LcdContentError, match="sequence of str"):
        display_for(rig_16x2).show(bad)


def test_glyphs_load_at_init_and_only_changed_slots_are_rewritten(rig_16x2) -> None:
    display = display_for(rig_16x2, glyphs={0: E_ACUTE})
    display.show(["k\x00n"])
    assert rig_16x2.lcd.glyph(0) == E_ACUTE and rig_16x2.lcd.text_rows()[0] == "k\x00n".ljust(16)
    rig_16x2.lcd.reset_counters()
    display.set_glyphs({0: E_ACUTE, 1: C_CARON})
    assert rig_16x2.lcd.counters.glyph_bytes == 8 and rig_16x2.lcd.glyph(1) == C_CARON
    display.show(["k\x00n\x01"])  # after CGRAM writes the next run must land in DDRAM again
    assert rig_16x2.lcd.text_rows()[0] == "k\x00n\x01".ljust(16)


@pytest.mark.parametrize(
    ("slot", "pattern", "match"),
    [(8, E_ACUTE, "slot"), (0, [0] * 7, "8 rows"), (1, [0x20] + [0] * 7, "0-31"), (-1, E_ACUTE, "slot")],
)
def test_bad_glyphs_are_refused(rig_16x2, slot, pattern, match) -> None:
    with pytest.raises(LcdContentError, match=match):
        display_for(rig_16x2).set_glyphs({slot: pattern})


def test_backlight_is_on_after_init_and_switchable(rig_16x2) -> None:
    display = display_for(rig_16x2)
    display.show(["lit"])
    assert rig_16x2.lcd.backlight  # also on the I2C backpack, where charlcd's init would turn it off
    display.backlight = False
    display.show(["dark"])
    assert not rig_16x2.lcd.backlight


def test_an_i2c_error_rebuilds_the_lcd_and_rewrites_everything(library_time: FakeTime) -> None:
    rig = i2c_rig(16, 2, library_time)
    display = display_for(rig, glyphs={3: C_CARON})
    display.show(["before", "\x03"])
    rig.bus.fail_next(1)
    display.show(["after!", "\x03"])
    assert display.errors == 1 and display.inits == 2 and display.healthy
    assert rig.lcd.text_rows() == ["after!".ljust(16), "\x03".ljust(16)]
    assert rig.lcd.glyph(3) == C_CARON


def test_a_broken_lcd_is_retried_after_the_retry_interval_and_never_raises(library_time: FakeTime) -> None:
    rig = i2c_rig(16, 2, library_time)
    time = FakeTime()
    display = display_for(rig, now=time.now, retry_seconds=5.0)
    rig.bus.fail_next(1000)
    assert display.show(["lost"]) == 0 and not display.healthy
    transfers = rig.bus.transfers
    time.advance(4.9)
    display.show(["still lost"])
    assert rig.bus.transfers == transfers  # waiting for the retry time: no bus traffic
    rig.bus.fail_next(0)
    time.advance(0.2)
    assert display.show(["back"]) == 4
    assert display.healthy and rig.lcd.text_rows()[0] == "back".ljust(16)


def test_an_absent_backpack_does_not_stop_the_display_from_starting_later(library_time: FakeTime) -> None:
    rig = i2c_rig(16, 2, library_time)
    backpack = rig.bus.devices.pop(0x20)
    time = FakeTime()
    display = display_for(rig, now=time.now)
    display.show(["waiting"])
    assert not display.healthy and display.errors == 1
    rig.bus.add(0x20, backpack)
    time.advance(5.0)
    display.show(["found"])
    assert rig.lcd.text_rows()[0] == "found".ljust(16)


def test_reinit_repairs_a_desynchronised_gpio_lcd(library_time: FakeTime) -> None:
    rig = gpio_rig(16, 2, library_time)
    display = display_for(rig)
    display.show(["12:00"])
    rig.lcd.strobe(False, 0)  # a stray E pulse: the 4-bit interface is out of step
    display.show(["12:01"])
    assert rig.lcd.text_rows()[0] != "12:01".ljust(16)
    assert display.reinit()
    assert rig.lcd.text_rows() == ["12:01".ljust(16), " " * 16]
    rig.factory.close()


def test_a_ready_made_lcd_object_is_written_in_full_first_then_diffed(library_time: FakeTime) -> None:
    rig = gpio_rig(16, 2, library_time)
    charlcd = rig.factory()
    charlcd.message = "stale content"
    display = CharDisplay(charlcd, 16, 2)
    assert display.show(["new"]) == 32  # content unknown: every cell
    assert display.show(["now"]) == 1
    assert rig.lcd.text_rows()[0] == "now".ljust(16)
    rig.factory.close()


def rows_for(columns: int, lines: int) -> st.SearchStrategy[list[str]]:
    cells = st.sampled_from(" 0123456789:AB\x00\x01")
    return st.lists(st.text(alphabet=cells, max_size=columns + 2), max_size=lines + 1)


def check_updates(rig, updates: list[list[str]]) -> None:
    """Show each update; the screen must equal it, and exactly the changed cells must have been written."""
    columns, lines = rig.lcd.columns, rig.lcd.lines
    display = display_for(rig, glyphs={0: E_ACUTE, 1: C_CARON})
    lcd = rig.lcd
    before = [" " * columns] * lines  # what the library's init leaves (it runs in the first show)
    for rows in updates:
        chars = lcd.counters.chars
        written = display.show(rows)
        want = [(rows[i] if i < len(rows) else "")[:columns].ljust(columns) for i in range(lines)]
        assert lcd.text_rows() == want
        changed = sum(
            a != b for old, new in zip(before, want, strict=True) for a, b in zip(old, new, strict=True)
        )
        assert written == changed == lcd.counters.chars - chars
        before = want
    assert lcd.counters.busy_violations == 0


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(updates=st.lists(rows_for(16, 2), min_size=1, max_size=8))
def test_random_updates_on_16x2_end_with_the_intended_screen(rig_16x2, updates) -> None:
    check_updates(rig_16x2, updates)


@SETTINGS
@given(updates=st.lists(rows_for(20, 4), min_size=1, max_size=8))
def test_random_updates_on_20x4_end_with_the_intended_screen(rig_20x4, updates) -> None:
    check_updates(rig_20x4, updates)


def test_after_its_init_a_character_costs_the_library_one_sleep_not_seven(rig_16x2, monkeypatch) -> None:
    """The E pulse without charlcd's three 100 ns sleeps (each a trip through a busy Pi's scheduler): a timer
    tick's few characters wait only the library's 1 ms per byte, and the controller still never sees a byte while
    busy (on the fake clock, which only the library's sleeps move)."""
    from device.lcd_pins import import_charlcd

    display = display_for(rig_16x2)
    display.show(["Hrac A  1:58", "Hrac B  2:00"])  # the init (with the library's own slow pulses) and a screen
    sleeps: list[float] = []
    fake_time = import_charlcd("character_lcd").time  # library_time's fake, shared by both library modules
    assert import_charlcd("character_lcd_i2c").time is fake_time
    library_sleep = fake_time.sleep

    def counted(seconds: float) -> None:
        sleeps.append(seconds)
        library_sleep(seconds)

    monkeypatch.setattr(fake_time, "sleep", counted)
    assert display.show(["Hrac A  1:57", "Hrac B  2:00"]) == 1
    assert sleeps == [0.001, 0.001]  # the cursor move and the character
    assert rig_16x2.lcd.text_rows()[0] == "Hrac A  1:57".ljust(16)
    assert rig_16x2.lcd.counters.busy_violations == 0
