"""The chief referee's session: a password read from a file, a session cookie, and a CSRF token.

Logging in with the password gives an opaque session id (cookie ``partiar_session``: HttpOnly, SameSite=Strict,
Path=/) and a CSRF token the page sends back in the ``X-CSRF-Token`` header of every state-changing POST. The
audience has no session: its pages are read-only. Sessions live in memory (a hub restart logs the referee out).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from device.errors import DeviceError

COOKIE = "partiar_session"
SESSION_SECONDS = 12 * 3600


class AuthError(DeviceError, PermissionError):
    """A refused login or command: ``status`` 401 (not logged in) or 403 (bad token or origin)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def read_password_file(path: Path) -> str:
    """The referee password: the file's first line, stripped; raises DeviceError naming the file if it is
    missing or empty."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DeviceError(f"referee password file {path}: {exc.strerror or exc}") from None
    password = text.splitlines()[0].strip() if text.strip() else ""
    if not password:
        raise DeviceError(f"referee password file {path} is empty")
    return password


class RefereeAuth:
    """Checks the referee password and keeps the sessions (id -> CSRF token, expiry). Thread-safe."""

    def __init__(self, password: str | None, now: Callable[[], float] | None = None) -> None:
        self._password = password
        self._sessions: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()
        self._now = now or time.monotonic

    @property
    def enabled(self) -> bool:
        """False when no password was configured: nobody can log in, round control is off."""
        return self._password is not None

    def login(self, password: str) -> tuple[str, str]:
        """``(session id, CSRF token)`` for the right password; raises AuthError 401 otherwise."""
        if self._password is None:
            raise AuthError(403, "round control is off: the hub was started without --referee-password-file")
        if not hmac.compare_digest(password.encode(), self._password.encode()):
            raise AuthError(401, "wrong referee password")
        session, token = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self._lock:
            self._sessions[session] = (token, self._now() + SESSION_SECONDS)
        return session, token

    def logout(self, session: str | None) -> None:
        with self._lock:
            self._sessions.pop(session or "", None)

    def token_of(self, session: str | None) -> str | None:
        """The CSRF token of a live session, else None."""
        with self._lock:
            entry = self._sessions.get(session or "")
            if entry is None:
                return None
            if entry[1] < self._now():
                del self._sessions[session or ""]
                return None
            return entry[0]

    def check(self, session: str | None, token: str | None) -> None:
        """Allow a referee POST: raises AuthError 401 without a live session, 403 with a wrong CSRF token."""
        expected = self.token_of(session)
        if expected is None:
            raise AuthError(401, "the chief referee must log in first")
        if not token or not hmac.compare_digest(token.encode(), expected.encode()):
            raise AuthError(403, "missing or wrong X-CSRF-Token")
