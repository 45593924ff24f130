"""A player's name in the room an LCD line leaves for it: the one home of the short form of a name.

At a table the surname is what matters (the referee calls players by it, the pairing list sorts by it), so a name
that does not fit gives way from the front:

1. the whole name if it fits (``Bedřich Malý``);
2. the first given name's initial and the surname (``B. Malý``; ``Jan Pavel Novák`` -> ``J. Novák``), without the
   space if that is what it takes (``B.Malý``);
3. the surname alone, cut to the room if it must be (``Malý``); but if another player of the game has the same
   surname, the given name (``Bohu`` / ``Bedř`` in 4 characters), which is then what tells them apart.

Two players of the game whose short forms would be the same (``Bedřich Malý`` and ``Bohumil Malý`` are both
``B. Malý``) are told apart by as many letters of the given name as it takes: ``Be. Malý`` and ``Bo. Malý``.
A suffix that tells a father from a son (``ml.``, ``st.``, ``Jr.``) belongs to the surname: ``Jan Novák ml.`` ->
``J. Novák ml.``. Names that are the same in full stay the same (the table cannot tell them apart either), and so
do short forms where the room has no place for a second letter (``B.Malý`` in 6 characters).

A doubles team, named by both its players (``Bedřich Malý + Jana Nová``, ``engine.game.teams.team_name``), gives
way the same: ``Bedřich Malý+Jana Nová``, then each player in half the room (``B. Malý+J. Nová``, ``Malý+Nová``).
"""

from __future__ import annotations

from collections.abc import Sequence

TEAM_JOIN = " + "
"""How a team's name joins its players' names (``engine.game.teams.team_name``)."""
SUFFIXES = frozenset({"ml.", "st.", "nejml.", "jr.", "sr.", "ml", "st", "jr", "sr", "ii", "iii"})
"""Last words that belong to the surname (case-insensitive): the junior/senior marks of Czech and English names."""


def _parts(name: str) -> tuple[list[str], str]:
    """The given names and the surname (with its suffix) of a name written ``Given [Given...] Surname``."""
    words = name.split()
    cut = len(words) - 1
    if cut >= 2 and words[-1].casefold() in SUFFIXES:
        cut -= 1
    return words[:cut], " ".join(words[cut:])


def _same(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def lcd_name(name: str, width: int, others: Sequence[str] = ()) -> str:
    """``name`` in at most ``width`` characters (see the module doc), told apart from the short forms of
    ``others`` (the game's other players; ``name`` itself may be among them)."""
    name = " ".join(str(name).split())
    width = max(0, width)
    if len(name) <= width:
        return name
    if TEAM_JOIN in name:
        return _team(name.split(TEAM_JOIN), width, others)
    given, surname = _parts(name)
    if not given:
        return name[:width]
    first = given[0]
    rivals = [g[0] for g, s in (_parts(" ".join(str(o).split())) for o in others)
              if g and _same(s, surname) and not _same(" ".join(g), " ".join(given))]  # fmt: skip
    fallback = None
    for letters in range(1, len(first)):
        prefix = first[:letters]
        forms = [f for f in (f"{prefix}. {surname}", f"{prefix}.{surname}") if len(f) <= width]
        if not forms:
            break  # a longer prefix fits even less
        fallback = fallback or forms[0]
        if not any(_same(r[:letters], prefix) for r in rivals):
            return forms[0]
    if fallback is None and any(not _same(r[:width], first[:width]) for r in rivals):
        return first[:width]  # no room for an initial: the surname alone would not tell them apart, the given name does
    return fallback or surname[:width]


def _team(players: list[str], width: int, others: Sequence[str]) -> str:
    """A team's name in ``width``: its players' names joined by ``+``, each in its share of the room."""
    joined = "+".join(players)
    if len(joined) <= width:
        return joined
    rivals = [p for o in others for p in str(o).split(TEAM_JOIN)] + players
    room = (width - (len(players) - 1)) // len(players)
    return "+".join(lcd_name(p, room, rivals) for p in players)


def lcd_names(names: Sequence[str], width: int) -> list[str]:
    """Every name of a game in ``width`` characters, told apart from each other (``lcd_name``)."""
    return [lcd_name(n, width, names) for n in names]


def fit_name(template: str, name: str, width: int, others: Sequence[str] = ()) -> str:
    """``template`` (a text with ``{name}``, e.g. ``{name} vzdává``) with the name in the room the rest of the line
    leaves on an LCD line of ``width`` (``lcd_name``); the rest of the text is never cut for it."""
    room = width - len(template.replace("{name}", ""))
    return template.format(name=lcd_name(name, room, others))


def fit_names(line: str, width: int, names: Sequence[str]) -> str:
    """A line made elsewhere (a menu entry, a notice) that names players: if it is longer than ``width``, each name
    of ``names`` in it (a player's or a team's, the longest first) in its short form, as far as it takes to fit."""
    for name in sorted({str(n) for n in names if n}, key=len, reverse=True):
        if len(line) <= width:
            break
        if name in line:
            room = width - (len(line) - len(name))
            line = line.replace(name, lcd_name(name, room, names), 1)
    return line
