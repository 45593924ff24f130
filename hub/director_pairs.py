"""A pairs tournament (doubles, seed 003) on the desk: pairs registered from two registered players (one form, or
a ``pair`` column of the players CSV), each table's pairing with the four players and the starting team, and a
doubles table's result filed under the pairs.

The pairing a doubles table gets (``TablePairing.teams``): the first pair of the tournament's pairing starts
(seed 004: the first named starts); its players are first and third in playing order, the other pair's second
and fourth, each pair's players in their registration order. The table's result names each team by its players'
ids joined by "+" (``hub.store.GameRecord.result``): ``pair_ids`` turns them back into the pairs' ids.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING

from hub.director_texts import t
from hub.errors import HubError
from tablelink.pairing import MAX_NAME, PairedPlayer, TablePairing
from tournament.errors import TournamentError
from tournament.games import Pairing
from tournament.pairs import members_of, pair_event, pair_of_member, pair_with, unpaired
from tournament.state import Tournament

if TYPE_CHECKING:
    from hub.director import Desk


class PairRefused(HubError, ValueError):
    """A pair the desk cannot register; the message is the tournament's rule (the page words it)."""

PAIR_COLUMNS = ("pair", "team", "dvojice")
"""The players CSV column naming a player's pair (its id: the players with the same one form it)."""


def register_pair(desk: Desk, pair_id: str, member_ids: Sequence[str], by: str, name: str = "") -> str:
    """Register pair ``pair_id`` of the registered players ``member_ids`` (its name: ``name``, else theirs joined
    by " + "); returns its name. Raises PairRefused for a pair that cannot stand (the tournament's words)."""
    with desk._lock:
        try:
            event = pair_event(desk.tournament, pair_id.strip(), member_ids, desk._at(), by, name.strip())
            desk._append(event)
        except (TournamentError, HubError) as exc:  # the desk's DeskError is a HubError
            raise PairRefused(str(exc)) from None
        return event.player.label


def import_with_pairs(desk: Desk, text: str, by: str) -> int:
    """The players CSV with a header naming a ``pair`` column (``PAIR_COLUMNS``): the players registered, then
    each pair of the two players naming it (in order of the column). Without such a column: ``Desk.import_csv``.
    Returns how many players were registered or updated (as ``Desk.import_csv``). Raises PairRefused naming a
    pair without two players (nothing registered) or a pair that cannot stand, DeskError for a bad player line."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    header = [c.strip().lower() for c in rows[0]] if rows else []
    column = next((header.index(c) for c in PAIR_COLUMNS if c in header), None)
    if column is None:
        return desk.import_csv(text, by)
    players_csv = io.StringIO()
    writer = csv.writer(players_csv)
    pairs: dict[str, list[str]] = {}
    for n, row in enumerate(rows):
        rest = row[:column] + row[column + 1:]
        writer.writerow(rest)
        pair = row[column].strip() if n and len(row) > column else ""
        if pair and rest and rest[0].strip():
            pairs.setdefault(pair, []).append(rest[0].strip())
    for pair, members in pairs.items():
        if len(members) != 2:
            raise PairRefused(f"players CSV: pair {pair!r} must have two players, has {', '.join(members)}")
    with desk._lock:
        count = desk.import_csv(players_csv.getvalue(), by)
        for pair, members in pairs.items():
            if pair not in desk.tournament.players:
                register_pair(desk, pair, members, by)
        return count


def pairs_table_pairing(desk: Desk, round_number: int, game: Pairing) -> TablePairing:
    """The doubles table's pairing of ``game``: the four players in playing order, the two pairs, the first
    starting (module docstring)."""
    tm = desk.tournament
    first, second = (members_of(tm, pid) for pid in game.players())
    players = tuple(PairedPlayer(p.id, p.label[:MAX_NAME]) for p in (first[0], second[0], first[1], second[1]))
    teams = tuple(PairedPlayer(pid, desk.name(pid)) for pid in game.players())
    return TablePairing(f"r{round_number}-t{game.table}-{desk.denik.version}", round_number,
                        desk.unit_of(game.table), players, desk.info.name, desk.info.place, desk.info.date,
                        desk.clock(), number=game.table, teams=teams)  # fmt: skip


def pair_ids(desk: Desk, ids: Sequence[str]) -> tuple[str, ...]:
    """A table's result's ids as the tournament's: a team's "id+id" is the pair of those two players (unchanged
    when no pair has them, so the desk says whose game it is)."""
    out = []
    for pid in ids:
        members = pid.split("+")
        out.append((pair_with(desk.tournament, members) or pid) if len(members) == 2 else pid)
    return tuple(out)


def pairs_section(tm: Tournament, lang: str, form: Callable[[str, str, str], str],
                  field: Callable[..., str]) -> str:
    """The desk page's part of a pairs tournament: the form registering a pair from two players in no pair yet,
    and every player with their pair."""
    free = "".join(f'<option value="{escape(pid)}">{escape(tm.people[pid].label)} ({escape(pid)})</option>'
                   for pid in unpaired(tm))  # fmt: skip
    choose = "".join(f'<label>{t("member", lang).format(n=n)}<select name="{k}">{free}</select></label>'
                     for n, k in ((1, "a"), (2, "b")))  # fmt: skip
    rows = "".join(
        f'<tr><td>{escape(p.id)}</td><td>{escape(p.name)}</td><td class="num">{"" if p.rating is None else p.rating}'
        f'</td><td>{escape(pair_of_member(tm, p.id) or t("unpaired", lang))}</td></tr>' for p in tm.people.values())
    return (f'<h3>{t("register_pair", lang)}</h3><p>{t("pairs_hint", lang)}</p>'
            + form("register_pair", field("id", t("pair_id", lang), extra="required") + choose
                   + field("name", t("pair_name", lang)), t("register_pair", lang))
            + f'<h3>{t("members", lang)} ({len(tm.people)})</h3><table class="list members"><thead><tr>'
            f'<th>{t("id", lang)}</th><th>{t("name", lang)}</th><th>{t("rating", lang)}</th>'
            f'<th>{t("in_pair", lang)}</th></tr></thead><tbody>{rows}</tbody></table>')  # fmt: skip
