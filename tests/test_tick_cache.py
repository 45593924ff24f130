"""A timer tick reuses what only inputs and clock events change (issue 18): the menu items, the view's lasting parts
(``Table._refresh``), the glyph slots of the LCD's letters (``GlyphMapper``). After every input of a game walked
through the real ``Table`` (moves, a menu, a pause, a blank, a time-out in the middle of ticks, an unplugged board,
the end and the result's pages), what the table shows must equal what it computes from scratch: a cache left
stale by an input or a clock event fails here."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from table_rig import Rig

from device import inputs
from device.screens import render
from device.transliterate import GlyphMapper, LcdGlyphs
from shared.texts import text

A, B = 0, 1
SIZES = ((20, 4), (16, 2))


class Recorder:
    """The display under ``LcdGlyphs``: what it was last shown and the glyphs it was given."""

    def __init__(self) -> None:
        self.rows: list[str] = []
        self.glyphs: dict[int, tuple[int, ...]] = {}
        self.backlight = True

    def show(self, rows: Sequence[str]) -> int:
        self.rows = list(rows)
        return 0

    def set_glyphs(self, glyphs: dict[int, tuple[int, ...]]) -> None:
        self.glyphs.update(glyphs)


def from_scratch(table: Any) -> dict[str, Any]:
    """The view computed anew (``Table.view`` neither reads nor writes the tick's cache)."""
    cached = table._lasting
    view = table.view()
    assert table._lasting is cached
    return view


def lcd_table(rig: Rig) -> list[LcdGlyphs]:
    """Two 20x4 LCDs with Czech glyphs on the rig's table."""
    displays = [LcdGlyphs(Recorder()) for _ in range(2)]
    rig.table.displays = displays
    rig.table.render = lambda view, index: render(view, rig.table.lang, 20, 4, index, 2)
    return displays


@contextmanager
def checked(rig: Rig, displays: list[LcdGlyphs]) -> Iterator[list[int]]:
    """Every ``table.handle`` inside checks what the table shows against the same computed from scratch; yields
    the count of inputs checked (ticks first)."""
    table = rig.table
    handle = table.handle
    counts = [0, 0]

    def checking(item: object) -> None:
        before = [dict(d.mapper.assigned) for d in displays]
        handle(item)
        fresh = from_scratch(table)
        what = f"after {item!r} at {rig.time.now():.1f} s"
        assert table.latest_view == fresh, what
        assert table.menu.items == table._menu_items(), what
        for i, display in enumerate(displays):
            mapper = GlyphMapper()
            mapper.assigned = before[i]
            rows, changed = mapper.encode(list(render(fresh, table.lang, 20, 4, table._player_at(i), 2)))
            assert display.display.rows == rows, what
            assert all(display.display.glyphs[slot] == glyph for slot, glyph in changed.items()), what
            for columns, lines in SIZES:
                assert render(table.latest_view, table.lang, columns, lines, i, 2) == render(
                    fresh, table.lang, columns, lines, i, 2), what
        counts[0 if isinstance(item, inputs.Tick) else 1] += 1

    table.handle = checking  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        table.handle = handle  # type: ignore[method-assign]


def ticks(rig: Rig, seconds: float, step: float = 1.0) -> None:
    for _ in range(round(seconds / step)):
        rig.advance(step)


def walk(rig: Rig) -> None:
    """A game with ticks between its inputs."""
    table, lang = rig.table, rig.table.lang
    rig.start()
    ticks(rig, 3)
    rig.press(B)
    ticks(rig, 5)
    rig.lay("ROZUM", "8D")
    ticks(rig, 3)
    rig.press(A)
    ticks(rig, 4)
    table.handle(inputs.EncoderPushed())  # the menu opens
    table.handle(inputs.EncoderTurned(1))
    ticks(rig, 3)
    table.handle(inputs.EncoderTurned(-1))
    ticks(rig, 2)
    rig.menu("challenge_word", "ROZUM")
    ticks(rig, 2)
    rig.menu("ruling", text("rejected", lang))
    ticks(rig, 8)  # the ruling's notice ends between two ticks
    rig.menu("pause", text("yes", lang))
    ticks(rig, 3)
    rig.menu("resume", text("yes", lang))
    cells = rig.lay("KOzO", "E5")
    rig.press(B)  # the table waits for the blank's letter
    ticks(rig, 2)
    rig.lift(cells)
    ticks(rig, 118)  # the move time runs out during a tick: a clock event
    ticks(rig, 3, 0.1)
    ticks(rig, 8)
    rig.press(B)  # the timed-out player's press starts the next move
    rig.press(A)
    ticks(rig, 98)
    ticks(rig, 12, 0.1)  # seconds under 10 in tenths
    rig.unplug()
    ticks(rig, 2)
    rig.replug()
    ticks(rig, 2)
    table.handle(inputs.RoundCommand("end"))  # the playout round
    ticks(rig, 2)
    for _ in range(40):  # passes until the game ends (scoreless turns)
        if table.game.ended is not None:
            break
        rig.press(table.game.player_on_move)
        ticks(rig, 1)
    rig.menu("racks", *"AEIOUNS", text("done", lang), text("yes", lang))
    ticks(rig, 2)
    rig.menu("racks", *"AEIOTNS", text("done", lang), text("yes", lang))
    ticks(rig, 12)  # the result's pages alternate every 4 s


def test_what_a_tick_shows_equals_the_screens_computed_from_scratch(tmp_path) -> None:
    rig = Rig(tmp_path)
    displays = lcd_table(rig)
    with checked(rig, displays) as counts:
        walk(rig)
    rig.close()
    assert rig.table.game.result is not None
    assert counts[0] > 300 and counts[1] > 30  # the walk reached its end through ticks and inputs
    assert any(ord(ch) < 16 for d in displays for row in d.display.rows for ch in row)  # glyphs were drawn


def test_a_stale_cache_fails_the_check(tmp_path) -> None:
    """The same walk with the tick taken as unchanged even after a clock event (the time-out): the check fails."""
    rig = Rig(tmp_path)
    displays = lcd_table(rig)
    table = rig.table
    refresh = table._refresh

    def stale(tick: bool = False) -> None:
        if tick:
            table._replan = False
        refresh(tick)

    table._refresh = stale  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match="Tick"), checked(rig, displays):
        walk(rig)
    rig.close()


def test_the_glyph_mapper_keeps_its_slots_as_when_computed_anew() -> None:
    """Screens whose letters beyond ASCII stay (a tick), change (a name, a notice), or go (ASCII only)."""
    screens = [
        [">Bedřich    1:47", "18:0       38:58"],
        [">Bedřich    1:46", "18:0       38:57"],
        [">Anna       1:59", "0:18       38:56"],
        ["Čas vypršel", "Bedřich  ž"],
        ["Konec 10:-7", "Vítěz: Anna"],
        ["Konec 10:-7", "Vítěz: Anna"],
        ["ASCII only", "12:34"],
        ["áčďéěíňóřšťúůýž…", "ŽŠČŘĎŤŇ–x"],
        ["áčďéěíňóřšťúůýž…", "ŽŠČŘĎŤŇ–y"],
        ["Žolík ČÁŠ", "čas"],
    ]
    mapper = GlyphMapper()
    for rows in screens:
        anew = GlyphMapper()
        anew.assigned = dict(mapper.assigned)
        assert mapper.encode(rows) == anew.encode(rows), rows
