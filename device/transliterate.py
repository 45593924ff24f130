"""Czech text on an HD44780: ASCII transliteration and up to 8 custom glyphs for the letters that matter most.

The HD44780 ROM has no Czech diacritics. ``to_ascii`` drops them (``Příliš`` -> ``Prilis``). ``GlyphMapper``
draws the most frequent Czech letters of a screen as custom characters (CGRAM, 8 slots) and transliterates the rest;
a letter keeps its slot from screen to screen while it is on show, so CGRAM is rewritten only for new letters.
``LcdGlyphs`` wraps a ``device.lcd.CharDisplay`` so the table can ``show`` Unicode rows directly.

Custom characters are written as codes 8-15 (``chr(8 + slot)``), which the LCD shows as slots 0-7
(``CharDisplay`` maps them; code 0 is avoided in strings).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

SLOTS = 8
"""CGRAM slots of an HD44780."""

FIRST_CODE = 8
"""Text code of slot 0 (codes 8-15 show slots 0-7)."""

ASCII: dict[str, str] = {
    **dict(zip("áčďéěíňóřšťúůýžäöüÁČĎÉĚÍŇÓŘŠŤÚŮÝŽÄÖÜ", "acdeeinorstuuyzaouACDEEINORSTUUYZAOU", strict=True)),
    "–": "-",
    "—": "-",
    "„": '"',
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "…": "...",
    "×": "x",
    "·": ".",
}
"""Explicit transliterations (others: Unicode decomposition without marks, else ``?``)."""


def _g(*rows: str) -> tuple[int, ...]:
    return tuple(int(r, 2) for r in rows)


_ACUTE = ("00010", "00100")
_CARON = ("01010", "00100")
_RING = ("00100", "01010")
_LOWER = {  # x-height letters, 5 rows (rows 2-6), row 7 left blank
    "a": ("01110", "00001", "01111", "10001", "01111"),
    "c": ("01110", "10000", "10000", "10001", "01110"),
    "e": ("01110", "10001", "11111", "10000", "01110"),
    "i": ("01100", "00100", "00100", "00100", "01110"),
    "n": ("10110", "11001", "10001", "10001", "10001"),
    "o": ("01110", "10001", "10001", "10001", "01110"),
    "r": ("10110", "11001", "10000", "10000", "10000"),
    "s": ("01110", "10000", "01110", "00001", "11110"),
    "u": ("10001", "10001", "10001", "10011", "01101"),
    "y": ("10001", "10001", "01111", "00001", "01110"),
    "z": ("11111", "00010", "00100", "01000", "11111"),
}
_UPPER = {  # capitals squeezed to 6 rows (rows 2-7) under the mark
    "A": ("01110", "10001", "10001", "11111", "10001", "10001"),
    "C": ("01110", "10001", "10000", "10000", "10001", "01110"),
    "D": ("11100", "10010", "10001", "10001", "10010", "11100"),
    "E": ("11111", "10000", "11110", "10000", "10000", "11111"),
    "I": ("01110", "00100", "00100", "00100", "00100", "01110"),
    "N": ("10001", "11001", "10101", "10011", "10001", "10001"),
    "O": ("01110", "10001", "10001", "10001", "10001", "01110"),
    "R": ("11110", "10001", "11110", "10100", "10010", "10001"),
    "S": ("01111", "10000", "01110", "00001", "00001", "11110"),
    "T": ("11111", "00100", "00100", "00100", "00100", "00100"),
    "U": ("10001", "10001", "10001", "10001", "10001", "01110"),
    "Y": ("10001", "10001", "01010", "00100", "00100", "00100"),
    "Z": ("11111", "00010", "00100", "01000", "10000", "11111"),
}
_MARKS = {"á": _ACUTE, "é": _ACUTE, "í": _ACUTE, "ó": _ACUTE, "ú": _ACUTE, "ý": _ACUTE, "ů": _RING}
_MARKS.update({ch: _CARON for ch in "čěňřšž"})

GLYPHS: dict[str, tuple[int, ...]] = {}
"""5x8 custom glyphs (8 rows of 5 bits) for the Czech letters with diacritics."""
for _ch, _mark in _MARKS.items():
    GLYPHS[_ch] = _g(*_mark, *_LOWER[ASCII[_ch]], "00000")
    _up = _ch.upper()
    GLYPHS[_up] = _g(*_mark, *_UPPER[ASCII[_up]])
GLYPHS["ď"] = _g("00101", "00101", "01101", "10011", "10001", "10011", "01101", "00000")
GLYPHS["ť"] = _g("00011", "01001", "11100", "01000", "01000", "01001", "00110", "00000")
GLYPHS["Ď"] = _g(*_CARON, *_UPPER["D"])
GLYPHS["Ť"] = _g(*_CARON, *_UPPER["T"])


def to_ascii(text: str) -> str:
    """``text`` with every character the HD44780 ROM lacks transliterated (``Žolík`` -> ``Zolik``); ``?`` if none."""
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
            continue
        if ch in ASCII:
            out.append(ASCII[ch])
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(base if base and all(ord(c) < 128 for c in base) else "?")
    return "".join(out)


class GlyphMapper:
    """Chooses which Czech letters of a screen get the 8 custom glyphs, keeping slots stable between screens.

    ``encode(rows)`` returns the rows as LCD text (custom letters as codes 8-15, the rest ASCII) and the glyphs to
    (re)define: only slots whose letter changed. Letters are ranked by how often they occur on the screen, then
    by first occurrence; those beyond the slots are transliterated.
    """

    def __init__(self, slots: int = SLOTS) -> None:
        if not 0 <= slots <= SLOTS:
            raise ValueError(f"GlyphMapper: slots must be 0..{SLOTS}, got {slots!r}")
        self.slots = slots
        self.assigned: dict[str, int] = {}
        self._letters: str | None = None  # the last screen's letters beyond ASCII (None: none yet)
        self._codes = _Codes({})

    def encode(self, rows: Sequence[str]) -> tuple[list[str], dict[int, tuple[int, ...]]]:
        # Only the letters beyond ASCII choose the slots (ASCII passes as it is), so a screen whose letters beyond
        # ASCII are those of the last one (a timer tick: only digits change) keeps its slots without a count.
        letters = "".join(_NOT_ASCII.findall("".join(rows)))
        changed: dict[int, tuple[int, ...]] = {}
        if letters != self._letters:
            self._letters = letters
            changed = self._choose(letters)
        return [row if row.isascii() else row.translate(self._codes) for row in rows], changed

    def _choose(self, letters: str) -> dict[int, tuple[int, ...]]:
        """Assign the slots for a screen whose letters beyond ASCII are ``letters`` (in reading order); returns
        the slots whose letter changed."""
        counts = Counter(ch for ch in letters if ch in GLYPHS)
        order = {ch: i for i, ch in reversed(list(enumerate(letters)))}
        wanted = sorted(counts, key=lambda ch: (-counts[ch], order[ch]))[: self.slots]
        keep = {ch: slot for ch, slot in self.assigned.items() if ch in wanted}
        free = [s for s in range(self.slots) if s not in keep.values()]
        changed: dict[int, tuple[int, ...]] = {}
        for ch in wanted:
            if ch not in keep:
                slot = free.pop(0)
                keep[ch] = slot
                changed[slot] = GLYPHS[ch]
        self.assigned = keep
        self._codes = _Codes(keep)
        return changed


_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")


class _Codes(dict[int, str]):
    """``str.translate``'s table for one slot assignment: a letter with a slot as its code (8-15), any other
    character beyond ASCII transliterated (``to_ascii``, remembered), ASCII as it is."""

    def __init__(self, assigned: Mapping[str, int]) -> None:
        super().__init__({ord(ch): chr(FIRST_CODE + slot) for ch, slot in assigned.items()})

    def __missing__(self, code: int) -> str:
        if code < 128:
            raise LookupError(code)  # translate keeps the character
        self[code] = out = to_ascii(chr(code))
        return out


class LcdGlyphs:
    """A ``CharDisplay`` that takes Unicode rows: Czech letters as custom glyphs (``glyphs=True``) or ASCII.

    Everything else (``rows``, ``healthy``, ``backlight``, ``reinit``, ``close`` ...) is the display's.
    """

    def __init__(self, display: Any, *, glyphs: bool = True) -> None:
        self.display = display
        self.mapper = GlyphMapper(SLOTS if glyphs else 0)

    def show(self, rows: Sequence[str]) -> int:
        """Show Unicode ``rows``; defines the glyphs that changed first. Returns the characters written."""
        encoded, changed = self.mapper.encode(list(rows))
        if changed:
            self.display.set_glyphs(changed)
        return int(self.display.show(encoded))

    def glyph_table(self) -> Mapping[int, str]:
        """Slot -> letter currently assigned."""
        return {slot: ch for ch, slot in self.mapper.assigned.items()}

    @property
    def backlight(self) -> bool:
        return bool(self.display.backlight)

    @backlight.setter
    def backlight(self, on: bool) -> None:
        self.display.backlight = on

    def __getattr__(self, name: str) -> Any:
        if name in ("display", "mapper"):
            raise AttributeError(name)
        return getattr(self.display, name)
