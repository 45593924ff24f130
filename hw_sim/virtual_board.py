"""A virtual instrumented board: tile resistors on 225 cells, read as the Pico's ADC would read them.

The simulator's board device runs the real firmware (firmware.scanner) on ``VirtualBoard.read_raw``. Every part
has its own value drawn once from a seeded RNG inside its tolerance: a tile's resistor (within +-1 % when it is
placed), each cell's presence resistor R_CELL (+-1 %) and mux on-resistance (R_ON_MIN..R_ON_MAX), each ADC
input's R_REF (+-0.1 %). Readings go through the 12-bit converter and MicroPython's 16-bit scaling, plus uniform
noise of +-``noise_lsb`` 12-bit LSB. A test can inject faults (open wiring, shorted contacts, a reading between
bands: noise-free, as the gaps are narrower than the noise budget) and contact flicker.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from firmware import divider, muxmap, tilecodes
from firmware.classify import classify

SIZE = 15
CELLS = SIZE * SIZE
FAULT_KINDS = ("open", "short", "band")
TILE_TOLERANCE = divider.TOL_TILE


@dataclass(frozen=True)
class PlacedTile:
    """A tile lying on a cell: its letter and the actual value of its resistor."""

    letter: str
    ohms: float


def _check_cell(row: int, col: int) -> int:
    """The cell number of (row, col); raises ValueError for a square off the 15x15 board."""
    for name, value in (("row", row), ("col", col)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < SIZE:
            raise ValueError(f"{name} {value!r} is off the board (0..{SIZE - 1})")
    return row * SIZE + col


def _check_count(name: str, value: int) -> int:
    """``value`` if it is a non-negative int; ValueError naming ``name`` otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a non-negative int, got {value!r}")
    return value


def to_u16(raw12: int) -> int:
    """MicroPython's ``ADC.read_u16()`` scaling of a 12-bit RP2040 result."""
    return (raw12 << 4) | (raw12 >> 8)


def _band_fault_raw12() -> int:
    """A 12-bit reading in the middle of the widest gap between two bands (it classifies as FAULT_BAND)."""
    gaps = sorted(((upper[0] - lower[1], lower[1], upper[0])
                   for lower, upper in zip(tilecodes.BANDS, tilecodes.BANDS[1:], strict=False)), reverse=True)
    for _width, lo, hi in gaps:
        raw12 = ((lo + hi) // 2) >> (divider.ADC_BITS - divider.ADC_NATIVE_BITS)
        if classify(to_u16(raw12)) == tilecodes.FAULT_BAND:
            return raw12
    raise RuntimeError("no 12-bit reading falls between two bands of firmware/tilecodes.py")


class VirtualBoard:
    """225 cells of tile resistors read like the real board's ADC; thread-safe.

    Rows and columns are 0..14 (row 0 = the top row "1", col 0 = column A); cell = row * 15 + col.
    """

    def __init__(self, noise_lsb: int = 0, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._noise = _check_count("noise_lsb", noise_lsb)
        self._tiles: list[PlacedTile | None] = [None] * CELLS
        self._faults: dict[int, str] = {}
        self._flicker: dict[int, int] = {}
        rng = self._rng
        self._r_ref = [divider.R_REF * (1 + rng.uniform(-divider.TOL_REF, divider.TOL_REF))
                       for _ in muxmap.ADC_PINS]
        self._r_cell = [divider.R_CELL * (1 + rng.uniform(-divider.TOL_CELL, divider.TOL_CELL))
                        for _ in range(CELLS)]
        self._r_on = [rng.uniform(divider.R_ON_MIN, divider.R_ON_MAX) for _ in range(CELLS)]
        self._bus = [muxmap.adc_index(muxmap.route(cell)[0]) for cell in range(CELLS)]
        self._band_raw12 = _band_fault_raw12()

    def place(self, row: int, col: int, letter: str) -> None:
        """Lay a tile (``?`` = blank) on a cell, replacing what lay there; ValueError for an unknown letter."""
        cell = _check_cell(row, col)
        code = tilecodes.code_of(letter)
        with self._lock:
            tolerance = self._rng.uniform(-TILE_TOLERANCE, TILE_TOLERANCE)
            self._tiles[cell] = PlacedTile(letter, tilecodes.OHMS[code] * (1 + tolerance))

    def remove(self, row: int, col: int) -> None:
        """Lift the tile off a cell (nothing happens on an empty cell)."""
        cell = _check_cell(row, col)
        with self._lock:
            self._tiles[cell] = None

    def clear(self) -> None:
        """Lift every tile (faults and flicker stay)."""
        with self._lock:
            self._tiles = [None] * CELLS

    def set_fault(self, row: int, col: int, kind: str | None) -> None:
        """Make a cell read as broken wiring ("open"), shorted contacts ("short"), between bands ("band");
        None clears the fault. Raises ValueError for another kind."""
        cell = _check_cell(row, col)
        if kind is not None and kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; known: {', '.join(FAULT_KINDS)} or None")
        with self._lock:
            if kind is None:
                self._faults.pop(cell, None)
            else:
                self._faults[cell] = kind

    def flicker(self, row: int, col: int, times: int) -> None:
        """The cell's tile loses contact ``times`` times: its next 2 * times reads alternate empty, placed, ..."""
        cell = _check_cell(row, col)
        _check_count("flicker times", times)
        with self._lock:
            if times:
                self._flicker[cell] = 2 * times
            else:
                self._flicker.pop(cell, None)

    def set_noise(self, lsb: int) -> None:
        """Uniform noise of +-``lsb`` 12-bit LSB on every reading from now on."""
        value = _check_count("noise lsb", lsb)
        with self._lock:
            self._noise = value

    def letters(self) -> list[str | None]:
        """The letter on each of the 225 cells (``?`` for a blank), None where the cell is empty."""
        with self._lock:
            return [tile.letter if tile else None for tile in self._tiles]

    def read_raw(self, cell: int) -> int:
        """The 16-bit reading the Pico would get for ``cell`` now; ValueError for a cell off the board."""
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise ValueError(f"cell {cell!r} is off the board (0..{CELLS - 1})")
        with self._lock:
            tile = self._tiles[cell]
            left = self._flicker.get(cell, 0)
            if left:
                if left % 2 == 0:
                    tile = None
                if left == 1:
                    del self._flicker[cell]
                else:
                    self._flicker[cell] = left - 1
            fault = self._faults.get(cell)
            noise = self._rng.randint(-self._noise, self._noise) if self._noise else 0
        if fault == "band":
            raw12 = self._band_raw12  # noise-free: the gaps are narrower than the noise budget
        else:
            if fault == "open":
                x = 1.0
            else:
                r_tile = 0.0 if fault == "short" else (tile.ohms if tile else None)
                x = divider.ratio(r_tile, self._r_ref[self._bus[cell]], self._r_cell[cell], self._r_on[cell])
            raw12 = round(x * ((1 << divider.ADC_NATIVE_BITS) - 1)) + noise
        raw12 = min(max(raw12, 0), (1 << divider.ADC_NATIVE_BITS) - 1)
        return to_u16(raw12)
