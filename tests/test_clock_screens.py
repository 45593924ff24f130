"""LCD content as plain text (Czech and English, 16x2 and 20x4) and the Czech letters on an HD44780."""

from __future__ import annotations

import pytest

from device.clock.core import MoveClock
from device.clock.modes import mode
from device.screens import format_duration, format_move_time, redraw_in, render
from device.transliterate import GLYPHS, SLOTS, GlyphMapper, LcdGlyphs, to_ascii


def table_view(clock: MoveClock, now: float, **extra) -> dict:
    view = {
        "clock": clock.view(now),
        "names": ["Jana", "Petr"],
        "scores": [123, 98],
        "player_on_move": clock.player_on_move,
        "round": None,
        "last_move": {"word": "KOČKA", "score": 24},
        "prompt": None,
    }
    view.update(extra)
    return view


@pytest.fixture
def running() -> MoveClock:
    c = MoveClock(mode("cas"), 0.0)
    c.start_game(0.0)
    c.press(1, 10.0)  # Jana (0) on move from 10 s
    return c


def test_time_formats() -> None:
    assert format_move_time(120.0) == "2:00"
    assert format_move_time(107.2) == "1:48"  # counts down: shows the next whole second up
    assert format_move_time(10.0) == "0:10"
    assert format_move_time(9.95) == "0:10"
    assert format_move_time(9.94) == "0:10"  # 9.94 rounds up to 10.0
    assert format_move_time(9.9) == "9.9" and format_move_time(9.81) == "9.9" and format_move_time(9.8) == "9.8"
    assert format_move_time(0.04) == "0.1"
    assert format_move_time(0.0) == "0.0"
    assert format_move_time(None) == "--"
    assert format_duration(2400.0) == "40:00" and format_duration(3725.0) == "1:02:05"


def test_16x2_per_player_displays_cs(running: MoveClock) -> None:
    v = table_view(running, 62.3)
    assert render(v, "cs", 16, 2, 0, 2) == (">ty         1:08", "123:98     38:58")
    assert render(v, "cs", 16, 2, 1, 2) == (">Jana       1:08", "98:123     38:58")
    assert render(v, "cs", 16, 2, 0, 1) == (">Jana       1:08", "123:98     38:58")


def test_16x2_en_tenths_under_ten_seconds(running: MoveClock) -> None:
    v = table_view(running, 122.74)
    assert render(v, "en", 16, 2, 0, 2) == (">you         7.3", "123:98     37:58")


def test_20x4_shows_names_last_move_and_game_time(running: MoveClock) -> None:
    v = table_view(running, 62.3)
    assert render(v, "cs", 20, 4, 1, 2) == (
        ">Jana           1:08",
        "Petr   98 Jana  123 ",
        "KOČKA +24           ",
        "hra            38:58",
    )
    assert render(v, "en", 20, 4, 0, 1)[3] == "game           38:58"


def test_states_paused_timeout_start_playout_and_game_over() -> None:
    c = MoveClock(mode("cas"), 0.0)
    assert render(table_view(c, 0.0), "cs", 16, 2, 0, 1)[0] == "Spusť hodiny    "  # the idle time gives way
    assert render(table_view(c, 0.0), "en", 20, 4, 0, 1)[0] == "Start the clock 2:00"
    c.press(1, 0.0)
    c.mark_present(0, 0.0)
    c.pause(30.0)
    assert render(table_view(c, 40.0), "en", 16, 2, 0, 1)[0] == "PAUSED      1:30"
    c.resume(40.0)
    c.advance(200.0)
    assert render(table_view(c, 200.0), "cs", 16, 2, 1, 2)[0] == "Jana: stiskni   "  # who must press next
    assert render(table_view(c, 200.0), "cs", 16, 2, 0, 2)[0] == "ty: stiskni  0.0"
    assert render(table_view(c, 200.0, round="B"), "cs", 16, 2, 0, 1)[1] == "123:98    kolo B"
    c.stop(210.0)
    assert render(table_view(c, 210.0), "en", 16, 2, 0, 1)[0].startswith("Game over")


def test_a_menu_or_notice_takes_the_lower_rows_and_the_move_time_stays(running: MoveClock) -> None:
    v = table_view(running, 62.3, menu=["MENU", "> Pas"])
    assert render(v, "cs", 16, 2, 0, 2) == ("MENU        1:08", "> Pas           ")
    assert render(v, "cs", 20, 4, 0, 2)[2:] == ("MENU                ", "> Pas               ")
    v = table_view(running, 62.3, prompt="Zvol žolík")
    assert render(v, "cs", 16, 2, 0, 2)[0] == "Zvol žolík  1:08"


def test_the_tables_own_view_shape_is_understood(running: MoveClock) -> None:
    view = {
        "players": ["Eva", "Ota"],
        "game": {"players": ["Eva", "Ota"], "scores": [10, 20], "player_on_move": 0, "phase": "A", "ended": None},
        "clock": running.view(20.0),
        "last_move": None,
        "menu": None,
        "notice": None,
    }
    assert render(view, "cs", 16, 2, 0, 1) == (">Eva        1:50", "10:20     kolo A")


def test_chess_clock_shows_the_budget_and_free_mode_no_time() -> None:
    c = MoveClock(mode("home_chess"), 0.0)
    c.press(1, 0.0)
    assert render(table_view(c, 65.0), "en", 16, 2, 0, 1)[0] == ">Jana      18:55"
    f = MoveClock(mode("free"), 0.0)
    f.press(1, 0.0)
    assert render(table_view(f, 65.0), "en", 16, 2, 0, 1) == (">Jana           ", "123:98          ")


def test_too_small_a_display_is_refused() -> None:
    with pytest.raises(ValueError, match="8x2 is too small"):
        render({}, "cs", 8, 2)


def test_redraw_in_follows_the_displayed_step(running: MoveClock) -> None:
    assert redraw_in(running.view(62.3)) == pytest.approx(0.7)
    assert redraw_in(running.view(125.04)) == pytest.approx(0.06)
    running.pause(126.0)
    assert redraw_in(running.view(127.0)) is None


def test_to_ascii_transliterates_czech_and_marks_the_unknown() -> None:
    assert to_ascii("Příliš žluťoučký kůň úpěl ďábelské ódy") == "Prilis zlutoucky kun upel dabelske ody"
    assert to_ascii("ČŘŠŽĚĎŤŇŮÁÉÍÓÚÝ") == "CRSZEDTNUAEIOUY"
    assert to_ascii("Ö – „x“ ★") == 'O - "x" ?'


def test_every_czech_glyph_is_a_valid_5x8_pattern() -> None:
    for letter in "áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ":
        rows = GLYPHS[letter]
        assert len(rows) == 8 and all(0 <= r <= 0x1F for r in rows), letter
    assert len(set(GLYPHS.values())) == len(GLYPHS)  # no two letters look the same


def test_glyph_mapper_picks_the_most_frequent_letters_and_keeps_their_slots() -> None:
    m = GlyphMapper()
    rows, changed = m.encode(["Žolík ČÁŠ", "čas"])
    assert sorted(changed) == [0, 1, 2, 3, 4, 5]
    assert rows[0] == "".join(chr(8 + m.assigned[ch]) if ch in m.assigned else ch for ch in "Žolík ČÁŠ")
    slot_of_z = m.assigned["Ž"]
    rows2, changed2 = m.encode(["Žár"])
    assert m.assigned["Ž"] == slot_of_z and set(changed2) == {m.assigned["á"]}
    assert rows2[0] == chr(8 + slot_of_z) + chr(8 + m.assigned["á"]) + "r"
    many = "áčďéěíňóřšťúůýž"
    rows3, _ = GlyphMapper().encode([many + "ž"])
    assert sum(1 for ch in rows3[0] if ord(ch) < 16) == SLOTS + 1  # 8 letters drawn, ž twice
    assert all(ord(ch) < 128 for ch in rows3[0])
    ascii_only, none = GlyphMapper(0).encode(["Žolík"])
    assert ascii_only == ["Zolik"] and none == {}


def test_lcd_glyphs_defines_glyphs_then_shows_the_codes() -> None:
    calls: list = []

    class Display:
        backlight = True

        def set_glyphs(self, glyphs: dict) -> None:
            calls.append(("glyphs", dict(glyphs)))

        def show(self, rows: list[str]) -> int:
            calls.append(("show", list(rows)))
            return sum(map(len, rows))

        def rows(self) -> list[str]:
            return ["x"]

    lcd = LcdGlyphs(Display())
    assert lcd.show(["Čas", "ok"]) == 5
    assert calls == [("glyphs", {0: GLYPHS["Č"]}), ("show", ["\x08as", "ok"])]
    lcd.show(["Čas"])
    assert calls[-1] == ("show", ["\x08as"])  # no glyph rewrite
    assert lcd.rows() == ["x"] and lcd.glyph_table() == {0: "Č"}
    lcd.backlight = False
    assert lcd.display.backlight is False


def test_four_players_prague_doubles() -> None:
    c = MoveClock(mode("prague"), 0.0)
    c.press(3, 0.0)
    v = {"clock": c.view(5.0), "names": ["Jana", "Petr", "Eva", "Ota"], "scores": [123, 98, 7, 1000]}
    assert render(v, "cs", 16, 2, 1, 2) == (">Jana       1:55", "123 98 7 1000   ")
    assert render(v, "en", 20, 4, 0, 1)[1:] == ("123 98 7 1000       ", "                    ", "game           34:55")
