"""``python -m hw_sim.daemon --config FILE``: the table daemon on the simulator's panel.

What ``partiar run`` is on a Pi, on simulated hardware: it builds the ``Panel`` (gpiozero mock pins, emulated
HD44780s or MCP23008 backpacks, buzzer and LED histories, the control API on loopback) and hands the daemon's
composition root its pin factory, I2C bus, time source and hooks (``device.peripherals.Peripherals``); from there
on it is ``partiar run``'s own code (``device.cli.run.run_table``). ``partiar sim`` starts this as its child
process, which ends with it even when the sim is killed (``hw_sim.lifeline``). The config's ``pin_factory`` is
not used (the pins are the panel's); ``[sim]`` gives the panel's port, port file and time mode.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable

from device.cli.run import run_table
from device.config import TableConfig, load_config
from device.errors import ConfigError
from device.hardware import build_table, time_source_for
from device.peripherals import Peripherals
from device.pinmap import pinmap_for_config
from device.table import Table
from hw_sim.heap import start_from_env
from hw_sim.lifeline import die_with_parent
from hw_sim.panel import Panel, PanelError, lcd_specs

PROG = "python -m hw_sim.daemon"


def table_on_panel(config: TableConfig) -> tuple[Table, list[Callable[[], None]], Panel]:
    """A table built in this process on a panel that serves no HTTP (the benches drive it directly): the table,
    its closers (the panel's last, after the devices on its pins) and the panel."""
    pins = pinmap_for_config(config)
    panel = Panel(pins, lcd_specs(config, pins), passive_buzzer=pins.passive_buzzer, serve=False)
    table, closers = build_table(config, Peripherals(panel.pin_factory, panel.i2c_bus, hooks=panel))
    closers.insert(0, panel.close)
    return table, closers, panel


def main(argv: list[str] | None = None) -> int:
    """Run the daemon on a panel until SIGTERM/SIGINT; returns the exit status (2: a config it cannot run)."""
    parser = argparse.ArgumentParser(prog=PROG, description="The table daemon on the simulator's panel.")
    parser.add_argument("--config", metavar="FILE", help="TOML config (default: built-in defaults)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    die_with_parent()  # a sim killed without stopping it takes this daemon with it (hw_sim/lifeline.py)
    try:
        start_from_env()  # PARTIAR_TRACEMALLOC: the day bench's heap diagnostics (hw_sim/heap.py)
        config = load_config(args.config)
        pins = pinmap_for_config(config)
        time_source = time_source_for(config)
        panel = Panel(
            pins,
            lcd_specs(config, pins),
            time_source=time_source,
            port=config.sim.panel_port,
            port_file=config.sim.panel_port_file or None,
            passive_buzzer=pins.passive_buzzer,
        )
    except (ConfigError, PanelError, OSError, ValueError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    with panel:  # closed after the table's own closers (its devices) have run
        return run_table(config, Peripherals(panel.pin_factory, panel.i2c_bus, time_source, hooks=panel))


if __name__ == "__main__":
    sys.exit(main())
