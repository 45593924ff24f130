"""The table's wiring: the pin map (``pins.toml``), parts list, diagrams and their sources (see docs/wiring.md).

A package only so that an installed copy ships ``pins.toml`` next to ``device/`` (device.pinmap reads it from
there); nothing here is imported by the daemon.
"""
