"""One HD44780 character LCD, written through adafruit-circuitpython-charlcd, changed characters only.

The renderer hands ``CharDisplay.show`` finished rows of LCD codes (``chr(code)`` per cell, ``chr(0..7)`` = the
custom glyphs loaded with ``set_glyphs``). Each character costs the library about 1.5 ms (it sleeps 1 ms before
every byte and pulses E with sleeps), so the display keeps a shadow of what the LCD shows and writes only the
cells that differ: one cursor move per run of changed cells. An LCD error (I2C NAK, a pin fault) is logged and
answered by building a fresh library object (the HD44780 init sequence resynchronises the 4-bit interface) and
rewriting the whole screen; a display that stays broken is retried every ``retry_seconds``, never raising.

Nothing here imports charlcd or gpiozero at module import: the factories import them when first called.
"""

from __future__ import annotations

import logging
import time
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gpiozero.exc import GPIOZeroError

from device.errors import DeviceError
from device.lcd_pins import GpioLcdPin, GpioLcdWiring, LcdPinError, import_charlcd
from device.realtime import realtime

log = logging.getLogger(__name__)

DEFAULT_I2C_ADDRESS = 0x20
PRIORITY = 5
"""The table's LCD writes run at this ``SCHED_FIFO`` priority (below the buzzer's 10): a few ms of mostly sleeping."""
GLYPH_SLOTS = 8
GLYPH_ROWS = 8
REPLACEMENT = "?"
_SLOT_CODES = {code: code - 8 for code in range(8, 16)}
"""Codes 8-15 show the custom glyphs 0-7: written as 0-7 (``CharDisplay.show``)."""
# What a failing LCD raises: OSError (I2C transfer), ValueError (charlcd / bus_device: no device at address),
# RuntimeError (Blinka), GPIOZeroError (a pin that cannot be driven).
LCD_ERRORS: tuple[type[BaseException], ...] = (OSError, ValueError, RuntimeError, GPIOZeroError)

LcdFactory = Callable[[], Any]


class LcdContentError(DeviceError, ValueError):
    """Content the LCD cannot take: rows that are not strings, a glyph that is not 8 rows of 5 bits."""


class GpioLcdFactory:
    """Makes a charlcd ``Character_LCD_Mono`` on gpiozero pins (4-bit hookup); the pins outlive the LCD objects.

    Opening the pins can raise GPIOZeroError (pin in use, bad name); ``close()`` releases them.
    """

    def __init__(self, wiring: GpioLcdWiring, columns: int, lines: int, pin_factory: Any = None) -> None:
        self.wiring = wiring
        self.columns = columns
        self.lines = lines
        self.pins: list[GpioLcdPin] = []
        try:
            for name in wiring.lines():
                if name is not None:
                    self.pins.append(GpioLcdPin(name, pin_factory))
        except Exception:
            self.close()
            raise

    def __call__(self) -> Any:
        if not self.pins:
            raise LcdPinError(f"LCD on {self.wiring.format()!r}: its pins were closed")
        module = import_charlcd("character_lcd")
        rs, e, d4, d5, d6, d7 = self.pins[:6]
        backlight = self.pins[6] if len(self.pins) > 6 else None
        lcd = module.Character_LCD_Mono(rs, e, d4, d5, d6, d7, self.columns, self.lines, backlight_pin=backlight)
        lcd._pulse_enable = types.MethodType(_pulse_gpio, lcd)  # after the init dance: see _pulse_gpio
        return lcd

    def close(self) -> None:
        for pin in self.pins:
            pin.close()
        self.pins.clear()


class I2CLcdFactory:
    """Makes a charlcd ``Character_LCD_I2C`` (MCP23008 backpack) at ``address`` on a busio-compatible bus.

    Calling it raises ValueError when no device answers at the address, OSError on a failed transfer.
    """

    def __init__(self, i2c: Any, columns: int, lines: int, address: int = DEFAULT_I2C_ADDRESS) -> None:
        self.i2c = i2c
        self.columns = columns
        self.lines = lines
        self.address = address

    def __call__(self) -> Any:
        module = import_charlcd("character_lcd_i2c")
        lcd = module.Character_LCD_I2C(self.i2c, self.columns, self.lines, address=self.address)
        lcd._pulse_enable = types.MethodType(_pulse_i2c, lcd)  # after the init dance: see _pulse_gpio
        return lcd

    def close(self) -> None:
        """The bus belongs to whoever made it; nothing to release here."""


E_BIT = 1 << 2
"""The enable line on the MCP23008 backpack (charlcd's ``Character_LCD_I2C``: GP2)."""


def _pulse_gpio(lcd: Any) -> None:
    """charlcd's E pulse once the LCD is initialised: high, low, without the library's three 100 ns sleeps.

    Each of those sleeps is a trip through the scheduler (>= 50 us on Linux, milliseconds on a busy Pi: most of a
    timer tick's time), and none is needed: a pin write from Python takes microseconds (lgpio on a Pi Zero 2 W),
    longer than the HD44780's 450 ns E pulse, and E is low between pulses (every pulse ends low). After the last
    nibble of a byte the library's own 1 ms sleep before the next byte still covers the controller's 37 us. The
    library's sleeping pulse stays for its init dance, where each nibble is a command of its own."""
    lcd.enable.value = True
    lcd.enable.value = False


def _pulse_i2c(lcd: Any) -> None:
    """The E pulse on the MCP23008 backpack (see ``_pulse_gpio``): one register read and two writes (the data
    nibble stays put) instead of the library's three read-modify-write pin changes, each an I2C transfer."""
    mcp = lcd.mcp
    value = mcp.gpio & ~E_BIT
    mcp.gpio = value | E_BIT
    mcp.gpio = value


def check_glyph(slot: int, pattern: Sequence[int]) -> tuple[int, ...]:
    """A custom glyph as 8 rows of 5 bits; raises LcdContentError naming the slot and the bad value."""
    if not isinstance(slot, int) or not 0 <= slot < GLYPH_SLOTS:
        raise LcdContentError(f"glyph slot must be 0-{GLYPH_SLOTS - 1}, got {slot!r}")
    rows = tuple(pattern)
    if len(rows) != GLYPH_ROWS or not all(isinstance(r, int) and 0 <= r <= 0x1F for r in rows):
        raise LcdContentError(
            f"glyph {slot}: expected {GLYPH_ROWS} rows of 0-31 (5 pixels), got {list(rows)!r}"
        )
    return rows


class CharDisplay:
    """One LCD that writes only what changed. ``lcd`` is a charlcd object or a factory that makes one.

    With a factory, the LCD is built lazily (on the first ``show``) and rebuilt after an error; with a ready
    object, recovery is ``clear()`` and a full rewrite. ``now`` is the time source for the retry interval.
    """

    def __init__(
        self,
        lcd: Any,
        columns: int,
        lines: int,
        *,
        glyphs: Mapping[int, Sequence[int]] | None = None,
        now: Callable[[], float] = time.monotonic,
        retry_seconds: float = 5.0,
        priority: int | None = None,
    ) -> None:
        self.columns = columns
        self.priority = priority
        """``SCHED_FIFO`` priority the calling thread writes with (``device.realtime``; None: its own): the
        library sleeps 1 ms before every byte, and on a busy Pi each of those wake-ups would wait for a core."""
        self.lines = lines
        self._factory: LcdFactory | None = lcd if callable(lcd) else None
        self._lcd: Any = None if callable(lcd) else lcd
        self._now = now
        self.retry_seconds = retry_seconds
        self._retry_at: float | None = None
        self._target = [[" "] * columns for _ in range(lines)]
        # What the LCD shows: None = unknown (a ready-made object, or after an error): next write is a full one.
        self._shadow: list[list[str]] | None = None
        self._glyphs: dict[int, tuple[int, ...]] = {}
        self._loaded: dict[int, tuple[int, ...]] = {}
        self._backlight = True
        self.chars_written = 0
        self.errors = 0
        self.inits = 0
        if glyphs:
            self._glyphs = {slot: check_glyph(slot, p) for slot, p in glyphs.items()}

    # ------------------------------------------------------------------------------------------- public
    @property
    def healthy(self) -> bool:
        """True when the last write went through (the LCD shows what ``show`` was last given)."""
        return self._lcd is not None and self._shadow is not None

    def rows(self) -> list[str]:
        """The content last asked for, normalised (padded/cut to the LCD's size)."""
        return ["".join(row) for row in self._target]

    def show(self, rows: Sequence[str]) -> int:
        """Show ``rows`` (LCD codes, one row per line); returns the number of characters written.

        Rows are cut or padded with spaces to the LCD's width, missing rows are blank and extra rows dropped
        (logged); codes 8-15 are written as 0-7 (the HD44780 shows the same glyphs), codes above 255 as ``?``.
        Raises LcdContentError for rows that are not strings; LCD errors never propagate.
        """
        self._target = self._normalise(rows)
        return self._run(self._flush)

    def set_glyphs(self, glyphs: Mapping[int, Sequence[int]]) -> None:
        """Define custom glyphs (slot -> 8 rows of 5 bits); only changed slots are written to CGRAM.

        Cells showing a slot change with it, as on the real LCD. Raises LcdContentError for a bad glyph.
        """
        checked = {slot: check_glyph(slot, pattern) for slot, pattern in glyphs.items()}
        self._glyphs.update(checked)
        self._run(self._load_glyphs)

    @property
    def backlight(self) -> bool:
        return self._backlight

    @backlight.setter
    def backlight(self, on: bool) -> None:
        self._backlight = bool(on)
        self._run(self._apply_backlight)

    def reinit(self) -> bool:
        """Re-initialise the LCD now and rewrite everything (e.g. after a suspected glitch); True if it worked."""
        self._shadow = None
        if self._factory is not None:
            self._lcd = None
        self._retry_at = None
        self._run(self._flush)
        return self.healthy

    def close(self) -> None:
        """Release the pins (a factory's ``close``); the LCD keeps its last content."""
        close = getattr(self._factory, "close", None)
        if close is not None:
            close()
        self._lcd = None

    # ------------------------------------------------------------------------------------------ helpers
    def _normalise(self, rows: Sequence[str]) -> list[list[str]]:
        if isinstance(rows, str) or not all(isinstance(r, str) for r in rows):
            raise LcdContentError(f"LCD rows must be a sequence of str, got {rows!r}")
        if len(rows) > self.lines:
            log.warning(
                "LCD %dx%d: dropping %d extra row(s) %r",
                self.columns,
                self.lines,
                len(rows) - self.lines,
                rows,
            )
        out = []
        for i in range(self.lines):
            text = rows[i] if i < len(rows) else ""
            shown = text[: self.columns].ljust(self.columns)
            if shown.isascii() or max(shown) <= "\xff":  # every character has a code (a tick's rows): no loop
                out.append(list(shown.translate(_SLOT_CODES)))
                continue
            cells = []
            for ch in shown:
                code = ord(ch)
                if 8 <= code < 16:
                    ch = chr(code - 8)
                elif code > 0xFF:
                    log.warning("LCD: character %r (U+%04X) in row %r has no LCD code", ch, code, text)
                    ch = REPLACEMENT
                cells.append(ch)
            out.append(cells)
        return out

    def _run(self, action: Callable[[], int | None]) -> int:
        """Run ``action`` against a live LCD (at the display's priority); on an LCD error rebuild once and retry,
        else wait for the retry time."""
        with realtime(self.priority):
            return self._attempt(action)

    def _attempt(self, action: Callable[[], int | None]) -> int:
        for attempt in (1, 2):
            if not self._ensure_lcd():
                return 0
            try:
                return action() or 0
            except LCD_ERRORS as e:
                self.errors += 1
                log.error("LCD error (attempt %d): %s", attempt, e)
                self._shadow = None
                self._loaded.clear()
                if self._factory is not None:
                    self._lcd = None
                else:
                    self._recover_ready_made()
        self._retry_at = self._now() + self.retry_seconds
        return 0

    def _ensure_lcd(self) -> bool:
        if self._lcd is not None:
            return True
        if self._retry_at is not None and self._now() < self._retry_at:
            return False
        assert self._factory is not None
        try:
            lcd = self._factory()
            self._lcd = lcd
            self.inits += 1
            self._shadow = [[" "] * self.columns for _ in range(self.lines)]  # the library's init clears
            self._loaded.clear()
            self._apply_backlight()
            self._load_glyphs()
        except LCD_ERRORS as e:
            self.errors += 1
            self._lcd = None
            self._retry_at = self._now() + self.retry_seconds
            log.error("LCD init failed (next try in %.0f s): %s", self.retry_seconds, e)
            return False
        self._retry_at = None
        log.info("LCD %dx%d initialised", self.columns, self.lines)
        return True

    def _recover_ready_made(self) -> None:
        try:
            self._lcd.clear()
            self._shadow = [[" "] * self.columns for _ in range(self.lines)]
            self._apply_backlight()
            self._load_glyphs()
        except LCD_ERRORS as e:
            log.error("LCD recovery failed: %s", e)

    def _apply_backlight(self) -> None:
        # charlcd's init leaves its backlight flag False, and the I2C backpack sends that flag with every byte:
        # set it explicitly after every init.
        if getattr(self._lcd, "backlight_pin", None) is not None:
            self._lcd.backlight = self._backlight

    def _load_glyphs(self) -> None:
        for slot, pattern in sorted(self._glyphs.items()):
            if self._loaded.get(slot) != pattern:
                self._lcd.create_char(slot, list(pattern))
                self._loaded[slot] = pattern

    def _flush(self) -> int:
        if self._shadow is None:
            self._shadow = [[""] * self.columns for _ in range(self.lines)]  # differs from every character
        written = 0
        for row, (want, have) in enumerate(zip(self._target, self._shadow, strict=True)):
            col = 0
            while col < self.columns:
                if want[col] == have[col]:
                    col += 1
                    continue
                end = col
                while end < self.columns and want[end] != have[end]:
                    end += 1
                self._write_run(col, row, "".join(want[col:end]))
                have[col:end] = want[col:end]
                written += end - col
                col = end
        self.chars_written += written
        return written

    def _write_run(self, column: int, row: int, text: str) -> None:
        # charlcd's message setter starts with a cursor move to (lcd.column, lcd.row); setting them directly
        # instead of calling cursor_position() saves one command byte (~1.5 ms) per run.
        self._lcd.column = column
        self._lcd.row = row
        self._lcd.message = text
