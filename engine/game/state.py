"""What the game's rule modules (``doubles``, ``referee``, ``start``) read and change of a game: the ``Game``
(``engine.game.machine``) as they see it. ``machine`` calls them with itself; they import this, never ``machine``,
so the game's modules import one way (machine -> doubles, referee, start -> state)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from engine.game.events import Event
from engine.game.records import (
    Adjustment,
    Challenge,
    EndReason,
    Incident,
    LastRuling,
    Move,
    OpenMove,
    Output,
)
from engine.game.teams import TeamResult
from engine.ruleset import Ruleset
from engine.tiles import TileSet


class GameState(Protocol):
    """The members of ``engine.game.machine.Game`` the rule modules use."""

    ruleset: Ruleset
    players: tuple[str, ...]
    tiles: TileSet
    set_counts: Counter[str]
    rack_counts: list[int]
    history: list[Move]
    adjustments: list[Adjustment]
    scores: list[int]
    crosses: list[int]
    turns_owed: list[int]
    abc_start: int | None
    open_move: OpenMove | None
    open_rest: tuple[int, ...]
    leads: dict[int, int]
    pending: Challenge | None
    _last_ruling: LastRuling | None
    ended: EndReason | None
    went_out: int | None
    _fixed: tuple[int, ...] | None
    _void: bool
    resigning: int | None
    set_check: tuple[str, str] | None
    set_ruling: str
    incidents: list[Incident]
    info: dict[str, Any]
    start_draws: dict[int, tuple[str, ...]]
    events: list[Event]

    @property
    def player_on_move(self) -> int: ...

    @property
    def doubles(self) -> bool: ...

    @property
    def side_names(self) -> tuple[str, ...]: ...

    @property
    def team_result(self) -> TeamResult | None: ...

    @property
    def bag_count(self) -> int: ...

    def side_of(self, player: int) -> int: ...

    def side_total(self, side: int) -> int: ...

    def warnings(self, player: int) -> int: ...

    def use_set(self, counts: Counter[str]) -> None: ...

    def shift_totals(self, index: int, delta: int) -> None: ...

    def _require_running(self, what: str) -> None: ...

    def _require_turn(self, what: str) -> None: ...

    def _require_player(self, player: int, what: str) -> None: ...

    def _reject(self, challenge: Challenge, at: float, out: list[Output]) -> None: ...
