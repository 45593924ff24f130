"""The composition root (``device.hardware.build_table``) on pins handed in through ``device.peripherals``, as a
simulator does, and on gpiozero's own mock pins, with nothing of the simulator involved."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device import inputs
from device.config import parse_config
from device.errors import ConfigError
from device.hardware import build_table, close_all
from device.peripherals import Peripherals
from device.pinmap import load_pinmap
from shared.timesource import FakeTime

PINS = load_pinmap()


def config_for(tmp_path, extra: str = "", display: str = "") -> Any:
    return parse_config(
        f"[table]\nstate_dir = '{tmp_path}'\npin_factory = 'mock'\nserial_url = 'loop://'\n"
        f"lexicon = '{tmp_path}/none.dawg'\n{extra}\n"
        f"[display]\n{display}\n"
    )


class Hooks:
    """Records what the table registers, as the simulator's panel would use it."""

    def __init__(self) -> None:
        self.provider: Callable[[], Any] | None = None
        self.settle: Callable[[], Any] | None = None
        self.advance: list[Callable[[float], None]] = []
        self.notified = 0

    def register_state_provider(self, provider: Callable[[], Any]) -> None:
        self.provider = provider

    def register_settle(self, settle: Callable[[], Any]) -> None:
        self.settle = settle

    def register_advance_listener(self, listener: Callable[[float], None]) -> None:
        self.advance.append(listener)

    def notify(self) -> None:
        self.notified += 1


def test_handed_in_pins_time_and_hooks_drive_the_table(tmp_path) -> None:
    factory = MockFactory(pin_class=MockPWMPin)  # a passive buzzer wants PWM
    clock = FakeTime(50.0)
    hooks = Hooks()
    table, closers = build_table(config_for(tmp_path), Peripherals(factory, time=clock, hooks=hooks))
    try:
        assert table.time is clock
        assert hooks.provider is not None and hooks.settle is not None and len(hooks.advance) == 1
        hooks.advance[0](1.0)
        assert isinstance(table.inputs.get_nowait(), inputs.Tick)
        factory.pin(PINS.button_b).drive_low()  # the daemon's own gpiozero Button on the handed-in pins
        assert isinstance(table.inputs.get_nowait(), inputs.ButtonPressed)
        table.on_change({})
        assert hooks.notified == 1
        assert hooks.provider() is table.latest_view
    finally:
        close_all(closers)
    factory.close()


def test_mock_pins_without_a_simulator_are_gpiozeros_own(tmp_path) -> None:
    table, closers = build_table(config_for(tmp_path))
    try:
        assert table.led is not None
        assert type(table.led.pin_factory) is MockFactory
    finally:
        close_all(closers)


def test_i2c_lcds_on_mock_pins_need_a_bus(tmp_path) -> None:
    config = config_for(tmp_path, display="mode = 'i2c'")
    with pytest.raises(ConfigError, match="display.mode") as info:
        build_table(config)
    assert "partiar sim" in str(info.value)
    with pytest.raises(ConfigError, match="without an I2C bus"):
        build_table(config, Peripherals(MockFactory()))


def test_on_real_time_the_buzzer_is_driven_by_its_own_process(tmp_path) -> None:
    from device.buzzer_process import SignalProcess

    factory = MockFactory(pin_class=MockPWMPin)
    table, closers = build_table(config_for(tmp_path), Peripherals(factory, hooks=Hooks()))
    try:
        assert isinstance(table.signal, SignalProcess)
        assert table.signal.ready.wait(60.0), "the signal process never said it was ready"
        assert table.signal.ready_info is not None and table.signal.ready_info["pin"] == PINS.buzzer
        assert table.signal.mirror is not None and table.signal.mirror.pin_factory is factory  # the panel's pin
    finally:
        close_all(closers)
    factory.close()
