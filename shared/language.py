"""The language of the ``partiar`` command's words for people (help, prompts, messages): Czech by default,
English with ``--lang en`` or when the environment asks for English (``LC_ALL``, ``LC_MESSAGES`` or ``LANG``
starting with ``en``, as ``en_GB.UTF-8``). ``--lang cs`` keeps Czech in an English environment.

``main`` sets it once from the command line (``set_language``); the commands ask ``language()`` and pick their
words with ``say(cs, en)``. Each command keeps its own words (its module or its package's text table)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence

LANGUAGES = ("cs", "en")
_current = ["cs"]

ARGPARSE_CS = {
    "usage: ": "použití: ",
    "positional arguments": "poziční argumenty",
    "options": "volby",
    "show this help message and exit": "vypíše tuto nápovědu a skončí",
    "the following arguments are required: %s": "chybí povinné argumenty: %s",
    "unrecognized arguments: %s": "neznámé argumenty: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "neplatná volba: %(value)r (vyberte z %(choices)s)",
    "invalid %(type)s value: %(value)r": "neplatná hodnota %(type)s: %(value)r",
    "expected one argument": "čeká jeden argument",
    "%(prog)s: error: %(message)s\n": "%(prog)s: chyba: %(message)s\n",
    "not allowed with argument %s": "nejde spolu s argumentem %s",
    "one of the arguments %s is required": "je třeba jeden z argumentů %s",
}
"""argparse's own words in Czech (the rest stay argparse's English)."""


def language_of(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language ``argv`` (``--lang cs|en`` or ``--lang=cs|en``) or else ``environ`` asks for."""
    for i, word in enumerate(argv):
        value = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else word.partition("=")[2] \
            if word.startswith("--lang=") else ""  # fmt: skip
        if value in LANGUAGES:
            return value
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "en" if value.lower().startswith("en") else "cs"
    return "cs"


def set_language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """Set (and return) the command's language from its command line and environment; argparse's own words
    follow it."""
    lang = _current[0] = language_of(argv, os.environ if environ is None else environ)
    argparse._ = (lambda text: ARGPARSE_CS.get(text, text)) if lang == "cs" else (lambda text: text)  # type: ignore[attr-defined]
    return lang


def language() -> str:
    """The command's language (``cs`` until ``set_language``)."""
    return _current[0]


def say(cs: str, en: str) -> str:
    """The text in the command's language."""
    return en if _current[0] == "en" else cs
