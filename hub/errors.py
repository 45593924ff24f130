"""The hub's exceptions: one base class, each subclassing the fitting builtin.

An error a person reads (the director's page, the referee's page) carries its words as a key of
``hub.director_texts.TEXTS`` and the fields to fill in (``HubError.said``): Czech by default, English on request; its
``str`` is the English text, for the hub's log."""

from __future__ import annotations

from typing import Any

from hub.director_texts import TEXTS, t


class HubError(Exception):
    """Base class of every error the tournament hub raises."""

    key: str | None = None
    """The error's words in ``hub.director_texts`` (None: only its English message, for the log)."""
    params: dict[str, Any] = {}

    def said(self, lang: str) -> str:
        """What the error says to a person in ``lang`` (``cs`` or ``en``)."""
        if self.key is None:
            return str(self)
        return t(self.key, lang).format(**_fields(self.params, lang))


def _fields(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """The fields of a text in ``lang``: a list is of text keys (said in the language, joined by commas)."""
    return {k: ", ".join(t(key, lang) for key in v) if isinstance(v, list) else v for k, v in params.items()}


class Refusal(HubError, ValueError):
    """An input or action the hub refuses, said by a key of ``hub.director_texts`` with its fields
    (``Refusal("refused_no_table", n=8, table=99)``)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        if key not in TEXTS:  # a message of its own (English), for the log; the pages match it (refusal_text)
            self.key, self.params = None, {}
            super().__init__(key)
            return
        self.key, self.params = key, params
        super().__init__(t(key, "en").format(**_fields(params, "en")))


class MessageError(HubError, ValueError):
    """An MQTT payload or HTTP body the hub refuses (too large, too deep, wrong types); names what is wrong."""


class AuthError(HubError, PermissionError):
    """A refused login or command: ``status`` 401 (not logged in), 403 (bad token or origin), 429 (too many
    attempts: ``retry_after`` seconds); ``code`` names the case for the page's texts (``auth_<code>`` in
    ``hub.director_texts``)."""

    def __init__(self, status: int, message: str, code: str = "auth", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.retry_after = retry_after
        self.key = f"auth_{code}"
        self.params = {"wait": f"{retry_after or 0:.0f}"}
