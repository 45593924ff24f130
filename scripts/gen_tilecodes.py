#!/usr/bin/env python3
"""Generate firmware/tilecodes.py: the tile-code table (code, letter, resistor, ADC band) for the board.

The one source is the engine's tile sets (engine/tilesets/*.toml) and the divider model in firmware/divider.py.
Codes: 1.. are the letters of the default (Czech) set in its alphabet order, then the blank ``?``, then the letters
other sets add (sets in name order, each in its own order), so adding a set only appends codes.
Resistors are E96 values picked in code order, each the smallest value whose worst-case reading band (1 % tile,
0.1 % R_REF, 1 % R_CELL, switch on-resistance spread, ADC noise; see firmware/divider.py) clears the previous
band by a guard gap; the guard is the largest that still fits every code below the empty-cell band.

    python scripts/gen_tilecodes.py            # rewrite firmware/tilecodes.py
    python scripts/gen_tilecodes.py --check    # exit 1 if the committed file differs from what would be generated
    python scripts/gen_tilecodes.py --report   # print the table with its margins
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.tiles import BLANK, available_tile_sets, tile_set  # noqa: E402
from firmware import divider  # noqa: E402

OUTPUT = ROOT / "firmware" / "tilecodes.py"
DEFAULT_SET = "czech"

EMPTY = 0
FAULT_BAND = 250
"""A reading between two bands (dirty contact, out-of-tolerance or foreign resistor)."""
FAULT_OPEN = 251
"""Reading at the rail: the cell's wiring is broken (R_CELL not seen)."""
FAULT_SHORT = 252
"""Reading near zero: the cell's contacts are shorted."""

E96 = (
    100, 102, 105, 107, 110, 113, 115, 118, 121, 124, 127, 130, 133, 137, 140, 143,
    147, 150, 154, 158, 162, 165, 169, 174, 178, 182, 187, 191, 196, 200, 205, 210,
    215, 221, 226, 232, 237, 243, 249, 255, 261, 267, 274, 280, 287, 294, 301, 309,
    316, 324, 332, 340, 348, 357, 365, 374, 383, 392, 402, 412, 422, 432, 442, 453,
    464, 475, 487, 499, 511, 523, 536, 549, 562, 576, 590, 604, 619, 634, 649, 665,
    681, 698, 715, 732, 750, 768, 787, 806, 825, 845, 866, 887, 909, 931, 953, 976,
)  # fmt: skip
"""The E96 series (1 % resistors), one decade, as three significant digits."""

E96_VALUES = tuple(float(v * 10**exp) / 100 for exp in range(1, 7) for v in E96)
"""E96 values from 10 ohms to 9.76 megohms, ascending."""

GAP_SEARCH_MAX = 1024
"""Largest guard gap (16-bit units) the search tries."""


class TableError(Exception):
    """The tile codes cannot be placed without overlap under the divider model."""


def tile_letters() -> list[str]:
    """Every letter of every supported set plus the blank, in code order (code = index + 1)."""
    sets = [DEFAULT_SET] + [name for name in available_tile_sets() if name != DEFAULT_SET]
    letters: list[str] = []
    for number, name in enumerate(sets):
        for letter in tile_set(name).letters:
            if letter not in letters:
                letters.append(letter)
        if number == 0:
            letters.append(BLANK)
    return letters


def place_resistors(count: int, gap: int) -> list[float] | None:
    """E96 resistors for ``count`` codes whose worst-case bands are ``gap`` apart, or None if they do not fit."""
    previous_hi = divider.worst_case(0)[1]
    chosen: list[float] = []
    for ohms in E96_VALUES:
        lo, hi = divider.worst_case(ohms)
        if lo > previous_hi + gap:
            chosen.append(ohms)
            previous_hi = hi
            if len(chosen) == count:
                break
    if len(chosen) < count:
        return None
    empty_lo, empty_hi = divider.worst_case(None)
    if empty_lo <= previous_hi + gap or open_band()[0] <= empty_hi + gap:
        return None
    return chosen


def open_band() -> tuple[int, int]:
    """Worst-case readings of a cell with broken wiring (pulled to the rail)."""
    return (divider.RAW_OPEN - divider.NOISE, divider.ADC_MAX)


def design(count: int) -> tuple[list[float], int]:
    """The resistors for ``count`` codes with the largest guard gap that fits; raises TableError if none."""
    for gap in range(GAP_SEARCH_MAX, -1, -4):
        chosen = place_resistors(count, gap)
        if chosen is not None:
            return chosen, gap
    raise TableError(f"{count} tile codes do not fit between the short and empty bands without overlap")


def worst_bands(ohms: dict[int, float]) -> list[tuple[int, int, int]]:
    """Worst-case (lo, hi, code) of every code incl. short, empty and open, sorted by lo."""
    bands = [(0, divider.worst_case(0)[1], FAULT_SHORT)]
    bands += [(*divider.worst_case(value), code) for code, value in ohms.items()]
    bands.append((*divider.worst_case(None), EMPTY))
    bands.append((*open_band(), FAULT_OPEN))
    return sorted(bands)


def acceptance_bands(worst: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Widen each worst-case band by a third of the gap on each side; the middle third stays FAULT_BAND."""
    bands = [list(band) for band in worst]
    for lower, upper in zip(bands, bands[1:], strict=False):
        spare = upper[0] - lower[1] - 1
        if spare < 0:
            raise TableError(f"bands of codes {lower[2]} and {upper[2]} overlap: {lower} / {upper}")
        lower[1] += spare // 3
        upper[0] -= spare // 3
    bands[0][0] = 0
    bands[-1][1] = divider.ADC_MAX
    return [(lo, hi, code) for lo, hi, code in bands]


def table_version(letters: list[str], ohms: dict[int, float]) -> int:
    """A 16-bit fingerprint of the table, sent in the board's hello so the Pi can tell tables apart."""
    text = ";".join(f"{code}={letter}:{ohms[code]:g}" for code, letter in enumerate(letters, 1))
    text += f";ref={divider.R_REF:g};cell={divider.R_CELL:g}"
    return zlib.crc32(text.encode("utf-8")) & 0xFFFF


def format_ohms(value: float) -> str:
    """An ohm value as a short Python literal."""
    return repr(int(value)) if value == int(value) else repr(value)


def render() -> str:
    """The full text of firmware/tilecodes.py."""
    letters = tile_letters()
    resistors, gap = design(len(letters))
    ohms = {code: resistors[code - 1] for code in range(1, len(letters) + 1)}
    worst = worst_bands(ohms)
    bands = acceptance_bands(worst)
    blank_code = letters.index(BLANK) + 1
    lines = [
        '"""Tile codes of the instrumented board: letter, tile resistor and ADC band per code.',
        "",
        "GENERATED by scripts/gen_tilecodes.py from engine/tilesets/*.toml and firmware/divider.py: do not edit.",
        f"Worst-case bands (1 % tiles, {divider.TOL_REF * 100:g} % R_REF, switch on-resistance, "
        f"+-{divider.NOISE_NATIVE} LSB12 noise)",
        f"are at least {gap} counts (16-bit) apart; each band below is widened by a third of its gaps.",
        "MicroPython-safe: plain tuples and dicts.",
        '"""',
        "",
        f"ADC_BITS = {divider.ADC_BITS}",
        f"ADC_MAX = {divider.ADC_MAX}",
        f"R_REF = {format_ohms(divider.R_REF)}",
        f"R_CELL = {format_ohms(divider.R_CELL)}",
        f"TABLE_VERSION = {table_version(letters, ohms):#06x}",
        f"MIN_GAP = {gap}",
        "",
        f"EMPTY = {EMPTY}",
        f"FAULT_BAND = {FAULT_BAND}",
        f"FAULT_OPEN = {FAULT_OPEN}",
        f"FAULT_SHORT = {FAULT_SHORT}",
        "FAULTS = (FAULT_BAND, FAULT_OPEN, FAULT_SHORT)",
        f"BLANK_CODE = {blank_code}",
        "",
        "LETTERS = (",
    ]
    lines += [f"    ({code}, {letter!r})," for code, letter in enumerate(letters, 1)]
    lines += [")", "", "OHMS = {"]
    lines += [f"    {code}: {format_ohms(ohms[code])}," for code in ohms]
    lines += ["}", "", "BANDS = ("]
    lines += [f"    ({lo}, {hi}, {code})," for lo, hi, code in bands]
    lines += [
        ")",
        "",
        "_LETTER_OF = dict(LETTERS)",
        "_CODE_OF = {letter: code for code, letter in LETTERS}",
        "",
        "",
        "def letter_of(code):",
        '    """The letter of a tile code (``?`` for the blank); raises ValueError for an unknown code."""',
        "    try:",
        "        return _LETTER_OF[code]",
        "    except KeyError:",
        '        raise ValueError(f"unknown tile code {code!r}") from None',
        "",
        "",
        "def code_of(letter):",
        '    """The tile code of a letter (``?`` for the blank); raises ValueError for an unknown letter."""',
        "    try:",
        "        return _CODE_OF[letter]",
        "    except KeyError:",
        '        raise ValueError(f"no tile code for letter {letter!r}") from None',
        "",
    ]
    return "\n".join(lines)


def report() -> str:
    """A human-readable table: code, letter, resistor, nominal reading, worst-case band, margins."""
    letters = tile_letters()
    resistors, gap = design(len(letters))
    ohms = {code: resistors[code - 1] for code in range(1, len(letters) + 1)}
    rows = [f"guard gap between worst-case bands: {gap} (16-bit counts) = {gap / divider.LSB_NATIVE:.1f} LSB12"]
    rows.append("code letter     ohms   nominal   worst lo..hi")
    for code, letter in enumerate(letters, 1):
        lo, hi = divider.worst_case(ohms[code])
        rows.append(f"{code:4} {letter:>6} {ohms[code]:8g} {divider.raw_for_ohms(ohms[code]):9} {lo:7}..{hi}")
    lo, hi = divider.worst_case(None)
    rows.append(f"empty  R_CELL={divider.R_CELL:g} {divider.raw_for_ohms(None):9} {lo:7}..{hi}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line: write, check or report the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if firmware/tilecodes.py is stale")
    parser.add_argument("--report", action="store_true", help="print the table with its margins")
    args = parser.parse_args(argv)
    text = render()
    if args.report:
        print(report())
        return 0
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is stale: run scripts/gen_tilecodes.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
