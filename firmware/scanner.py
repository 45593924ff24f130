"""The scan loop's logic: read every cell, classify it, debounce, and report what changed.

Hardware comes in as ``read_raw(cell) -> int`` (the ADC reading of one cell; firmware/main.py builds it from
the multiplexers, hw_sim/virtual_board.py from resistor values), so CPython tests, the simulator and the Pico
run this very module. Cells are numbered row * 15 + col, row 0 = the top row ("1"), col 0 = column A.

A scan reads the rows that hold a change on its way first (a cell read differently from its state in the last
scan), hands the changes they confirm to ``report`` at once, then reads the other rows: a tile is reported as
soon as it is stable, not a whole scan later, and every cell is still read once per scan.
"""

from firmware.classify import classify_cells
from firmware.compat import micropython
from firmware.debounce import Debouncer, check_depth
from firmware.tilecodes import EMPTY, FAULT_BAND

BOARD_CELLS = 225
ROW = 15
PLACEMENT_SCANS = 2
"""Scans a tile laid on an empty cell must read steadily before it counts (every other change: ``stable_scans``)."""


class Scanner:
    """Scans ``cells`` cells through ``read_raw`` and keeps their debounced codes in ``state``.

    ``state`` is a bytearray of the stable codes (tile code, EMPTY or a fault code), all EMPTY at start; a cell's
    code changes only after the same classified value has been read ``stable_scans`` scans in a row
    (``placement_scans`` for a tile code on an empty cell). After ``stable_scans`` scans since start or
    ``rescan()``, ``ready`` is True: every steadily read cell is known.
    """

    def __init__(self, read_raw, cells=BOARD_CELLS, stable_scans=3, placement_scans=PLACEMENT_SCANS):
        self._read_raw = read_raw
        self._debouncer = Debouncer(cells, stable_scans, EMPTY, placement_scans, EMPTY, FAULT_BAND)
        self.cells = cells
        self.state = self._debouncer.state
        self._values = bytearray(cells)
        self._rows = (cells + ROW - 1) // ROW
        self._busy = bytearray(self._rows)  # 1: the row held a candidate after its last read
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

    @micropython.native
    def _read_row(self, row):
        """Read and debounce one row; the cells whose stable code changed."""
        start = row * ROW
        stop = start + ROW
        if stop > self.cells:
            stop = self.cells
        values = self._values
        classify_cells(self._read_raw, values, start, stop)
        deb = self._debouncer
        changed = deb.feed_cells(values, start, stop)
        self._busy[row] = 1 if deb.candidates else 0
        return changed

    @micropython.native
    def scan(self, report=None):
        """Read all cells once; return ``[(cell, code), ...]`` for cells whose stable code changed.

        With ``report``, the changes confirmed in the rows read first (those holding a change on its way) go to
        ``report(changes)`` as soon as those rows are read, and are not in the returned list.
        """
        first = bytes(self._busy)  # the rows to read first, as they were before this scan
        state = self.state
        changed = []
        for row in range(self._rows):
            if first[row]:
                changed += self._read_row(row)
        if report is not None and changed:
            report([(cell, state[cell]) for cell in changed])
            changed = []
        for row in range(self._rows):
            if not first[row]:
                changed += self._read_row(row)
        self.scans += 1
        self._since_reset += 1
        return [(cell, state[cell]) for cell in changed]
