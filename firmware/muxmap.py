"""Which multiplexer channel each of the 225 cells is on, and the Pico GPIO pins that drive the multiplexers.

The wiring helper renders the diagrams from this module; firmware/main.py switches the multiplexers from it.

- 15 x CD74HC4067 (16-channel analog mux), one per board row: mux m = row m, channel c = column c
  (channel 15 of every mux is spare and tied to GND).
- The muxes share the four select lines S0..S3 (SELECT_PINS, S0 first).
- They form three groups of five: group g = muxes 5g..5g+4, whose common outputs are tied together to one
  ADC input ADC_PINS[g] (each with its own R_REF to 3V3, see firmware/divider.py).
- Enable lines (active low) are shared across groups: ENABLE_PINS[k] drives the EN of muxes k, k+5 and k+10;
  enabling three muxes at once is fine because they sit on three different ADC inputs.

So one cell is read by: enable line k low (all others high), select lines = column, read ADC input g.
That is 4 + 5 + 3 = 12 GPIOs, leaving GP0/GP1 for a UART link and GP25 for the Pico's LED.
"""

ROWS = 15
COLS = 15
CELLS = ROWS * COLS
MUX_COUNT = 15
MUX_CHANNELS = 16
GROUP_SIZE = 5
"""Muxes sharing one ADC input."""

SELECT_PINS = (2, 3, 4, 5)
"""GPIOs driving S0, S1, S2, S3 of every mux."""
ENABLE_PINS = (6, 7, 8, 9, 10)
"""GPIOs driving the active-low EN of muxes (k, k+5, k+10) for k = 0..4."""
ADC_PINS = (26, 27, 28)
"""GPIOs of ADC0..ADC2; ADC_PINS[g] reads the common output of muxes 5g..5g+4."""
MAINTENANCE_PIN = 22
"""Jumper to GND at power-up: main.py leaves the REPL alone (Ctrl-C works) so mpremote can update files."""
SMPS_MODE_PIN = 23
"""Pico (not Pico W): high = the on-board regulator in PWM mode, less ripple on the ADC."""


def route(cell):
    """``(mux, channel)`` of a cell (row * 15 + col); raises ValueError for a cell off the board."""
    if not isinstance(cell, int) or not 0 <= cell < CELLS:
        raise ValueError(f"cell {cell!r} is off the board (0..{CELLS - 1})")
    return (cell // COLS, cell % COLS)


def cell_of(mux, channel):
    """The cell on a mux channel, or None for a spare channel; raises ValueError for a mux/channel that is not there."""
    if not 0 <= mux < MUX_COUNT or not 0 <= channel < MUX_CHANNELS:
        raise ValueError(f"no mux channel {mux}/{channel} (muxes 0..{MUX_COUNT - 1}, channels 0..15)")
    if channel >= COLS:
        return None
    return mux * COLS + channel


def adc_index(mux):
    """Index into ADC_PINS of the ADC input a mux's output is tied to."""
    return mux // GROUP_SIZE


def enable_index(mux):
    """Index into ENABLE_PINS of the enable line of a mux."""
    return mux % GROUP_SIZE


def select_levels(channel):
    """Levels of (S0, S1, S2, S3) that select a channel."""
    return (channel & 1, (channel >> 1) & 1, (channel >> 2) & 1, (channel >> 3) & 1)


def gpio_masks(cell):
    """``(set_mask, clear_mask)`` of GPIO bits that put the muxes on ``cell``: the pins to drive high and low.

    Disabled enable lines and select bits 1 are in set_mask; the cell's enable line and select bits 0 are in
    clear_mask. Writing set_mask first disables the other muxes before the cell's mux is enabled.
    """
    mux, channel = route(cell)
    set_mask = 0
    clear_mask = 0
    levels = select_levels(channel)
    for index in range(len(SELECT_PINS)):
        if levels[index]:
            set_mask |= 1 << SELECT_PINS[index]
        else:
            clear_mask |= 1 << SELECT_PINS[index]
    enabled = enable_index(mux)
    for index in range(len(ENABLE_PINS)):
        if index == enabled:
            clear_mask |= 1 << ENABLE_PINS[index]
        else:
            set_mask |= 1 << ENABLE_PINS[index]
    return (set_mask, clear_mask)


def pin_table():
    """Every GPIO the board uses with its role, for the wiring docs: ``[(gpio, role), ...]`` sorted by gpio."""
    rows = [(pin, f"S{index} (select, all muxes)") for index, pin in enumerate(SELECT_PINS)]
    for index, pin in enumerate(ENABLE_PINS):
        muxes = ", ".join(str(m) for m in range(index, MUX_COUNT, GROUP_SIZE))
        rows.append((pin, f"EN{index} (active low, muxes {muxes})"))
    for index, pin in enumerate(ADC_PINS):
        first = index * GROUP_SIZE
        rows.append((pin, f"ADC{index} (commons of muxes {first}..{first + GROUP_SIZE - 1}, R_REF to 3V3)"))
    rows.append((MAINTENANCE_PIN, "maintenance jumper to GND (input, pull-up)"))
    rows.append((SMPS_MODE_PIN, "regulator PWM mode (Pico on-board)"))
    return sorted(rows)
