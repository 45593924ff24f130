"""The electrical model of one board cell: the voltage divider a tile forms, and the ADC reading it gives.

Topology (see docs/firmware.md for the schematic):

    3V3 (= ADC_VREF) --- R_REF ---+--- ADC pin (one R_REF per ADC input, after the multiplexers)
                                  |
                           mux switch (R_ON)
                                  |
                cell sense line --+-- R_CELL (presence resistor, on the board, always there) --- GND
                                  |
                                  +-- tile resistor R_TILE (between the tile's two contacts) --- GND

- An empty cell reads R_CELL against R_REF: a high but not full-scale value (its own band, EMPTY).
- A cell whose wiring is broken (cut wire, cold joint, dead mux channel) is pulled to the rail by R_REF and
  reads full scale: FAULT_OPEN. This is why every cell carries R_CELL: empty and broken stay apart.
- Contacts shorted (a spilled drink, a bent contact) read near zero (only R_ON left): FAULT_SHORT.
- A tile with a broken resistor reads like an empty cell; the 10x10 tile-set check finds it.

The reading is ratiometric: R_REF hangs on the same 3.3 V rail that feeds ADC_VREF, so supply drift cancels.

This module is MicroPython-safe (no typing at run time, no dataclasses). Its worst-case model
(`worst_case`) is what scripts/gen_tilecodes.py uses to place the bands and what the tests re-check.
"""

ADC_BITS = 16
"""Bits of a reading as the firmware sees it: MicroPython's ``ADC.read_u16()`` gives 0..65535."""
ADC_MAX = (1 << ADC_BITS) - 1
ADC_NATIVE_BITS = 12
"""The RP2040's converter resolution; read_u16 scales its 12-bit result up to 16 bits."""
LSB_NATIVE = 1 << (ADC_BITS - ADC_NATIVE_BITS)
"""One native (12-bit) LSB in 16-bit units."""

R_REF = 4990.0
"""Ohms of the fixed divider resistor from 3V3 to each ADC input (E96, 1 %)."""
R_CELL = 475000.0
"""Ohms of the presence resistor every cell carries between its sense line and ground (E96, 1 %)."""
R_ON_NOM = 120.0
"""Nominal on-resistance of one CD74HC4067 switch at 3.3 V (ohms)."""
R_ON_MIN = 60.0
R_ON_MAX = 250.0
"""Spread of the switch on-resistance over parts, channels and temperature at 3.3 V (ohms)."""
TOL_TILE = 0.01
"""Tolerance of a tile's resistor (1 %)."""
TOL_REF = 0.001
"""Tolerance of R_REF (0.1 %: three parts per board, and its error would shift every band of its bus)."""
TOL_CELL = 0.01
"""Tolerance of a cell's presence resistor R_CELL (1 %)."""
NOISE_NATIVE = 10
"""Assumed worst-case reading error in 12-bit LSB: noise peaks, offset, INL and the RP2040's DNL steps."""
NOISE = NOISE_NATIVE * LSB_NATIVE
"""The same in 16-bit units (what the bands are checked against)."""


def ratio(r_tile, r_ref=R_REF, r_cell=R_CELL, r_on=R_ON_NOM):
    """Fraction of full scale the ADC sees for a cell.

    ``r_tile`` is the tile resistor in ohms, ``None`` for an empty cell, 0 for shorted contacts (which short
    R_CELL too). Raises ValueError for a negative resistance.
    """
    if r_tile is None:
        lower = r_cell
    elif r_tile < 0:
        raise ValueError(f"tile resistance must not be negative, got {r_tile!r} ohms")
    elif r_tile == 0:
        lower = 0.0
    else:
        lower = r_tile * r_cell / (r_tile + r_cell)
    lower += r_on
    return lower / (lower + r_ref)


def raw_of_ratio(x):
    """The ideal 16-bit reading for a fraction of full scale, clamped to 0..ADC_MAX."""
    raw = int(x * ADC_MAX + 0.5)
    if raw < 0:
        return 0
    if raw > ADC_MAX:
        return ADC_MAX
    return raw


def raw_for_ohms(ohms):
    """Ideal ADC reading (0..ADC_MAX) for a tile resistor of ``ohms`` with nominal parts; None = empty cell."""
    return raw_of_ratio(ratio(ohms))


RAW_OPEN = ADC_MAX
"""What a cell with broken wiring reads: R_REF pulls the ADC input to the rail."""


def worst_case(ohms, tol_tile=TOL_TILE, tol_ref=TOL_REF, tol_cell=TOL_CELL, noise=NOISE):
    """The lowest and highest reading ``(lo, hi)`` a cell can give for a nominal tile of ``ohms``.

    Combines the tile's tolerance, R_REF's and R_CELL's tolerances, the switch on-resistance spread and
    ``noise`` (16-bit units) at their worst corners. ``ohms`` None = empty cell, 0 = shorted contacts.
    The reading rises with the tile, R_CELL and R_ON and falls with R_REF, so the corners are exact.
    """
    if ohms is None:
        t_lo = t_hi = None
    else:
        t_lo = ohms * (1.0 - tol_tile)
        t_hi = ohms * (1.0 + tol_tile)
    x_lo = ratio(t_lo, R_REF * (1.0 + tol_ref), R_CELL * (1.0 - tol_cell), R_ON_MIN)
    x_hi = ratio(t_hi, R_REF * (1.0 - tol_ref), R_CELL * (1.0 + tol_cell), R_ON_MAX)
    lo = int(x_lo * ADC_MAX) - noise
    hi = int(x_hi * ADC_MAX + 1.0) + noise
    return (max(lo, 0), min(hi, ADC_MAX))
