"""Czech alphabetical order (collation), the order ČAS ranks plays of equal score in.

Czech sorts words in two levels (ČSN 97 6030, as ICU's ``cs`` collation does):

1. **Primary letters**: ``a b c č d e f g h ch i j k l m n o p q r ř s š t u v w x y z ž``. ``ch`` is one letter,
   between ``h`` and ``i``; the háček letters ``č ř š ž`` are letters of their own, after their base letter. The
   other accented letters are *not* letters of their own at this level: ``á`` counts as ``a``, ``ď`` as ``d``,
   ``é``/``ě`` as ``e``, ``í`` as ``i``, ``ň`` as ``n``, ``ó`` as ``o``, ``ť`` as ``t``, ``ú``/``ů`` as ``u``,
   ``ý`` as ``y``. So ``DĚĎ`` comes before ``CHATĚ`` (d < ch), and ``MÝTÍ`` before ``MYTÝ`` (myti < myty).
2. **Secondary (accents)**, only between words equal at the first level: compared letter by letter from the left,
   the plain letter before the accented one, and ``e < é < ě``, ``u < ú < ů`` (acute before caron and ring). So
   ``MYTI`` < ``MYTÍ`` < ``MÝTI`` (the first accent from the left decides).

Words are compared without regard to letter case (a blank's lowercase letter is the same letter). The alphabet
in full, with the secondary letters after their base: a á b c č d ď e é ě f g h ch i í j k l m n ň o ó p q r ř s
š t ť u ú ů v w x y ý z ž. Letters outside it sort after it, by code point.

Other languages keep their tile set's letter order (:meth:`engine.tiles.TileSet.sort_key`).
"""

from __future__ import annotations

CZECH_PRIMARY = ("A", "B", "C", "Č", "D", "E", "F", "G", "H", "CH", "I", "J", "K", "L", "M", "N", "O", "P", "Q",
                 "R", "Ř", "S", "Š", "T", "U", "V", "W", "X", "Y", "Z", "Ž")  # fmt: skip
"""The Czech alphabet's letters at the first level, in order (``CH`` is one letter)."""
CZECH_SECONDARY = {"Á": ("A", 1), "Ď": ("D", 1), "É": ("E", 1), "Ě": ("E", 2), "Í": ("I", 1), "Ň": ("N", 1),
                   "Ó": ("O", 1), "Ť": ("T", 1), "Ú": ("U", 1), "Ů": ("U", 2), "Ý": ("Y", 1)}  # fmt: skip
"""Accented letters that count as their base letter at the first level, and their rank at the second."""

_PRIMARY_RANK = {letter: rank for rank, letter in enumerate(CZECH_PRIMARY)}
_OUTSIDE = len(CZECH_PRIMARY)


def czech_key(word: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The sort key of ``word`` in Czech alphabetical order: (the primary letters' ranks, their accents' ranks)."""
    upper = word.upper()
    primary: list[int] = []
    secondary: list[int] = []
    i = 0
    while i < len(upper):
        if upper.startswith("CH", i):
            primary.append(_PRIMARY_RANK["CH"])
            secondary.append(0)
            i += 2
            continue
        letter = upper[i]
        base, accent = CZECH_SECONDARY.get(letter, (letter, 0))
        rank = _PRIMARY_RANK.get(base)
        primary.append(rank if rank is not None else _OUTSIDE + ord(letter))
        secondary.append(accent)
        i += 1
    return tuple(primary), tuple(secondary)
