"""Source of wiring/cell-divider.svg: the schematic of one board cell, drawn with schemdraw.

The values come from firmware/divider.py (the electrical model the firmware's tile bands are built on), so the
drawing cannot disagree with the firmware. Rendered by scripts/gen_wiring.py (``partiar wiring render``), which
records the hash of this file and of ``spec()`` in the SVG.
"""

from __future__ import annotations

from typing import Any


def _ohms(value: float) -> str:
    if value >= 1000:
        return f"{value / 1000:g} k\N{OHM SIGN}"
    return f"{value:g} \N{OHM SIGN}"


def spec() -> dict[str, Any]:
    """The values printed on the drawing, from the firmware's divider model."""
    from firmware import divider

    return {
        "r_ref": _ohms(divider.R_REF),
        "tol_ref": f"{divider.TOL_REF * 100:g} %",
        "r_cell": _ohms(divider.R_CELL),
        "tol_cell": f"{divider.TOL_CELL * 100:g} %",
        "r_on": f"{_ohms(divider.R_ON_MIN)}-{_ohms(divider.R_ON_MAX)}",
        "tol_tile": f"{divider.TOL_TILE * 100:g} %",
        "adc_bits": divider.ADC_BITS,
    }


def render_svg() -> str:
    """The schematic as SVG text (schemdraw's own SVG backend: no matplotlib needed)."""
    import schemdraw
    import schemdraw.elements as elm

    values = spec()
    schemdraw.use("svg")
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=11, unit=2.5, margin=2.5)
        elm.Vdd().label("3V3 = ADC_VREF")
        elm.Resistor().down().label(f"R_REF {values['r_ref']} ({values['tol_ref']})", loc="bottom")
        adc = elm.Dot()
        elm.Line().right().length(2).at(adc.center)
        elm.Dot(open=True).label("Pico ADC input", loc="right")
        elm.Switch(action="close").down().at(adc.center).label(f"mux channel, R_ON {values['r_on']}", loc="bottom")
        sense = elm.Dot()
        elm.Resistor().down().label(f"R_CELL {values['r_cell']} ({values['tol_cell']})\npresence", loc="top")
        elm.Ground()
        elm.Line().right().length(3.5).at(sense.center).label("cell sense line")
        elm.Dot(open=True).label("contact 1", loc="right")
        elm.Resistor().down().label(f"R_TILE (in the tile, {values['tol_tile']})\ncode per letter", loc="bottom")
        elm.Dot(open=True).label("contact 2", loc="right")
        elm.Ground()
    return d.get_imagedata("svg").decode("utf-8")
