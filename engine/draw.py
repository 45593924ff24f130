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


def draw_key(tiles: TileSet, draws: Sequence[str]) -> tuple[int, ...]:
    """One player's successive draws as a sort key: blanks skipped, letters by the set's drawing order.

    Raises UnknownLetter for a letter outside the set."""
    return tuple(tiles.order(letter.upper()) for letter in draws if letter != BLANK)


def draw_order(tiles: TileSet, draws: Mapping[int, Sequence[str]]) -> list[int]:
    """The players in playing order from their draws (``draws[player]`` = letters drawn in turn; a tie is
    broken by the next letters the tied players drew). Raises DrawUndecided when a tie is not broken."""
    keys = {player: draw_key(tiles, seq) for player, seq in draws.items()}
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


def starting_player(tiles: TileSet, draws: Mapping[int, Sequence[str]]) -> int:
    """The player who starts; raises DrawUndecided if the first place is tied."""
    keys = {player: draw_key(tiles, seq) for player, seq in draws.items()}
    best = min(keys, key=lambda p: keys[p])
    for player, key in keys.items():
        if player != best and key[: len(keys[best])] == keys[best]:
            raise DrawUndecided(
                f"players {best} and {player} are tied (draws {list(draws[best])!r} and {list(draws[player])!r})"
            )
    if not keys[best]:
        raise DrawUndecided(f"player {best} has drawn no letter yet")
    return best
