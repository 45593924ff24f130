"""The table unit's pin map: ``wiring/pins.toml`` read into a ``PinMap`` and checked against the real Pi header.

The map is the single source of every GPIO the table unit uses: player buttons, encoder, buzzer, LED, the LCDs
(4-bit GPIO hookup or MCP23008 I2C backpacks), the I2C bus and the UART to the board. ``load_pinmap()`` reads
and checks it; a structural fault (missing key, wrong type) or a failed consistency check raises
``PinMapError`` naming the key. ``PinMap.problems()`` lists every consistency problem at once (for
``partiar wiring check``).

The consistency checks: every pin's header number and BCM number agree with the 40-pin header (``HEADER_40``);
no GPIO and no header pin is used twice; I2C sits on GPIO2/3 and the UART on GPIO14/15 (and nothing else uses
them); pins used for hardware PWM are PWM-capable (GPIO12, 13, 18, 19), a passive buzzer is on one; GPIO0/1
(HAT ID EEPROM) stay free; MCP23008 addresses are distinct and in 0x20-0x27.

A ``PinMap`` has the role attributes the simulator's panel looks for (``button_a``, ``button_b``,
``encoder_a``, ``encoder_b``, ``encoder_push``, ``buzzer``, ``led`` as BCM numbers, and ``buzzer_kind``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.config import KINDS, key_line, toml_error
from device.errors import ConfigError
from device.lcd_pins import GpioLcdWiring, LcdPinError

DEFAULT_PINS_FILE = Path(__file__).resolve().parent.parent / "wiring" / "pins.toml"
"""The pin map in the source tree (``wiring/pins.toml``): the daemon's default when ``pins_file`` is empty."""

POWER = ("3V3", "5V", "GND")
HEADER_40: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}  # fmt: skip
"""The Raspberry Pi 40-pin header (all models since the B+): physical pin -> BCM GPIO number or supply name."""

BCM_TO_HEADER: dict[int, int] = {bcm: pin for pin, bcm in HEADER_40.items() if isinstance(bcm, int)}
HARDWARE_PWM_GPIOS = (12, 13, 18, 19)
"""GPIOs with a hardware PWM channel on the header (PWM0 on 12/18, PWM1 on 13/19)."""
I2C1_GPIOS = {"sda": 2, "scl": 3}
UART_GPIOS = {"tx": 14, "rx": 15}
ID_EEPROM_GPIOS = (0, 1)
MCP23008_ADDRESSES = range(0x20, 0x28)
PIN_USES = ("input", "output", "pwm")
BUZZER_KINDS = ("passive", "active")
GPIO_ROLES = ("button_a", "button_b", "encoder_a", "encoder_b", "encoder_push", "buzzer", "led")
"""The table unit's single-pin devices; every one is required."""
LCD_LINES = ("rs", "e", "d4", "d5", "d6", "d7", "backlight")
MAX_LCDS = 2


class PinMapError(ConfigError):
    """A broken pin map: names the file, the key and the reason (a ConfigError, so the daemon reports it alike)."""

    FRAME = "cfg_pinmap_key"


@dataclass(frozen=True)
class PinAssignment:
    """One header pin in use: its key in the map (``gpio.button_a``, ``lcd1.rs``), BCM and header numbers, and
    its ``use``: ``input``, ``output`` or ``pwm`` for devices, ``i2c`` / ``uart`` for the bus pins."""

    key: str
    bcm: int
    header: int
    use: str = "output"
    part: str = ""
    note: str = ""

    @property
    def name(self) -> str:
        """The gpiozero pin name (``"GPIO17"``)."""
        return f"GPIO{self.bcm}"


@dataclass(frozen=True)
class LcdPins:
    """One LCD's wiring: the 4-bit GPIO lines (``lines``, in LCD_LINES order) and its I2C backpack address."""

    name: str
    i2c_address: int
    lines: tuple[PinAssignment, ...]

    @property
    def wiring(self) -> GpioLcdWiring:
        """The 4-bit hookup as device.lcd_pins wants it (gpiozero pin names)."""
        return GpioLcdWiring.from_mapping(
            {p.key.rsplit(".", 1)[1]: p.name for p in self.lines}, f"pin map {self.name}"
        )


@dataclass(frozen=True)
class PinMap:
    """The table unit's pin map (see the module docstring). Build it with ``load_pinmap`` / ``parse_pinmap``."""

    source: str
    buzzer_kind: str
    gpio: Mapping[str, PinAssignment]
    lcds: tuple[LcdPins, ...]
    i2c_bus: int
    i2c: tuple[PinAssignment, PinAssignment]
    usb_url: str
    uart_url: str
    uart_baud: int
    uart: tuple[PinAssignment, PinAssignment]

    # The roles the simulator's panel (hw_sim.panel.pin_number) and the daemon look up, as BCM numbers.
    @property
    def button_a(self) -> int:
        return self.gpio["button_a"].bcm

    @property
    def button_b(self) -> int:
        return self.gpio["button_b"].bcm

    @property
    def encoder_a(self) -> int:
        return self.gpio["encoder_a"].bcm

    @property
    def encoder_b(self) -> int:
        return self.gpio["encoder_b"].bcm

    @property
    def encoder_push(self) -> int:
        return self.gpio["encoder_push"].bcm

    @property
    def buzzer(self) -> int:
        return self.gpio["buzzer"].bcm

    @property
    def led(self) -> int:
        return self.gpio["led"].bcm

    @property
    def passive_buzzer(self) -> bool:
        """True for a passive piezo (gpiozero TonalBuzzer on a PWM pin), False for an active one (Buzzer)."""
        return self.buzzer_kind == "passive"

    def lcd_wiring(self, index: int) -> GpioLcdWiring:
        """The 4-bit GPIO wiring of LCD ``index`` (0-based); raises PinMapError if the map has no such LCD."""
        return self._lcd(index).wiring

    def lcd_i2c_address(self, index: int) -> int:
        """The MCP23008 address of LCD ``index`` (0-based); raises PinMapError if the map has no such LCD."""
        return self._lcd(index).i2c_address

    def _lcd(self, index: int) -> LcdPins:
        if not 0 <= index < len(self.lcds):
            raise PinMapError("lcd", source=self.source, code="lcd_asked", wired=len(self.lcds), n=index + 1)
        return self.lcds[index]

    def assignments(self) -> Iterator[PinAssignment]:
        """Every pin of the map: the devices, the LCD lines, I2C, UART (in that order)."""
        yield from self.gpio.values()
        for lcd in self.lcds:
            yield from lcd.lines
        yield from self.i2c
        yield from self.uart

    def problems(self) -> list[PinMapError]:
        """Every consistency problem of the map (empty: the map is sound); see the module docstring."""
        out: list[PinMapError] = []

        def problem(key: str, reason: str) -> None:
            out.append(PinMapError(key, source=self.source, code="wiring", detail=reason))

        by_bcm: dict[int, str] = {}
        by_header: dict[int, str] = {}
        for pin in self.assignments():
            if pin.header not in HEADER_40:
                problem(pin.key, f"header pin {pin.header} does not exist (1-40)")
            elif isinstance(HEADER_40[pin.header], str):
                problem(pin.key, f"header pin {pin.header} is {HEADER_40[pin.header]}, not a GPIO")
            elif HEADER_40[pin.header] != pin.bcm:
                problem(
                    pin.key,
                    f"header pin {pin.header} is GPIO{HEADER_40[pin.header]}, not GPIO{pin.bcm}"
                    + (f" (GPIO{pin.bcm} is header pin {BCM_TO_HEADER[pin.bcm]})" if pin.bcm in BCM_TO_HEADER else ""),
                )
            if pin.bcm not in BCM_TO_HEADER:
                problem(pin.key, f"GPIO{pin.bcm} is not on the 40-pin header (GPIO0-27)")
            bcm_twice = pin.bcm in by_bcm
            if bcm_twice:
                problem(pin.key, f"GPIO{pin.bcm} is already used by {by_bcm[pin.bcm]}")
            by_bcm.setdefault(pin.bcm, pin.key)
            if pin.header in by_header and not bcm_twice:
                problem(pin.key, f"header pin {pin.header} is already used by {by_header[pin.header]}")
            by_header.setdefault(pin.header, pin.key)
            if pin.use == "pwm" and pin.bcm not in HARDWARE_PWM_GPIOS:
                problem(pin.key, f"GPIO{pin.bcm} has no hardware PWM (use one of {_gpios(HARDWARE_PWM_GPIOS)})")
            if pin.bcm in ID_EEPROM_GPIOS:
                problem(pin.key, f"GPIO{pin.bcm} is reserved for the HAT ID EEPROM (GPIO0/1)")
            if pin.bcm in I2C1_GPIOS.values() and not pin.key.startswith("i2c."):
                problem(pin.key, f"GPIO{pin.bcm} is reserved for I2C (GPIO2/3)")
            if pin.bcm in UART_GPIOS.values() and not pin.key.startswith("serial."):
                problem(pin.key, f"GPIO{pin.bcm} is reserved for the UART (GPIO14/15)")
        for pin, (line, want) in zip(self.i2c, I2C1_GPIOS.items(), strict=True):
            if pin.bcm != want:
                problem(pin.key, f"I2C1 {line.upper()} is GPIO{want}, not GPIO{pin.bcm}")
        for pin, (line, want) in zip(self.uart, UART_GPIOS.items(), strict=True):
            if pin.bcm != want:
                problem(pin.key, f"the UART's {line.upper()} is GPIO{want}, not GPIO{pin.bcm}")
        if self.passive_buzzer and self.gpio["buzzer"].use != "pwm":
            problem("gpio.buzzer.use", "a passive buzzer needs a hardware PWM pin: set use = 'pwm'")
        addresses: dict[int, str] = {}
        for number, lcd in enumerate(self.lcds, 1):
            key = f"lcd{number}.i2c_address"
            if lcd.i2c_address not in MCP23008_ADDRESSES:
                problem(key, f"0x{lcd.i2c_address:02x} is not an MCP23008 address (0x20-0x27)")
            if lcd.i2c_address in addresses:
                problem(key, f"0x{lcd.i2c_address:02x} is already used by {addresses[lcd.i2c_address]}")
            addresses.setdefault(lcd.i2c_address, lcd.name)
        return out

    def check(self) -> PinMap:
        """Raise the first of ``problems()`` as PinMapError; returns the map when it is sound."""
        found = self.problems()
        if found:
            raise found[0]
        return self

    def check_display(self, count: int, source: str = "") -> None:
        """Raise PinMapError if the map wires fewer LCDs than ``[display] count`` asks for."""
        if count > len(self.lcds):
            raise PinMapError("lcd", source=source or self.source, code="lcd_too_few", wired=len(self.lcds), count=count)

    def header_table(self) -> list[tuple[int, str, str]]:
        """The 40-pin header as (pin, signal, map key or ''), for printing and the rendered docs."""
        used = {p.header: p for p in self.assignments()}
        rows = []
        for header, signal in HEADER_40.items():
            label = signal if isinstance(signal, str) else f"GPIO{signal}"
            rows.append((header, label, used[header].key if header in used else ""))
        return rows


def _gpios(numbers: Any) -> str:
    return ", ".join(f"GPIO{n}" for n in numbers)


# ----------------------------------------------------------------------------------------------- reading
def _table(data: Mapping[str, Any], key: str, path: str, source: str) -> dict[str, Any]:
    if key not in data:
        raise PinMapError(f"{path}{key}", source=source, code="missing")
    value = data[key]
    if not isinstance(value, dict):
        raise PinMapError(f"{path}{key}", source=source, code="type", kind="table", value=value)
    return value


def _value(data: Mapping[str, Any], key: str, kind: type, path: str, source: str, default: Any = None) -> Any:
    if key not in data:
        if default is not None:
            return default
        raise PinMapError(f"{path}{key}", source=source, code="missing")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PinMapError(f"{path}{key}", source=source, code="type", kind=KINDS[kind], value=value)
    return value


def _pin(data: Any, key: str, source: str, *, use: str = "output", extra: tuple[str, ...] = ()) -> PinAssignment:
    if not isinstance(data, dict):
        raise PinMapError(key, source=source, code="pin_table", value=data)
    known = {"bcm", "header", *extra}
    unknown = sorted(set(data) - known)
    if unknown:
        raise PinMapError(f"{key}.{unknown[0]}", source=source, code="unknown_key", known=", ".join(sorted(known)))
    bcm = _value(data, "bcm", int, f"{key}.", source)
    header = _value(data, "header", int, f"{key}.", source)
    if "use" in extra:
        use = _value(data, "use", str, f"{key}.", source)
        if use not in PIN_USES:
            raise PinMapError(f"{key}.use", source=source, code="choice", choices=", ".join(PIN_USES), value=use)
    part = _value(data, "part", str, f"{key}.", source, "") if "part" in data else ""
    note = _value(data, "note", str, f"{key}.", source, "") if "note" in data else ""
    return PinAssignment(key, bcm, header, use, part, note)


def _reject_unknown(data: Mapping[str, Any], known: tuple[str, ...], path: str, source: str) -> None:
    for key in data:
        if key not in known:
            raise PinMapError(f"{path}{key}", source=source, code="unknown_key", known=", ".join(known))


def parse_pinmap(text: str, source: str = "<pins>", *, check: bool = True) -> PinMap:
    """Parse a pin map (TOML text); raises PinMapError for a structural fault and, with ``check``, for the first
    consistency problem (``check=False`` returns the map so that ``problems()`` can list them all)."""
    try:
        return _parse_pinmap(text, source, check=check)
    except PinMapError as e:
        if e.line is None:  # the key's line, or its table's (``gpio.buzzer.use``: the ``buzzer =`` line)
            e.line = key_line(text, e.key) or key_line(text, e.key.rpartition(".")[0])
        raise


def _parse_pinmap(text: str, source: str, *, check: bool) -> PinMap:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line, detail = toml_error(e)
        raise PinMapError("(file)", source=source, code="toml", line=line, detail=detail, at=line or "?") from e
    _reject_unknown(data, ("schema", "table", "gpio", "lcd", "i2c", "serial"), "", source)
    schema = _value(data, "schema", int, "", source)
    if schema != 1:
        raise PinMapError("schema", source=source, code="schema", value=schema)

    table = _table(data, "table", "", source)
    _reject_unknown(table, ("buzzer_kind",), "table.", source)
    buzzer_kind = _value(table, "buzzer_kind", str, "table.", source)
    if buzzer_kind not in BUZZER_KINDS:
        raise PinMapError("table.buzzer_kind", source=source, code="choice", choices=", ".join(BUZZER_KINDS),
                          value=buzzer_kind)  # fmt: skip

    gpio_data = _table(data, "gpio", "", source)
    _reject_unknown(gpio_data, GPIO_ROLES, "gpio.", source)
    gpio = {
        role: _pin(_table(gpio_data, role, "gpio.", source), f"gpio.{role}", source, extra=("use", "part", "note"))
        for role in GPIO_ROLES
    }

    lcd_data = data.get("lcd", [])
    if not isinstance(lcd_data, list) or not 1 <= len(lcd_data) <= MAX_LCDS:
        raise PinMapError("lcd", source=source, code="lcd_list", most=MAX_LCDS)
    lcds = []
    for number, entry in enumerate(lcd_data, 1):
        path = f"lcd{number}."
        if not isinstance(entry, dict):
            raise PinMapError(f"lcd{number}", source=source, code="type", kind="table", value=entry)
        _reject_unknown(entry, ("name", "i2c_address", *LCD_LINES), path, source)
        name = _value(entry, "name", str, path, source, f"LCD {number}")
        address = _value(entry, "i2c_address", int, path, source)
        missing = [line for line in LCD_LINES[:6] if line not in entry]
        if missing:
            raise PinMapError(f"lcd{number}", source=source, code="lcd_lines", missing=", ".join(missing))
        lines = tuple(_pin(entry[line], f"lcd{number}.{line}", source) for line in LCD_LINES if line in entry)
        lcd = LcdPins(name, address, lines)
        try:
            lcd.wiring  # noqa: B018 - GpioLcdWiring's own checks
        except LcdPinError as e:
            raise PinMapError(f"lcd{number}", source=source, code="wiring", detail=str(e)) from e
        lcds.append(lcd)

    i2c_data = _table(data, "i2c", "", source)
    _reject_unknown(i2c_data, ("bus", "sda", "scl"), "i2c.", source)
    i2c_bus = _value(i2c_data, "bus", int, "i2c.", source)
    i2c = (_pin(_table(i2c_data, "sda", "i2c.", source), "i2c.sda", source, use="i2c"),
           _pin(_table(i2c_data, "scl", "i2c.", source), "i2c.scl", source, use="i2c"))  # fmt: skip

    serial = _table(data, "serial", "", source)
    _reject_unknown(serial, ("usb_url", "uart_url", "baud", "tx", "rx"), "serial.", source)
    usb_url = _value(serial, "usb_url", str, "serial.", source)
    uart_url = _value(serial, "uart_url", str, "serial.", source)
    baud = _value(serial, "baud", int, "serial.", source)
    for key, value in (("usb_url", usb_url), ("uart_url", uart_url)):
        if not value.strip():
            raise PinMapError(f"serial.{key}", source=source, code="not_empty")
    uart = (_pin(_table(serial, "tx", "serial.", source), "serial.tx", source, use="uart"),
            _pin(_table(serial, "rx", "serial.", source), "serial.rx", source, use="uart"))  # fmt: skip

    pinmap = PinMap(source, buzzer_kind, gpio, tuple(lcds), i2c_bus, i2c, usb_url, uart_url, baud, uart)
    return pinmap.check() if check else pinmap


def load_pinmap(path: str | Path | None = None, *, check: bool = True) -> PinMap:
    """Read a pin map file (None: ``DEFAULT_PINS_FILE``); raises PinMapError naming the file and the key."""
    p = Path(path) if path else DEFAULT_PINS_FILE
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        code = "pins_default_unreadable" if p == DEFAULT_PINS_FILE else "cannot_read"
        raise PinMapError("(file)", source=str(p), code=code, error=e.strerror) from e
    except UnicodeDecodeError as e:
        raise PinMapError("(file)", source=str(p), code="not_utf8", error=str(e)) from e
    return parse_pinmap(text, str(p), check=check)


def pinmap_for_config(config: Any) -> PinMap:
    """The pin map a TableConfig names (``pins_file``, empty: the default), checked against its display count."""
    pinmap = load_pinmap(config.pins_file or None)
    pinmap.check_display(config.display.count)
    return pinmap
