"""The daemon's exceptions: one base class, each subclassing the fitting builtin."""

from __future__ import annotations

from typing import Any


class DeviceError(Exception):
    """Base class of every error the table daemon raises."""


class ConfigError(DeviceError, ValueError):
    """A broken configuration: the file, the key (and its line once known), what is wrong and how to fix it.

    Raised with a ``code`` of ``shared.texts.CONFIG`` and the values its texts name: ``str()`` is the English
    message with the fix (logs, tests), ``describe(lang)`` what an organiser reads (Czech, English as an option) with the fix.
    Without a code, ``reason`` is given as it is, in every language (a message from a library)."""

    FRAME = "cfg_key"
    """The ``shared.texts.CONFIG_FRAMES`` text that names where the error is (config key, pin map key)."""

    def __init__(
        self, key: str, reason: str = "", source: str = "", *, code: str = "", line: int | None = None, **values: Any
    ) -> None:
        self.key = key
        self.source = source
        self.line = line
        self.code = code
        self.values = values
        self.reason = self.what("en") if code else reason
        super().__init__(self.reason)

    def what(self, lang: str = "cs") -> str:
        """What is wrong, in ``lang``."""
        if not self.code:
            return self.reason
        from shared.texts import config_error

        return config_error(self.code, lang, self.key, self.values)[0]

    def fix(self, lang: str = "cs") -> str:
        """How to fix it, in ``lang`` ("" for an error without a code)."""
        if not self.code:
            return ""
        from shared.texts import config_error

        return config_error(self.code, lang, self.key, self.values)[1]

    def where(self, lang: str = "cs") -> str:
        """The file, the line if known, and the key: ``table.toml:3: klíč table.language``."""
        from shared.texts import config_frame

        place = f"{self.source}:{self.line}: " if self.source and self.line else f"{self.source}: " if self.source else ""
        return place + config_frame(self.FRAME, lang).format(key=self.key)

    def describe(self, lang: str = "cs") -> str:
        """The whole message for an organiser: where, what is wrong, and (on a line of its own) the fix."""
        from shared.texts import config_frame

        fix = self.fix(lang)
        head = f"{self.where(lang)}: {self.what(lang)}"
        return head + (f"\n  {config_frame('cfg_fix', lang).format(fix=fix)}" if fix else "")

    def __str__(self) -> str:
        fix = self.fix("en")
        return f"{self.where('en')}: {self.reason}" + (f"; fix: {fix}" if fix else "")
