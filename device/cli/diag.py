"""``partiar diag [--config FILE] [--pin-factory NAME]``: bring-up diagnostics of the table unit's hardware.

Run on the table unit (with the daemon stopped: it owns the same pins and serial port). With the pins of the
configured pin map it:

1. asks for each player button and the encoder push switch to be pressed, and the encoder to be turned, waiting
   up to ``--timeout`` seconds for each;
2. sounds the buzzer and blinks the status LED, and reads their pins back;
3. shows a test pattern on every configured LCD (I2C mode: first scans the bus for each backpack's address);
4. opens the board link and waits for the board's handshake (LinkUp) and a snapshot, then lists cell faults.

It prints what it saw and a summary, in Czech (``--lang en``: English; the texts are ``diag_*`` in
``shared.texts``); exit status 0 when nothing failed, 1 otherwise, 2 for a broken config or pin map. Checks that only a person can judge (did it beep, is the pattern readable) are asked on a terminal and
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

from device.config import TableConfig, config_line, load_config
from device.errors import ConfigError
from device.pinmap import PinMap, pinmap_for_config
from shared.language import say
from shared.texts import cli

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2

PRESS_STEPS = ("button_a", "button_b", "encoder_push")
TURN_STEP = "encoder_turn"
TEST_TONE_HZ = 880.0
BEEP_SECONDS = 0.3


@dataclass(frozen=True)
class Check:
    """One diagnostic result: ``ok`` True (works), False (failed) or None (for a person to judge). ``name`` is the
    check's id (``button_a``, ``lcd2``, ``board_cells``...), ``detail`` what was seen, in the run's language."""

    name: str
    ok: bool | None
    detail: str

    def line(self, lang: str = "cs") -> str:
        statuses = {True: "ok", False: "fail", None: "look"}
        width = max(len(cli(f"diag_status_{k}", lang)) for k in statuses.values())
        status = cli(f"diag_status_{statuses[self.ok]}", lang).ljust(width)
        return f"[{status}] {check_label(self.name, lang)}: {self.detail}"


def check_label(name: str, lang: str = "cs") -> str:
    """A check's or a part's name as the report shows it (``lcd2``: "LCD 2" in Czech, "lcd2" in English)."""
    if name.startswith("lcd") and name[3:].isdigit():
        return cli("diag_check_lcd", lang).format(n=name[3:])
    try:
        return cli(f"diag_check_{name}", lang)
    except KeyError:
        return name


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
    link (default ``shared.board_link.reader.BoardLink``). ``wait(seconds)`` pauses while the buzzer sounds.
    ``lang``: the language of every text it prints, prompts and asks (``cs`` or ``en``).
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
        lang: str = "cs",
    ) -> None:
        self.config = config
        self.pinmap = pinmap
        self.pin_factory = pin_factory
        self.out = out
        self.lang = lang
        self.prompt = prompt or (lambda _step, text: print(self.t("prompt", text=text, timeout=timeout), file=out, flush=True))
        self.confirm = confirm or (lambda _question: None)
        self.lcd_factories = list(lcd_factories)
        self.i2c = i2c
        self.link_factory = link_factory
        self.timeout = timeout
        self.link_timeout = link_timeout
        self.wait = wait or threading.Event().wait
        self.checks: list[Check] = []

    def t(self, key: str, **values: object) -> str:
        """The ``diag_<key>`` text in this run's language, filled in."""
        return cli(f"diag_{key}", self.lang).format(**values)

    def _add(self, check: Check) -> Check:
        self.checks.append(check)
        print(check.line(self.lang), file=self.out, flush=True)
        return check

    # ------------------------------------------------------------------------------------- inputs
    def check_inputs(self) -> None:
        from gpiozero import Button, RotaryEncoder

        for role in PRESS_STEPS:
            pin = self.pinmap.gpio[role]
            with Button(pin.bcm, pin_factory=self.pin_factory) as button:
                if button.is_pressed:
                    self._add(Check(role, False, self.t("stuck", pin=pin.name, header=pin.header)))
                    continue
                pressed, released = threading.Event(), threading.Event()  # edges, even before the wait
                button.when_pressed = pressed.set
                button.when_released = lambda pressed=pressed, released=released: pressed.is_set() and released.set()
                self.prompt(role, self.t(f"press_{role}"))
                if pressed.wait(self.timeout):
                    ok = released.wait(self.timeout)
                    detail = self.t("pressed", pin=pin.name, header=pin.header) + ("" if ok else self.t("never_released"))
                    self._add(Check(role, ok, detail))
                else:
                    self._add(Check(role, False, self.t("no_press", pin=pin.name, header=pin.header, timeout=self.timeout)))
        a, b = self.pinmap.gpio["encoder_a"], self.pinmap.gpio["encoder_b"]
        with RotaryEncoder(a.bcm, b.bcm, max_steps=0, pin_factory=self.pin_factory) as encoder:
            rotated = threading.Event()
            encoder.when_rotated = rotated.set
            self.prompt(TURN_STEP, self.t(f"press_{TURN_STEP}"))
            if rotated.wait(self.timeout):
                direction = self.t("clockwise" if encoder.steps > 0 else "counter_clockwise")
                self._add(Check(TURN_STEP, True, self.t("turned", steps=encoder.steps, direction=direction, a=a.name, b=b.name)))
            else:
                self._add(Check(TURN_STEP, False, self.t("no_turn", a=a.name, b=b.name, timeout=self.timeout)))

    # ------------------------------------------------------------------------------------- outputs
    def check_buzzer(self) -> None:
        from gpiozero import Buzzer, TonalBuzzer

        pin = self.pinmap.gpio["buzzer"]
        kind = self.t(f"buzzer_{self.pinmap.buzzer_kind}", pin=pin.name, header=pin.header)
        device: Any = (TonalBuzzer if self.pinmap.passive_buzzer else Buzzer)(pin.bcm, pin_factory=self.pin_factory)
        with device:
            if self.pinmap.passive_buzzer:
                device.play(TEST_TONE_HZ)
            else:
                device.on()
            sounding = bool(device.is_active)
            heard = self.confirm(self.t("ask_buzzer", kind=kind))  # asked while it sounds
            if heard is None:
                self.wait(BEEP_SECONDS)
            if self.pinmap.passive_buzzer:
                device.stop()
            else:
                device.off()
            silent = not device.is_active
        if not (sounding and silent):
            self._add(Check("buzzer", False, self.t("not_following", what=kind)))
            return
        driven = self.t("buzzer_tone", kind=kind, hz=TEST_TONE_HZ) if self.pinmap.passive_buzzer else self.t("buzzer_on_off", kind=kind)
        self._add(Check("buzzer", heard, driven + self.t({True: "heard", False: "not_heard", None: "listen"}[heard])))

    def check_led(self) -> None:
        from gpiozero import LED

        pin = self.pinmap.gpio["led"]
        with LED(pin.bcm, pin_factory=self.pin_factory) as led:
            led.on()
            lit = bool(led.value)
            seen = self.confirm(self.t("ask_led", pin=pin.name, header=pin.header))
            led.off()
            dark = not led.value
        if not (lit and dark):
            self._add(Check("led", False, self.t("not_following", what=pin.name)))
            return
        self._add(Check("led", seen, self.t("led_switched", pin=pin.name, header=pin.header)
                        + self.t({True: "seen", False: "led_not_seen", None: "look_led"}[seen])))  # fmt: skip

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
                    present = ", ".join(f"0x{a:02X}" for a in found) or self.t("nothing")
                    self._add(Check(name, False, self.t("no_backpack", address=address, bus=self.pinmap.i2c_bus, found=present)))
                    continue
            display = CharDisplay(factory, d.columns, d.lines, retry_seconds=0.0)
            display.show(lcd_test_pattern(index, d.columns, d.lines))
            if not display.healthy:
                self._add(Check(name, False, self.t("lcd_library", errors=display.errors)))
                continue
            seen = self.confirm(self.t("ask_lcd", n=index + 1))
            wiring = (
                f"I2C 0x{self.pinmap.lcd_i2c_address(index):02X}" if d.mode == "i2c" else self.pinmap.lcd_wiring(index).format()
            )
            self._add(Check(name, seen, self.t("pattern", columns=d.columns, lines=d.lines, wiring=wiring)
                            + self.t({True: "seen", False: "lcd_not_readable", None: "look_lcd"}[seen])))  # fmt: skip

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
        from shared.board_link.events import CellFault, LinkDown, LinkUp, Snapshot

        events: queue.Queue[object] = queue.Queue()
        factory = self.link_factory
        if factory is None:
            from shared.board_link.reader import BoardLink

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
            why = self.t("last", reason=downs[-1]) if downs else ""
            self._add(Check("board_link", False, self.t("no_handshake", url=url, timeout=self.link_timeout, why=why)))
            return
        self._add(Check("board_link", True, self.t("board", board=up.board_id, version=up.version, url=url)))
        if snapshot is None:
            self._add(Check("board_snapshot", False, self.t("no_snapshot", timeout=self.link_timeout)))
            return
        tiles = sum(1 for row in snapshot.grid for cell in row if cell is not None)
        self._add(Check("board_snapshot", True, self.t("snapshot", rows=len(snapshot.grid), cols=len(snapshot.grid[0]), tiles=tiles)))
        if faults:
            from engine.board import Square

            cells = ", ".join(f"{Square(r, c).classic()} {self._fault(kind)}" for (r, c), kind in sorted(faults.items()))
            self._add(Check("board_cells", False, self.t("faulty", count=len(faults), cells=cells)))
        else:
            self._add(Check("board_cells", True, self.t("no_faults")))

    def _fault(self, kind: str) -> str:
        try:
            return self.t(f"fault_{kind}")
        except KeyError:  # a kind newer firmware reports: its own word
            return kind

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
            print(self.t("part", part=check_label(part, self.lang)), file=self.out, flush=True)
            try:
                steps[part]()
            except Exception as e:  # one broken device must not hide the results of the others
                log.debug("diag %s", part, exc_info=True)
                self._add(Check(part, False, f"{type(e).__name__}: {e}"))
        failed = [c for c in self.checks if c.ok is False]
        look = [c for c in self.checks if c.ok is None]
        print(self.t("summary", ok=len(self.checks) - len(failed) - len(look), failed=len(failed), look=len(look)),
              file=self.out, flush=True)  # fmt: skip
        return self.checks


# ----------------------------------------------------------------------------------------------- CLI
PARTS = ("inputs", "buzzer", "led", "lcds", "board")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``diag`` to the ``partiar`` command."""
    p = subparsers.add_parser("diag", help=say("vyzkoušet tlačítka, bzučák, LED, displeje a spojení s deskou; zpráva",
                                               "exercise the buttons, buzzer, LED, LCDs and board link; report"))
    p.add_argument("--config", metavar=say("SOUBOR", "FILE"),
                   help=say("konfigurace TOML (výchozí: vestavěné hodnoty)", "TOML config (default: built-in defaults)"))
    p.add_argument("--pin-factory", choices=("lgpio", "rpigpio", "native", "mock"),
                   help=say("jiná továrna pinů než v konfiguraci (mock: simulované piny gpiozero, zkouška nanečisto)",
                            "override the config's pin factory (mock: gpiozero's mock pins, a dry run)"))
    p.add_argument("--serial-url", metavar="URL",
                   help=say("jiná adresa spojení s deskou než v konfiguraci", "override the config's board link URL"))
    p.add_argument("--timeout", type=float, default=10.0,
                   help=say("sekund čekání na každé stisknutí či otočení (výchozí 10)",
                            "seconds to wait for each press/turn (default 10)"))
    p.add_argument("--link-timeout", type=float, default=5.0,
                   help=say("sekund čekání na desku (výchozí 5)", "seconds to wait for the board (default 5)"))
    p.add_argument("--only", action="append", choices=PARTS,
                   help=say("zkoušet jen tyto části (lze opakovat)", "run only these parts (repeatable)"))
    p.add_argument("--no-ask", action="store_true",
                   help=say("neptat se, zda bylo slyšet pípnutí nebo vidět displej",
                            "do not ask whether a beep was heard or an LCD seen"))
    p.add_argument("--lang", choices=("cs", "en"), default="cs",
                   help=say("jazyk zprávy (výchozí podle LANG, jinak cs)", "language of the report (default from LANG, else cs)"))  # fmt: skip
    p.set_defaults(func=run)


def _asker(lang: str) -> Callable[[str], bool | None]:
    def ask(question: str) -> bool | None:
        try:
            answer = input(cli("diag_ask", lang).format(question=question)).strip().lower()
        except EOFError:
            return None
        return True if answer.startswith(("y", "a")) else False if answer.startswith("n") else None

    return ask


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    lang = getattr(args, "lang", "cs")
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
        print(cli("diag_config_error", lang).format(error=e.describe(lang)), file=sys.stderr)
        return EXIT_CONFIG
    closers: list[Callable[[], None]] = []
    try:
        try:
            factory, i2c, lcd_factories = _devices(config, pinmap, closers)
        except ConfigError as e:
            if not e.source and args.config:  # a key the config holds: its file and line
                e.source, e.line = args.config, config_line(args.config, e.key)
            print(cli("diag_config_error", lang).format(error=e.describe(lang)), file=sys.stderr)
            return EXIT_CONFIG
        interactive = sys.stdin.isatty() and not args.no_ask
        diag = Diagnostics(config, pinmap, factory, out=out, confirm=_asker(lang) if interactive else None,
                           lcd_factories=lcd_factories, i2c=i2c, timeout=args.timeout,
                           link_timeout=args.link_timeout, lang=lang)  # fmt: skip
        print(cli("diag_header", lang).format(source=pinmap.source, factory=config.pin_factory, url=config.serial_url),
              file=out)  # fmt: skip
        checks = diag.run(args.only or PARTS)
    finally:
        for close in reversed(closers):
            try:
                close()
            except Exception:  # closing one device must not keep the others open
                log.exception("while closing")
    return EXIT_FAILED if any(c.ok is False for c in checks) else EXIT_OK


def _devices(
    config: TableConfig, pinmap: PinMap, closers: list[Callable[[], None]]
) -> tuple[Any, Any, list[Any]]:
    """The pin factory (gpiozero's ``MockFactory`` for ``mock``), the I2C bus if the LCDs use it, the LCD factories."""
    from device.hardware import make_pin_factory
    from device.lcd import GpioLcdFactory, I2CLcdFactory

    d = config.display
    i2c = None
    factory = make_pin_factory(config.pin_factory)
    closers.append(factory.close)
    if d.mode == "i2c":
        if config.pin_factory == "mock":
            raise ConfigError("display.mode", code="i2c_on_mock")
        from device.lcd_pins import LinuxI2C

        try:
            i2c = LinuxI2C(pinmap.i2c_bus)
        except OSError as e:
            raise ConfigError("display.mode", code="i2c_cannot_open", bus=pinmap.i2c_bus, error=e.strerror or str(e)) from e
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
