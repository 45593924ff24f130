"""Check a board's tile bands with a reference tile set: run on the Pico with ``mpremote run``.

Lay one reference tile of each code, in code order, from cell A1 along the rows (A1 = code 1, B1 = code 2, ...,
O1 = code 15, A2 = code 16, ...; the codes are in wiring/board.md; the set ends at the first empty cell, so a
Czech-only set of codes 1-40 works too), fit the maintenance jumper (GP22 to GND),
reset the Pico, then from the repository root:

    mpremote run wiring/calibrate_tiles.py

For every reference cell it reads ``SAMPLES`` scans and prints the lowest and highest reading, the tile's band and
the margin to the nearer band edge, and a verdict: ``ok``; ``TIGHT`` (inside the band but closer than a quarter of
the design gap to its edge: a tile resistor at the end of its tolerance, or a drifting reference); ``WRONG`` (reads
as another code or a fault). A systematic shift of every reading in one direction points at R_REF or the 3V3 rail
of that ADC input (wiring/board.md lists which multiplexers share one), a single outlier at that tile's resistor
or that cell's contacts. The last lines sum up per ADC input.

MicroPython-safe (also imported by the CPython tests, with the simulator's virtual board as ``read_raw``).
"""

from firmware import muxmap, tilecodes
from firmware.classify import classify

SAMPLES = 16
TIGHT_FRACTION = 4
"""A margin below MIN_GAP / TIGHT_FRACTION counts as tight."""


def band_of(code):
    """``(lo, hi)`` of a code's band; raises ValueError for a code without one."""
    for lo, hi, band_code in tilecodes.BANDS:
        if band_code == code:
            return (lo, hi)
    raise ValueError(f"no band for code {code!r}")


def reference_layout(count):
    """``[(cell, code), ...]`` of a reference set of ``count`` tiles: codes 1..count from cell 0 on."""
    codes = [code for code, _letter in tilecodes.LETTERS][:count]
    return [(cell, code) for cell, code in enumerate(codes)]


def measure(read_raw, layout, samples=SAMPLES):
    """``[(cell, code, lo_read, hi_read, verdict, margin), ...]``: each reference cell read ``samples`` times."""
    out = []
    tight = tilecodes.MIN_GAP // TIGHT_FRACTION
    for cell, code in layout:
        readings = [read_raw(cell) for _ in range(samples)]
        low = min(readings)
        high = max(readings)
        band_lo, band_hi = band_of(code)
        margin = min(low - band_lo, band_hi - high)
        codes = set(classify(r) for r in readings)
        if codes != {code}:
            verdict = "WRONG"
        elif margin < tight:
            verdict = "TIGHT"
        else:
            verdict = "ok"
        out.append((cell, code, low, high, verdict, margin))
    return out


def cell_name(cell):
    return "ABCDEFGHIJKLMNO"[cell % muxmap.COLS] + str(cell // muxmap.COLS + 1)


def report(results):
    """The printed lines for ``measure``'s results, with a summary per ADC input."""
    lines = ["cell code letter    reads          band           margin verdict"]
    per_adc = {}
    for cell, code, low, high, verdict, margin in results:
        lo, hi = band_of(code)
        letter = tilecodes.letter_of(code)
        lines.append(
            f"{cell_name(cell):<4} {code:4d} {letter:<6} {low:6d}-{high:<6d} {lo:6d}-{hi:<6d} {margin:6d} {verdict}"
        )
        adc = muxmap.adc_index(muxmap.route(cell)[0])
        # where in its band the reading sits: -1 = low edge, +1 = high edge
        centre = (lo + hi) / 2
        offset = ((low + high) / 2 - centre) / ((hi - lo) / 2)
        per_adc.setdefault(adc, []).append(offset)
    for adc in sorted(per_adc):
        offsets = per_adc[adc]
        mean = sum(offsets) / len(offsets)
        lines.append(
            f"ADC{adc} (GP{muxmap.ADC_PINS[adc]}): {len(offsets)} tiles, mean position in band {mean:+.2f} "
            "(0 = centre, +-1 = edge)"
        )
    bad = [r for r in results if r[4] != "ok"]
    tight = sum(1 for r in bad if r[4] == "TIGHT")
    lines.append(f"calibration: {len(results) - len(bad)} ok, {tight} tight, {len(bad) - tight} wrong")
    return lines


def laid_count(read_raw, limit):
    """How many reference tiles lie from A1 on: the cells before the first one that reads empty (a Czech-only
    reference set stops after code 40, the blank)."""
    for cell in range(limit):
        if classify(read_raw(cell)) == tilecodes.EMPTY:
            return cell
    return limit


def main():
    """On the Pico: read the reference set laid from A1 on and print the report."""
    import time

    import machine

    from firmware.main import build_reader

    read_raw = build_reader(machine, time)
    count = laid_count(read_raw, len(tilecodes.LETTERS))
    print(f"reference set: {count} tile(s) from A1")
    for line in report(measure(read_raw, reference_layout(count))):
        print(line)


if __name__ == "__main__":
    main()
