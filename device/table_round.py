"""The chief referee's word on the clock at a tournament (004 "Hlavní rozhodčí ... vyhlašuje zahájení partií hraného
kola a uplynutí času vymezeného na partie hraného kola").

With ``[table] base_time = "referee"`` the table does not run the round's base time by its own clock: the game time
starts at the referee's start (the hub's ``start_round``, or "Start kola" on the table's menu) and the A-B-C playout
begins at the referee's end (the hub's ``end_base_time``, or "Konec času"). Until then the table says it waits. With
``base_time = "table"`` (club and home play) the game time starts at the first press and the table's clock ends it.
"""

from __future__ import annotations

from typing import Any

from device.clock.modes import ClockMode
from device.clock.signal import NO_SIGNAL
from device.menu import Item
from engine.game import Game
from shared.texts import text

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
