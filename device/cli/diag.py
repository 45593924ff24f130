"""``partiar diag [--config FILE] [--pin-factory NAME]``: bring-up diagnostics of the table unit's hardware.

Run on the table unit (with the daemon stopped: it owns the same pins and serial port). With the pins of the
configured pin map it:

1. asks for each player button and the encoder push switch to be pressed, and the encoder to be turned, waiting
   up to ``--timeout`` seconds for each;
2. sounds the buzzer and blinks the status LED, and reads their pins back;
3. shows a test pattern on every configured LCD (I2C mode: first scans the bus for each backpack's address);
4. opens the board link and waits for the board's handshake (LinkUp) and a snapshot, then lists cell faults.

It prints what it saw and a summary; exit status 0 when nothing failed, 1 otherwise, 2 for a broken config or pin
map. Checks that only a person can judge (did it beep, is the pattern readable) are asked on a terminal and
reported as "look" otherwise. With ``--pin-factory mock`` it runs on gpiozero's ``MockFactory`` (pins nobody
drives: a dry run of the config). ``Diagnostics`` takes its pin factory, LCDs and callbacks as parameters, so the
tests hand it the simulator's panel (``hw_sim.panel.Panel``: mock pins driven like the real switches, emulated
LCDs).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from device.config import TableConfig, load_config
from device.errors import ConfigError
from device.pinmap import PinMap, pinmap_for_config

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2

PRESS_STEPS = (
    ("button_a", "press player A's button"),
    ("button_b", "press player B's button"),
    ("encoder_push", "press the encoder knob"),
)
TURN_STEP = ("encoder_turn", "turn the encoder knob one click either way")
TEST_TONE_HZ = 880.0
BEEP_SECONDS = 0.3


@dataclass(frozen=True)
class Check:
    """One diagnostic result: ``ok`` True (works), False (failed) or None (for a person to judge)."""

    name: str
    ok: bool | None
    detail: str

    def line(self) -> str:
        status = {True: "OK  ", False: "FAIL", None: "LOOK"}[self.ok]
        return f"[{status}] {self.name}: {self.detail}"


def lcd_test_pattern(index: int, columns: int, lines: int) -> list[str]:
    """The rows shown on LCD ``index``: its number and the digits (each column visible), then full blocks
    (every pixel on) and alternating rows of letters, so that a dead data line or a bad contrast shows."""
    head = f"LCD{index + 1} 0123456789ABCDEFGHIJ"[:columns]
    rows = [head, "\xff" * columns]
    while len(rows) < lines:
        rows.append(("partiar diag " * 2)[:columns] if len(rows) % 2 == 0 else "-+" * (columns // 2))
    return rows[:lines]


class Diagnostics:
    """Runs the checks on devices built from ``pinmap`` with ``pin_factory``.

    ``prompt(step, text)`` is called before each wait for a person's action (steps: ``button_a``, ``button_b``,
    ``encoder_push``, ``encoder_turn``): the CLI prints the text, a test drives the mock pins.
    ``confirm(question)`` returns True/False for what only a person can see or hear, None if nobody can answer.
    ``lcd_factories``: one charlcd factory per LCD (see device.lcd); ``link_factory(url, on_event)``: the board
    link (default ``device.board_link.reader.BoardLink``). ``wait(seconds)`` pauses while the buzzer sounds.
    """

    def __init__(
        self,
        config: TableConfig,
        pinmap: PinMap,
        pin_factory: Any,
        *,
        out: TextIO,
        prompt: Callable[[str, str], None] | None = None,
        confirm: Callable[[str], bool | None] | None = None,
        lcd_factories: Sequence[Any] = (),
        i2c: Any = None,
        link_factory: Callable[[str, Callable[[object], None]], Any] | None = None,
        timeout: float = 10.0,
        link_timeout: float = 5.0,
        wait: Callable[[float], Any] | None = None,
    ) -> None:
        self.config = config
        self.pinmap = pinmap
        self.pin_factory = pin_factory
        self.out = out
        self.prompt = prompt or (lambda _step, text: print(f"  -> {text} (within {timeout:g} s)", file=out, flush=True))
        self.confirm = confirm or (lambda _question: None)
        self.lcd_factories = list(lcd_factories)
        self.i2c = i2c
        self.link_factory = link_factory
        self.timeout = timeout
        self.link_timeout = link_timeout
        self.wait = wait or threading.Event().wait
        self.checks: list[Check] = []

    def _add(self, check: Check) -> Check:
        self.checks.append(check)
        print(check.line(), file=self.out, flush=True)
        return check

    # ------------------------------------------------------------------------------------- inputs
    def check_inputs(self) -> None:
        from gpiozero import Button, RotaryEncoder

        for role, text in PRESS_STEPS:
            pin = self.pinmap.gpio[role]
            with Button(pin.bcm, pin_factory=self.pin_factory) as button:
                if button.is_pressed:
                    self._add(Check(role, False, f"{pin.name} (header {pin.header}) reads pressed before any press: "
                                    "shorted to GND or switch wired normally-closed"))  # fmt: skip
                    continue
                pressed, released = threading.Event(), threading.Event()  # edges, even before the wait
                button.when_pressed = pressed.set
                button.when_released = lambda pressed=pressed, released=released: pressed.is_set() and released.set()
                self.prompt(role, text)
                if pressed.wait(self.timeout):
                    ok = released.wait(self.timeout)
                    detail = f"{pin.name} (header {pin.header}) pressed" + ("" if ok else ", never released")
                    self._add(Check(role, ok, detail))
                else:
                    self._add(Check(role, False, f"no press seen on {pin.name} (header {pin.header}) within "
                                    f"{self.timeout:g} s: check the switch, its GND wire and the header pin"))  # fmt: skip
        a, b = self.pinmap.gpio["encoder_a"], self.pinmap.gpio["encoder_b"]
        with RotaryEncoder(a.bcm, b.bcm, max_steps=0, pin_factory=self.pin_factory) as encoder:
            rotated = threading.Event()
            encoder.when_rotated = rotated.set
            self.prompt(*TURN_STEP)
            if rotated.wait(self.timeout):
                direction = "clockwise" if encoder.steps > 0 else "counter-clockwise"
                self._add(Check("encoder_turn", True, f"{encoder.steps:+d} step(s) ({direction}) on {a.name}/{b.name}"))
            else:
                self._add(Check("encoder_turn", False, f"no rotation seen on {a.name}/{b.name} within {self.timeout:g} s: "
                                "check A/B and the common GND; swapped A/B only reverses the direction"))  # fmt: skip

    # ------------------------------------------------------------------------------------- outputs
    def check_buzzer(self) -> None:
        from gpiozero import Buzzer, TonalBuzzer

        pin = self.pinmap.gpio["buzzer"]
        kind = f"{self.pinmap.buzzer_kind} buzzer on {pin.name} (header {pin.header})"
        device: Any = (TonalBuzzer if self.pinmap.passive_buzzer else Buzzer)(pin.bcm, pin_factory=self.pin_factory)
        with device:
            if self.pinmap.passive_buzzer:
                device.play(TEST_TONE_HZ)
            else:
                device.on()
            sounding = bool(device.is_active)
            heard = self.confirm(f"Is the buzzer sounding ({kind})?")  # asked while it sounds
            if heard is None:
                self.wait(BEEP_SECONDS)
            if self.pinmap.passive_buzzer:
                device.stop()
            else:
                device.off()
            silent = not device.is_active
        if not (sounding and silent):
            self._add(Check("buzzer", False, f"{kind}: the pin did not follow on/off"))
            return
        self._add(Check("buzzer", heard, f"{kind}: driven {'with ' + format(TEST_TONE_HZ, 'g') + ' Hz' if self.pinmap.passive_buzzer else 'on/off'}"
                        + {True: ", heard", False: ", NOT heard: check Q3 and the buzzer wires", None: ", listen for a beep"}[heard]))  # fmt: skip

    def check_led(self) -> None:
        from gpiozero import LED

        pin = self.pinmap.gpio["led"]
        with LED(pin.bcm, pin_factory=self.pin_factory) as led:
            led.on()
            lit = bool(led.value)
            seen = self.confirm(f"Is the status LED on ({pin.name}, header {pin.header})?")
            led.off()
            dark = not led.value
        if not (lit and dark):
            self._add(Check("led", False, f"{pin.name}: the pin did not follow on/off"))
            return
        self._add(Check("led", seen, f"{pin.name} (header {pin.header}) switched on and off"
                        + {True: ", seen", False: ", NOT seen: check the LED's polarity and R4", None: ", look at the LED"}[seen]))  # fmt: skip

    def check_lcds(self) -> None:
        from device.lcd import CharDisplay

        d = self.config.display
        if self.config.display.mode == "i2c" and self.i2c is not None:
            found = self._scan_i2c()
        else:
            found = None
        for index, factory in enumerate(self.lcd_factories):
            name = f"lcd{index + 1}"
            if found is not None:
                address = self.pinmap.lcd_i2c_address(index)
                if address not in found:
                    present = ", ".join(f"0x{a:02X}" for a in found) or "nothing"
                    self._add(Check(name, False, f"no backpack answers at 0x{address:02X} on I2C bus "
                                    f"{self.pinmap.i2c_bus} (found {present}): check SDA/SCL, 5 V and the address jumpers"))  # fmt: skip
                    continue
            display = CharDisplay(factory, d.columns, d.lines, retry_seconds=0.0)
            display.show(lcd_test_pattern(index, d.columns, d.lines))
            if not display.healthy:
                self._add(Check(name, False, f"the LCD library failed ({display.errors} error(s)): see the log"))
                continue
            seen = self.confirm(f"Does LCD {index + 1} show 'LCD{index + 1} 0123...' and a row of full blocks?")
            wiring = (
                f"I2C 0x{self.pinmap.lcd_i2c_address(index):02X}" if d.mode == "i2c" else self.pinmap.lcd_wiring(index).format()
            )
            self._add(Check(name, seen, f"test pattern written ({d.columns}x{d.lines}, {wiring})"
                            + {True: ", seen", False: ", NOT readable: turn the contrast trimmer, check D4-D7/RS/E",
                               None: ", look at the LCD"}[seen]))  # fmt: skip

    def _scan_i2c(self) -> list[int]:
        if not self.i2c.try_lock():
            log.error("I2C bus %d is busy: not scanned", self.pinmap.i2c_bus)
            return []
        try:
            return list(self.i2c.scan())
        except OSError as e:
            log.error("I2C scan failed: %s", e)
            return []
        finally:
            self.i2c.unlock()

    # ------------------------------------------------------------------------------------- board link
    def check_board_link(self) -> None:
        from device.board_link.events import CellFault, LinkDown, LinkUp, Snapshot

        events: queue.Queue[object] = queue.Queue()
        factory = self.link_factory
        if factory is None:
            from device.board_link.reader import BoardLink

            factory = BoardLink
        url = self.config.serial_url
        link = factory(url, events.put)
        link.start()
        up: LinkUp | None = None
        snapshot: Snapshot | None = None
        faults: dict[tuple[int, int], str] = {}
        downs: list[str] = []
        deadline = time.monotonic() + self.link_timeout
        try:
            while snapshot is None or up is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    event = events.get(timeout=left)
                except queue.Empty:
                    break
                if isinstance(event, LinkUp):
                    up = event
                elif isinstance(event, Snapshot):
                    snapshot = event
                elif isinstance(event, CellFault):
                    if event.kind is None:
                        faults.pop((event.row, event.col), None)
                    else:
                        faults[(event.row, event.col)] = event.kind
                elif isinstance(event, LinkDown):
                    downs.append(event.reason)
            while True:  # faults reported together with the snapshot
                try:
                    event = events.get_nowait()
                except queue.Empty:
                    break
                if isinstance(event, CellFault) and event.kind is not None:
                    faults[(event.row, event.col)] = event.kind
        finally:
            link.stop()
        if up is None:
            why = f" (last: {downs[-1]})" if downs else ""
            self._add(Check("board_link", False, f"no handshake from the board on {url} within {self.link_timeout:g} s{why}: "
                            "is the Pico flashed and plugged in, is the URL right?"))  # fmt: skip
            return
        self._add(Check("board_link", True, f"board {up.board_id!r} firmware {up.version} on {url}"))
        if snapshot is None:
            self._add(Check("board_snapshot", False, f"no snapshot within {self.link_timeout:g} s"))
            return
        tiles = sum(1 for row in snapshot.grid for cell in row if cell is not None)
        self._add(Check("board_snapshot", True, f"{len(snapshot.grid)}x{len(snapshot.grid[0])} cells, {tiles} tile(s) on the board"))
        if faults:
            from engine.board import Square

            cells = ", ".join(f"{Square(r, c).classic()} {kind}" for (r, c), kind in sorted(faults.items()))
            self._add(Check("board_cells", False, f"{len(faults)} faulty cell(s): {cells}"))
        else:
            self._add(Check("board_cells", True, "no cell faults"))

    # ------------------------------------------------------------------------------------- all
    def run(self, parts: Sequence[str] = ("inputs", "buzzer", "led", "lcds", "board")) -> list[Check]:
        """Run the chosen parts in order; returns every check (also printed as they finish)."""
        steps = {
            "inputs": self.check_inputs,
            "buzzer": self.check_buzzer,
            "led": self.check_led,
            "lcds": self.check_lcds,
            "board": self.check_board_link,
        }
        for part in parts:
            print(f"-- {part}", file=self.out, flush=True)
            try:
                steps[part]()
            except Exception as e:  # one broken device must not hide the results of the others
                log.debug("diag %s", part, exc_info=True)
                self._add(Check(part, False, f"{type(e).__name__}: {e}"))
        failed = [c for c in self.checks if c.ok is False]
        look = [c for c in self.checks if c.ok is None]
        print(f"\n{len(self.checks) - len(failed) - len(look)} ok, {len(failed)} failed, {len(look)} to check by eye/ear",
              file=self.out, flush=True)  # fmt: skip
        return self.checks


# ----------------------------------------------------------------------------------------------- CLI
PARTS = ("inputs", "buzzer", "led", "lcds", "board")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``diag`` to the ``partiar`` command."""
    p = subparsers.add_parser("diag", help="exercise the buttons, buzzer, LED, LCDs and board link; report")
    p.add_argument("--config", metavar="FILE", help="TOML config (default: built-in defaults)")
    p.add_argument("--pin-factory", choices=("lgpio", "rpigpio", "native", "mock"),
                   help="override the config's pin factory (mock: gpiozero's mock pins, a dry run)")  # fmt: skip
    p.add_argument("--serial-url", metavar="URL", help="override the config's board link URL")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each press/turn (default 10)")
    p.add_argument("--link-timeout", type=float, default=5.0, help="seconds to wait for the board (default 5)")
    p.add_argument("--only", action="append", choices=PARTS, help="run only these parts (repeatable)")
    p.add_argument("--no-ask", action="store_true", help="do not ask whether a beep was heard or an LCD seen")
    p.set_defaults(func=run)


def _ask(question: str) -> bool | None:
    try:
        answer = input(f"  ?  {question} [y/n] ").strip().lower()
    except EOFError:
        return None
    return True if answer.startswith(("y", "a")) else False if answer.startswith("n") else None


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        config = load_config(args.config)
        overrides: dict[str, Any] = {}
        if args.pin_factory:
            overrides["pin_factory"] = args.pin_factory
        if args.serial_url:
            overrides["serial_url"] = args.serial_url
        config = dataclasses.replace(config, **overrides)
        pinmap = pinmap_for_config(config)
    except ConfigError as e:
        print(f"partiar diag: {e}", file=sys.stderr)
        return EXIT_CONFIG
    closers: list[Callable[[], None]] = []
    try:
        try:
            factory, i2c, lcd_factories = _devices(config, pinmap, closers)
        except ConfigError as e:
            print(f"partiar diag: {e}", file=sys.stderr)
            return EXIT_CONFIG
        interactive = sys.stdin.isatty() and not args.no_ask
        diag = Diagnostics(config, pinmap, factory, out=out, confirm=_ask if interactive else None,
                           lcd_factories=lcd_factories, i2c=i2c, timeout=args.timeout,
                           link_timeout=args.link_timeout)  # fmt: skip
        print(f"partiar diag: pins from {pinmap.source}, {config.pin_factory} pins, board on {config.serial_url}", file=out)
        checks = diag.run(args.only or PARTS)
    finally:
        for close in reversed(closers):
            try:
                close()
            except Exception:  # closing one device must not keep the others open
                log.exception("while closing")
    return EXIT_FAILED if any(c.ok is False for c in checks) else EXIT_OK


def _devices(config: TableConfig, pinmap: PinMap, closers: list[Callable[[], None]]) -> tuple[Any, Any, list[Any]]:
    """The pin factory (gpiozero's ``MockFactory`` for ``mock``), the I2C bus if the LCDs use it, the LCD factories."""
    from device.hardware import make_pin_factory
    from device.lcd import GpioLcdFactory, I2CLcdFactory

    d = config.display
    i2c = None
    factory = make_pin_factory(config.pin_factory)
    closers.append(factory.close)
    if d.mode == "i2c":
        if config.pin_factory == "mock":
            raise ConfigError("display.mode", "I2C LCDs on mock pins have no bus to talk to: "
                              "run diag on the table unit, or with display.mode = 'gpio4'")  # fmt: skip
        from device.lcd_pins import LinuxI2C

        try:
            i2c = LinuxI2C(pinmap.i2c_bus)
        except OSError as e:
            raise ConfigError("display.mode", f"I2C bus {pinmap.i2c_bus} cannot be opened ({e}): enable I2C") from e
        closers.append(i2c.deinit)
    lcds: list[Any] = []
    for i in range(d.count):
        if d.mode == "gpio4":
            lcd: Any = GpioLcdFactory(pinmap.lcd_wiring(i), d.columns, d.lines, factory)
        else:
            lcd = I2CLcdFactory(i2c, d.columns, d.lines, pinmap.lcd_i2c_address(i))
        closers.append(lcd.close)
        lcds.append(lcd)
    return factory, i2c, lcds
