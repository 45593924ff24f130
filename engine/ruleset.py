"""Whole-game rule sets as data: who plays, the clocks, challenges, the end of the game.

A ``Ruleset`` composes the scoring options (``RuleOptions``) with everything the game state machine
(``engine.game``) needs. Three named presets:

- ``cas`` (default): the ČAS tournament regulation (seed 004): two players, 2 minutes per move, 40 minutes per game
  with the A-B-C playout, an upheld score challenge loses the move, a rejected challenge gives a cross
  (the 3rd and every later cross costs a turn), four scoreless turns end the game.
- ``home``: home play (seed 000): 2-4 players, 1 minute per move, no game time, an upheld score challenge corrects
  the score and gives the challenged player a cross.
- ``english``: English tournament records (GCG): English tiles, a rejected challenge gives the challenged player
  5 points, six scoreless turns end the game, going out gains twice the opponent's rack.
- ``prague`` and ``polish``: the doubles of seed 003 (two teams of two, ``engine.game.teams``), the ČAS tournament
  rules otherwise: Prague 2 minutes per move, Polish 3 minutes per double move (``engine.game.polish``), both
  35 minutes per game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from engine.errors import EngineError
from engine.rules import RuleOptions

ScoreChallenge = Literal["move_lost", "corrected_cross", "corrected"]
RejectedChallenge = Literal["cross", "points", "bonus"]
Playout = Literal["abc", "none"]
IrregularPlacement = Literal["referee", "refuse"]
DrawBlank = Literal["again", "first"]
Doubles = Literal["", "prague", "polish"]


class RulesetError(EngineError, ValueError):
    """A rule set that is not consistent, or a preset name or dict that does not describe one."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every option of a game where real rule sets differ.

    - ``score_challenge``: outcome of an upheld challenge of the announced score: ``move_lost`` (004: the move is
      withdrawn and scores 0), ``corrected_cross`` (000: the score is corrected and the challenged player gets a
      cross) or ``corrected`` (the score is corrected, no penalty).
    - ``rejected_challenge``: penalty for a challenge that is not upheld: ``cross`` (a cross for the challenger;
      each cross above ``free_crosses`` costs the challenger a turn), ``points`` (the challenger loses
      ``rejected_challenge_points``) or ``bonus`` (the challenged player gains them, as in English records).
    - ``failed_appeal_crosses``: crosses added to the appellant when an appeal fails (004: one).
    - ``scoreless_rounds``: the game ends after this many consecutive turns of every player without a tile placed
      (2: four turns in a two-player game).
    - ``record_announced_score``: once the player's announced score is entered (``announce``), it is what counts
      unless an upheld score challenge corrects it (004, 000: the announced score stands unless challenged); until
      then, and always when False, the table's own score is recorded (the ``english`` preset: GCG records).
    - ``warnings_to_disqualify``: the referee's warning after which the player is to be disqualified (004 "Sankce":
      the third; 0 = never); the chief referee decides it, the game only says it is due.
    - ``irregular_placement``: a play that breaks the placing geometry and is recorded as laid (``Play.irregular``)
      stands unless challenged (``referee``: 004 "formálně neplatně zahraný tah, proti jehož platnosti soupeř
      nepodal námitku, ... se považuje za platný"; 000 "Protest lze podat i proti nesprávně položenému tahu") or
      is refused (``refuse``).
    - ``scoreless_turns_total``: that many consecutive scoreless turns end the game whatever the number of players
      (000: "čtyři bezprostředně po sobě navazující tahy"); None: ``scoreless_rounds`` rounds of every player
      (004 for two players, 001 "ve dvou po sobě jdoucích kolech" for 3-4).
    - ``draw_blank``: a blank drawn for the starting player is set aside and drawn again (``again``: 004, 000) or
      beats every letter (``first``: 002, the boxed Mattel rules "Prázdný kámen má přednost před písmenem A").
    - ``blank_swap``: alternative rule 1 of 001: a played blank may be swapped for the tile it stands for, using
      the turn (``swap_blank`` event).
    - ``reverse_words``: alternative rule 4 of 001: a run of tiles counts if it is a word read either way (the
      table's lexicon hint checks both readings; the referee rules).
    - ``rack_over_limit``: alternative rule 3 of 001: a rack may hold more than the rack size (a reported count
      stands instead of being put right).
    - ``playout``: ``abc`` (004: rounds A, B, C after the base game time) or ``none`` (game time is not played out).
    - ``doubles``: ``""`` (every player for themselves), ``prague`` or ``polish`` (seed 003: two teams of two; the
      crosses, totals and result belong to the team; Polish doubles play 1-2-2-2... and ``move_time_seconds`` is
      the time of a double move).
    """

    name: str = "cas"
    scoring: RuleOptions = field(default_factory=RuleOptions)
    tile_set: str = "czech"
    min_players: int = 2
    max_players: int = 2
    doubles: Doubles = ""
    move_time_seconds: float | None = 120.0
    game_time_seconds: float | None = 2400.0
    playout: Playout = "abc"
    exchange_min_bag: int = 7
    score_challenge: ScoreChallenge = "move_lost"
    rejected_challenge: RejectedChallenge = "cross"
    rejected_challenge_points: int = 0
    free_crosses: int = 2
    failed_appeal_crosses: int = 1
    scoreless_rounds: int = 2
    record_announced_score: bool = True
    forfeit_points: int = 100
    warnings_to_disqualify: int = 3
    rack_over_limit: bool = False
    irregular_placement: IrregularPlacement = "referee"
    scoreless_turns_total: int | None = None
    draw_blank: DrawBlank = "again"
    blank_swap: bool = False
    reverse_words: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players <= 4:
            raise RulesetError(
                f"players must be 1 <= min <= max <= 4, got {self.min_players}-{self.max_players}"
            )
        if self.score_challenge not in ("move_lost", "corrected_cross", "corrected"):
            raise RulesetError(f"unknown score_challenge {self.score_challenge!r}")
        if self.rejected_challenge not in ("cross", "points", "bonus"):
            raise RulesetError(f"unknown rejected_challenge {self.rejected_challenge!r}")
        if self.draw_blank not in ("again", "first"):
            raise RulesetError(f"unknown draw_blank {self.draw_blank!r}")
        if self.scoreless_turns_total is not None and self.scoreless_turns_total < 1:
            raise RulesetError(f"scoreless_turns_total must be >= 1 in ruleset {self.name!r}")
        if self.irregular_placement not in ("referee", "refuse"):
            raise RulesetError(f"unknown irregular_placement {self.irregular_placement!r}")
        if self.doubles not in ("", "prague", "polish"):
            raise RulesetError(f"unknown doubles {self.doubles!r}")
        if self.doubles and not self.min_players == self.max_players == 4:
            raise RulesetError(f"doubles ({self.doubles}) are for 4 players, ruleset {self.name!r} says "
                               f"{self.min_players}-{self.max_players}")
        if self.playout not in ("abc", "none"):
            raise RulesetError(f"unknown playout {self.playout!r}")
        if self.scoreless_rounds < 1 or self.free_crosses < 0 or self.failed_appeal_crosses < 0:
            raise RulesetError(f"scoreless_rounds must be >= 1 and crosses >= 0 in ruleset {self.name!r}")
        if self.rejected_challenge_points < 0 or self.forfeit_points < 0 or self.warnings_to_disqualify < 0:
            raise RulesetError(f"penalty and forfeit points must be >= 0 in ruleset {self.name!r}")

    def scoreless_turns(self, players: int) -> int:
        """Consecutive turns without a tile placed that end a game of ``players`` sides."""
        if self.scoreless_turns_total is not None:
            return self.scoreless_turns_total
        return self.scoreless_rounds * players

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (the scoring options nested); ``from_dict`` reads it back."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["scoring"] = asdict(self.scoring)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Parse ``to_dict`` output; missing keys take the defaults. Raises RulesetError on unknown keys."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesetError(f"unknown ruleset keys {sorted(unknown)} in {data!r}")
        values = dict(data)
        try:
            if "scoring" in values:
                values["scoring"] = RuleOptions(**values["scoring"])
            return cls(**values)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, RulesetError):
                raise
            raise RulesetError(f"not a ruleset: {data!r} ({exc})") from exc


CAS = Ruleset()
HOME = Ruleset(
    name="home",
    max_players=4,
    move_time_seconds=60.0,
    game_time_seconds=None,
    playout="none",
    score_challenge="corrected_cross",
)
ENGLISH = Ruleset(
    name="english",
    scoring=RuleOptions(going_out="2x"),
    tile_set="english",
    move_time_seconds=None,
    game_time_seconds=1500.0,
    playout="none",
    score_challenge="corrected",
    record_announced_score=False,
    rejected_challenge="bonus",
    rejected_challenge_points=5,
    scoreless_rounds=3,
)
PRAGUE = Ruleset(
    name="prague", min_players=4, max_players=4, doubles="prague", move_time_seconds=120.0, game_time_seconds=2100.0
)
POLISH = Ruleset(
    name="polish", min_players=4, max_players=4, doubles="polish", move_time_seconds=180.0, game_time_seconds=2100.0
)
PRESETS: dict[str, Ruleset] = {r.name: r for r in (CAS, HOME, ENGLISH, PRAGUE, POLISH)}


def customised(name: str, options: dict[str, Any]) -> Ruleset:
    """A preset with options from plain data (a config file's table; ``scoring`` a nested table merged into the
    preset's scoring options). Raises RulesetError naming what does not fit."""
    base = preset(name)
    if not options:
        return base
    data = base.to_dict()
    for key, value in options.items():
        if key == "scoring" and isinstance(value, dict):
            data["scoring"] = {**data["scoring"], **value}
        else:
            data[key] = value
    return Ruleset.from_dict(data)


def preset(name: str = "cas", **overrides: Any) -> Ruleset:
    """A named preset, optionally with some fields replaced; raises RulesetError for an unknown name."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise RulesetError(f"unknown ruleset {name!r}; known: {', '.join(PRESETS)}") from None
    return replace(base, **overrides) if overrides else base
