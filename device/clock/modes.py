"""Clock modes as data: the ČAS tournament default and the variants the seeds describe."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from device.clock.errors import ClockError
from device.clock.signal import EXPIRED_CHIME, MOVE_SIGNAL, NO_SIGNAL, WARNING_CHIME, SignalPattern


@dataclass(frozen=True)
class ClockMode:
    """How a clock runs: sides, limits, signals and the rules around a time-out.

    ``sides`` are the units that press (players, or teams in Polish doubles). ``move_time`` limits each turn (None:
    no per-move limit); ``side_budget`` is a chess-clock total per side per game (None: none). ``game_time`` is the
    base game time with a warning ``warning_before`` seconds before its end. ``auto_start`` starts the next side's
    move at a time-out instead of waiting for the timed-out side's press (ČAS: the opponent always starts the clock).
    """

    name: str
    sides: int = 2
    move_time: float | None = 120.0
    side_budget: float | None = None
    game_time: float | None = 40 * 60.0
    warning_before: float | None = 10 * 60.0
    move_signal: SignalPattern = MOVE_SIGNAL
    warning_signal: SignalPattern = WARNING_CHIME
    expired_signal: SignalPattern = EXPIRED_CHIME
    no_show_check: bool = True
    auto_start: bool = False
    debounce: float = 0.3
    note: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        where = f"clock mode {self.name!r}"
        if not 1 <= self.sides <= 8:
            raise ClockError(f"{where}: sides must be 1..8, got {self.sides!r}")
        for key in ("move_time", "side_budget", "game_time"):
            v = getattr(self, key)
            if v is not None and not v > 0:
                raise ClockError(f"{where}: {key} must be > 0 or None, got {v!r}")
        if self.warning_before is not None and (self.game_time is None or not 0 < self.warning_before < self.game_time):
            raise ClockError(f"{where}: warning_before must be inside the game time, got {self.warning_before!r}")
        if self.debounce < 0:
            raise ClockError(f"{where}: debounce must be >= 0, got {self.debounce!r}")

    def with_sides(self, sides: int) -> ClockMode:
        """The same mode for another number of sides (home play: 2-4 players)."""
        return dataclasses.replace(self, sides=sides)

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for key in ("move_signal", "warning_signal", "expired_signal"):
            d[key] = d[key].to_dict()
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ClockMode:
        """A mode from plain data: a preset ``name`` with overrides; raises ClockError for unknown keys or values."""
        if not isinstance(d, Mapping) or "name" not in d:
            raise ClockError(f"clock mode: expected a table with a 'name', got {d!r}")
        d = {("no_show_check" if k == "no_show_forfeit" else k): v for k, v in d.items()}  # checkpoints before 16
        base = PRESETS.get(str(d["name"]), ClockMode(str(d["name"])))
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ClockError(f"clock mode {d['name']!r}: unknown keys {sorted(unknown)}")
        changes: dict[str, Any] = {}
        for key, value in d.items():
            if key.endswith("_signal"):
                changes[key] = SignalPattern.from_dict(value, f"clock mode {d['name']!r}.{key}")
            else:
                changes[key] = value
        try:
            return dataclasses.replace(base, **changes)
        except TypeError as e:
            raise ClockError(f"clock mode {d['name']!r}: {e}") from None


PRESETS: dict[str, ClockMode] = {
    m.name: m
    for m in (
        ClockMode("cas", note="ČAS tournament: 2 min per move, 40 min base game time, warning 10 min before"),
        ClockMode("prague", sides=4, game_time=35 * 60.0, note="Prague doubles: 4 players clockwise, 2 min, 35 min"),
        ClockMode(
            "polish",
            sides=2,
            move_time=180.0,
            game_time=35 * 60.0,
            note="Polish doubles: sides are teams, 3 min per double move (order 1-2-2-2...), 35 min",
        ),
        ClockMode(
            "home", move_time=60.0, game_time=None, warning_before=None, no_show_check=False, note="home: 1 min"
        ),
        ClockMode(
            "home_chess",
            move_time=None,
            side_budget=20 * 60.0,
            game_time=None,
            warning_before=None,
            no_show_check=False,
            note="home chess clock: 20 min per player per game",
        ),
        ClockMode(
            "free",
            move_time=None,
            game_time=None,
            warning_before=None,
            move_signal=NO_SIGNAL,
            no_show_check=False,
            note="no time limit (scores only)",
        ),
        ClockMode(
            "duplicate",
            sides=1,
            move_time=180.0,
            game_time=None,
            warning_before=None,
            no_show_check=False,
            note="duplicate: 3 min for everyone at once; the referee's press starts each round",
        ),
    )
}


def mode(name: str) -> ClockMode:
    """The preset called ``name``; raises ClockError listing the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ClockError(f"unknown clock mode {name!r}; presets: {', '.join(PRESETS)}") from None
