"""The tournament's settings: the pairing system, what a bye scores, the newcomer's strength, the standings'
tie-break and its TurČAS coefficients. The deník records them (``SettingsChanged``) at the start and at every
change; docs/tournament.md gives every default and why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from tournament.errors import SettingsError
from tournament.players import NEWCOMER_RATING

System = Literal["swiss", "round_robin"]
SYSTEMS: tuple[System, ...] = ("swiss", "round_robin")
Tiebreak = Literal["turcas", "buchholz", "brightwell", "spread"]
TIEBREAKS: tuple[Tiebreak, ...] = ("turcas", "buchholz", "brightwell", "spread")


@dataclass(frozen=True)
class StandingsSettings:
    """How players with equal points are ordered.

    ``TurČAS = A / rounds * Buchholz + B * AbsScore + C * RelScore + D * Starts`` (the ČAS page "Doplňkové kritérium
    TurČAS"). The page says A-D scale the parts to be comparable but the values it uses were not found; these
    defaults are the project's choice, printed under every standings table and logged:

    - ``A = 100``: one point more per round on average in the opponents' results (Buchholz / rounds) is worth 100,
      about a typical game's winning margin;
    - ``B = 0.05``: a game's own score of about 400 adds about 20;
    - ``C = 1``: a point of score difference is worth 1;
    - ``D = 15``: a game replied rather than started is worth 15, an estimate of the starting player's advantage.
    """

    tiebreak: Tiebreak = "turcas"
    A: float = 100.0
    B: float = 0.05
    C: float = 1.0
    D: float = 15.0

    def __post_init__(self) -> None:
        if self.tiebreak not in TIEBREAKS:
            raise SettingsError(f"tiebreak {self.tiebreak!r} must be one of {', '.join(TIEBREAKS)}")

    @property
    def coefficients(self) -> dict[str, float]:
        return {"A": self.A, "B": self.B, "C": self.C, "D": self.D}


@dataclass(frozen=True)
class TournamentSettings:
    """Everything a director sets for one event.

    - ``system``: "swiss" (ČAS Dubov-style, the default) or "round_robin" (every player meets every other once).
    - ``rounds``: the planned number of rounds (None: not fixed); the last round pairs with the final starts balance
      in mind, and ``king_of_the_hill`` pairs it by standings (1-2, 3-4, ...).
    - ``bye_points`` / ``bye_score`` / ``bye_against``: what a bye gives. The sources found do not say; the default
      is a win (1 point) scored 100:0, as the regulations score a game the opponent does not turn up to.
    - ``newcomer_rating``: the seeding strength of a player without a ladder rating.
    - ``doubles``: a pairs tournament (Prague/Polish doubles, seed 003): the entrants are pairs registered from two
      registered players (``tournament.pairs``); fixed from the first registration on.
    - ``standings``: the tie-break and TurČAS coefficients.
    """

    system: System = "swiss"
    rounds: int | None = None
    bye_points: float = 1.0
    bye_score: int = 100
    bye_against: int = 0
    newcomer_rating: int = NEWCOMER_RATING
    king_of_the_hill: bool = False
    doubles: bool = False
    standings: StandingsSettings = field(default_factory=StandingsSettings)

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise SettingsError(f"system {self.system!r} must be one of {', '.join(SYSTEMS)}")
        if self.rounds is not None and self.rounds < 1:
            raise SettingsError(f"rounds {self.rounds} must be 1 or more")
        if self.bye_points not in (0.0, 0.5, 1.0):
            raise SettingsError(f"bye_points {self.bye_points} must be 0, 0.5 or 1")
        if self.bye_score < 0 or self.bye_against < 0:
            raise SettingsError(f"bye score {self.bye_score}:{self.bye_against} must not be negative")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (the deník's form); ``from_dict`` reads it back."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSettings:
        """Settings from ``to_dict``'s form; missing keys take their defaults. Raises SettingsError naming an
        unknown key or a value of the wrong type."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise SettingsError(f"unknown setting {sorted(unknown)[0]!r}")
        values = dict(data)
        if "standings" in values:
            st = values["standings"]
            if isinstance(st, StandingsSettings):
                pass
            elif isinstance(st, Mapping):
                sk = {f.name for f in fields(StandingsSettings)}
                bad = set(st) - sk
                if bad:
                    raise SettingsError(f"unknown setting standings.{sorted(bad)[0]}")
                try:
                    values["standings"] = StandingsSettings(
                        **{k: (v if k == "tiebreak" else float(v)) for k, v in st.items()})  # type: ignore[arg-type]
                except (TypeError, ValueError) as e:
                    raise SettingsError(f"setting standings: {e}") from None
            else:
                raise SettingsError(f"setting standings must be a mapping, got {st!r}")
        for name, kind in (("rounds", int), ("bye_score", int), ("bye_against", int), ("newcomer_rating", int)):
            v = values.get(name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, kind)):
                raise SettingsError(f"setting {name} must be a whole number, got {v!r}")
        for name in ("king_of_the_hill", "doubles"):
            if name in values and not isinstance(values[name], bool):
                raise SettingsError(f"setting {name} must be true or false, got {values[name]!r}")
        if "bye_points" in values:
            try:
                values["bye_points"] = float(values["bye_points"])
            except (TypeError, ValueError):
                raise SettingsError(f"setting bye_points must be a number, got {values['bye_points']!r}") from None
        return cls(**values)

    def with_changes(self, **changes: Any) -> TournamentSettings:
        return replace(self, **changes)
