"""The multiplexer map: every cell on its own channel, pins that exist on a Pico and do not clash."""

from __future__ import annotations

import pytest

from firmware import muxmap


def test_every_cell_has_its_own_mux_channel_and_cell_of_inverts_route() -> None:
    routes = [muxmap.route(cell) for cell in range(225)]
    assert len(set(routes)) == 225
    assert all(muxmap.cell_of(*route) == cell for cell, route in enumerate(routes))
    assert muxmap.route(0) == (0, 0) and muxmap.route(14) == (0, 14) and muxmap.route(224) == (14, 14)
    assert muxmap.cell_of(3, 15) is None  # the spare channel


def test_gpios_are_unique_and_usable_on_a_pico() -> None:
    pins = [gpio for gpio, _role in muxmap.pin_table()]
    assert len(pins) == len(set(pins)) == 14
    assert set(muxmap.ADC_PINS) <= {26, 27, 28}
    reserved = {0, 1, 24, 25, 29}  # UART0 kept free, VBUS sense, LED, VSYS/3
    assert not set(pins) & reserved


@pytest.mark.parametrize("cell", range(225))
def test_gpio_masks_enable_exactly_the_cells_mux_and_select_its_channel(cell: int) -> None:
    set_mask, clear_mask = muxmap.gpio_masks(cell)
    driven = set_mask | clear_mask
    assert set_mask & clear_mask == 0
    assert all(driven >> pin & 1 for pin in muxmap.SELECT_PINS + muxmap.ENABLE_PINS)
    mux, channel = muxmap.route(cell)
    low_enables = [k for k, pin in enumerate(muxmap.ENABLE_PINS) if clear_mask >> pin & 1]
    assert low_enables == [muxmap.enable_index(mux)]
    selected = sum((set_mask >> pin & 1) << bit for bit, pin in enumerate(muxmap.SELECT_PINS))
    assert selected == channel
    assert muxmap.adc_index(mux) * muxmap.GROUP_SIZE + muxmap.enable_index(mux) == mux


@pytest.mark.parametrize("cell", [-1, 225, 1.0, "A1"])
def test_cells_off_the_board_are_refused(cell: object) -> None:
    with pytest.raises(ValueError, match="off the board"):
        muxmap.route(cell)
