"""Debouncer and scanner: a change counts only after N steady scans; shorter flickers are never reported."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import divider, tilecodes
from firmware.classify import classify
from firmware.debounce import Debouncer
from firmware.scanner import PLACEMENT_SCANS, Scanner

VALUES = st.sampled_from([tilecodes.EMPTY, 1, 2, tilecodes.BLANK_CODE, tilecodes.FAULT_OPEN])


def expected_states(
    readings: list[int], n: int, initial: int = tilecodes.EMPTY, placement: int | None = None
) -> list[int]:
    """The specification: after each scan the state is the value of the latest N equal readings in a row; with
    ``placement``, a tile code read on an empty cell needs only min(placement, N) of them."""
    states = []
    state = initial
    for t in range(len(readings)):
        value = readings[t]
        need = n
        if placement is not None and state == tilecodes.EMPTY and value < tilecodes.FAULT_BAND:
            need = min(placement, n)
        window = readings[max(0, t - need + 1) : t + 1]
        if len(window) == need and len(set(window)) == 1:
            state = window[0]
        states.append(state)
    return states


@settings(max_examples=300)
@given(readings=st.lists(VALUES, max_size=40), n=st.integers(min_value=1, max_value=5))
def test_debouncer_follows_the_specification(readings: list[int], n: int) -> None:
    feed_and_check(Debouncer(1, stable_scans=n), readings, expected_states(readings, n))


def feed_and_check(deb: Debouncer, readings: list[int], want: list[int]) -> None:
    """Feed one cell's readings scan by scan; its state and the reported change must follow ``want``."""
    before = tilecodes.EMPTY
    for reading, state in zip(readings, want, strict=True):
        changed = deb.feed(bytes([reading]))
        assert deb.state[0] == state
        assert changed == ([0] if state != before else [])
        before = state


@settings(max_examples=300)
@given(
    readings=st.lists(VALUES, max_size=40),
    n=st.integers(min_value=1, max_value=5),
    placement=st.integers(min_value=1, max_value=5),
)
def test_a_placement_needs_its_own_depth_everything_else_the_full_one(
    readings: list[int], n: int, placement: int
) -> None:
    deb = Debouncer(1, n, tilecodes.EMPTY, placement, tilecodes.EMPTY, tilecodes.FAULT_BAND)
    feed_and_check(deb, readings, expected_states(readings, n, placement=placement))


@settings(max_examples=200)
@given(
    n=st.integers(min_value=2, max_value=6),
    flicker=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=6),
)
def test_a_flicker_shorter_than_n_scans_is_never_reported(n: int, flicker: list[int]) -> None:
    """Runs of a foreign value each shorter than N, separated by the stable value: nothing is ever reported."""
    deb = Debouncer(1, stable_scans=n, initial=7)
    for run in flicker:
        for _ in range(min(run, n - 1)):
            assert deb.feed(bytes([tilecodes.EMPTY])) == []
        assert deb.feed(bytes([7])) == []
    assert deb.state[0] == 7


@pytest.mark.parametrize("depth", [0, 256, -1, 2.5, True])
def test_bad_depths_are_refused(depth: object) -> None:
    with pytest.raises(ValueError, match="debounce depth must be an int in 1..255"):
        Debouncer(3, stable_scans=depth)


def raw_of(code: int) -> int:
    if code == tilecodes.EMPTY:
        return divider.raw_for_ohms(None)
    if code == tilecodes.FAULT_OPEN:
        return divider.RAW_OPEN
    return divider.raw_for_ohms(tilecodes.OHMS[code])


@settings(max_examples=100, deadline=None)
@given(
    script=st.lists(st.lists(st.tuples(st.integers(0, 224), VALUES), max_size=4), min_size=1, max_size=12),
    n=st.integers(min_value=1, max_value=4),
)
def test_scanner_reports_exactly_the_debounced_changes(script: list[list[tuple[int, int]]], n: int) -> None:
    raws = [raw_of(tilecodes.EMPTY)] * 225
    history: dict[int, list[int]] = {}
    scanner = Scanner(lambda cell: raws[cell], stable_scans=n)
    assert scanner._debouncer.placement_scans == PLACEMENT_SCANS
    for scan_number, edits in enumerate(script):
        for cell, code in edits:
            raws[cell] = raw_of(code)
            history.setdefault(cell, [tilecodes.EMPTY] * scan_number)
        for cell in history:
            history[cell].append(classify(raws[cell]))
        before = bytes(scanner.state)
        changes = scanner.scan()
        for cell, readings in history.items():
            assert scanner.state[cell] == expected_states(readings, n, placement=PLACEMENT_SCANS)[-1], f"cell {cell}"
        assert sorted(changes) == [
            (cell, scanner.state[cell]) for cell in range(225) if scanner.state[cell] != before[cell]
        ]
    assert scanner.ready == (len(script) >= n)


def test_a_placed_tile_is_reported_on_the_2nd_scan_a_removal_on_the_nth_and_rescan_re_establishes() -> None:
    raws = [raw_of(tilecodes.EMPTY)] * 225
    scanner = Scanner(lambda cell: raws[cell])
    assert scanner.stable_scans == 3 and not scanner.ready
    raws[0] = raw_of(2)
    assert scanner.scan() == []
    assert scanner.scan() == [(0, 2)]
    assert not scanner.ready and scanner.scan() == []
    assert scanner.ready and scanner.scans == 3
    raws[0] = raw_of(tilecodes.EMPTY)
    assert [scanner.scan() for _ in range(3)] == [[], [], [(0, tilecodes.EMPTY)]]
    raws[0] = raw_of(2)
    assert [scanner.scan() for _ in range(2)] == [[], [(0, 2)]]
    scanner.set_debounce(5)
    raws[0] = raw_of(tilecodes.EMPTY)
    assert [scanner.scan() for _ in range(5)] == [[], [], [], [], [(0, tilecodes.EMPTY)]]
    scanner.rescan()
    assert not scanner.ready
    raws[224] = raw_of(1)
    assert [scanner.scan() for _ in range(5)] == [[], [(224, 1)], [], [], []]
    assert scanner.ready
    with pytest.raises(ValueError, match="got 0"):
        scanner.set_debounce(0)


def band_raw() -> int:
    """A reading in the gap between the first two bands (classified FAULT_BAND)."""
    raw = (tilecodes.BANDS[0][1] + tilecodes.BANDS[1][0]) // 2
    assert classify(raw) == tilecodes.FAULT_BAND
    return raw


@settings(max_examples=200, deadline=None)
@given(
    wander=st.lists(
        st.lists(st.sampled_from([tilecodes.EMPTY, "band", 1, 2, 3]), min_size=1, max_size=2), min_size=1, max_size=8
    ),
)
def test_a_half_lifted_tile_is_never_reported(wander: list[list[object]]) -> None:
    """A tile (code 2) lifted unsteadily: its cell reads empty, a fault or other codes, each for at most 2 scans in
    a row, between reads of the tile itself. Nothing is ever reported; lifted for 3 scans it is a removal."""
    raws = [raw_of(tilecodes.EMPTY)] * 225
    scanner = Scanner(lambda cell: raws[cell])
    raws[112] = raw_of(2)
    while not scanner.ready:
        scanner.scan()
    assert scanner.state[112] == 2
    for run in wander:
        for step in run:
            raws[112] = band_raw() if step == "band" else raw_of(step)  # type: ignore[arg-type]
            assert scanner.scan() == []
        raws[112] = raw_of(2)
        assert scanner.scan() == []
    raws[112] = raw_of(tilecodes.EMPTY)
    assert [scanner.scan() for _ in range(3)] == [[], [], [(112, tilecodes.EMPTY)]]


def test_the_rows_of_a_change_under_way_are_read_and_reported_first() -> None:
    raws = [raw_of(tilecodes.EMPTY)] * 225
    reads: list[int] = []
    scanner = Scanner(lambda cell: reads.append(cell) or raws[cell])
    scanner.scan()
    raws[222] = raw_of(5)  # bottom row, read last in a plain scan
    assert scanner.scan() == []
    reads.clear()
    reported: list[tuple[int, list[tuple[int, int]]]] = []
    assert scanner.scan(lambda changes: reported.append((len(reads), changes))) == []
    assert reported == [(15, [(222, 5)])]  # after the 15 reads of its row, before the 210 others
    assert sorted(reads) == list(range(225))
