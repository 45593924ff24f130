"""The round's pairing at this table (``tablelink.pairing.TablePairing``, from the hub): kept on disk beside
the journal, and what the table does with a new one.

With a pairing the table needs no draw for who starts (004 "Určení začínajícího hráče": the first player the
competition's schedule names starts): the game starts with the pairing's players in its order, the score sheet's
header gets the tournament, round, table, place and date, and the game's ``info`` event carries the players' ids
so the hub files the result under them. A second pairing of the same round (a correction before the game starts)
replaces the first; once the game has started, a change of players is ignored and logged. A table that never got
a pairing keeps its configured players and the menu's choice of who starts.
"""

from __future__ import annotations

import json
import logging
import time as _time
from pathlib import Path

from device.table_pairs import player_teams
from engine import game as g
from shared.journal import write_atomic
from tablelink.pairing import TablePairing, parse_pairing
from tablelink.topics import SchemaError

log = logging.getLogger(__name__)

PAIRING_FILE = "pairing.json"


def load_pairing(path: Path) -> TablePairing | None:
    """The pairing kept at ``path`` (None if there is none or it is unreadable: logged)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return parse_pairing(data, str(data.get("table", "")) if isinstance(data, dict) else "")
    except FileNotFoundError:
        return None
    except (OSError, ValueError, SchemaError) as exc:
        log.error("%s unusable (%s): the table waits for the hub's pairing again", path, exc)
        return None


def save_pairing(path: Path, pairing: TablePairing) -> None:
    """Keep the pairing at ``path`` (written atomically, fsynced): a restart of the table finds it."""
    write_atomic(path, json.dumps(pairing.payload(), ensure_ascii=False) + "\n")


def is_paired(game: g.Game) -> bool:
    """Whether the game was started from a hub pairing (its header carries the players' ids)."""
    return bool(game.info.get("player_ids"))


def plays(game: g.Game, pairing: TablePairing) -> bool:
    """Whether ``game`` is the pairing's game: the same round, players and order."""
    return (is_paired(game) and game.info.get("round") == str(pairing.round)
            and tuple(game.info.get("player_ids") or ()) == pairing.ids and game.players == pairing.names)  # fmt: skip


def untouched(game: g.Game, clock_started: bool) -> bool:
    """A game nobody has played yet (no move, the clock not started, not ended): a pairing may replace it."""
    return not game.history and not clock_started and game.ended is None and not game.start_draws


def replaceable(game: g.Game, clock_started: bool) -> bool:
    """Whether a new pairing may start a new game now: the game is untouched, or finished with its result."""
    return untouched(game, clock_started) or game.result is not None


def pairing_info(pairing: TablePairing, at: float) -> g.GameInfo:
    """The score sheet's header for the pairing's game: tournament, round, table (the tournament's number),
    place, the date (the pairing's, else the table's) with the time the game started, the players' ids, and in
    doubles each player's team (pair)."""
    clock = _time.strftime("%H:%M", _time.localtime(at))
    day = pairing.date or _time.strftime("%d.%m.%Y", _time.localtime(at))
    return g.GameInfo(at=at, place=pairing.place, competition=pairing.tournament, round=str(pairing.round),
                      started=f"{day} {clock}", table=pairing.table_label, player_ids=pairing.ids,
                      teams=player_teams(pairing))  # fmt: skip
