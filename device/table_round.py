"""The chief referee's word on the clock at a tournament (004 "Hlavní rozhodčí ... vyhlašuje zahájení partií hraného
kola a uplynutí času vymezeného na partie hraného kola").

With ``[table] base_time = "referee"`` the table does not run the round's base time by its own clock: the game time
starts at the referee's start (the hub's ``start_round``, or "Start kola" on the table's menu) and the A-B-C playout
begins at the referee's end (the hub's ``end_base_time``, or "Konec času"). Until then the table says it waits. With
``base_time = "table"`` (club and home play) the game time starts at the first press and the table's clock ends it.
A game started from the hub's pairing follows the referee whatever ``base_time`` says.

The hub's commands are scoped to their round (``tablelink.rounds``): ``hub_round_steps`` says what one does to this
table's game. A paired game takes only its round's commands, an unpaired one only a round started after the game
began; a table that learns of the round late (it connected late: the command is retained on the broker) starts its
game time at the round's real start and takes the end of the base time if it was given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from device.clock.modes import ClockMode
from device.clock.signal import NO_SIGNAL
from device.menu import Item
from engine.game import Game
from shared.texts import text
from tablelink.rounds import END as HUB_END
from tablelink.rounds import WARNING as HUB_WARNING
from tablelink.rounds import RoundCommand

WARNING_FRESH_S = 60.0
"""A 10-minute warning given longer ago than this is not announced by a table that learns of it late."""

START, END = "start", "end"
"""What the table waits for the referee's word on (``referee_wait``)."""


def referee_clock_mode(mode: ClockMode) -> ClockMode:
    """The clock of a table that waits for the referee: the game time still counts (shown), but the table's own
    warning and end chimes stay silent; the referee announces them."""
    import dataclasses

    return dataclasses.replace(mode, warning_signal=NO_SIGNAL, expired_signal=NO_SIGNAL)


def referee_wait(game: Game, clock: dict[str, Any], referee: bool) -> str | None:
    """What the table waits for the referee's word on: ``START`` (the round, before the first move), ``END`` (the
    table's own game time is over, the playout not started yet), or None."""
    if not referee or game.ended is not None:
        return None
    phase = clock.get("game_phase")
    if phase == "not started" and clock.get("state") == "idle":
        return START
    if phase == "expired" and game.abc_start is None and game.ruleset.playout == "abc":
        return END
    return None


def round_items(game: Game, clock: dict[str, Any], referee: bool, lang: str) -> list[Item]:
    """The referee's items on the table (confirmed): the round's start while the game time has not started, the
    end of the base time while the game runs in its normal phase."""
    if not referee or game.ended is not None:
        return []
    phase = clock.get("game_phase")
    if phase == "not started":
        return [Item("round_start", text("round_start", lang))]
    if phase is not None and game.abc_start is None and game.ruleset.playout == "abc":
        return [Item("round_end", text("round_end", lang))]
    return []


@dataclass(frozen=True)
class RoundSteps:
    """What a hub round command does to the game: start its game time ``start_ago`` seconds ago (None: not now),
    announce the warning, end the base time; ``ignored``: why it does nothing (for the log)."""

    start_ago: float | None = None
    warn: bool = False
    end: bool = False
    ignored: str = ""


def game_round(game: Game) -> int | None:
    """The round of a game started from the hub's pairing (its header names it), else None."""
    if not game.info.get("player_ids"):
        return None
    try:
        return int(game.info.get("round") or "")
    except ValueError:
        return None


def hub_round_steps(command: RoundCommand, game: Game, running: bool, wall_now: float, hub_offset: float = 0.0,
                    followed: int | None = None) -> RoundSteps:  # fmt: skip
    """What the hub's ``command`` (with its round's state) does to ``game`` at the table's wall time ``wall_now``;
    ``running``: the game time runs already; ``followed``: the round whose start this game took already (its
    later commands are for this game whatever the clocks say).

    The round's times are the hub's clock; ``hub_offset`` is the hub's clock minus the table's, as the last command
    that came live showed it (its ``sent`` was the hub's now): so a table whose clock is off still runs the round's
    time, also for a command it keeps until its pairing comes. Before any live command (the table connected late:
    every command retained) the offset is 0, the clocks taken to agree (docs/daemon.md "Time at a tournament")."""
    hub_now = wall_now + hub_offset
    number = game_round(game)
    began = (game.events[0].at if game.events else wall_now) + hub_offset
    if command.round != followed and not command.applies_to(number, began):
        why = (f"this table plays round {number}" if number is not None
               else "the round started before this game")  # fmt: skip
        return RoundSteps(ignored=f"a command of round {command.round}: {why}")
    if game.ended is not None:
        return RoundSteps(ignored="the game has ended")
    started = command.started
    start_ago = max(0.0, hub_now - started) if started is not None and not running else None
    warned = command.given.get(HUB_WARNING)
    warn = command.command == HUB_WARNING and warned is not None and hub_now - warned < WARNING_FRESH_S
    end = HUB_END in command.given and game.abc_start is None and game.ruleset.playout == "abc"
    return RoundSteps(start_ago, warn, end)
