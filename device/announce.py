"""What the table tells people in words, beyond the LCD: who must press next, the times, the final result.

``announce(view, lang)`` is a pure function of the table's view (``device.table.Table.view``) giving the sentences
and cells the simulator page shows (and the hub may show), in one language, from ``shared.texts``. The LCD
screens (``device.screens``) use the same facts in their short form: both say the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from device.screens import RACK_ENDS, format_duration, format_move_time
from shared.texts import phrase, term


def next_press(view: Mapping[str, Any]) -> tuple[str, int | None]:
    """Who must act next and how: ``("start", p)`` p's press starts the clock (the opponent of the first player
    to move, seed 004), ``("on_move", p)``, ``("timeout", p)`` p's press starts the next move after a time-out,
    ``("blank", p)`` p names a blank, ``("take_back", p)`` tiles to take off before p's move time runs,
    ``("paused", None)``, ``("racks", p)`` the referee enters p's tiles left,
    ``("closing_challenged", None)`` the referee rules on the play that closed the game, ``("ended", None)``
    nobody presses."""
    game = view.get("game") or {}
    clock = view.get("clock") or {}
    players = len(game.get("players") or view.get("players") or ())
    if game.get("ended") and game.get("pending_challenge"):
        return "closing_challenged", None
    if game.get("ended"):
        needed = game.get("racks_needed") or []
        return ("racks", needed[0]) if needed else ("ended", None)
    if view.get("blank_wait") is not None:
        return "blank", view["blank_wait"]
    state = clock.get("state")
    if view.get("referee_wait") == "start":  # a tournament round: the chief referee starts it
        return "round_wait", None
    if state == "paused" and view.get("take_back_hold"):  # doubles: the game's player, as on move
        return "take_back", game.get("player_on_move") if game.get("teams") else clock.get("player_on_move")
    if state == "paused":
        return "paused", None
    if state == "awaiting":
        if view.get("must_press") is not None:  # the table's: a Polish clock side is a team, not a player
            return "timeout", view["must_press"]
        return "timeout", clock.get("awaiting_press", clock.get("player_on_move"))
    if state == "running":  # doubles: the game's player (a Polish clock side is a team)
        return "on_move", game.get("player_on_move") if game.get("teams") else clock.get("player_on_move")
    first = clock.get("next_on_move")
    if first is None:
        first = game.get("player_on_move")
    if first is None:
        return "start", None
    return "start", (first + 1) % players if players > 1 else first


def player_times(view: Mapping[str, Any]) -> list[str]:
    """Each player's time as the LCD shows it: a chess clock's budget for every side, else the move time of the
    player on move (``0.0`` while a timed-out player's press is awaited) and nothing for the others."""
    clock = view.get("clock") or {}
    game = view.get("game") or {}
    n = len(game.get("players") or view.get("players") or ())
    out = [""] * n
    if game.get("ended") or not clock:
        return out
    budgets = clock.get("budgets")
    if budgets:
        return [format_duration(b) for b in budgets[:n]] + [""] * (n - len(budgets))
    on = clock.get("player_on_move")
    if game.get("teams") and on is not None:  # doubles: the time shows by the player on move
        on = game.get("player_on_move")
    state = clock.get("state")
    if state == "awaiting" and view.get("must_press") is not None:
        on = view["must_press"]  # after a time-out: by the player whose press starts the next move
    if on is None or not 0 <= on < n:
        return out
    if state == "awaiting":
        out[on] = format_move_time(0.0)
    elif state in ("running", "paused") and clock.get("move_left") is not None:
        out[on] = format_move_time(clock["move_left"])
    return out


def _name(names: Sequence[str], i: int | None) -> str:
    if i is None:
        return ""
    return names[i] if 0 <= i < len(names) else str(i + 1)


def result_table(game: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """The final result as the page shows it: ``names`` of its columns (the players, in doubles the teams), rows
    (label, a value per column), the winner and the end reason; None while the game runs or racks are still to be
    entered."""
    result = game.get("result")
    if not result:
        return None
    names = list(game.get("players") or [])
    played, final = list(result["played"]), list(result["final"])
    teams = game.get("teams")
    if teams and teams.get("result"):  # doubles: the teams' result
        names, played, final = list(teams["names"]), list(teams["totals"]), list(teams["result"]["final"])
        result = {**result, "winners": teams["result"]["winners"], "racks": None}
    adjust = [f - p for f, p in zip(final, played, strict=False)]
    rows = [(phrase("played", lang), [str(v) for v in played])]
    if (any(adjust) or any(result.get("racks") or ())) and result.get("reason") in RACK_ENDS:
        rows.append((phrase("rack_adjust", lang), [f"{a:+d}" + (f" ({r})" if r else "")
                                                   for a, r in zip(adjust, result.get("racks") or [""] * len(adjust),
                                                                   strict=False)]))
    rows.append((phrase("final", lang), [str(v) for v in final]))
    winners = list(result.get("winners") or [])
    verdict = phrase("draw", lang) if len(winners) != 1 else phrase("winner", lang).format(name=_name(names, winners[0]))
    if result.get("outcome") == "void":  # 0:0 by kontumace, no draw points
        verdict = phrase("void", lang)
    return {
        "names": names,
        "rows": [{"label": label, "values": values} for label, values in rows],
        "winner": verdict,
        "winners": winners,
        "ended_by": phrase("ended_by", lang).format(reason=term(str(result["reason"]), lang)),
    }


def announce(view: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The page's words for ``view`` in ``lang``: ``next`` (who must press, as a sentence), ``next_player``,
    ``times`` (per player), ``phase``, ``ruleset``, ``result`` (``result_table``) and ``ended_by``."""
    game = view.get("game") or {}
    names = list(game.get("players") or view.get("players") or [])
    kind, player = next_press(view)
    sentence = phrase(f"next_{kind}", lang).format(name=_name(names, player))
    phase = game.get("phase")
    ruleset = game.get("ruleset")
    ended = game.get("ended")
    return {
        "next": sentence,
        "next_kind": kind,
        "next_player": player,
        "times": player_times(view),
        "phase": phrase(f"phase_{phase}", lang) if phase else "",
        "ruleset": _ruleset(ruleset, lang),
        "result": result_table(game, lang),
        "ended_by": phrase("ended_by", lang).format(reason=term(ended, lang)) if ended else "",
    }


def _ruleset(name: str | None, lang: str) -> str:
    if not name:
        return ""
    try:
        return phrase(f"ruleset_{name}", lang)
    except KeyError:
        return name
