"""The pin map in wiring/pins.toml: read, checked against the real 40-pin header, and the code's single source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gpiozero import LED, Button, RotaryEncoder, TonalBuzzer
from gpiozero.pins.data import PLUS_J8

from device.config import TableConfig, parse_config
from device.lcd import GpioLcdFactory
from device.pinmap import (
    BCM_TO_HEADER,
    DEFAULT_PINS_FILE,
    HARDWARE_PWM_GPIOS,
    HEADER_40,
    PinMap,
    PinMapError,
    load_pinmap,
    parse_pinmap,
    pinmap_for_config,
)
from hw_sim.panel import Panel

TEXT = DEFAULT_PINS_FILE.read_text(encoding="utf-8")


def edited(old: str, new: str, text: str = TEXT) -> str:
    """The committed map with one exact fragment replaced (fails loudly if the fragment is gone)."""
    assert text.count(old) == 1, f"fragment {old!r} not found exactly once in pins.toml"
    return text.replace(old, new)


@pytest.fixture(scope="module")
def pinmap() -> PinMap:
    return load_pinmap()


# ------------------------------------------------------------------------------------ the committed map
def test_the_committed_map_is_sound(pinmap: PinMap) -> None:
    assert pinmap.problems() == []
    assert pinmap.source == str(DEFAULT_PINS_FILE)


def test_no_gpio_and_no_header_pin_is_used_twice(pinmap: PinMap) -> None:
    pins = list(pinmap.assignments())
    bcms = [p.bcm for p in pins]
    headers = [p.header for p in pins]
    assert len(bcms) == len(set(bcms)), sorted(b for b in bcms if bcms.count(b) > 1)
    assert len(headers) == len(set(headers))
    # 7 devices, 2 LCDs of 7 lines, I2C SDA/SCL, UART TX/RX
    assert len(pins) == 7 + 14 + 2 + 2


def test_i2c_uart_and_pwm_sit_on_capable_pins(pinmap: PinMap) -> None:
    j8 = PLUS_J8[2]  # gpiozero's own header data: an independent source for the pin functions
    for pin in pinmap.i2c:
        assert j8[pin.header].get("i2c", "").startswith("I2C1"), pin
    assert [p.bcm for p in pinmap.i2c] == [2, 3]
    assert [p.bcm for p in pinmap.uart] == [14, 15]
    assert "TXD" in j8[pinmap.uart[0].header]["uart"] and "RXD" in j8[pinmap.uart[1].header]["uart"]
    assert pinmap.passive_buzzer and pinmap.gpio["buzzer"].use == "pwm"
    for pin in pinmap.assignments():
        if pin.use == "pwm":
            assert "pwm" in j8[pin.header], pin


def test_header_table_agrees_with_gpiozero() -> None:
    rows, cols, j8 = PLUS_J8
    assert rows * cols == len(HEADER_40) == 40
    for header, signal in HEADER_40.items():
        expected = j8[header].get("gpio") or j8[header][""]
        assert (signal if isinstance(signal, str) else f"GPIO{signal}") == expected, header
    pwm = sorted(int(j8[h]["gpio"][4:]) for h in j8 if "pwm" in j8[h])
    assert tuple(pwm) == HARDWARE_PWM_GPIOS


def test_the_code_defaults_come_from_the_map(pinmap: PinMap) -> None:
    config = TableConfig()
    assert config.pins_file == ""  # empty: the daemon reads wiring/pins.toml
    assert pinmap_for_config(config) == pinmap
    assert config.serial_url == pinmap.usb_url
    # the example config an install starts from names no other pins and the same board port
    example = parse_config((DEFAULT_PINS_FILE.parent.parent / "docs" / "table.example.toml").read_text(encoding="utf-8"))
    assert example.pins_file == "" and example.serial_url == pinmap.usb_url
    pinmap.check_display(example.display.count)
    # The simulator's panel reads the same map as the daemon
    with Panel(pinmap, serve=False) as panel:
        assert panel.pins == {role: pin.bcm for role, pin in pinmap.gpio.items()}
        assert panel.passive_buzzer is True


def test_a_config_may_point_to_another_map(tmp_path: Path) -> None:
    other = tmp_path / "pins.toml"
    other.write_text(edited("bcm = 4\nheader = 7", "bcm = 7\nheader = 26"), encoding="utf-8")
    config = parse_config(f"[table]\npins_file = '{other}'\n[display]\ncount = 2")
    assert pinmap_for_config(config).led == 7
    one_lcd = re.sub(r"\[\[lcd\]\]\nname = \"LCD 2.*?backlight = [^\n]*\n", "", TEXT, flags=re.S)
    other.write_text(one_lcd, encoding="utf-8")
    with pytest.raises(PinMapError, match=r"wires 1 LCD\(s\) but the config's display.count is 2"):
        pinmap_for_config(config)


def test_the_devices_open_on_the_map_pins(pinmap: PinMap) -> None:
    """Every device of the table unit opens together on one pin factory: no gpiozero pin conflict."""
    with Panel(pinmap, serve=False) as panel:
        f = panel.pin_factory
        lcds = [GpioLcdFactory(pinmap.lcd_wiring(i), 16, 2, f) for i in range(len(pinmap.lcds))]
        try:
            with (
                Button(pinmap.button_a, pin_factory=f),
                Button(pinmap.button_b, pin_factory=f),
                Button(pinmap.encoder_push, pin_factory=f),
                RotaryEncoder(pinmap.encoder_a, pinmap.encoder_b, pin_factory=f),
                TonalBuzzer(pinmap.buzzer, pin_factory=f) as buzzer,
                LED(pinmap.led, pin_factory=f),
            ):
                buzzer.play(440)
                assert panel.buzzer_frequency == pytest.approx(440)
        finally:
            for lcd in lcds:
                lcd.close()


# ------------------------------------------------------------------------------------ the checks
@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        ("bcm = 27\nheader = 13", "bcm = 17\nheader = 11", "gpio.button_b", "GPIO17 is already used by gpio.button_a"),
        ("bcm = 4\nheader = 7", "bcm = 7\nheader = 7", "gpio.led", "header pin 7 is GPIO4, not GPIO7 (GPIO7 is header pin 26)"),
        ("bcm = 4\nheader = 7", "bcm = 4\nheader = 6", "gpio.led", "header pin 6 is GND, not a GPIO"),
        ("bcm = 4\nheader = 7", "bcm = 4\nheader = 41", "gpio.led", "header pin 41 does not exist"),
        ("bcm = 18\nheader = 12", "bcm = 7\nheader = 26", "gpio.buzzer", "GPIO7 has no hardware PWM"),
        ("bcm = 4\nheader = 7", "bcm = 2\nheader = 3", "gpio.led", "GPIO2 is reserved for I2C"),
        ("bcm = 4\nheader = 7", "bcm = 15\nheader = 10", "gpio.led", "GPIO15 is reserved for the UART"),
        ("bcm = 4\nheader = 7", "bcm = 0\nheader = 27", "gpio.led", "reserved for the HAT ID EEPROM"),
        ("sda = { bcm = 2, header = 3 }", "sda = { bcm = 7, header = 26 }", "i2c.sda", "I2C1 SDA is GPIO2, not GPIO7"),
        ("tx = { bcm = 14, header = 8 }", "tx = { bcm = 7, header = 26 }", "serial.tx", "the UART's TX is GPIO14"),
        ("i2c_address = 0x21", "i2c_address = 0x20", "lcd2.i2c_address", "0x20 is already used by LCD 1"),
        ("i2c_address = 0x21", "i2c_address = 0x3f", "lcd2.i2c_address", "not an MCP23008 address"),
        ("d7 = { bcm = 9, header = 21 }", "d7 = { bcm = 20, header = 38 }", "lcd2.e", "GPIO20 is already used by lcd1.d7"),
        ('use = "pwm"', 'use = "output"', "gpio.buzzer.use", "a passive buzzer needs a hardware PWM pin"),
    ],
)
def test_consistency_problems_name_the_key(old: str, new: str, key: str, reason: str) -> None:
    pinmap = parse_pinmap(edited(old, new), "pins.toml", check=False)
    messages = [str(p) for p in pinmap.problems()]
    assert any(f"pin map key {key!r}: " in m and reason in m for m in messages), messages
    assert all(m.startswith("pins.toml: pin map key ") for m in messages)
    with pytest.raises(PinMapError):
        parse_pinmap(edited(old, new), "pins.toml")


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        ("[gpio.led]\n", "[gpio.lamp]\n", "gpio.lamp", "unknown key"),
        ('use = "output"\npart = "D1"', 'use = "blink"\npart = "D1"', "gpio.led.use", "must be one of input, output, pwm"),
        ("bcm = 4\nheader = 7", "bcm = '4'\nheader = 7", "gpio.led.bcm", "must be an integer, got '4'"),
        ("bcm = 4\nheader = 7", "header = 7", "gpio.led.bcm", "missing"),
        ('buzzer_kind = "passive"', 'buzzer_kind = "loud"', "table.buzzer_kind", "must be one of passive, active"),
        ("d4 = { bcm = 23, header = 16 }\n", "", "lcd1", "missing line(s) d4"),
        ("schema = 1", "schema = 2", "schema", "version 2 is not supported"),
        ("[serial]", "[serial]\nparity = 'N'", "serial.parity", "unknown key"),
        ("baud = 115200", "baud = true", "serial.baud", "must be an integer, got True"),
        ('usb_url = "/dev/ttyACM0"', 'usb_url = " "', "serial.usb_url", "must not be empty"),
    ],
)
def test_structural_faults_raise_naming_the_key(old: str, new: str, key: str, reason: str) -> None:
    with pytest.raises(PinMapError) as info:
        parse_pinmap(edited(old, new), "pins.toml", check=False)
    assert info.value.key == key
    assert reason in str(info.value)


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match=r"missing.toml: pin map key '\(file\)': cannot read"):
        load_pinmap(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[gpio\n", encoding="utf-8")
    with pytest.raises(PinMapError, match="not valid TOML"):
        load_pinmap(bad)


def test_lcd_lookup_out_of_range(pinmap: PinMap) -> None:
    assert pinmap.lcd_i2c_address(1) == 0x21
    with pytest.raises(PinMapError, match="has 2 LCD"):
        pinmap.lcd_wiring(2)


def test_header_table_marks_the_used_pins(pinmap: PinMap) -> None:
    rows = pinmap.header_table()
    assert len(rows) == 40
    assert rows[10] == (11, "GPIO17", "gpio.button_a")
    assert rows[0] == (1, "3V3", "")
    assert {bcm for bcm in BCM_TO_HEADER} == set(range(28))
