"""``partiar diag`` against the simulator: mock pins driven like the real switches, emulated LCDs, and the real
firmware logic behind a pseudo-terminal for the board link."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from device.cli import main
from device.cli.diag import Diagnostics, lcd_test_pattern
from device.config import TableConfig, parse_config
from device.pinmap import PinMap, load_pinmap
from hw_sim.board_device import BoardDevice
from hw_sim.panel import LcdSpec, Panel
from hw_sim.virtual_board import VirtualBoard

PINMAP = load_pinmap()


def config_for(url: str, count: int = 2, mode: str = "gpio4") -> TableConfig:
    return parse_config(
        f"[table]\npin_factory = 'mock'\nserial_url = '{url}'\n[display]\ncount = {count}\nmode = '{mode}'"
    )


def lcd_factories(config: TableConfig, panel: Panel, pinmap: PinMap) -> list:
    from device.lcd import GpioLcdFactory, I2CLcdFactory

    d = config.display
    if d.mode == "gpio4":
        return [GpioLcdFactory(pinmap.lcd_wiring(i), d.columns, d.lines, panel.pin_factory) for i in range(d.count)]
    return [I2CLcdFactory(panel.i2c_bus, d.columns, d.lines, pinmap.lcd_i2c_address(i)) for i in range(d.count)]


@pytest.fixture
def board() -> Iterator[tuple[VirtualBoard, BoardDevice]]:
    virtual = VirtualBoard(seed=1)
    device = BoardDevice(virtual, scan_period_s=0.005, stable_scans=2, heartbeat_ms=100)
    device.start()
    yield virtual, device
    device.stop()


class Operator:
    """Plays the person at the table: presses what diag asks for, answers what the panel shows."""

    def __init__(self, panel: Panel, buzzer_word: str = "buzzer") -> None:
        self.panel = panel
        self.buzzer_word = buzzer_word  # how diag's question names the buzzer in its language
        self.steps: list[str] = []
        self.questions: list[str] = []

    def prompt(self, step: str, _text: str) -> None:
        self.steps.append(step)
        if step == "encoder_turn":
            self.panel.turn(-1)
        else:
            self.panel.press({"button_a": "a", "button_b": "b", "encoder_push": "encoder"}[step])

    def confirm(self, question: str) -> bool:
        self.questions.append(question)
        if self.buzzer_word in question:
            return self.panel.buzzer_on and self.panel.buzzer_frequency == pytest.approx(880.0)
        if "LED" in question:
            return self.panel.led_on
        index = int(question.split("LCD ")[1][0]) - 1
        lcd = self.panel.lcds[index]
        return lcd.text_rows() == lcd_test_pattern(index, lcd.columns, lcd.lines)


def run_diag(config: TableConfig, panel: Panel, operator: Operator | None, **kwargs) -> tuple[list, str]:
    out = io.StringIO()
    parts = kwargs.pop("parts", ("inputs", "buzzer", "led", "lcds", "board"))
    factories = lcd_factories(config, panel, PINMAP)
    try:
        diag = Diagnostics(
            config,
            PINMAP,
            panel.pin_factory,
            out=out,
            prompt=operator.prompt if operator else (lambda _s, _t: None),
            confirm=operator.confirm if operator else None,
            lcd_factories=factories,
            i2c=panel.i2c_bus,
            wait=lambda _s: None,
            **{"lang": "en", **kwargs},
        )
        checks = diag.run(parts)
    finally:
        for factory in factories:
            factory.close()
    return checks, out.getvalue()


def make_panel(config: TableConfig, fitted: int | None = None) -> Panel:
    d = config.display
    specs = [
        LcdSpec(d.columns, d.lines, d.mode, PINMAP.lcd_wiring(i) if d.mode == "gpio4" else None, PINMAP.lcd_i2c_address(i))
        for i in range(d.count if fitted is None else fitted)
    ]
    return Panel(PINMAP, specs, serve=False)


def test_everything_passes_on_a_working_table(board) -> None:
    virtual, device = board
    virtual.place(7, 7, "A")
    virtual.place(7, 8, "Ž")
    config = config_for(device.port_path)
    with make_panel(config) as panel:
        operator = Operator(panel)
        checks, out = run_diag(config, panel, operator, timeout=5.0, link_timeout=10.0)
    results = {c.name: c for c in checks}
    assert [c.name for c in checks] == [
        "button_a", "button_b", "encoder_push", "encoder_turn", "buzzer", "led", "lcd1", "lcd2",
        "board_link", "board_snapshot", "board_cells",
    ]  # fmt: skip
    assert all(c.ok is True for c in checks), out
    assert operator.steps == ["button_a", "button_b", "encoder_push", "encoder_turn"]
    assert "-1 step(s) (counter-clockwise)" in results["encoder_turn"].detail
    assert "board 'sim-board'" in results["board_link"].detail
    assert "2 tile(s) on the board" in results["board_snapshot"].detail
    assert out.rstrip().endswith("11 ok, 0 failed, 0 to check by eye/ear")


def run_with_faults(board, lang: str) -> tuple[dict, str]:
    """Two faulty cells, nobody at the table (no press, no answer): the checks by name and the report."""
    virtual, device = board
    virtual.set_fault(0, 0, "open")
    virtual.set_fault(14, 2, "short")
    config = config_for(device.port_path, count=1)
    with make_panel(config) as panel:
        checks, out = run_diag(config, panel, None, timeout=0.05, link_timeout=10.0, lang=lang)
    return {c.name: c for c in checks}, out


def test_faults_and_silence_are_reported(board) -> None:
    results, out = run_with_faults(board, "en")
    for role in ("button_a", "button_b", "encoder_push", "encoder_turn"):
        assert results[role].ok is False and "within 0.05 s" in results[role].detail
    assert "GPIO17 (header 11)" in results["button_a"].detail
    # nobody to look or listen: the outputs were driven, a person has to judge them
    assert results["buzzer"].ok is None and results["led"].ok is None and results["lcd1"].ok is None
    assert results["board_link"].ok is True
    assert results["board_cells"].ok is False
    assert "2 faulty cell(s): A1 open, C15 short" in results["board_cells"].detail
    assert "[FAIL] button_a" in out and "[LOOK] buzzer" in out


def test_a_stuck_button_and_a_dead_link() -> None:
    config = config_for("/nonexistent/ttyACM9", count=1)
    with make_panel(config) as panel:
        # a short to GND: the line stays low whatever the pull-up does
        panel.pin_factory.watch(PINMAP.button_b, lambda pin, state: state and pin.drive_low())
        panel.pin_factory.pin(PINMAP.button_b).drive_low()
        operator = Operator(panel)
        checks, _out = run_diag(config, panel, operator, timeout=5.0, link_timeout=0.3)
    results = {c.name: c for c in checks}
    assert results["button_a"].ok is True
    assert results["button_b"].ok is False and "reads pressed before any press" in results["button_b"].detail
    assert "button_b" not in operator.steps
    assert results["board_link"].ok is False and "no handshake" in results["board_link"].detail
    assert "board_snapshot" not in results


def test_i2c_lcds_missing_backpack_is_named() -> None:
    config = config_for("/nonexistent/ttyACM9", count=2, mode="i2c")
    with make_panel(config, fitted=1) as panel:
        operator = Operator(panel)
        checks, _out = run_diag(config, panel, operator, parts=("lcds",))
    results = {c.name: c for c in checks}
    assert results["lcd1"].ok is True and "I2C 0x20" in results["lcd1"].detail
    assert results["lcd2"].ok is False
    assert "no backpack answers at 0x21 on I2C bus 1 (found 0x20)" in results["lcd2"].detail


def test_cli_runs_on_mock_pins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diag", "--pin-factory", "mock", "--only", "led", "--only", "lcds", "--no-ask", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "[LOOK] led: GPIO4 (header 7) switched on and off" in out
    assert "[LOOK] lcd1: test pattern written (16x2" in out
    assert main(["diag", "--pin-factory", "mock", "--only", "board", "--serial-url", "loop://",
                 "--link-timeout", "0.2", "--no-ask"]) == 1  # fmt: skip


def test_cli_rejects_a_broken_config(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text(f"[table]\npins_file = '{tmp_path / 'missing.toml'}'\n", encoding="utf-8")
    assert main(["diag", "--config", str(bad), "--pin-factory", "mock"]) == 2
    err = capsys.readouterr().err
    assert "partiar diag: chybná konfigurace: " in err and "missing.toml: klíč mapy pinů (file): soubor nelze přečíst" in err
    assert "\n  oprava: zkontrolujte cestu k souboru" in err


def test_pattern_fills_the_lcd() -> None:
    assert lcd_test_pattern(1, 16, 2) == ["LCD2 0123456789A", "\xff" * 16]
    rows = lcd_test_pattern(0, 20, 4)
    assert len(rows) == 4 and all(len(r) == 20 for r in rows)


def test_an_active_buzzer_is_switched_on_and_off() -> None:
    from device.pinmap import DEFAULT_PINS_FILE, parse_pinmap

    text = DEFAULT_PINS_FILE.read_text(encoding="utf-8")
    active = parse_pinmap(text.replace('buzzer_kind = "passive"', 'buzzer_kind = "active"'), "active.toml")
    config = config_for("/nonexistent/ttyACM9", count=1)
    heard: list[bool] = []
    with Panel(active, serve=False) as panel:
        assert panel.passive_buzzer is False
        diag = Diagnostics(config, active, panel.pin_factory, out=io.StringIO(), lang="en",
                           confirm=lambda q: heard.append(panel.buzzer_on) or True)  # fmt: skip
        checks = diag.run(("buzzer",))
        assert panel.buzzer_on is False
    assert heard == [True]
    assert checks[0].ok is True and "active buzzer on GPIO18 (header 12): driven on/off, heard" in checks[0].detail


def test_cli_i2c_lcds_on_mock_pins_are_a_config_error(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[display]\nmode = 'i2c'\n", encoding="utf-8")
    assert main(["diag", "--config", str(config), "--pin-factory", "mock", "--only", "lcds", "--no-ask"]) == 2
    assert "display.mode" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------ Czech, the default
def test_a_working_table_reports_in_czech(board) -> None:
    virtual, device = board
    virtual.place(7, 7, "A")
    config = config_for(device.port_path, count=1)
    with make_panel(config) as panel:
        operator = Operator(panel, buzzer_word="bzučák")
        checks, out = run_diag(config, panel, operator, timeout=5.0, link_timeout=10.0, lang="cs")
    assert all(c.ok is True for c in checks), out
    assert operator.questions == [
        "Zní bzučák (pasivní bzučák na GPIO18 (pin 12))?",
        "Svítí stavová LED (GPIO4, pin 7)?",
        "Ukazuje LCD 1 'LCD1 0123...' a řádek plných políček?",
    ]
    lines = out.splitlines()
    assert "[OK    ] tlačítko A: GPIO17 (pin 11) stisknuto" in lines
    assert "[OK    ] otočení knoflíku: -1 krok(ů) (proti směru hodin) na GPIO5/GPIO6" in lines
    assert "[OK    ] bzučák: pasivní bzučák na GPIO18 (pin 12): buzen tónem 880 Hz, je slyšet" in lines
    assert "[OK    ] snímek desky: 15x15 polí, na desce kamenů: 1" in lines
    assert "-- vstupy" in lines and "-- deska" in lines
    assert out.rstrip().endswith("10 v pořádku, 0 chyb, 0 ověřit okem či uchem")


def test_faults_and_silence_are_reported_in_czech(board) -> None:
    results, out = run_with_faults(board, "cs")
    assert results["button_a"].detail == (
        "na GPIO17 (pin 11) žádný stisk do 0.05 s: zkontrolujte spínač, jeho vodič GND a pin konektoru"
    )
    assert "[CHYBA ] tlačítko A: na GPIO17 (pin 11) žádný stisk" in out
    assert "[OVĚŘIT] bzučák: pasivní bzučák na GPIO18 (pin 12): buzen tónem 880 Hz, poslouchejte, zda pípne" in out
    assert results["board_cells"].detail == "vadných polí: 2: A1 rozpojeno, C15 zkrat"


def test_cli_reports_in_czech_unless_asked_for_english(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diag", "--pin-factory", "mock", "--only", "led", "--no-ask"]) == 0
    out = capsys.readouterr().out
    assert "ovladač pinů mock" in out and "[OVĚŘIT] LED: GPIO4 (pin 7) zapnuta a vypnuta, podívejte se na LED" in out
    assert main(["diag", "--pin-factory", "mock", "--only", "board", "--serial-url", "loop://",
                 "--link-timeout", "0.2", "--no-ask"]) == 1  # fmt: skip
    assert "[CHYBA ] spojení s deskou: deska na loop:// se do 0.2 s neohlásila" in capsys.readouterr().out
    config = tmp_path / "table.toml"
    config.write_text("[display]\nmode = 'i2c'\n", encoding="utf-8")
    for lang, words in (("cs", f"partiar diag: chybná konfigurace: {config}:2: klíč display.mode: displeje na I2C nemají"),
                        ("en", f"partiar diag: {config}:2: config key 'display.mode': I2C LCDs on mock pins have no bus")):
        assert main(["diag", "--config", str(config), "--pin-factory", "mock", "--only", "lcds", "--no-ask",
                     "--lang", lang]) == 2  # fmt: skip
        assert words in capsys.readouterr().err
