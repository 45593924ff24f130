"""wiring/ is generated from its sources and up to date; its tables agree with the pin map and the firmware.

The SVGs are checked through the source hash each one records (see scripts/gen_wiring.py): Graphviz and WireViz
output differs between versions, so the test compares the exact sources instead and needs no rendering tools.
One test renders the block diagram with Graphviz where ``dot`` is installed.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from device.pinmap import HEADER_40, load_pinmap

ROOT = Path(__file__).resolve().parent.parent
WIRING = ROOT / "wiring"


def load_gen():
    spec = importlib.util.spec_from_file_location("gen_wiring_under_test", ROOT / "scripts" / "gen_wiring.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


gen = load_gen()


@pytest.fixture
def tmp_wiring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of wiring/ that the generator works on instead of the real one."""
    copy = tmp_path / "wiring"
    shutil.copytree(WIRING, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    monkeypatch.setattr(gen, "WIRING", copy)
    return copy


def flow_lists(text: str, connector: str) -> tuple[list, list]:
    """``pins`` and ``pinlabels`` of a connector in a generated WireViz YAML (flow lists are JSON)."""
    block = re.search(rf"^  {connector}:\n((?:    .*\n)+)", text, flags=re.M).group(1)
    pins = re.search(r"^    pins: (.*)$", block, flags=re.M)
    labels = re.search(r"^    pinlabels: (.*)$", block, flags=re.M)
    return (json.loads(pins.group(1)) if pins else [], json.loads(labels.group(1)))


# ------------------------------------------------------------------------------------- up to date
def test_committed_wiring_is_up_to_date() -> None:
    """Fails when pins.toml, parts.csv, the firmware tables or a diagram source changed without a re-render:
    run `partiar wiring render` (or python scripts/gen_wiring.py)."""
    assert gen.stale() == [], "wiring/ is out of date: run `partiar wiring render`"


def test_every_svg_records_the_hash_of_its_source() -> None:
    for diagram in gen.diagrams():
        text = diagram.svg.read_text(encoding="utf-8")
        assert "<svg" in text and text.rstrip().endswith("</svg>"), diagram.svg
        assert gen.recorded_hash(diagram.svg) == gen.sha256(diagram.source_text())


def test_a_changed_pin_map_makes_the_documents_stale(tmp_wiring: Path) -> None:
    assert gen.stale() == []
    pins = tmp_wiring / "pins.toml"
    pins.write_text(pins.read_text().replace("bcm = 4\nheader = 7", "bcm = 7\nheader = 26"), encoding="utf-8")
    problems = gen.stale()
    assert "wiring/pins.md: differs from its sources" in problems
    assert "wiring/harness-gpio.yml: differs from its sources" in problems
    assert "wiring/block-diagram.dot: differs from its sources" in problems
    assert not any("parts.md" in p or "board.md" in p for p in problems)
    # regenerate the texts only: now the SVGs rendered from the old sources are the stale ones
    for path, text in gen.generated_texts().items():
        path.write_text(text, encoding="utf-8")
    assert gen.stale() == [
        "wiring/harness-gpio.svg: rendered from an older source",
        "wiring/block-diagram.svg: rendered from an older source",
    ]
    assert "GPIO7 LED" in (tmp_wiring / "harness-gpio.yml").read_text()


def test_a_hand_edited_source_or_svg_is_reported(tmp_wiring: Path) -> None:
    dot = tmp_wiring / "block-diagram.dot"
    dot.write_text(dot.read_text() + "// edited\n", encoding="utf-8")
    (tmp_wiring / "cell-divider.svg").write_text("<svg></svg>\n", encoding="utf-8")
    assert gen.stale() == [
        "wiring/block-diagram.dot: differs from its sources",
        "wiring/block-diagram.svg: rendered from an older source",
        "wiring/cell-divider.svg: missing or unstamped",
    ]


def test_stamp_replaces_an_old_hash(tmp_wiring: Path) -> None:
    diagram = next(d for d in gen.diagrams() if d.svg.name == "harness-uart.svg")
    once = gen.stamp('<?xml version="1.0"?>\n<svg>x</svg>\n', diagram)
    twice = gen.stamp(once, diagram)
    assert once == twice and once.count("partiar-wiring") == 1
    assert once.index("partiar-wiring") < once.index("<svg")
    with pytest.raises(ValueError, match="no <svg> element"):
        gen.stamp("<html/>", diagram)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")
def test_block_diagram_renders_with_graphviz() -> None:
    svg = gen.render_dot(WIRING / "block-diagram.dot")
    pinmap = load_pinmap()
    for pin in pinmap.gpio.values():
        assert pin.name in svg, pin
    assert "CD74HC4067" in svg


# ------------------------------------------------------------------------------------- harnesses
def test_the_harnesses_follow_the_pin_map() -> None:
    pinmap = load_pinmap()
    gpio_yml = (WIRING / "harness-gpio.yml").read_text()
    pins, labels = flow_lists(gpio_yml, "J8")
    for header, label in zip(pins, labels, strict=True):
        signal = HEADER_40[header]
        expected = signal if isinstance(signal, str) else f"GPIO{signal}"
        assert label.split()[0] == expected, (header, label)
    wired = {p.header for p in pinmap.gpio.values()} | {p.header for lcd in pinmap.lcds for p in lcd.lines}
    assert wired <= set(pins)
    # the alternatives (I2C LCDs, UART link) use header pins the GPIO harness leaves free
    used = set(pins)
    for name in ("harness-i2c.yml", "harness-uart.yml"):
        other, _ = flow_lists((WIRING / name).read_text(), "J8")
        assert not used & set(other), (name, used & set(other))
        used |= set(other)


# ------------------------------------------------------------------------------------- board and parts
def board_rows(section: str) -> list[list[str]]:
    text = (WIRING / "board.md").read_text(encoding="utf-8")
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in body.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row] for row in rows[1:]]


def test_board_resistor_table_equals_the_firmware_table() -> None:
    tilecodes = pytest.importorskip("firmware.tilecodes")
    rows = board_rows("Tile resistor table")
    letters = rows[: len(tilecodes.LETTERS)]
    assert len(letters) == len(tilecodes.LETTERS)
    bands = {code: (lo, hi) for lo, hi, code in tilecodes.BANDS}
    for (code, letter), row in zip(tilecodes.LETTERS, letters, strict=True):
        assert int(row[0]) == code
        assert row[1] == ("blank" if code == tilecodes.BLANK_CODE else letter)
        assert float(row[2]) == tilecodes.OHMS[code]
        assert (int(row[4]), int(row[5])) == bands[code]
    assert f"0x{tilecodes.TABLE_VERSION:04X}" in (WIRING / "board.md").read_text()
    # the Czech set's column: one resistor per tile, 100 in all
    from engine.tiles import tile_set

    bag = tile_set("czech").bag()
    header = next(line for line in (WIRING / "board.md").read_text().splitlines() if line.startswith("| code | letter"))
    czech_column = [c.strip() for c in header.strip("|").split("|")].index("czech set")
    counts = {row[1]: int(row[czech_column] or 0) for row in letters}
    assert counts.pop("blank") == bag["?"]
    assert counts == {letter: bag.get(letter, 0) for letter in counts}
    assert sum(bag.values()) == 100


def test_board_mux_tree_equals_the_firmware_routing() -> None:
    muxmap = pytest.importorskip("firmware.muxmap")
    rows = board_rows("Multiplexer tree")
    assert len(rows) == muxmap.ROWS
    for r, row in enumerate(rows):
        for c, cell in enumerate(row[1:]):
            assert tuple(int(x) for x in cell.split(".")) == muxmap.route(r * muxmap.COLS + c)
    pins = {row[0]: row[1] for row in board_rows("Pico pins")}
    assert set(pins) == {f"GP{gpio}" for gpio, _role in muxmap.pin_table()}
    assert pins["GP26"] == "31" and pins["GP2"] == "4"  # the Pico's pinout


def test_parts_quantities_match_the_design() -> None:
    muxmap = pytest.importorskip("firmware.muxmap")
    pinmap = load_pinmap()
    rows = gen.read_parts()
    by_part = {}
    for row in rows:
        by_part.setdefault(row["part"].split(" ")[0], []).append(row)

    def qty(fragment: str, column: str) -> int:
        found = [r for r in rows if fragment in r["part"] or fragment in r["notes"]]
        assert found, fragment
        return sum(int(r[column]) for r in found)

    assert qty("CD74HC4067", "qty_board") == muxmap.MUX_COUNT
    assert qty("R_REF", "qty_board") == len(muxmap.ADC_PINS)
    assert qty("R_CELL", "qty_board") == muxmap.CELLS
    assert qty("pogo", "qty_board") == 2 * muxmap.CELLS
    assert qty("arcade push button", "qty_table_unit") == 2
    assert qty("HD44780", "qty_table_unit") == len(pinmap.lcds)
    assert qty("Raspberry Pi Pico", "qty_board") == 1
    # enough terminals and jumper wires for the harness
    gpio_yml = (WIRING / "harness-gpio.yml").read_text()
    _pins, ib_pads = flow_lists(gpio_yml, "IB")
    j8_pins, _labels = flow_lists(gpio_yml, "J8")
    assert 2 * qty("screw terminal 2-way", "qty_table_unit") == len(ib_pads)
    assert qty("Dupont jumper wire", "qty_table_unit") >= len(j8_pins)


def test_parts_csv_errors_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "parts.csv"
    bad.write_text(",".join(gen.PART_COLUMNS) + "\nX1,two,0,thing,,,\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"parts.csv line 2: qty_table_unit must be a whole number, got 'two'"):
        gen.read_parts(bad)


# ------------------------------------------------------------------------------------- CLI
def partiar(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "device.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def test_wiring_check_prints_the_map_and_passes() -> None:
    result = partiar("wiring", "check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gpio.button_a        GPIO17  header 11" in result.stdout
    assert result.stdout.rstrip().endswith("pin map OK")


def test_wiring_check_fails_on_a_broken_map(tmp_path: Path) -> None:
    bad = tmp_path / "pins.toml"
    text = (WIRING / "pins.toml").read_text()
    bad.write_text(text.replace("bcm = 27\nheader = 13", "bcm = 17\nheader = 11"), encoding="utf-8")
    result = partiar("wiring", "check", "--pins", str(bad))
    assert result.returncode == 1
    assert "PROBLEM: " in result.stdout and "GPIO17 is already used by gpio.button_a" in result.stdout
    bad.write_text("schema = 1\n", encoding="utf-8")
    result = partiar("wiring", "check", "--pins", str(bad))
    assert result.returncode == 2 and "pin map key 'table': missing" in result.stderr


def test_wiring_render_check_reports_up_to_date() -> None:
    result = partiar("wiring", "render", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "wiring/ is up to date" in result.stdout


def test_wiring_check_with_a_config_checks_its_display_count(tmp_path: Path) -> None:
    one_lcd = tmp_path / "pins.toml"
    text = (WIRING / "pins.toml").read_text()
    one_lcd.write_text(re.sub(r"\[\[lcd\]\]\nname = \"LCD 2.*?backlight = [^\n]*\n", "", text, flags=re.S))
    config = tmp_path / "table.toml"
    config.write_text(f"[table]\npins_file = '{one_lcd}'\n[display]\ncount = 2\n", encoding="utf-8")
    result = partiar("wiring", "check", "--config", str(config))
    assert result.returncode == 1
    assert f"pin map {one_lcd}" in result.stdout
    assert "wires 1 LCD(s) but the config's display.count is 2" in result.stdout
    config.write_text(f"[table]\npins_file = '{one_lcd}'\n", encoding="utf-8")
    assert partiar("wiring", "check", "--config", str(config)).returncode == 0


def test_wiring_render_draws_every_diagram(tmp_wiring: Path) -> None:
    """The drawing tools come with the set-up (pyproject's ``wiring`` extra, Debian's graphviz): the whole render
    runs, into a copy of wiring/, and leaves it up to date."""
    import io

    out = io.StringIO()
    gen.write_all(out)
    rendered = [line.split()[-1] for line in out.getvalue().splitlines() if line.startswith("rendered")]
    assert rendered == [f"wiring/{d.svg.name}" for d in gen.diagrams()]
    assert gen.stale() == []
    assert "<svg" in (tmp_wiring / "harness-gpio.svg").read_text(encoding="utf-8")


def test_wiring_render_without_the_drawing_tools_names_the_install_command(monkeypatch, capsys) -> None:
    import argparse

    from device.cli import wiring as wiring_cli

    class Generator:
        @staticmethod
        def main(argv, out):
            raise ModuleNotFoundError("No module named 'wireviz'")

    monkeypatch.setattr(wiring_cli, "load_generator", lambda: Generator)
    assert wiring_cli.run_render(argparse.Namespace(check=False)) == wiring_cli.EXIT_UNREADABLE
    err = capsys.readouterr().err
    assert "No module named 'wireviz'" in err and "pip install -e '.[wiring]'" in err and "scripts/setup" in err
