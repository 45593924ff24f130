"""Debouncer and scanner: a change counts only after N steady scans; shorter flickers are never reported."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import divider, tilecodes
from firmware.classify import classify
from firmware.debounce import Debouncer
from firmware.scanner import Scanner

VALUES = st.sampled_from([tilecodes.EMPTY, 1, 2, tilecodes.BLANK_CODE, tilecodes.FAULT_OPEN])


def expected_states(readings: list[int], n: int, initial: int = tilecodes.EMPTY) -> list[int]:
    """The specification: after each scan the state is the value of the latest N equal readings in a row."""
    states = []
    state = initial
    for t in range(len(readings)):
        window = readings[max(0, t - n + 1) : t + 1]
        if len(window) == n and len(set(window)) == 1:
            state = window[0]
        states.append(state)
    return states


@settings(max_examples=300)
@given(readings=st.lists(VALUES, max_size=40), n=st.integers(min_value=1, max_value=5))
def test_debouncer_follows_the_specification(readings: list[int], n: int) -> None:
    deb = Debouncer(1, stable_scans=n)
    want = expected_states(readings, n)
    before = tilecodes.EMPTY
    for reading, state in zip(readings, want, strict=True):
        changed = deb.feed(bytes([reading]))
        assert deb.state[0] == state
        assert changed == ([0] if state != before else [])
        before = state


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
    for scan_number, edits in enumerate(script):
        for cell, code in edits:
            raws[cell] = raw_of(code)
            history.setdefault(cell, [tilecodes.EMPTY] * scan_number)
        for cell in history:
            history[cell].append(classify(raws[cell]))
        before = bytes(scanner.state)
        changes = scanner.scan()
        for cell, readings in history.items():
            assert scanner.state[cell] == expected_states(readings, n)[-1], f"cell {cell}"
        assert changes == [(cell, scanner.state[cell]) for cell in range(225) if scanner.state[cell] != before[cell]]
    assert scanner.ready == (len(script) >= n)


def test_a_placed_tile_is_reported_on_the_nth_scan_and_rescan_re_establishes() -> None:
    raws = [raw_of(tilecodes.EMPTY)] * 225
    scanner = Scanner(lambda cell: raws[cell])
    assert scanner.stable_scans == 3 and not scanner.ready
    raws[0] = raw_of(2)
    assert scanner.scan() == [] and scanner.scan() == []
    assert scanner.scan() == [(0, 2)]
    assert scanner.ready and scanner.scans == 3
    scanner.set_debounce(5)
    raws[0] = raw_of(tilecodes.EMPTY)
    assert [scanner.scan() for _ in range(5)] == [[], [], [], [], [(0, tilecodes.EMPTY)]]
    scanner.rescan()
    assert not scanner.ready
    raws[224] = raw_of(1)
    assert [scanner.scan() for _ in range(5)] == [[], [], [], [], [(224, 1)]]
    assert scanner.ready
    with pytest.raises(ValueError, match="got 0"):
        scanner.set_debounce(0)
