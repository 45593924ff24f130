"""The hub's exceptions: one base class, each subclassing the fitting builtin."""

from __future__ import annotations


class HubError(Exception):
    """Base class of every error the tournament hub raises."""


class MessageError(HubError, ValueError):
    """An MQTT payload or HTTP body the hub refuses (too large, too deep, wrong types); names what is wrong."""


class AuthError(HubError, PermissionError):
    """A refused login or command: ``status`` 401 (not logged in), 403 (bad token or origin), 429 (too many
    attempts: ``retry_after`` seconds); ``code`` names the case for the page's texts."""

    def __init__(self, status: int, message: str, code: str = "auth", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.retry_after = retry_after
