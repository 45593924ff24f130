"""An emulated MCP23008 I2C port expander on a fake I2C bus, and the Adafruit LCD backpack built from it.

``FakeI2C`` offers the methods of ``busio.I2C`` that adafruit_bus_device and adafruit_mcp230xx call (try_lock,
unlock, writeto, readfrom_into, writeto_then_readfrom, scan) and routes each transfer to the device at its
address; a missing device NAKs (OSError, errno EIO), as the Linux I2C driver reports it. ``MCP23008`` implements
the register file (IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON, GPPU, INTF, INTCAP, GPIO, OLAT) with the address
pointer that auto-increments unless IOCON.SEQOP is set. ``Backpack`` decodes the port as the Adafruit I2C/SPI
character LCD backpack wires it (GP1 RS, GP2 E, GP3-GP6 D4-D7, GP7 backlight) into an emulated HD44780.
"""

from __future__ import annotations

import errno
import logging
import threading
from collections.abc import Callable
from typing import Protocol

from hw_sim.hd44780 import HD44780

log = logging.getLogger(__name__)

DEFAULT_ADDRESS = 0x20
IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON, GPPU, INTF, INTCAP, GPIO, OLAT = range(11)
REGISTER_NAMES = (
    "IODIR",
    "IPOL",
    "GPINTEN",
    "DEFVAL",
    "INTCON",
    "IOCON",
    "GPPU",
    "INTF",
    "INTCAP",
    "GPIO",
    "OLAT",
)
_SEQOP = 0x20

# The Adafruit backpack's port bits (adafruit_character_lcd.character_lcd_i2c.Character_LCD_I2C).
BIT_RS, BIT_E, BIT_D4, BIT_BACKLIGHT = 1, 2, 3, 7


class I2CDeviceModel(Protocol):
    """What FakeI2C needs from a device: a write of bytes, a read of n bytes."""

    def write(self, data: bytes) -> None: ...

    def read(self, count: int) -> bytes: ...


class FakeI2C:
    """A busio.I2C stand-in: one bus with emulated devices by 7-bit address.

    ``fail_next(n)`` makes the next n transfers fail with OSError (a loose cable), for recovery tests.
    """

    def __init__(self) -> None:
        self.devices: dict[int, I2CDeviceModel] = {}
        self._lock = threading.Lock()
        self._locked = False
        self._failures = 0
        self.transfers = 0

    def add(self, address: int, device: I2CDeviceModel) -> None:
        if not 0x08 <= address <= 0x77:
            raise ValueError(f"I2C address must be 0x08-0x77, got {address:#x}")
        self.devices[address] = device

    def fail_next(self, count: int) -> None:
        self._failures = count

    # busio.I2C API -------------------------------------------------------------------------------------
    def try_lock(self) -> bool:
        with self._lock:
            if self._locked:
                return False
            self._locked = True
            return True

    def unlock(self) -> None:
        with self._lock:
            self._locked = False

    def scan(self) -> list[int]:
        return sorted(self.devices)

    def writeto(self, address: int, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        self._device(address).write(bytes(buffer[start:end]))

    def readfrom_into(
        self, address: int, buffer: bytearray, *, start: int = 0, end: int | None = None
    ) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._device(address).read(end - start)

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
        device = self._device(address)
        device.write(bytes(buffer_out[out_start:out_end]))
        in_end = len(buffer_in) if in_end is None else in_end
        buffer_in[in_start:in_end] = device.read(in_end - in_start)

    def deinit(self) -> None:
        self.devices.clear()

    def _device(self, address: int) -> I2CDeviceModel:
        self.transfers += 1
        if self._failures > 0:
            self._failures -= 1
            raise OSError(errno.EIO, f"I2C transfer to {address:#04x} failed (injected fault)")
        try:
            return self.devices[address]
        except KeyError:
            raise OSError(errno.EIO, f"no I2C device acknowledged address {address:#04x}") from None


class MCP23008(I2CDeviceModel):
    """The expander's register file. ``on_output(port)`` is called whenever the driven port levels change.

    ``inputs`` holds the levels external circuits put on pins configured as inputs.
    """

    def __init__(self, on_output: Callable[[int], None] | None = None) -> None:
        self.on_output = on_output
        self.registers = bytearray(11)
        self.registers[IODIR] = 0xFF  # power-on: all inputs
        self.inputs = 0x00
        self.pointer = 0
        self._driven = self.port()

    def port(self) -> int:
        """The levels on the 8 pins: OLAT on outputs, the external level (through IPOL) on inputs."""
        iodir = self.registers[IODIR]
        outputs = self.registers[OLAT] & ~iodir
        inputs = (self.inputs ^ self.registers[IPOL]) & iodir
        return (outputs | inputs) & 0xFF

    def write(self, data: bytes) -> None:
        if not data:  # an address-only probe
            return
        self.pointer = data[0] % len(self.registers)
        for value in data[1:]:
            self._store(self.pointer, value)
            self._advance()

    def read(self, count: int) -> bytes:
        out = bytearray()
        for _ in range(count):
            if self.pointer == GPIO:
                out.append(self.port())
            else:
                out.append(self.registers[self.pointer])
            if self.pointer in (GPIO, INTCAP):
                self.registers[INTF] = 0
            self._advance()
        return bytes(out)

    def _advance(self) -> None:
        if not self.registers[IOCON] & _SEQOP:
            self.pointer = (self.pointer + 1) % len(self.registers)

    def _store(self, register: int, value: int) -> None:
        if register in (INTF, INTCAP):
            return  # read-only
        if register == GPIO:
            register = OLAT  # writing GPIO writes the output latch
        self.registers[register] = value & 0xFF
        driven = self.port()
        if driven != self._driven:
            self._driven = driven
            if self.on_output is not None:
                self.on_output(driven)

    def register(self, name: str) -> int:
        """A register's value by datasheet name (``"OLAT"``)."""
        return self.registers[REGISTER_NAMES.index(name)]


class Backpack:
    """The Adafruit I2C LCD backpack: an MCP23008 whose port drives an HD44780 in 4-bit mode.

    Put it on a bus with ``bus.add(address, backpack.expander)`` (or use ``add_backpack``).
    """

    def __init__(self, lcd: HD44780) -> None:
        self.lcd = lcd
        self.expander = MCP23008(on_output=self._on_port)
        self._port = self.expander.port()

    def _on_port(self, port: int) -> None:
        before, self._port = self._port, port
        backlight = bool(port >> BIT_BACKLIGHT & 1)
        if backlight != self.lcd.backlight:
            self.lcd.backlight = backlight
            for listener in self.lcd.listeners:
                listener()
        e_fell = before >> BIT_E & 1 and not port >> BIT_E & 1
        if e_fell:
            # The data lines were set up before E fell: use the levels E saw.
            self.lcd.strobe(bool(port >> BIT_RS & 1), port >> BIT_D4 & 0xF)


def add_backpack(bus: FakeI2C, lcd: HD44780, address: int = DEFAULT_ADDRESS) -> Backpack:
    """Put a backpack driving ``lcd`` on ``bus`` at ``address``; returns it."""
    backpack = Backpack(lcd)
    bus.add(address, backpack.expander)
    return backpack
