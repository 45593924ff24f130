"""Per-cell debouncing: a cell's new value counts only after it has been read the same N scans in a row.

Two depths: ``stable_scans`` for every change, and optionally a shorter ``placement_scans`` for a tile laid on an
empty cell (``placement_from`` -> a code below ``placement_below``). Laying a tile is what players wait to see on
the table; a removal, a tile changing into another one and a fault keep the full depth, so a half-lifted tile (its
reading wandering through other codes, faults and empty) is never reported before it has settled.

MicroPython-safe: three bytearrays, no allocation per scan except the list of changed cells; the per-cell loop
is a viper function (machine integers, byte pointers) on the Pico and plain Python elsewhere.
"""

from firmware.compat import micropython, ptr8

MAX_STABLE = 255
"""Largest debounce depth (the counters are bytes)."""


def check_depth(stable_scans):
    """Return ``stable_scans`` if it is an int in 1..MAX_STABLE; raise ValueError otherwise."""
    if not isinstance(stable_scans, int) or isinstance(stable_scans, bool) or not 1 <= stable_scans <= MAX_STABLE:
        raise ValueError(f"debounce depth must be an int in 1..{MAX_STABLE} scans, got {stable_scans!r}")
    return stable_scans


class Debouncer:
    """Stable values of ``cells`` cells (bytes), fed one full scan of raw values at a time (or a range of cells).

    ``state[cell]`` changes to a new value v only when v has been fed for ``stable_scans`` consecutive scans
    (``placement_scans`` scans if the cell's state is ``placement_from`` and v < ``placement_below``; never more
    than ``stable_scans``); a value seen for fewer scans (a flicker) never reaches ``state``. ``candidates`` is the
    number of cells of the last ``feed`` that hold a value on its way to ``state``.
    """

    def __init__(self, cells, stable_scans=3, initial=0, placement_scans=None, placement_from=0, placement_below=0):
        if not isinstance(cells, int) or cells < 1:
            raise ValueError(f"cell count must be a positive int, got {cells!r}")
        self.cells = cells
        self.stable_scans = check_depth(stable_scans)
        self.placement_scans = check_depth(placement_scans) if placement_scans is not None else None
        self.placement_from = placement_from
        self.placement_below = placement_below if placement_scans is not None else 0
        self.state = bytearray(cells)
        if initial:
            for cell in range(cells):
                self.state[cell] = initial
        self._candidate = bytearray(cells)
        self._count = bytearray(cells)
        self.candidates = 0
        self._placement_depth = self._placement_need()

    def _placement_need(self):
        fast = self.placement_scans
        return self.stable_scans if fast is None or fast > self.stable_scans else fast

    def set_depth(self, stable_scans):
        """Change N; candidates already seen N times become stable at the next feed."""
        self.stable_scans = check_depth(stable_scans)
        self._placement_depth = self._placement_need()

    def forget(self):
        """Drop every candidate under way (the stable state stays)."""
        count = self._count
        for cell in range(self.cells):
            count[cell] = 0

    def feed(self, values, start=0, stop=-1):
        """Take one scan's values of cells ``start`` .. ``stop`` - 1 (all cells by default; ``values`` a bytes-like
        buffer with one byte a cell, indexed by cell); return the cells whose stable value changed. Raises
        ValueError for cells outside 0 .. ``cells`` - 1 or ``values`` shorter than ``stop``."""
        return self.feed_cells(values, start, self.cells if stop < 0 else stop)

    @micropython.viper
    def feed_cells(self, values, start: int, stop: int):
        """:meth:`feed` with both ends given (what the scanner calls, once a row)."""
        if start < 0 or stop > int(self.cells) or stop > int(len(values)):
            raise ValueError("cells outside the debouncer or the values")
        state = ptr8(self.state)
        candidate = ptr8(self._candidate)
        count = ptr8(self._count)
        new = ptr8(values)
        need = int(self.stable_scans)
        fast = int(self._placement_depth)
        empty = int(self.placement_from)
        below = int(self.placement_below)
        changed = []
        pending = 0
        for cell in range(start, stop):
            value = int(new[cell])
            now = int(state[cell])
            if value == now:
                count[cell] = 0
                continue
            seen = 1
            if count[cell] and value == int(candidate[cell]):
                seen = int(count[cell]) + 1
            else:
                candidate[cell] = value
            if seen >= need or (seen >= fast and now == empty and value < below):
                state[cell] = value
                count[cell] = 0
                changed.append(cell)
            else:
                count[cell] = seen
                pending += 1
        self.candidates = pending
        return changed
