"""Scan cost of the board firmware: measured on this machine, estimated for an RP2040.

Prints medians of one full 225-cell ``Scanner.scan()`` (classify + debounce, read_raw a list lookup) under CPython
and under the MicroPython unix port, one scan of the simulator's VirtualBoard under CPython, and the RP2040 budget
worked out from the ADC conversion time, the mux settling time and MicroPython call costs (docs/firmware.md).

    /work/venv/bin/python bench/firmware_scan.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from firmware import divider, main, tilecodes
from firmware.scanner import Scanner
from hw_sim.virtual_board import VirtualBoard

ROOT = Path(__file__).resolve().parent.parent
BUDGET_MS = 25.0

# Estimated cost of each step of reading one cell on an RP2040 at 125 MHz under MicroPython (microseconds).
# Python-level figures are typical for MicroPython on a Cortex-M0+ (a function call ~3-5 us, a bytecode ~0.3-1 us).
RP2040_STEPS_US = (
    ("read_raw call, mask lookup, 2 x mem32 stores (all select/enable lines)", 6.0),
    ("settling: time.sleep_us(SETTLE_US) + call", main.SETTLE_US + 3.0),
    (f"{main.SAMPLES} x read_u16: 2 us conversion (500 ksps) + ~3 us call each", main.SAMPLES * 5.0),
    ("classify: call + fast-table lookup (binary search only on the 2 % of buckets holding a band edge)", 8.0),
    ("scanner loop + debouncer feed per cell", 8.0),
)

RP2040_SLOWDOWN = 100
"""Pessimistic factor between MicroPython on this x86-64 machine and on a 125 MHz Cortex-M0+."""

MICROPYTHON_SCRIPT = """
import time
from firmware import divider, tilecodes
from firmware.scanner import Scanner
raws = [divider.raw_for_ohms(tilecodes.OHMS[1 + cell % 50]) for cell in range(225)]
scanner = Scanner(lambda cell: raws[cell])
times = []
for _ in range(REPEAT):
    t0 = time.ticks_us()
    scanner.scan()
    times.append(time.ticks_diff(time.ticks_us(), t0))
times.sort()
print(times[len(times) // 2])
"""


def median_scan_ms(scanner: Scanner, repeat: int) -> float:
    """Median wall time of one scan, in milliseconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        scanner.scan()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def micropython_scan_ms(repeat: int) -> float | None:
    """Median scan time under the MicroPython unix port, or None without a micropython command."""
    command = Path(sys.executable).parent / "micropython"
    path = str(command) if command.exists() else shutil.which("micropython")
    if path is None:
        return None
    result = subprocess.run(
        [path, "-c", MICROPYTHON_SCRIPT.replace("REPEAT", str(repeat))],
        cwd=ROOT, env=dict(os.environ, MICROPYPATH=str(ROOT)), capture_output=True, text=True, check=True,
    )
    return int(result.stdout.strip()) / 1000


def main_(argv: list[str] | None = None) -> None:
    """Run the measurements and print them with the RP2040 estimate."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    raws = [divider.raw_for_ohms(tilecodes.OHMS[1 + cell % 50]) for cell in range(225)]
    print(f"CPython scan, list reads:          {median_scan_ms(Scanner(raws.__getitem__), args.repeat):7.3f} ms")
    board = VirtualBoard(noise_lsb=10, seed=1)
    for cell in range(225):
        board.place(cell // 15, cell % 15, tilecodes.letter_of(1 + cell % 50))
    print(f"CPython scan, VirtualBoard reads:  {median_scan_ms(Scanner(board.read_raw), args.repeat):7.3f} ms")
    micro = micropython_scan_ms(args.repeat)
    print("MicroPython unix scan, list reads: " + (f"{micro:7.3f} ms" if micro is not None else "   (no micropython)"))
    print("\nRP2040 estimate per cell:")
    for what, cost in RP2040_STEPS_US:
        print(f"  {cost:5.1f} us  {what}")
    per_cell = sum(cost for _what, cost in RP2040_STEPS_US)
    scan_ms = per_cell * 225 / 1000
    print(f"  {per_cell:5.1f} us  per cell -> {scan_ms:.1f} ms per 225-cell scan (budget {BUDGET_MS:.0f} ms)")
    if micro is not None:
        hardware = main.SETTLE_US + main.SAMPLES * 5.0 + 6.0
        pessimistic = (micro * 1000 / 225) * RP2040_SLOWDOWN + hardware
        print(f"cross-check: measured logic {micro * 1000 / 225:.2f} us/cell x {RP2040_SLOWDOWN} (RP2040 vs this "
              f"machine) + {hardware:.0f} us hardware = {pessimistic:.0f} us/cell -> {pessimistic * 0.225:.1f} ms")
    worst = (3 + 1) * scan_ms
    print(f"worst-case report latency, debounce 3: < (1 + 3) scans = {worst:.0f} ms (target 100 ms)")


if __name__ == "__main__":
    main_()
