"""Drawing for the starting player (004, "Určení začínajícího hráče").

Each player draws one tile; the letter nearest the start of the alphabet starts, short vowels before long ones and
plain letters before háček/kroužek (a < á < … < e < é < ě < … < z < ž, the tile set's own order). A drawn blank
is set aside and that player draws again; equal letters draw again (tiles are not returned). With 3-4 players
(home play) the same comparison orders everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.errors import EngineError
from engine.tiles import BLANK, TileSet


class DrawUndecided(EngineError, ValueError):
    """The draws given do not decide the order yet (a tie that has not been drawn again)."""


def draw_key(tiles: TileSet, draws: Sequence[str], blank_first: bool = False) -> tuple[int, ...]:
    """One player's successive draws as a sort key: letters by the set's drawing order; a blank is skipped (004,
    000: drawn again) or, with ``blank_first`` (002, Mattel: "Prázdný kámen má přednost před písmenem A"), beats
    every letter.

    Raises UnknownLetter for a letter outside the set."""
    if blank_first:
        return tuple(-1 if letter == BLANK else tiles.order(letter.upper()) for letter in draws)
    return tuple(tiles.order(letter.upper()) for letter in draws if letter != BLANK)


def draw_order(tiles: TileSet, draws: Mapping[int, Sequence[str]], blank_first: bool = False) -> list[int]:
    """The players in playing order from their draws (``draws[player]`` = letters drawn in turn; a tie is
    broken by the next letters the tied players drew). Raises DrawUndecided when a tie is not broken."""
    keys = {player: draw_key(tiles, seq, blank_first) for player, seq in draws.items()}
    for player, key in keys.items():
        if not key:
            raise DrawUndecided(f"player {player} has drawn no letter yet (draws {list(draws[player])!r})")
    order = sorted(keys, key=lambda p: keys[p])
    for a, b in zip(order, order[1:], strict=False):
        ka, kb = keys[a], keys[b]
        if kb[: len(ka)] == ka:
            raise DrawUndecided(
                f"players {a} and {b} are tied (draws {list(draws[a])!r} and {list(draws[b])!r}): draw again"
            )
    return order


def starting_player(tiles: TileSet, draws: Mapping[int, Sequence[str]], blank_first: bool = False) -> int:
    """The player who starts; raises DrawUndecided if the first place is tied."""
    keys = {player: draw_key(tiles, seq, blank_first) for player, seq in draws.items()}
    best = min(keys, key=lambda p: keys[p])
    for player, key in keys.items():
        if player != best and key[: len(keys[best])] == keys[best]:
            raise DrawUndecided(
                f"players {best} and {player} are tied (draws {list(draws[best])!r} and {list(draws[player])!r})"
            )
    if not keys[best]:
        raise DrawUndecided(f"player {best} has drawn no letter yet")
    return best


def next_to_draw(tiles: TileSet, draws: Mapping[int, Sequence[str]], blank_first: bool = False) -> int | None:
    """Who draws the next tile for the start (the players are ``draws``' keys, asked in their order), or None
    once ``starting_player`` decides: first everyone until each has a letter that counts (a blank drawn again
    under 004/000 does not count), then, at each tie for the first place, the tied players one after another
    (001: "V případě shody si všichni hráči, kteří měli nejnižší písmeno, vytáhnou další kámen"). Only the
    starter is decided: with 3-4 players the others follow in seating order. Raises UnknownLetter."""
    keys = {player: draw_key(tiles, seq, blank_first) for player, seq in draws.items()}
    group = list(keys)
    depth = 0
    while len(group) > 1:
        short = [p for p in group if len(keys[p]) <= depth]
        if short:
            return short[0]
        lowest = min(keys[p][depth] for p in group)
        group = [p for p in group if keys[p][depth] == lowest]
        depth += 1
    if group and not keys[group[0]]:
        return group[0]  # one player alone has not drawn yet
    return None


def match_order(players: Sequence[str], game_number: int) -> tuple[str, ...]:
    """The playing order of game ``game_number`` (0-based) of a match: the players take turns to start (004: "V
    případě, že zápas se skládá z více partií, v dalších partiích se hráči v zahajování pravidelně střídají")."""
    k = game_number % len(players) if players else 0
    return tuple(players[k:]) + tuple(players[:k])
