"""What a lost turn leaves on the board (004: "Při ztrátě práva na tah hráč žádné kameny ani nepokládá na desku").

A move that timed out may leave tiles on the board: laid before the long signal, or after it until the player's
late press. They are nobody's move: the table asks for them back and never reads them as the next player's."""

from __future__ import annotations

from collections.abc import Sequence


def lost_turn_tiles(physical: Sequence[Sequence[str | None]], recorded: Sequence[Sequence[str | None]]) -> set[tuple[int, int]]:
    """The squares with a tile on the physical board and none in the game: the lost turn's tiles to take back."""
    return {
        (r, c)
        for r, row in enumerate(physical)
        for c, tile in enumerate(row)
        if tile is not None and recorded[r][c] is None
    }
