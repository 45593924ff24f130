"""An emulated HD44780 character LCD controller, driven through its bus pins as the real chip is.

The controller latches RS and the data lines on the falling edge of E. After power-on it is in 8-bit mode
(D0-D3 are not wired in a 4-bit hookup and read as 0), so the library's init dance (nibbles 3, 3, 3, 2) is seen
as three 8-bit "function set" commands and a switch to 4-bit mode, after which nibbles are paired high-first.
DDRAM uses the real address map (two lines of 40 cells at 0x00 and 0x40; a 20x4 module shows line 1 on rows 0
and 2, line 2 on rows 1 and 3, hence the row starts 0x00/0x40/0x14/0x54), CGRAM holds 8 custom 5x8 glyphs.

Two front ends feed the controller: ``attach_gpio`` watches gpiozero mock pins (4-bit GPIO wiring) and
``hw_sim.mcp23008`` decodes the I2C backpack's port writes.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from device.lcd_pins import GpioLcdWiring

log = logging.getLogger(__name__)

LINE_LENGTH = 40  # DDRAM cells per line in 2-line mode
LINE_STARTS = (0x00, 0x40)
ROW_STARTS = (0x00, 0x40, 0x14, 0x54)  # first DDRAM address of each visible row (16x2, 20x4)
SIZES = ((16, 2), (20, 4), (16, 4), (20, 2), (40, 2))
CLEAR_HOME_SECONDS = 1.52e-3  # execution time of clear / return home
COMMAND_SECONDS = 37e-6  # execution time of every other instruction and of a data write
PIN_HISTORY = 256  # state changes a watched mock pin keeps (MockPin keeps all of them by default)

# ROM A00 characters that differ from ASCII in 0x20..0x7F (the Japanese ROM every cheap module carries).
_ROM_A00 = {0x5C: "¥", 0x7E: "→", 0x7F: "←"}
GLYPH_MARKERS = "₀₁₂₃₄₅₆₇"
"""How ``printable_rows`` writes custom glyphs 0-7 (it shows codes, not what the glyphs draw)."""


class HD44780Error(ValueError):
    """A controller set up with a geometry no HD44780 module has, or wired to pins it cannot watch."""


@dataclass(frozen=True)
class LcdCounters:
    """What the controller has received since power-on or the last ``reset_counters()``."""

    chars: int = 0  # data bytes written to DDRAM (characters put on screen)
    glyph_bytes: int = 0  # data bytes written to CGRAM
    commands: int = 0  # instructions (RS low), including the init dance
    address_sets: int = 0  # "set DDRAM address" instructions (cursor moves)
    busy_violations: int = 0  # bytes that arrived while the previous instruction was still executing


class HD44780:
    """The controller: instruction decoder, DDRAM, CGRAM, address counter, display shift, backlight.

    ``now`` (seconds, monotonic) enables the busy-time check: a byte latched before the previous one finished
    executing is counted in ``counters.busy_violations`` (and still executed, so a test sees the content).
    Raises HD44780Error for a geometry that is not a real module.
    """

    def __init__(self, columns: int = 16, lines: int = 2, *, now: Callable[[], float] | None = None) -> None:
        if (columns, lines) not in SIZES:
            raise HD44780Error(f"no HD44780 module is {columns}x{lines} (known: {SIZES})")
        self.columns = columns
        self.lines = lines
        self._now = now
        self._lock = threading.Lock()
        self.backlight = False
        self.listeners: list[Callable[[], None]] = []  # called after every executed byte (e.g. the web panel)
        self.power_on()

    # ------------------------------------------------------------------------------------------ state
    def power_on(self) -> None:
        """Apply power (or a brown-out): the internal reset state of the datasheet."""
        self.ddram = bytearray(b" " * 0x80)
        self.cgram = bytearray(64)
        self.eight_bit = True
        self.two_line = False
        self.font_5x10 = False
        self.display_on = False
        self.cursor_on = False
        self.blink_on = False
        self.increment = True
        self.shift_on_write = False
        self.address = 0
        self.in_cgram = False
        self.shift = 0
        self._pending: int | None = None  # the high nibble waiting for its partner in 4-bit mode
        self._busy_until = 0.0
        self._chars = self._glyph_bytes = self._commands = self._address_sets = self._busy = 0

    @property
    def counters(self) -> LcdCounters:
        return LcdCounters(self._chars, self._glyph_bytes, self._commands, self._address_sets, self._busy)

    def reset_counters(self) -> None:
        self._chars = self._glyph_bytes = self._commands = self._address_sets = self._busy = 0

    # ------------------------------------------------------------------------------------------- bus
    def strobe(self, rs: bool, high_nibble: int, low_nibble: int = 0) -> None:
        """E fell: latch RS and the data lines (D7-D4 as ``high_nibble``, D3-D0 as ``low_nibble``)."""
        with self._lock:
            if self.eight_bit:
                self._execute(rs, (high_nibble & 0xF) << 4 | (low_nibble & 0xF))
            elif self._pending is None:
                self._pending = high_nibble & 0xF
            else:
                byte = self._pending << 4 | (high_nibble & 0xF)
                self._pending = None
                self._execute(rs, byte)
        for listener in self.listeners:
            listener()

    def _execute(self, rs: bool, byte: int) -> None:
        if self._now is not None:
            now = self._now()
            if now < self._busy_until:
                self._busy += 1
            slow = not rs and byte in (0x01, 0x02, 0x03)
            self._busy_until = now + (CLEAR_HOME_SECONDS if slow else COMMAND_SECONDS)
        if rs:
            self._write_data(byte)
        else:
            self._commands += 1
            self._command(byte)

    def _write_data(self, byte: int) -> None:
        if self.in_cgram:
            self.cgram[self.address] = byte & 0x1F
            self._glyph_bytes += 1
            self.address = (self.address + (1 if self.increment else -1)) % 64
            return
        self.ddram[self.address] = byte
        self._chars += 1
        self.address = self._step(self.address, 1 if self.increment else -1)
        if self.shift_on_write:
            self.shift = (self.shift + (1 if self.increment else -1)) % self._ring

    def _command(self, byte: int) -> None:
        if byte & 0x80:
            self.in_cgram = False
            self.address = byte & 0x7F
            self._address_sets += 1
        elif byte & 0x40:
            self.in_cgram = True
            self.address = byte & 0x3F
        elif byte & 0x20:
            self._function_set(byte)
        elif byte & 0x10:
            step = 1 if byte & 0x04 else -1
            if byte & 0x08:
                self.shift = (self.shift - step) % self._ring  # text moves right: the window moves left
            elif not self.in_cgram:
                self.address = self._step(self.address, step)
        elif byte & 0x08:
            self.display_on = bool(byte & 0x04)
            self.cursor_on = bool(byte & 0x02)
            self.blink_on = bool(byte & 0x01)
        elif byte & 0x04:
            self.increment = bool(byte & 0x02)
            self.shift_on_write = bool(byte & 0x01)
        elif byte & 0x02:
            self.address, self.in_cgram, self.shift = 0, False, 0
        elif byte & 0x01:
            self.ddram[:] = b" " * 0x80
            self.address, self.in_cgram, self.shift, self.increment = 0, False, 0, True

    def _function_set(self, byte: int) -> None:
        eight_bit = bool(byte & 0x10)
        if eight_bit != self.eight_bit:
            log.debug("HD44780 switches to %d-bit interface", 8 if eight_bit else 4)
        self.eight_bit = eight_bit
        self._pending = None
        self.two_line = bool(byte & 0x08)
        self.font_5x10 = bool(byte & 0x04)

    @property
    def _ring(self) -> int:
        return LINE_LENGTH if self.two_line else 2 * LINE_LENGTH

    def _step(self, address: int, step: int) -> int:
        """The address counter's next DDRAM address (wraps line 1 end to line 2 start and back)."""
        if not self.two_line:
            return (address + step) % 0x50
        line = 1 if address >= 0x40 else 0
        offset = address - LINE_STARTS[line] + step
        if offset >= LINE_LENGTH:
            return LINE_STARTS[1 - line]
        if offset < 0:
            return LINE_STARTS[1 - line] + LINE_LENGTH - 1
        return LINE_STARTS[line] + offset

    # ----------------------------------------------------------------------------------------- views
    def cells(self) -> list[list[int]]:
        """The character codes in the visible window (display on or off), row by row."""
        with self._lock:
            out = []
            for row in range(self.lines):
                if self.two_line:
                    line, first = row % 2, (row // 2) * self.columns
                    base, ring = LINE_STARTS[line], LINE_LENGTH
                elif row % 2 == 0:
                    line, first, base, ring = 0, (row // 2) * self.columns, 0, 2 * LINE_LENGTH
                else:
                    out.append([0x20] * self.columns)  # 1-line mode drives no second COM line
                    continue
                out.append(
                    [self.ddram[base + (first + col + self.shift) % ring] for col in range(self.columns)]
                )
            return out

    def text_rows(self) -> list[str]:
        """What a player sees, as LCD codes: one ``chr(code)`` per cell (``chr(0..7)`` = custom glyph).

        Codes 8-15 show the same CGRAM glyphs as 0-7 and are folded onto them; a display that is switched off
        shows blanks. The encoding is the one ``device.lcd.CharDisplay.show`` takes.
        """
        if not self.display_on:
            return [" " * self.columns for _ in range(self.lines)]
        return ["".join(chr(c & 0x07 if c < 0x10 else c) for c in row) for row in self.cells()]

    def printable_rows(self) -> list[str]:
        """The visible rows as readable Unicode: ROM A00 for 0x20-0x7F, custom glyph n as a subscript digit."""
        out = []
        for row in self.text_rows():
            chars = []
            for ch in row:
                code = ord(ch)
                if code < 8:
                    chars.append(GLYPH_MARKERS[code])
                elif 0x20 <= code < 0x80:
                    chars.append(_ROM_A00.get(code, ch))
                else:
                    chars.append("?")
            out.append("".join(chars))
        return out

    def glyph(self, slot: int) -> list[int]:
        """Custom glyph ``slot`` (0-7) as 8 rows of 5 bits, top row first (bit 4 = leftmost pixel)."""
        if not 0 <= slot < 8:
            raise HD44780Error(f"CGRAM slot must be 0-7, got {slot!r}")
        return list(self.cgram[slot * 8 : slot * 8 + 8])

    def glyphs(self) -> list[list[int]]:
        """All 8 custom glyphs (see ``glyph``)."""
        return [self.glyph(slot) for slot in range(8)]

    def cursor(self) -> tuple[int, int] | None:
        """The visible (column, row) of the address counter, or None when it points off-screen or into CGRAM."""
        if self.in_cgram:
            return None
        for row in range(self.lines):
            start = ROW_STARTS[row]
            if start <= self.address < start + self.columns:
                return self.address - start, row
        return None

    def to_dict(self) -> dict[str, object]:
        """A plain view for the simulator's web page."""
        return {
            "columns": self.columns,
            "lines": self.lines,
            "rows": self.printable_rows(),
            "cells": self.cells(),
            "cgram": self.glyphs(),
            "display_on": self.display_on,
            "backlight": self.backlight,
        }


class WatchedPin(MockPin):
    """A gpiozero mock pin that tells its watchers about every output change (as MockSPIClockPin does).

    Keeps only the last ``PIN_HISTORY`` states, so a simulator that runs for days does not grow without bound.
    """

    def __init__(self, factory: MockFactory, info: object) -> None:
        self.watchers: list[Callable[[bool], None]] = []
        super().__init__(factory, info)

    def clear_states(self) -> None:
        super().clear_states()
        self.states: deque[Any] = deque(self.states, maxlen=PIN_HISTORY)

    def _set_state(self, value: object) -> None:
        before = self._state
        super()._set_state(value)
        if self._state != before:
            for watcher in self.watchers:
                watcher(self._state)


class GpioFrontEnd:
    """Connects an HD44780 to gpiozero mock pins: E falling edge latches RS and D4-D7.

    Create it before the library opens the pins (it installs WatchedPin objects in the factory).
    Raises HD44780Error when a pin already exists as a plain MockPin.
    """

    def __init__(self, lcd: HD44780, factory: MockFactory, pins: GpioLcdWiring) -> None:
        self.lcd = lcd
        self.factory = factory
        self.pins = pins
        self._rs = self._watch(pins.rs)
        self._e = self._watch(pins.e)
        self._data = [self._watch(name) for name in (pins.d4, pins.d5, pins.d6, pins.d7)]
        self._e.watchers.append(self._on_enable)
        self._backlight = None
        if pins.backlight is not None:
            self._backlight = self._watch(pins.backlight)
            self._backlight.watchers.append(self._on_backlight)

    def _watch(self, name: str) -> WatchedPin:
        pin = self.factory.pin(name, pin_class=WatchedPin)
        if not isinstance(pin, WatchedPin):
            raise HD44780Error(f"pin {name!r} was opened before the LCD emulator was attached to it")
        return pin

    def _on_enable(self, state: bool) -> None:
        if not state:
            nibble = sum(1 << i for i, pin in enumerate(self._data) if pin.state)
            self.lcd.strobe(bool(self._rs.state), nibble)

    def _on_backlight(self, state: bool) -> None:
        self.lcd.backlight = bool(state)
        for listener in self.lcd.listeners:
            listener()

    def close(self) -> None:
        """Stop watching the pins."""
        self._e.watchers.remove(self._on_enable)
        if self._backlight is not None:
            self._backlight.watchers.remove(self._on_backlight)


def attach_gpio(lcd: HD44780, factory: MockFactory, pins: GpioLcdWiring) -> GpioFrontEnd:
    """Wire ``lcd`` to the mock pins ``pins`` of ``factory`` (the 4-bit hookup); see GpioFrontEnd."""
    return GpioFrontEnd(lcd, factory, pins)
