"""``partiar wiring check|render``: the table unit's pin map, its consistency checks, the wiring documents.

``check [--pins FILE] [--config FILE]`` prints the pin map (devices, LCD lines, buses, the 40-pin header) and every problem the
checks find (pins used twice, header/BCM mismatches, I2C/UART/PWM off their capable pins, ...); with the
default map in a source checkout it also reports documents in wiring/ that are older than their sources.
Exit status 0 = sound, 1 = problems, 2 = the map cannot be read at all.

``render [--check]`` rebuilds wiring/ (texts and SVGs) with scripts/gen_wiring.py: only in a source checkout.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TextIO

from device.config import load_config
from device.errors import ConfigError
from device.pinmap import DEFAULT_PINS_FILE, PinMap, PinMapError, load_pinmap
from shared.language import say

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_UNREADABLE = 2
GENERATOR = DEFAULT_PINS_FILE.parent.parent / "scripts" / "gen_wiring.py"
RENDER_INSTALL = "pip install -e '.[wiring]'"
"""How to install what ``render`` draws with (wireviz, schemdraw: pyproject's ``wiring`` extra)."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``wiring`` to the ``partiar`` command."""
    p = subparsers.add_parser("wiring", help=say("mapa pinů stolní jednotky: vypsat a zkontrolovat, přestavět wiring/",
                                                 "the table unit's pin map: print and check it, rebuild wiring/"))
    sub = p.add_subparsers(dest="wiring_command", metavar=say("AKCE", "ACTION"), required=True)
    check = sub.add_parser("check", help=say("vypsat mapu pinů a zkontrolovat ji (při problému skončí 1)",
                                             "print the pin map and run the consistency checks (exit 1 on problems)"))
    check.add_argument("--pins", type=Path, metavar=say("SOUBOR", "FILE"),
                       help=say(f"mapa pinů (výchozí: {DEFAULT_PINS_FILE})", f"pin map (default: {DEFAULT_PINS_FILE})"))
    check.add_argument("--config", metavar=say("SOUBOR", "FILE"),
                       help=say("zkontrolovat mapu pinů, kterou tato konfigurace démona používá, proti jejímu počtu "
                                "[display]", "check the pin map this daemon config uses, against its [display] count"))
    check.set_defaults(func=run_check)
    render = sub.add_parser("render", help=say("přestavět dokumenty a diagramy SVG ve wiring/ z jejich zdrojů",
                                               "rebuild the documents and SVG diagrams in wiring/ from their sources"))
    render.add_argument("--check", action="store_true",
                        help=say("jen vypsat zastaralé soubory (skončí 1), nic nezapisovat",
                                 "only list stale files (exit 1), write nothing"))  # fmt: skip
    render.set_defaults(func=run_render)


def print_pinmap(pinmap: PinMap, out: TextIO) -> None:
    """The pin map as a readable listing."""
    print(f"pin map {pinmap.source}", file=out)
    print(f"buzzer: {pinmap.buzzer_kind}", file=out)
    print("\ndevices:", file=out)
    for pin in pinmap.gpio.values():
        print(f"  {pin.key:<20} {pin.name:<7} header {pin.header:>2}  {pin.use:<6} {pin.part:<5} {pin.note}", file=out)
    for lcd in pinmap.lcds:
        print(f"\n{lcd.name} (I2C backpack 0x{lcd.i2c_address:02X}):", file=out)
        for pin in lcd.lines:
            print(f"  {pin.key:<20} {pin.name:<7} header {pin.header:>2}", file=out)
    print(f"\nI2C bus {pinmap.i2c_bus}, UART {pinmap.uart_url} at {pinmap.uart_baud} Bd, USB {pinmap.usb_url}:", file=out)
    for pin in (*pinmap.i2c, *pinmap.uart):
        print(f"  {pin.key:<20} {pin.name:<7} header {pin.header:>2}", file=out)
    print("\n40-pin header:", file=out)
    table = pinmap.header_table()
    for i in range(0, len(table), 2):
        (p1, s1, k1), (p2, s2, k2) = table[i], table[i + 1]
        print(f"  {k1:>20} {s1:>6} {p1:>2} | {p2:<2} {s2:<6} {k2}", file=out)


def load_generator() -> ModuleType | None:
    """scripts/gen_wiring.py of the source checkout, or None in an installed copy without it."""
    if not GENERATOR.is_file():
        return None
    spec = importlib.util.spec_from_file_location("partiar_gen_wiring", GENERATOR)
    if spec is None or spec.loader is None:
        return None
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up while the file executes
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[spec.name]
            raise
    return module


def run_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    display_count = None
    pins = args.pins
    try:
        if getattr(args, "config", None):
            config = load_config(args.config)
            display_count = config.display.count
            pins = pins or (config.pins_file or None)
        pinmap = load_pinmap(pins, check=False)
    except ConfigError as e:  # PinMapError included
        print(f"partiar wiring check: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    print_pinmap(pinmap, out)
    problems = [str(p) for p in pinmap.problems()]
    if display_count is not None:
        try:
            pinmap.check_display(display_count, args.config)
        except PinMapError as e:
            problems.append(str(e))
    if pins is None or Path(pins).resolve() == DEFAULT_PINS_FILE:
        generator = load_generator()
        if generator is not None:
            try:
                problems += [f"wiring/ out of date: {line}" for line in generator.stale()]
            except (OSError, ValueError) as e:
                problems.append(f"wiring/ cannot be checked: {e}")
    print("", file=out)
    for problem in problems:
        print(f"PROBLEM: {problem}", file=out)
    print(f"{len(problems)} problem(s)" if problems else "pin map OK", file=out)
    return EXIT_PROBLEMS if problems else EXIT_OK


def run_render(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    generator = load_generator()
    if generator is None:
        print(f"partiar wiring render: needs the source checkout ({GENERATOR} not found)", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        return int(generator.main(["--check"] if args.check else [], out=out))
    except ImportError as e:  # wireviz or schemdraw: the optional "wiring" extra
        print(
            f"partiar wiring render: the drawing tools are not installed ({e}); install them with"
            f" `{RENDER_INSTALL}` (scripts/setup does) and Graphviz with `apt-get install graphviz`",
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    except (OSError, ValueError, PinMapError) as e:
        print(f"partiar wiring render: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
