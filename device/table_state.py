"""What the table keeps beside the game and the clock: the physical board as the link reports it (``Grid``), a
notice on the LCDs (``Notice``) and the state a restart rebuilds or reads back (``TableState``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from device.menu import Action
from engine.board import SIZE

Grid = tuple[tuple[str | None, ...], ...]
"""A physical board as the link reports it: 15 rows of 15 cells, a letter, ``?`` for a blank, or None."""


def empty_grid() -> Grid:
    return tuple(tuple(None for _ in range(SIZE)) for _ in range(SIZE))


@dataclass
class Notice:
    """A short message shown in place of the menu lines until ``until`` (time source seconds) or replaced: two
    lines, or one that leaves the scores in view (``device.screens``)."""

    lines: tuple[str, str] | tuple[str]
    until: float


@dataclass
class TableState:
    """What the table knows beyond the game and the clock (not journaled: rebuilt from the board and the link)."""

    physical: Grid = field(default_factory=empty_grid)
    link_up: bool = False
    link_paused: bool = False
    faults: dict[tuple[int, int], str] = field(default_factory=dict)
    blank_letters: dict[tuple[int, int], str] = field(default_factory=dict)
    take_back: set[tuple[int, int]] = field(default_factory=set)
    put_back: dict[tuple[int, int], str] = field(default_factory=dict)
    notice: Notice | None = None
    tile_check: dict[str, Any] | None = None
    referee_ok: tuple[Action, tuple[str, str]] | None = None
    """A menu action that waits for the referee's yes (no-show, warning, disqualification) and its label (kept in
    ``pending.json``: a restart asks it again)."""
    dispute_zero: bool = False
    """The referee forfeited a dispute 0:0 and is asked whether it is void or a draw (004 E does not say); kept in
    ``pending.json``."""
    possible_no_show: int | None = None
    irregular_asked: frozenset[Any] | None = None
    """The tiles of a play against the placing rules the player was asked to confirm by pressing again."""
    blank_wait: int | None = None
    """The player whose press found an unnamed blank: their move time stands still until they name it."""
    exchange: tuple[int, int] | None = None
    """An exchange announced on the menu as (the turn, the count): the player's press ends the move with it, as at
    a real table (kept in ``pending.json``; it lapses when the turn ends otherwise, a time-out too)."""
    take_back_hold: bool = False
    """The move time of the player on move stands at its start while tiles to take back lie on the board (an
    upheld challenge's, a timed-out move's): it runs, in full, from the moment the last is lifted (004 "Po
    rozhodnutí o oprávněnosti námitky se začíná doba vymezená na tah měřit od začátku"). Kept in ``pending.json``."""
