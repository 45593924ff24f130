"""Pairs tournaments (doubles, seed 003): a pair is registered from two players registered before it.

A tournament is singles or pairs (``TournamentSettings.doubles``), fixed from its first registration. In a pairs
tournament a ``PlayerRegistered`` without ``members`` registers a player (``Tournament.people``): never paired on
their own; one with ``members`` registers a pair (an entrant in ``Tournament.players``): two registered players,
each in no other pair, its rating the average of theirs (seed 003: "Žebříčková síla dvojice je tvořena průměrem
aktuální síly obou hráčů"), as recorded in the deník at its registration. Pairing, results and standings then take
the pairs as their players; the ladder rates each member (``tournament.ladder``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from tournament.errors import PairError
from tournament.events import PlayerRegistered
from tournament.players import Player, doubles_pair, pair_strength

if TYPE_CHECKING:
    from tournament.settings import TournamentSettings
    from tournament.state import Tournament


def check_entrant(t: Tournament, player: Player) -> Literal["entrant", "member"]:
    """What registering ``player`` makes: an entrant (a singles player, or a pair) or a pairs tournament's
    member. Raises PairError for a pair that cannot stand (module docstring)."""
    if not t.settings.doubles:
        if player.members:
            raise PairError(f"pair {player.id!r}: this is a singles tournament (the setting doubles is off)")
        return "entrant"
    if not player.members:
        return "member"
    if len(player.members) != 2 or player.members[0] == player.members[1]:
        raise PairError(f"pair {player.id!r} must have two different players, got {list(player.members)}")
    for pid in player.members:
        if pid not in t.people:
            raise PairError(f"pair {player.id!r}: {pid!r} is not a registered player of this tournament")
        other = pair_of_member(t, pid)
        if other is not None:
            raise PairError(f"pair {player.id!r}: {pid!r} already plays in pair {other!r}")
    strength = pair_strength([t.people[pid].rating for pid in player.members], t.settings.newcomer_rating)
    if player.rating != strength:
        raise PairError(f"pair {player.id!r}: its strength is its players' average {strength}, not {player.rating}")
    return "entrant"


def check_kind_change(t: Tournament, settings: TournamentSettings) -> None:
    """Refuse turning a tournament with anyone registered from singles to pairs or back (PairError)."""
    if settings.doubles != t.settings.doubles and (t.players or t.people):
        kind = "pairs" if t.settings.doubles else "singles"
        raise PairError(f"the tournament is {kind} since its first registration: the setting doubles cannot change")


def updated_member(t: Tournament, pid: str, player: Player) -> Player:
    """A pairs tournament's player's new details (name, club, rating). Their pair keeps the strength it was
    registered with (the deník's); a new id or members are refused (PairError)."""
    if player.id != pid or player.members:
        raise PairError(f"player {pid!r} of a pairs tournament: only the name, club and rating can change")
    return player


def check_pair_update(t: Tournament, pid: str, player: Player) -> None:
    """Refuse new details of entrant ``pid`` that change who plays in it (a pair's members, or members given to a
    singles player): PairError. A pair's name, club, id and rating may change."""
    if player.members != t.players[pid].members:
        raise PairError(f"{pid!r}: the players of a pair cannot change; register a new pair")


def pair_event(t: Tournament, pair_id: str, member_ids: Sequence[str], at: str, by: str, name: str = "",
               club: str = "") -> PlayerRegistered:
    """The deník entry registering pair ``pair_id`` of the registered players ``member_ids``: its strength their
    average now. Raises PairError naming a member who is not registered (the state checks the rest)."""
    missing = [pid for pid in member_ids if pid not in t.people]
    if missing:
        raise PairError(f"pair {pair_id!r}: {missing[0]!r} is not a registered player of this tournament")
    pair = doubles_pair(pair_id, [t.people[pid] for pid in member_ids], name, club, t.settings.newcomer_rating)
    return PlayerRegistered(at=at, by=by, player=pair)


def pair_of_member(t: Tournament, pid: str) -> str | None:
    """The pair ``pid`` plays in, or None."""
    return next((p.id for p in t.players.values() if pid in p.members), None)


def pair_with(t: Tournament, member_ids: Iterable[str]) -> str | None:
    """The pair whose two players are ``member_ids`` (in any order), or None."""
    wanted = set(member_ids)
    return next((p.id for p in t.players.values() if p.members and set(p.members) == wanted), None)


def members_of(t: Tournament, pair_id: str) -> tuple[Player, ...]:
    """The two players of pair ``pair_id`` (empty for a singles player)."""
    return tuple(t.people[pid] for pid in t.players[pair_id].members)


def unpaired(t: Tournament) -> list[str]:
    """A pairs tournament's players in no pair yet, in registration order."""
    return [pid for pid in t.people if pair_of_member(t, pid) is None]
