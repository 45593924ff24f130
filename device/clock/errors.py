"""The clock package's exception."""

from __future__ import annotations

from device.errors import DeviceError


class ClockError(DeviceError, ValueError):
    """A bad clock input or configuration: an unknown mode, a broken pattern or snapshot (the message says which)."""
