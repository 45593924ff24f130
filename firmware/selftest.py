"""The firmware's own tests, runnable under MicroPython (unix port in CI, or on a Pico) and CPython alike.

    MICROPYPATH=. micropython firmware/selftest.py     # from the repository root
    mpremote run firmware/selftest.py                  # on a Pico that holds the /firmware package

Exercises tilecodes, classify, debounce, scanner, muxmap and main.build_reader (with a fake ``machine``) using
only what MicroPython has: plain asserts, no pytest, no ``random`` (a small LCG keeps runs identical everywhere).
Prints ``firmware selftest: OK (N checks)``; any failure raises (non-zero exit).
"""

from firmware import divider, muxmap, tilecodes
from firmware.classify import classify, classify_cells
from firmware.debounce import Debouncer
from firmware.main import build_reader
from firmware.scanner import Scanner

_checks = [0]


def check(condition, what):
    """Count one check; raise AssertionError naming ``what`` if it fails."""
    _checks[0] += 1
    if not condition:
        raise AssertionError("selftest failed: " + what)


def raises_value_error(func, *args):
    """True if ``func(*args)`` raises ValueError."""
    try:
        func(*args)
    except ValueError:
        return True
    return False


class Lcg:
    """A tiny deterministic random source (same sequence under CPython and MicroPython)."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def below(self, n):
        """An int in 0..n-1."""
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def test_tilecodes():
    codes = [code for code, _letter in tilecodes.LETTERS]
    check(codes == list(range(1, len(codes) + 1)), "tile codes are 1..N in order")
    check(len(set(letter for _code, letter in tilecodes.LETTERS)) == len(codes), "letters are unique")
    check(tilecodes.letter_of(tilecodes.BLANK_CODE) == "?", "the blank's code is '?'")
    for code, letter in tilecodes.LETTERS:
        check(tilecodes.code_of(letter) == code, "code_of(letter_of) round trip for " + letter)
        check(tilecodes.letter_of(code) == letter, "letter_of round trip")
    for letter in ("A", "Á", "Č", "Ř", "Ž", "Q", "W", "Ł", "Ż", "?"):
        check(letter in [item[1] for item in tilecodes.LETTERS], "letter present: " + letter)
    check(raises_value_error(tilecodes.code_of, "Ö"), "code_of rejects an unknown letter")
    check(raises_value_error(tilecodes.letter_of, tilecodes.EMPTY), "letter_of rejects EMPTY")
    check(raises_value_error(tilecodes.letter_of, 200), "letter_of rejects an unknown code")
    faults = (tilecodes.FAULT_OPEN, tilecodes.FAULT_SHORT, tilecodes.FAULT_BAND)
    check(len(set(faults)) == 3 and min(faults) >= 250, "fault codes are distinct and >= 250")
    check(tilecodes.ADC_MAX == (1 << tilecodes.ADC_BITS) - 1, "ADC_MAX matches ADC_BITS")
    check(tilecodes.R_REF == divider.R_REF and tilecodes.R_CELL == divider.R_CELL, "table matches divider")


def test_bands():
    bands = tilecodes.BANDS
    check(bands[0][0] == 0 and bands[-1][1] == tilecodes.ADC_MAX, "bands span 0..ADC_MAX ends")
    for index in range(len(bands) - 1):
        check(bands[index][1] < bands[index + 1][0], f"bands sorted and disjoint at {index}")
    for lo, hi, code in bands:
        check(lo <= hi, "band not empty")
        check(classify(lo) == code and classify(hi) == code, "band edges classify to their code")
        if hi < tilecodes.ADC_MAX:
            check(classify(hi + 1) != code, "just above a band is not its code")
    for code in tilecodes.OHMS:
        lo, hi = divider.worst_case(tilecodes.OHMS[code])
        check(classify(lo) == code and classify(hi) == code, f"worst case of code {code} classifies right")
        check(classify(divider.raw_for_ohms(tilecodes.OHMS[code])) == code, f"nominal reading of code {code}")
    check(classify(divider.raw_for_ohms(None)) == tilecodes.EMPTY, "an empty cell reads EMPTY")
    check(classify(divider.raw_for_ohms(0)) == tilecodes.FAULT_SHORT, "shorted contacts read FAULT_SHORT")
    check(classify(divider.RAW_OPEN) == tilecodes.FAULT_OPEN, "broken wiring reads FAULT_OPEN")
    for index in range(len(bands) - 1):
        if bands[index + 1][0] - bands[index][1] > 1:
            check(classify(bands[index][1] + 1) == tilecodes.FAULT_BAND, "gap reads FAULT_BAND")
    check(raises_value_error(classify, -1), "classify rejects a negative reading")
    check(raises_value_error(classify, tilecodes.ADC_MAX + 1), "classify rejects a reading above ADC_MAX")
    # the row loop (viper on MicroPython) gives what classify gives, band edges and gaps included
    edges = []
    for lo, hi, _code in bands:
        edges.extend((lo - 1, lo, hi, hi + 1))
    readings = [raw for raw in edges if 0 <= raw <= tilecodes.ADC_MAX] + list(range(0, tilecodes.ADC_MAX + 1, 13))
    codes = bytearray(225)
    for first in range(0, len(readings), 225):
        batch = readings[first : first + 225]
        classify_cells(lambda cell, batch=batch: batch[cell], codes, 0, len(batch))
        check(all(codes[i] == classify(raw) for i, raw in enumerate(batch)), "classify_cells agrees with classify")
    check(raises_value_error(classify_cells, lambda cell: -1, codes, 0, 1), "classify_cells rejects -1")
    check(raises_value_error(classify_cells, lambda cell: 65536, codes, 0, 1), "classify_cells rejects 65536")
    check(raises_value_error(classify_cells, lambda cell: 0, codes, 220, 226), "classify_cells stays in its buffer")
    check(raises_value_error(classify_cells, lambda cell: 0, codes, -1, 2), "classify_cells refuses cell -1")


def test_debouncer():
    deb = Debouncer(4, stable_scans=3)
    check(deb.feed(bytes([0, 0, 0, 0])) == [], "no change while steady")
    check(deb.feed(bytes([5, 0, 0, 0])) == [], "1 scan is not enough")
    check(deb.feed(bytes([5, 0, 0, 0])) == [], "2 scans are not enough")
    check(deb.feed(bytes([5, 0, 0, 0])) == [0], "3rd steady scan reports")
    check(deb.state[0] == 5, "state holds the new value")
    deb.feed(bytes([0, 7, 0, 0]))
    deb.feed(bytes([5, 7, 0, 0]))  # cell 0 flickered for one scan only
    check(deb.state[0] == 5, "a 1-scan flicker is ignored")
    deb.feed(bytes([5, 8, 0, 0]))
    check(deb.feed(bytes([5, 8, 0, 0])) == [], "a new candidate restarts the count")
    check(deb.feed(bytes([5, 8, 0, 0])) == [1], "the last candidate wins after 3 scans")
    check(raises_value_error(Debouncer, 4, 0), "depth 0 is refused")
    check(raises_value_error(Debouncer, 4, 256), "depth 256 is refused")
    check(raises_value_error(Debouncer, 0, 3), "zero cells are refused")
    check(raises_value_error(deb.feed, bytes(4), 0, 5), "feed stays inside its cells")
    check(raises_value_error(deb.feed, bytes(3)), "feed refuses values shorter than its cells")
    check(raises_value_error(deb.feed, bytes(4), -1, 4), "feed refuses cell -1")


def test_scanner():
    raw = [divider.raw_for_ohms(None)] * 225
    scanner = Scanner(lambda cell: raw[cell], stable_scans=3)
    check(scanner.state == bytearray(225), "state starts all EMPTY")
    check(not scanner.ready, "not ready before the first scans")
    code_j = tilecodes.code_of("J")
    raw[7 * 15 + 7] = divider.raw_for_ohms(tilecodes.OHMS[code_j])
    check(scanner.scan() == [], "no report after 1 scan")
    check(scanner.scan() == [(112, code_j)], "a tile laid on H8 is reported on the 2nd scan")
    check(not scanner.ready and scanner.scan() == [], "not ready before 3 scans")
    check(scanner.ready, "ready after 3 scans")
    check(scanner.state[112] == code_j, "state has the tile")
    saved = raw[112]
    raw[112] = divider.raw_for_ohms(None)
    check(scanner.scan() == [], "lifted once")
    raw[112] = saved
    check(scanner.scan() == [] and scanner.scan() == [] and scanner.scan() == [], "flicker never reported")
    scanner.set_debounce(1)
    raw[0] = divider.RAW_OPEN
    check(scanner.scan() == [(0, tilecodes.FAULT_OPEN)], "depth 1 reports at once")
    check(raises_value_error(scanner.set_debounce, 0), "set_debounce(0) is refused")
    scanner.set_debounce(2)
    raw[1] = 0
    scanner.scan()
    scanner.rescan()
    check(not scanner.ready, "rescan forgets history")
    check(scanner.scan() == [], "after rescan the count restarts")
    check(scanner.scan() == [(1, tilecodes.FAULT_SHORT)], "and reports after 2 more scans")
    check(scanner.ready, "ready again after 2 scans")

    # a half-lifted tile: its reading wanders through empty, a fault and another code, never 3 scans alike
    scanner.set_debounce(3)
    code_k = tilecodes.code_of("K")
    wander = (None, "band", code_k, code_k, code_j, None, None, code_j, None, code_k, code_k, code_j)
    for step in wander:
        if step is None:
            raw[112] = divider.raw_for_ohms(None)
        elif step == "band":
            raw[112] = tilecodes.BANDS[0][1] + 20
        else:
            raw[112] = divider.raw_for_ohms(tilecodes.OHMS[step])
        check(scanner.scan() == [], "a half-lifted tile is never reported")
    raw[112] = divider.raw_for_ohms(None)
    check(scanner.scan() == [] and scanner.scan() == [], "a removal needs 3 scans")
    check(scanner.scan() == [(112, tilecodes.EMPTY)], "lifted: reported on the 3rd scan")
    # a changed row is read first and its change reported before the rest of the scan
    seen = []
    reads = []
    fresh = [divider.raw_for_ohms(None)] * 225
    timed = Scanner(lambda cell: reads.append(cell) or fresh[cell], stable_scans=3)
    timed.scan()
    fresh[224] = divider.raw_for_ohms(tilecodes.OHMS[code_j])
    timed.scan()
    reads.clear()
    rest = timed.scan(lambda changes: seen.append((len(reads), changes)))
    check(seen == [(15, [(224, code_j)])] and rest == [], "the pending row is read and reported first")
    check(sorted(reads) == list(range(225)), "and every cell is still read once")

    rng = Lcg(2024)
    values = [divider.raw_for_ohms(None)] * 225
    board = Scanner(lambda cell: values[cell], stable_scans=3)
    expected = bytearray(225)
    for _round in range(30):
        for _move in range(5):
            cell = rng.below(225)
            code = rng.below(len(tilecodes.LETTERS) + 1)
            values[cell] = divider.raw_for_ohms(tilecodes.OHMS[code] if code else None)
            expected[cell] = code
        for _scan in range(3):
            board.scan()
        check(board.state == expected, "random board settles after 3 scans")


class FakePin:
    OUT = 1
    IN = 0
    PULL_UP = 1

    def __init__(self, gpio, mode=None, pull=None, value=None):
        self.gpio = gpio


class FakeMem:
    """Applies SIO set/clear stores to a GPIO output word."""

    def __init__(self):
        self.out = 0
        self.stores = 0

    def __setitem__(self, address, value):
        self.stores += 1
        if address == 0xD0000014:
            self.out |= value
        elif address == 0xD0000018:
            self.out &= ~value
        else:
            raise AssertionError("store to an unexpected address")


class FakeMachine:
    Pin = FakePin

    def __init__(self):
        self.mem32 = FakeMem()
        machine = self

        class ADC:
            def __init__(self, pin):
                self.gpio = pin.gpio

            def read_u16(self):
                return machine.sample(self.gpio)

        self.ADC = ADC

    def sample(self, gpio):
        """What the selected cell of the bus on ``gpio`` reads: its cell number * 100 (fake)."""
        out = self.mem32.out
        enabled = [k for k, pin in enumerate(muxmap.ENABLE_PINS) if not out >> pin & 1]
        check(len(enabled) == 1, "exactly one enable line is low")
        channel = 0
        for bit, pin in enumerate(muxmap.SELECT_PINS):
            channel |= (out >> pin & 1) << bit
        group = muxmap.ADC_PINS.index(gpio)
        mux = group * muxmap.GROUP_SIZE + enabled[0]
        return muxmap.cell_of(mux, channel) * 100


class FakeTime:
    def __init__(self):
        self.waited = 0

    def sleep_us(self, us):
        self.waited += us


def test_muxmap_and_reader():
    seen = set()
    for cell in range(225):
        mux, channel = muxmap.route(cell)
        check(muxmap.cell_of(mux, channel) == cell, "cell_of inverts route")
        seen.add((mux, channel))
        set_mask, clear_mask = muxmap.gpio_masks(cell)
        check(set_mask & clear_mask == 0, "masks are disjoint")
    check(len(seen) == 225, "every cell on its own mux channel")
    check(raises_value_error(muxmap.route, 225), "route rejects a cell off the board")
    machine = FakeMachine()
    clock = FakeTime()
    read_raw = build_reader(machine, clock, settle_us=10, samples=4)
    for cell in (0, 14, 15, 74, 75, 112, 149, 150, 224):
        check(read_raw(cell) == cell * 100, f"reader routes cell {cell} through its mux")
    check(clock.waited == 90, "reader settles before every read")
    check(raises_value_error(build_reader, machine, clock, 10, 3), "3 samples are refused")


def run():
    """Run every check; return how many passed."""
    _checks[0] = 0
    test_tilecodes()
    test_bands()
    test_debouncer()
    test_scanner()
    test_muxmap_and_reader()
    return _checks[0]


if __name__ == "__main__":
    print(f"firmware selftest: OK ({run()} checks)")
