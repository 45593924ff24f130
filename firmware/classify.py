"""Classify one ADC reading into a tile code, EMPTY, or a fault code.

The answer is a binary search over tilecodes.BANDS (``search``). Because classification runs once per cell per
scan on the Pico, a 4096-entry table indexed by ``raw >> 4`` answers directly wherever a whole 16-count bucket
lies in one band or one gap; only the few buckets that hold a band edge fall back to the search.
``classify_cells`` reads and classifies a run of cells in one viper loop (no call per cell but the read itself).
MicroPython-safe: tuples and a bytearray built at import.
"""

from firmware.compat import micropython, ptr8
from firmware.tilecodes import ADC_BITS, ADC_MAX, BANDS, FAULT_BAND

_LO = tuple(band[0] for band in BANDS)
_HI = tuple(band[1] for band in BANDS)
_CODE = tuple(band[2] for band in BANDS)
_COUNT = len(BANDS)
BUCKET_SHIFT = 4
"""Bucket width of the fast table: 16 counts = one LSB of the RP2040's 12-bit converter."""
_MIXED = 255
"""Fast-table marker: a band edge lies inside this bucket; search instead."""


def _locate(raw):
    """Index of the band whose lower edge is the last one <= raw (-1 below the first band)."""
    lo_tab = _LO
    lo = 0
    hi = _COUNT
    while lo < hi:
        mid = (lo + hi) >> 1
        if lo_tab[mid] <= raw:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def search(raw):
    """The code of the band ``raw`` falls in, FAULT_BAND between bands (binary search, no range check)."""
    index = _locate(raw)
    if index >= 0 and raw <= _HI[index]:
        return _CODE[index]
    return FAULT_BAND


def _build_fast_table():
    buckets = 1 << (ADC_BITS - BUCKET_SHIFT)
    table = bytearray(buckets)
    width = 1 << BUCKET_SHIFT
    for bucket in range(buckets):
        first = bucket * width
        last = first + width - 1
        index = _locate(first)
        inside_first = index >= 0 and first <= _HI[index]
        inside_last = index >= 0 and last <= _HI[index]
        if index == _locate(last) and inside_first == inside_last:
            table[bucket] = search(first)
        else:
            table[bucket] = _MIXED
    return table


_FAST = _build_fast_table()


@micropython.native
def classify(raw):
    """The code of the band ``raw`` (0..ADC_MAX) falls in; FAULT_BAND between bands.

    Raises ValueError for a reading outside 0..ADC_MAX (the ADC never gives one: a caller's bug).
    """
    if raw < 0 or raw > ADC_MAX:
        _refuse(raw)
    code = _FAST[raw >> BUCKET_SHIFT]
    if code != _MIXED:
        return code
    return search(raw)


def _refuse(raw):
    raise ValueError(f"ADC reading {raw!r} outside 0..{ADC_MAX}")


@micropython.viper
def classify_cells(read, codes, start: int, stop: int):
    """``codes[cell] = classify(read(cell))`` for every cell in ``start`` .. ``stop`` - 1, in this order.

    Raises ValueError for a reading outside 0..ADC_MAX, or if ``codes`` (a bytearray) is shorter than ``stop``.
    """
    if start < 0 or stop > int(len(codes)):
        raise ValueError("cells outside the codes buffer")
    table = ptr8(_FAST)
    out = ptr8(codes)
    top = int(ADC_MAX)
    shift = int(BUCKET_SHIFT)
    mixed = int(_MIXED)
    for cell in range(start, stop):
        raw = int(read(cell))
        if raw < 0 or raw > top:
            _refuse(raw)
        code = int(table[raw >> shift])
        if code == mixed:
            code = int(search(raw))
        out[cell] = code
