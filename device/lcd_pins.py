"""Adapters that let adafruit-circuitpython-charlcd drive an LCD through gpiozero pins or a Linux I2C bus.

charlcd expects Blinka objects: pins with ``direction`` and ``value`` (``digitalio.DigitalInOut``) and, for the
I2C backpack, a ``busio.I2C``. ``GpioLcdPin`` is that pin over a ``gpiozero.DigitalOutputDevice`` with the
pin factory chosen at run time (lgpio / RPi.GPIO on a Pi, MockFactory in the simulator). ``LinuxI2C`` is the
bus over ``/dev/i2c-N`` (Adafruit_PureIO, the code Blinka itself uses on Linux), opened only when constructed.

``import_charlcd()`` imports the library lazily and in Blinka's OS-agnostic mode, so that importing it never
probes the board, needs ``gpiod`` or opens a GPIO chip: the pins and the bus come from here, not from Blinka.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any

from device.errors import DeviceError

log = logging.getLogger(__name__)


class LcdPinError(DeviceError, ValueError):
    """A pin used in a way an LCD output line cannot be used (as an input, or with an unknown direction)."""


@dataclass(frozen=True)
class GpioLcdWiring:
    """Which GPIO drives which LCD line in the 4-bit hookup (gpiozero pin names: ``"GPIO25"``, ``"BOARD22"``).

    Text form: ``"rs=GPIO25,e=GPIO24,d4=GPIO23,d5=GPIO17,d6=GPIO18,d7=GPIO22,backlight=GPIO4"`` (backlight
    optional), see ``parse`` / ``format``.
    """

    rs: str
    e: str
    d4: str
    d5: str
    d6: str
    d7: str
    backlight: str | None = None

    def __post_init__(self) -> None:
        names = [n for n in self.lines() if n is not None]
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise LcdPinError(f"LCD wiring: {f.name} must be a pin name, got {value!r}")
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise LcdPinError(f"LCD wiring {self.format()!r}: pin(s) used twice: {', '.join(duplicates)}")

    def lines(self) -> tuple[str | None, ...]:
        """The pin names in charlcd's order: RS, E, D4, D5, D6, D7, backlight."""
        return (self.rs, self.e, self.d4, self.d5, self.d6, self.d7, self.backlight)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "LCD wiring") -> GpioLcdWiring:
        """Build from a pin-map table (``{"rs": "GPIO25", ...}``); raises LcdPinError naming the key."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise LcdPinError(
                f"{source}: unknown line(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})"
            )
        missing = [name for name in ("rs", "e", "d4", "d5", "d6", "d7") if name not in data]
        if missing:
            raise LcdPinError(f"{source}: missing line(s) {', '.join(missing)}")
        return cls(**{key: str(value) for key, value in data.items()})

    @classmethod
    def parse(cls, text: str) -> GpioLcdWiring:
        """Parse the text form; raises LcdPinError quoting the text."""
        data: dict[str, str] = {}
        for item in text.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise LcdPinError(f"LCD wiring {text!r}: expected name=pin items, got {item!r}")
            if key.strip() in data:
                raise LcdPinError(f"LCD wiring {text!r}: line {key.strip()!r} given twice")
            data[key.strip()] = value.strip()
        return cls.from_mapping(data, f"LCD wiring {text!r}")

    def format(self) -> str:
        """The text form ``parse`` reads."""
        return ",".join(
            f"{f.name}={getattr(self, f.name)}" for f in fields(self) if getattr(self, f.name) is not None
        )


def import_charlcd(module: str = "character_lcd") -> ModuleType:
    """Import ``adafruit_character_lcd.<module>`` without Blinka hardware detection.

    Blinka picks its pin backend at ``import digitalio``; BLINKA_OS_AGNOSTIC selects its pure-Python board
    (an explicit BLINKA_* choice in the environment is left alone). Raises ImportError if charlcd is missing.
    """
    if not any(key in os.environ for key in ("BLINKA_OS_AGNOSTIC", "BLINKA_FORCEBOARD", "BLINKA_FORCECHIP")):
        os.environ["BLINKA_OS_AGNOSTIC"] = "1"
    return importlib.import_module(f"adafruit_character_lcd.{module}")


def _output_direction() -> Any:
    import digitalio  # charlcd has imported it already when it sets a direction

    return digitalio.Direction.OUTPUT


class GpioLcdPin:
    """A ``digitalio.DigitalInOut`` look-alike for one LCD line, driven by gpiozero.

    ``pin`` is a gpiozero pin name (``"GPIO25"``, ``25``, ``"BOARD22"``); ``pin_factory`` the factory to use.
    The line is an output from the start (low); charlcd sets ``direction`` to OUTPUT and then ``value``.
    """

    def __init__(self, pin: str | int, pin_factory: Any = None) -> None:
        from gpiozero import DigitalOutputDevice

        self.name = str(pin)
        self._device = DigitalOutputDevice(pin, initial_value=False, pin_factory=pin_factory)
        self._level: bool | None = None  # the level last written (None: not yet)

    @property
    def direction(self) -> Any:
        return _output_direction()

    @direction.setter
    def direction(self, value: Any) -> None:
        if value is not _output_direction():
            raise LcdPinError(f"LCD line {self.name} is output-only, cannot set direction {value!r}")

    @property
    def value(self) -> bool:
        return bool(self._device.value)

    @value.setter
    def value(self, value: bool) -> None:
        # Straight to the pin factory's pin: the device's own setter (stop a blink, take its lock) costs twice the
        # write again, and a timer tick writes ~60 of them (bench/lcd.py: CPU per tick). A level the line already
        # has is not written again (charlcd sets RS and all four data lines for every nibble; only this object
        # drives the line).
        pin = self._device.pin
        if pin is None:
            from gpiozero.exc import GPIODeviceClosed

            raise GPIODeviceClosed(f"LCD line {self.name} is closed")
        level = bool(value)
        if level is not self._level:
            pin.state = level
            self._level = level

    def switch_to_output(self, value: bool = False, **_kwargs: Any) -> None:
        self.value = value

    def switch_to_input(self, **_kwargs: Any) -> None:
        raise LcdPinError(f"LCD line {self.name} is output-only, cannot switch it to input")

    def deinit(self) -> None:
        """Release the gpiozero device (and the pin)."""
        self._device.close()

    close = deinit

    def __repr__(self) -> str:
        return f"<GpioLcdPin {self.name} value={self.value if not self._device.closed else 'closed'}>"


class LinuxI2C:
    """A ``busio.I2C`` look-alike over the Linux I2C character device ``/dev/i2c-<bus>``.

    Raises OSError (FileNotFoundError when the bus is not enabled) on construction; transfers raise OSError.
    """

    def __init__(self, bus: int = 1) -> None:
        from Adafruit_PureIO import smbus

        self.bus = bus
        self._smbus = smbus.SMBus(bus)
        self._lock = threading.Lock()

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def scan(self) -> list[int]:
        found = []
        for address in range(0x08, 0x78):
            try:
                self._smbus.write_quick(address)
            except OSError:
                continue
            found.append(address)
        return found

    def writeto(self, address: int, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        self._smbus.write_bytes(address, bytes(buffer[start:end]))

    def readfrom_into(
        self, address: int, buffer: bytearray, *, start: int = 0, end: int | None = None
    ) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._smbus.read_bytes(address, end - start)

    def writeto_then_readfrom(
        self,
        address: int,
        buffer_out: bytes,
        buffer_in: bytearray,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        in_end = len(buffer_in) if in_end is None else in_end
        data = self._smbus.read_i2c_block_data(
            address, bytes(buffer_out[out_start:out_end]), in_end - in_start
        )
        buffer_in[in_start:in_end] = data[: in_end - in_start]

    def deinit(self) -> None:
        self._smbus.close()
