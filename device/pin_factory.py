"""The gpiozero pin factory a config names, opened only when asked for (lgpio exists only on a Pi).

Its own small module so that the buzzer's signal process (``device.buzzer_process``) opens its pin without
importing the table.
"""

from __future__ import annotations

from typing import Any

from device.errors import ConfigError


def make_pin_factory(name: str) -> Any:
    """The gpiozero pin factory called ``name`` (imported only when asked for: lgpio exists only on a Pi).

    ``mock`` is gpiozero's own ``MockFactory`` with PWM on every pin (as lgpio has): pins nobody drives, a dry
    run; the simulator hands the daemon a mock factory of its own through ``Peripherals`` instead."""
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory, MockPWMPin

            return MockFactory(pin_class=MockPWMPin)
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory()
    except (ImportError, OSError, RuntimeError) as e:
        raise ConfigError("table.pin_factory", code="pins_unavailable", name=name, error=str(e)) from e
    raise ConfigError("table.pin_factory", code="pins_unknown", name=name)
