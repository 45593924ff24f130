"""Per-cell debouncing: a cell's new value counts only after it has been read the same N scans in a row.

MicroPython-safe: three bytearrays, no allocation per scan except the list of changed cells.
"""

from firmware.compat import native

MAX_STABLE = 255
"""Largest debounce depth (the counters are bytes)."""


def check_depth(stable_scans):
    """Return ``stable_scans`` if it is an int in 1..MAX_STABLE; raise ValueError otherwise."""
    if not isinstance(stable_scans, int) or isinstance(stable_scans, bool) or not 1 <= stable_scans <= MAX_STABLE:
        raise ValueError(f"debounce depth must be an int in 1..{MAX_STABLE} scans, got {stable_scans!r}")
    return stable_scans


class Debouncer:
    """Stable values of ``cells`` cells (bytes), fed one full scan of raw values at a time.

    ``state[cell]`` changes to a new value v only when v has been fed for ``stable_scans`` consecutive scans;
    a value seen for fewer scans (a flicker) never reaches ``state``.
    """

    def __init__(self, cells, stable_scans=3, initial=0):
        if not isinstance(cells, int) or cells < 1:
            raise ValueError(f"cell count must be a positive int, got {cells!r}")
        self.cells = cells
        self.stable_scans = check_depth(stable_scans)
        self.state = bytearray(cells)
        if initial:
            for cell in range(cells):
                self.state[cell] = initial
        self._candidate = bytearray(cells)
        self._count = bytearray(cells)

    def set_depth(self, stable_scans):
        """Change N; candidates already seen N times become stable at the next feed."""
        self.stable_scans = check_depth(stable_scans)

    def forget(self):
        """Drop every candidate under way (the stable state stays)."""
        count = self._count
        for cell in range(self.cells):
            count[cell] = 0

    @native
    def feed(self, values):
        """Take one scan's values (indexable, one byte per cell); return the cells whose stable value changed."""
        state = self.state
        candidate = self._candidate
        count = self._count
        need = self.stable_scans
        changed = []
        for cell in range(self.cells):
            value = values[cell]
            if value == state[cell]:
                count[cell] = 0
                continue
            if count[cell] and value == candidate[cell]:
                seen = count[cell] + 1
            else:
                candidate[cell] = value
                seen = 1
            if seen >= need:
                state[cell] = value
                count[cell] = 0
                changed.append(cell)
            else:
                count[cell] = seen
        return changed
