"""The classifier: every reading maps to the band it lies in, or FAULT_BAND between bands."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware import divider, tilecodes
from firmware.classify import classify


def linear_reference(raw: int) -> int:
    """The obvious O(n) classification the binary search must agree with."""
    for lo, hi, code in tilecodes.BANDS:
        if lo <= raw <= hi:
            return code
    return tilecodes.FAULT_BAND


@given(st.integers(min_value=0, max_value=tilecodes.ADC_MAX))
def test_binary_search_agrees_with_a_linear_scan(raw: int) -> None:
    assert classify(raw) == linear_reference(raw)


def test_every_reading_agrees_with_the_linear_scan() -> None:
    assert all(classify(raw) == linear_reference(raw) for raw in range(0, tilecodes.ADC_MAX + 1, 7))


@given(st.integers(min_value=0, max_value=tilecodes.ADC_MAX - 1))
def test_codes_only_change_at_band_edges(raw: int) -> None:
    """Readings never jump from one tile code straight to another: a gap (FAULT_BAND) or an edge lies between."""
    here, there = classify(raw), classify(raw + 1)
    if here != there:
        edges = {lo for lo, _hi, _code in tilecodes.BANDS} | {hi + 1 for _lo, hi, _code in tilecodes.BANDS}
        assert raw + 1 in edges


def test_the_rails_and_the_empty_cell() -> None:
    assert classify(0) == tilecodes.FAULT_SHORT
    assert classify(divider.raw_for_ohms(0)) == tilecodes.FAULT_SHORT
    assert classify(tilecodes.ADC_MAX) == tilecodes.FAULT_OPEN
    assert classify(divider.raw_for_ohms(None)) == tilecodes.EMPTY
    gap = next(hi + 1 for (_lo, hi, _c), (lo2, _h, _c2) in zip(tilecodes.BANDS, tilecodes.BANDS[1:], strict=False)
               if lo2 > hi + 1)
    assert classify(gap) == tilecodes.FAULT_BAND


@pytest.mark.parametrize("raw", [-1, tilecodes.ADC_MAX + 1, 1 << 20])
def test_readings_outside_the_adc_range_are_refused(raw: int) -> None:
    with pytest.raises(ValueError, match=f"ADC reading {raw} outside 0..65535"):
        classify(raw)
