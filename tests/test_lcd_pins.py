"""The charlcd adapters: the wiring value type, the gpiozero-backed pin, the lazy OS-agnostic import."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from gpiozero import GPIOPinInUse
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from device.lcd import GpioLcdFactory
from device.lcd_pins import GpioLcdPin, GpioLcdWiring, LcdPinError, import_charlcd

TEXT = "rs=GPIO25,e=GPIO24,d4=GPIO23,d5=GPIO17,d6=GPIO18,d7=GPIO22,backlight=GPIO4"


def test_wiring_parses_and_formats() -> None:
    wiring = GpioLcdWiring.parse(TEXT)
    assert wiring.rs == "GPIO25" and wiring.backlight == "GPIO4"
    assert wiring.lines() == ("GPIO25", "GPIO24", "GPIO23", "GPIO17", "GPIO18", "GPIO22", "GPIO4")
    assert wiring.format() == TEXT
    assert (
        GpioLcdWiring.parse("e=GPIO24, rs=GPIO25,d4=5,d5=6,d6=7,d7=8").format()
        == "rs=GPIO25,e=GPIO24,d4=5,d5=6,d6=7,d7=8"
    )


@given(
    pins=st.lists(st.integers(min_value=2, max_value=27), min_size=7, max_size=7, unique=True),
    backlight=st.booleans(),
)
def test_wiring_round_trips(pins: list[int], backlight: bool) -> None:
    names = [f"GPIO{n}" for n in pins]
    wiring = GpioLcdWiring(*names[:6], backlight=names[6] if backlight else None)
    assert GpioLcdWiring.parse(wiring.format()) == wiring


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("rs=GPIO25,e=GPIO24", "missing line.*d4"),
        (TEXT + ",rw=GPIO5", "unknown line.*rw"),
        (TEXT.replace("d7=GPIO22", "d7=GPIO25"), "used twice: GPIO25"),
        ("rs=GPIO25,rs=GPIO26", "given twice"),
        ("rs GPIO25", "name=pin"),
        ("rs=,e=GPIO24", "name=pin"),
    ],
)
def test_bad_wiring_is_refused_with_the_text(text: str, match: str) -> None:
    with pytest.raises(LcdPinError, match=match):
        GpioLcdWiring.parse(text)


def test_wiring_from_a_pin_map_table() -> None:
    table = {"rs": 25, "e": 24, "d4": 23, "d5": 17, "d6": 18, "d7": 22}
    assert GpioLcdWiring.from_mapping(table).d7 == "22"
    with pytest.raises(LcdPinError, match="pins.lcd0: missing line.*e"):
        GpioLcdWiring.from_mapping({"rs": 25}, "pins.lcd0")


def test_pin_drives_a_gpiozero_output_and_refuses_input() -> None:
    factory = MockFactory()
    pin = GpioLcdPin("GPIO5", factory)
    import_charlcd()
    import digitalio  # what charlcd passes as the direction (Blinka, imported by import_charlcd)

    pin.direction = digitalio.Direction.OUTPUT
    pin.value = True
    assert factory.pin("GPIO5").state is True and pin.value is True
    pin.switch_to_output(value=False)
    assert factory.pin("GPIO5").state is False
    with pytest.raises(LcdPinError, match="GPIO5 is output-only"):
        pin.direction = digitalio.Direction.INPUT
    with pytest.raises(LcdPinError, match="GPIO5"):
        pin.switch_to_input()
    pin.close()


def test_a_closed_pin_refuses_a_write_with_the_error_the_display_recovers_from() -> None:
    from gpiozero.exc import GPIODeviceClosed

    from device.lcd import LCD_ERRORS

    factory = MockFactory()
    pin = GpioLcdPin("GPIO6", factory)
    pin.close()
    with pytest.raises(GPIODeviceClosed, match="GPIO6 is closed") as raised:
        pin.value = True
    assert isinstance(raised.value, LCD_ERRORS)
    assert factory.pin("GPIO6").state is False
    assert factory.pin("GPIO5").function == "input"


def test_a_factory_whose_pin_is_taken_releases_the_pins_it_opened() -> None:
    factory = MockFactory()
    taken = GpioLcdPin("GPIO22", factory)  # d7
    with pytest.raises(GPIOPinInUse):
        GpioLcdFactory(GpioLcdWiring.parse(TEXT), 16, 2, pin_factory=factory)
    GpioLcdPin("GPIO25", factory).close()  # rs was released again
    taken.close()


def test_closed_factory_says_so() -> None:
    lcd_factory = GpioLcdFactory(GpioLcdWiring.parse(TEXT), 16, 2, pin_factory=MockFactory())
    lcd_factory.close()
    with pytest.raises(LcdPinError, match="closed"):
        lcd_factory()


def test_importing_the_lcd_modules_imports_no_hardware_library() -> None:
    """device.lcd and the emulators import neither charlcd nor Blinka; import_charlcd uses Blinka's OS-agnostic board."""
    code = (
        "import sys\n"
        "import device.lcd, device.lcd_pins, hw_sim.hd44780, hw_sim.mcp23008\n"
        "loaded = [m for m in ('digitalio', 'adafruit_character_lcd', 'adafruit_blinka', 'busio') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
        "from device.lcd_pins import import_charlcd\n"
        "import_charlcd('character_lcd_i2c')\n"
        "from adafruit_blinka.agnostic import board_id\n"
        "print(board_id)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("BLINKA_")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "OS_AGNOSTIC_BOARD"


def test_import_charlcd_leaves_an_explicit_blinka_choice_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLINKA_OS_AGNOSTIC", raising=False)
    monkeypatch.setenv("BLINKA_FORCEBOARD", "GENERIC_LINUX_PC")
    import_charlcd()
    assert "BLINKA_OS_AGNOSTIC" not in os.environ
