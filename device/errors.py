"""The daemon's exceptions: one base class, each subclassing the fitting builtin."""

from __future__ import annotations


class DeviceError(Exception):
    """Base class of every error the table daemon raises."""


class ConfigError(DeviceError, ValueError):
    """A broken configuration: names the key and the reason."""

    def __init__(self, key: str, reason: str, source: str = "") -> None:
        self.key = key
        self.reason = reason
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}config key {key!r}: {reason}")


class JournalError(DeviceError, ValueError):
    """A journal that cannot be read back (names the file and line)."""
