"""Rule options where real rule sets differ, as data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

GoingOut = Literal["1x", "2x"]


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Scoring options: bingo bonus, rack size and the going-out convention.

    ``going_out``: ``"1x"`` (Czech and older international rule: the player who went out gains the opponents'
    rack values, each opponent loses their own) or ``"2x"`` (English tournament records: the player who went out
    gains twice the opponents' racks, the opponents lose nothing).
    """

    bingo_bonus: int = 50
    rack_size: int = 7
    going_out: GoingOut = "1x"
    premiums_for_all: bool = False
    """Alternative rule 2 of 001: a premium square counts for every word that uses its tile, not only in the move
    that covers it."""

    def __post_init__(self) -> None:
        if self.going_out not in ("1x", "2x"):
            raise ValueError(f"going_out must be '1x' or '2x', got {self.going_out!r}")
        if not 1 <= self.rack_size <= 15:
            raise ValueError(f"rack_size must be 1-15, got {self.rack_size}")
