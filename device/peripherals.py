"""What a table is built on when its hardware is handed in rather than opened by the daemon itself.

On a Pi the composition root (``device.hardware.build_table``) opens the pin factory the config names. A simulator
or a test builds the pins itself, as gpiozero's own ``MockFactory`` is handed to a device, and passes them in as
``Peripherals``: the gpiozero pin factory, the I2C bus the LCD backpacks sit on, the time source it moves, and
``SimHooks`` through which it sees the table and waits for it. ``device/`` never imports the simulator: the
simulator (``hw_sim.daemon``) imports this module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class SimHooks(Protocol):
    """What a simulator offers the table (``hw_sim.panel.Panel`` is one): the table registers its view, its settle
    marker and its tick, and notifies after every change."""

    def register_state_provider(self, provider: Callable[[], Any]) -> None:
        """``provider()`` returns the table's JSON view; it is called from other threads."""

    def register_settle(self, settle: Callable[[], None]) -> None:
        """``settle()`` blocks until the table's loop has handled every input queued so far."""

    def register_advance_listener(self, listener: Callable[[float], None]) -> None:
        """``listener(seconds)`` is called after the simulator moved the (manual) time source forward."""

    def notify(self) -> None:
        """The table's state changed."""


@dataclass(frozen=True)
class Peripherals:
    """Hardware handed to ``build_table``: ``pin_factory`` for every gpiozero device, ``i2c`` for the LCDs'
    MCP23008 backpacks (``display.mode = "i2c"``), ``time`` the time source the table runs on (None: the one the
    config asks for) and ``hooks`` (None: nobody watches). The owner closes them after the table's closers ran."""

    pin_factory: Any
    i2c: Any = None
    time: Any = None
    hooks: SimHooks | None = None
