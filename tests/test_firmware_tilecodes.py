"""The tile-code table: generated from the tile sets, no band overlap under tolerances and ADC noise."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import BLANK, available_tile_sets, tile_set
from firmware import divider, tilecodes
from firmware.classify import classify

ROOT = Path(__file__).resolve().parent.parent


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_tilecodes", ROOT / "scripts" / "gen_tilecodes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = load_generator()


def test_committed_table_is_what_the_generator_makes_now() -> None:
    committed = (ROOT / "firmware" / "tilecodes.py").read_text(encoding="utf-8")
    assert committed == gen.render(), "firmware/tilecodes.py is stale: run scripts/gen_tilecodes.py"
    assert gen.main(["--check"]) == 0


def test_every_letter_of_every_set_and_the_blank_has_a_code() -> None:
    letters = {letter for _code, letter in tilecodes.LETTERS}
    for name in available_tile_sets():
        missing = set(tile_set(name).letters) - letters
        assert not missing, f"{name} letters without a tile code: {missing}"
    assert tilecodes.letter_of(tilecodes.BLANK_CODE) == BLANK


def test_czech_letters_come_first_in_alphabet_order_then_the_blank() -> None:
    czech = tile_set("czech").letters
    assert [tilecodes.code_of(letter) for letter in czech] == list(range(1, len(czech) + 1))
    assert tilecodes.BLANK_CODE == len(czech) + 1 == 40


def test_resistors_are_e96_values() -> None:
    for code, ohms in tilecodes.OHMS.items():
        assert ohms in gen.E96_VALUES, f"code {code}: {ohms} ohms is not an E96 value"
    assert sorted(tilecodes.OHMS) == [code for code, _letter in tilecodes.LETTERS]


def test_worst_case_bands_do_not_overlap_and_sit_inside_the_acceptance_bands() -> None:
    worst = [(0, divider.worst_case(0)[1], tilecodes.FAULT_SHORT)]
    worst += [(*divider.worst_case(ohms), code) for code, ohms in tilecodes.OHMS.items()]
    worst.append((*divider.worst_case(None), tilecodes.EMPTY))
    worst.append((divider.RAW_OPEN - divider.NOISE, divider.ADC_MAX, tilecodes.FAULT_OPEN))
    worst.sort()
    for lower, upper in zip(worst, worst[1:], strict=False):
        assert upper[0] - lower[1] > tilecodes.MIN_GAP >= 5 * divider.LSB_NATIVE, (lower, upper)
    accepted = {code: (lo, hi) for lo, hi, code in tilecodes.BANDS}
    for lo, hi, code in worst:
        assert accepted[code][0] <= lo and hi <= accepted[code][1], f"code {code}"
    assert [band[2] for band in tilecodes.BANDS] == [band[2] for band in worst]


def test_the_check_covers_the_stated_assumptions() -> None:
    assert divider.TOL_TILE == 0.01 and divider.NOISE == divider.NOISE_NATIVE * 16 and divider.NOISE_NATIVE >= 8
    # a looser model (2 % tiles) must make some neighbours overlap, or the check would prove nothing
    loose = sorted(divider.worst_case(ohms, tol_tile=0.02) for ohms in tilecodes.OHMS.values())
    assert any(b[0] <= a[1] for a, b in zip(loose, loose[1:], strict=False))


def test_the_generator_refuses_a_table_that_cannot_fit() -> None:
    with pytest.raises(gen.TableError, match="200 tile codes do not fit"):
        gen.design(200)


def test_unknown_letters_and_codes_are_refused() -> None:
    with pytest.raises(ValueError, match="no tile code for letter 'Ö'"):
        tilecodes.code_of("Ö")
    with pytest.raises(ValueError, match="unknown tile code 0"):
        tilecodes.letter_of(tilecodes.EMPTY)


tolerance = st.floats(min_value=-1.0, max_value=1.0)


@settings(max_examples=300, deadline=None)
@given(
    code=st.sampled_from(sorted(tilecodes.OHMS)),
    tile=tolerance,
    ref=tolerance,
    cell=tolerance,
    r_on=st.floats(min_value=divider.R_ON_MIN, max_value=divider.R_ON_MAX),
    noise=st.integers(min_value=-divider.NOISE, max_value=divider.NOISE),
)
def test_any_parts_within_tolerance_and_noise_classify_to_the_right_code(
    code: int, tile: float, ref: float, cell: float, r_on: float, noise: int
) -> None:
    x = divider.ratio(
        tilecodes.OHMS[code] * (1 + tile * divider.TOL_TILE),
        divider.R_REF * (1 + ref * divider.TOL_REF),
        divider.R_CELL * (1 + cell * divider.TOL_CELL),
        r_on,
    )
    raw = min(max(divider.raw_of_ratio(x) + noise, 0), divider.ADC_MAX)
    assert classify(raw) == code
