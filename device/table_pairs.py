"""A pairs tournament's pairing (doubles, seed 003) at the table: whether the hub's pairing fits the table's game,
and what its two teams put on the score sheet and the LCD.

A doubles pairing (``TablePairing.teams``) names four players in playing order, the starting team's first: the
table starts that game (Prague or Polish, as its ``ruleset`` says) without asking who starts on the menu. A
pairing of four players at a singles table, or of two at a doubles table, would start a wrong game: the table
keeps its game, and says so on the LCD ("Los pro dvojice!" / "Los pro 2 hráče!", "volej rozhodčího") and in its
log, in the table's language.
"""

from __future__ import annotations

from shared.texts import text
from tablelink.pairing import TablePairing

MISFIT_NOTICE_S = 600.0
"""How long the LCDs say a pairing does not fit the table (the referee's ten minutes to come; a newer notice, or a
pairing that fits, replaces it)."""


def misfit(pairing: TablePairing, players: int) -> str | None:
    """The text key (``device.texts``) saying why ``pairing`` does not fit a table of ``players`` players, or None
    when it fits: "pairing_of_pairs" (a doubles pairing at a singles table), "pairing_of_two" (the other way)."""
    if len(pairing.players) == players:
        return None
    return "pairing_of_pairs" if len(pairing.players) > players else "pairing_of_two"


def player_teams(pairing: TablePairing) -> tuple[str, ...]:
    """Each player's team (pair) name in playing order, for the score sheet's header (``GameInfo.teams``); empty
    for a singles pairing."""
    if not pairing.teams:
        return ()
    return tuple(pairing.teams[i % 2].name for i in range(len(pairing.players)))


def pairing_notice(pairing: TablePairing, lang: str) -> tuple[str, str]:
    """What the LCDs say when a pairing starts its game: the round and table, and who starts; in doubles the round,
    and the starting team's two players on a line of their own (the LCD shortens them to fit, "E. Malá+I. Krátká")."""
    if pairing.teams:
        return text("round_starts", lang).format(r=pairing.round), " + ".join(pairing.names[0::2])
    return (text("round_table", lang).format(r=pairing.round, t=pairing.table_label),
            text("starts", lang).format(name=pairing.names[0]))
