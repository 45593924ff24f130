"""Players (or doubles pairs) of a tournament, keyed by their ČAS id.

A player's ``id`` is the key everywhere: pairings, results, standings and the ladder name players by it; the name is
only shown. ``rating`` is the ladder strength (žebříček) the director imports; None for a newcomer, who is seeded
with ``NEWCOMER_RATING`` (a setting, ``TournamentSettings.newcomer_rating``)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from tournament.errors import TournamentError

NEWCOMER_RATING = 1000
"""The strength a player without a ladder rating is seeded with. The ČAS pages found give no figure; the ladder's
strengths run to about 2000 at the top, so 1000 seeds a newcomer in the bottom half of a usual field, as a new
player usually is. A setting (``TournamentSettings.newcomer_rating``); the ladder rates a newcomer from their
results (docs/tournament.md)."""


MAX_TEXT = 80
"""The longest player id or name the tournament takes (a table's LCD and score sheet show the first 40 of a name)."""
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that turn the text after them round on screen (U+202E shows "abc" as "cba"): a name with one
prints as another name."""

BAD_TEXT = {
    "empty": ("{what}: nesmí být prázdné", "{what}: must not be empty"),
    "long": ("{what}: nejvýše {n} znaků, zadáno {got}", "{what}: at most {n} characters, got {got}"),
    "control": ("{what}: nesmí obsahovat řídicí znak (konec řádku, tabulátor, NUL …), nalezen {char}",
                "{what}: must not hold a control character (line break, TAB, NUL ...), found {char}"),
    "bidi": ("{what}: nesmí obsahovat znak obracející směr textu, nalezen {char}",
             "{what}: must not hold a character that turns the text's direction round, found {char}"),
    "spaces": ("{what}: nesmí začínat ani končit mezerou", "{what}: must not start or end with a space"),
}
"""Why a player's id or name is refused: ``problem: (Czech, English)``."""
WHAT = {"id": ("ČAS id {value}", "ČAS id {value}"), "name": ("jméno hráče {value}", "the name of player {value}")}


class BadText(TournamentError):
    """A player's id or name the tournament does not take; ``text(lang)`` says why in Czech or English, ``str()``
    in English (the logs)."""

    def __init__(self, field: str, value: str, problem: str, line: int | None = None, **details: object) -> None:
        self.field, self.value, self.problem, self.line, self.details = field, value, problem, line, details
        super().__init__(self.text("en"))

    def said(self, lang: str) -> str:
        return self.text(lang)

    def text(self, lang: str = "cs") -> str:
        i = 1 if lang == "en" else 0
        what = WHAT[self.field][i].format(value=printable(self.value)[:40])
        where = "" if self.line is None else ("CSV, řádek {n}: ", "CSV line {n}: ")[i].format(n=self.line)
        return where + BAD_TEXT[self.problem][i].format(what=what, **self.details)


def _refused(char: str) -> str | None:
    """The problem with ``char`` in an id or name, None if it is fine."""
    if char in BIDI_CONTROLS:
        return "bidi"
    if unicodedata.category(char) in ("Cc", "Cs") or char in "\u2028\u2029":
        return "control"
    return None


def printable(text: str) -> str:
    """``text`` with each character ``check_text`` refuses shown as "?" (a name logged before the check, or in a
    message about itself, never breaks a line or turns the text round)."""
    return "".join("?" if _refused(c) else c for c in text)


def check_text(field: str, value: str, label: str = "", line: int | None = None) -> str:
    """``value`` as a player's ``field`` ("id" or "name") if the tournament takes it: 1 to ``MAX_TEXT``
    characters, no surrounding spaces, no control character (line break, TAB, NUL: one such name stopped a round
    reaching the tables) and no direction override (U+202E). ``label`` names the player in the message (the id
    for a name). Raises ``BadText``. Every way a player comes in (the desk's form and CSV import, a change of id,
    the folder's players file) calls this."""
    shown = label or value
    if not value:
        raise BadText(field, shown, "empty", line)
    if len(value) > MAX_TEXT:
        raise BadText(field, shown, "long", line, n=MAX_TEXT, got=len(value))
    for char in value:
        problem = _refused(char)
        if problem is not None:
            raise BadText(field, shown, problem, line, char=f"U+{ord(char):04X}")
    if value != value.strip():
        raise BadText(field, shown, "spaces", line)
    return value


def check_player(player: Player) -> Player:
    """``player`` if its id and name pass ``check_text`` (an empty name is allowed: the id is shown)."""
    check_text("id", player.id)
    if player.name:
        check_text("name", player.name, player.id)
    return player


@dataclass(frozen=True)
class Player:
    """One entrant: a player, or a doubles pair (``members`` names its two players' ids)."""

    id: str
    name: str = ""
    club: str = ""
    rating: int | None = None
    members: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.id or self.id != self.id.strip():
            raise TournamentError(f"player id {self.id!r} must be non-empty, without surrounding spaces")
        if self.rating is not None and not isinstance(self.rating, int):
            raise TournamentError(f"player {self.id!r}: rating {self.rating!r} must be a whole number")

    def strength(self, newcomer: int = NEWCOMER_RATING) -> int:
        """The strength the pairing seeds by: the rating, or ``newcomer`` if the player has none."""
        return newcomer if self.rating is None else self.rating

    @property
    def label(self) -> str:
        """The name if known, else the id."""
        return self.name or self.id


def pair_strength(ratings: Sequence[int | None], newcomer: int = NEWCOMER_RATING) -> int:
    """A doubles pair's strength: the average of its players' strengths, rounded half up (seed 003: "Žebříčková
    síla dvojice je tvořena průměrem aktuální síly obou hráčů"); a player without a rating counts as ``newcomer``.
    Raises TournamentError for no players."""
    if not ratings:
        raise TournamentError("a doubles pair needs its players' ratings")
    total = sum(newcomer if r is None else r for r in ratings)
    return (2 * total + len(ratings)) // (2 * len(ratings))


def doubles_pair(pair_id: str, members: Sequence[Player], name: str = "", club: str = "",
                 newcomer: int = NEWCOMER_RATING) -> Player:
    """The entrant for a doubles pair of ``members``: its rating is their average strength, its name the members'
    names joined by " + " unless ``name`` is given."""
    if len(members) != 2:
        raise TournamentError(f"doubles pair {pair_id!r} must have two players, got {len(members)}")
    rating = pair_strength([m.rating for m in members], newcomer)
    return Player(pair_id, name or " + ".join(m.label for m in members), club, rating,
                  tuple(m.id for m in members))
