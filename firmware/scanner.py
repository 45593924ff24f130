"""The scan loop's logic: read every cell, classify it, debounce, and report what changed.

Hardware comes in as ``read_raw(cell) -> int`` (the ADC reading of one cell; firmware/main.py builds it from
the multiplexers, hw_sim/virtual_board.py from resistor values), so CPython tests, the simulator and the Pico
run this very module. Cells are numbered row * 15 + col, row 0 = the top row ("1"), col 0 = column A.
"""

from firmware.classify import classify
from firmware.compat import native
from firmware.debounce import Debouncer, check_depth
from firmware.tilecodes import EMPTY

BOARD_CELLS = 225


class Scanner:
    """Scans ``cells`` cells through ``read_raw`` and keeps their debounced codes in ``state``.

    ``state`` is a bytearray of the stable codes (tile code, EMPTY or a fault code), all EMPTY at start; a cell's
    code changes only after the same classified value has been read ``stable_scans`` scans in a row. After
    ``stable_scans`` scans since start or ``rescan()``, ``ready`` is True: every steadily read cell is known.
    """

    def __init__(self, read_raw, cells=BOARD_CELLS, stable_scans=3):
        self._read_raw = read_raw
        self._debouncer = Debouncer(cells, stable_scans, EMPTY)
        self.cells = cells
        self.state = self._debouncer.state
        self._values = bytearray(cells)
        self.scans = 0
        """Full scans completed since start."""
        self._since_reset = 0

    @property
    def stable_scans(self):
        """Scans a value must be steady for before it counts."""
        return self._debouncer.stable_scans

    @property
    def ready(self):
        """True once ``stable_scans`` full scans have run since start or the last rescan()."""
        return self._since_reset >= self._debouncer.stable_scans

    def set_debounce(self, n):
        """Set the debounce depth to ``n`` scans (1..255); raises ValueError otherwise."""
        self._debouncer.set_depth(check_depth(n))

    def rescan(self):
        """Forget the debounce history and re-establish every cell; changes are reported as usual."""
        self._debouncer.forget()
        self._since_reset = 0

    @native
    def scan(self):
        """Read all cells once; return ``[(cell, code), ...]`` for cells whose stable code changed."""
        read = self._read_raw
        values = self._values
        for cell in range(self.cells):
            values[cell] = classify(read(cell))
        changed = self._debouncer.feed(values)
        self.scans += 1
        self._since_reset += 1
        state = self.state
        return [(cell, state[cell]) for cell in changed]
