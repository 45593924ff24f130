"""The Pico's entry point: multiplexers + ADC -> Scanner -> BoardApp (the serial protocol) over USB serial.

Copied to the Pico as ``/main.py`` (next to the ``/firmware/`` package; see docs/firmware.md), MicroPython runs
it at power-up. Everything hardware-specific is imported inside the functions, so CPython can import this
module (and test ``build_reader`` with fake ``machine``/``time`` modules).

USB serial: MicroPython's USB CDC is its console, ``sys.stdout.buffer`` / ``sys.stdin.buffer``; reads are
polled with ``select.poll`` so they never block; Ctrl-C is switched off (``micropython.kbd_intr(-1)``) because
binary frames may carry 0x03. To get the REPL back for ``mpremote``, fit the maintenance jumper (GP22 to GND)
and reset.
"""

from firmware import muxmap
from firmware.compat import micropython

SETTLE_US = 24
"""Wait after switching the muxes before sampling: 9 time constants of R_REF x bus capacitance (docs)."""
SAMPLES = 4
"""Conversions averaged per cell (2 us each at 500 ksps) to quarter the random noise."""
SIO_BASE = 0xD0000000
GPIO_OUT_SET = SIO_BASE + 0x014
GPIO_OUT_CLR = SIO_BASE + 0x018
"""RP2040 SIO registers: set / clear GPIO outputs in one store (all select and enable lines at once)."""
READ_CHUNK = 64
"""Most bytes taken from USB serial per read() call."""


def build_reader(machine, time, settle_us=SETTLE_US, samples=SAMPLES):
    """``read_raw(cell) -> int``: switch the muxes to ``cell``, wait ``settle_us``, average ``samples`` ADC reads.

    ``machine`` and ``time`` are the MicroPython modules (or fakes with ``Pin``, ``ADC``, ``mem32`` and
    ``sleep_us``). Configures every select and enable pin as an output, all muxes disabled.
    """
    Pin = machine.Pin
    for gpio in muxmap.ENABLE_PINS:
        Pin(gpio, Pin.OUT, value=1)
    for gpio in muxmap.SELECT_PINS:
        Pin(gpio, Pin.OUT, value=0)
    adcs = tuple(machine.ADC(Pin(gpio)) for gpio in muxmap.ADC_PINS)
    masks = tuple(muxmap.gpio_masks(cell) for cell in range(muxmap.CELLS))
    adc_of_cell = tuple(adcs[muxmap.adc_index(muxmap.route(cell)[0])] for cell in range(muxmap.CELLS))
    mem32 = machine.mem32
    sleep_us = time.sleep_us
    shift = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}.get(samples)
    if shift is None:
        raise ValueError(f"samples must be 1, 2, 4, 8 or 16, got {samples!r}")
    span = range(samples)

    @micropython.native
    def read_raw(cell):
        set_mask, clear_mask = masks[cell]
        mem32[GPIO_OUT_SET] = set_mask
        mem32[GPIO_OUT_CLR] = clear_mask
        sleep_us(settle_us)
        read = adc_of_cell[cell].read_u16
        total = 0
        for _ in span:
            total += read()
        return total >> shift

    return read_raw


def usb_serial():
    """``(write, read)`` over the USB CDC console: write(bytes), read() -> bytes or b'' without blocking."""
    import select
    import sys

    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def write(data):
        out.write(data)

    def read():
        chunk = bytearray()
        while len(chunk) < READ_CHUNK and poller.poll(0):
            byte = inp.read(1)
            if not byte:
                break
            chunk.extend(byte)
        return bytes(chunk)

    return write, read


def maintenance_requested(machine):
    """True when the maintenance jumper pulls MAINTENANCE_PIN low: leave the REPL to mpremote."""
    pin = machine.Pin(muxmap.MAINTENANCE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


def quiet_regulator(machine):
    """Put the Pico's regulator in PWM mode (less ADC noise); on a Pico W the pin is the radio's WL_GPIO1."""
    import sys

    if "Pico W" in sys.implementation._machine:
        machine.Pin("WL_GPIO1", machine.Pin.OUT, value=1)
    else:
        machine.Pin(muxmap.SMPS_MODE_PIN, machine.Pin.OUT, value=1)


def run():
    """Build the board from the Pico's hardware and serve the protocol forever."""
    import time

    import machine
    import micropython

    from firmware.board_app import BoardApp
    from firmware.scanner import Scanner

    if maintenance_requested(machine):
        print("partiar board: maintenance jumper fitted, staying in the REPL")
        return
    quiet_regulator(machine)
    scanner = Scanner(build_reader(machine, time))
    write, read = usb_serial()
    micropython.kbd_intr(-1)
    led = machine.Pin("LED", machine.Pin.OUT, value=0)
    app = BoardApp(scanner, write, read, time.ticks_ms, on_identify=led.toggle)
    while True:
        app.poll()


if __name__ == "__main__":
    run()
