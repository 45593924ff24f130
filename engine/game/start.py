"""Who starts, decided before the first move: the tiles drawn for it (``StartDraw``) and an order given without a
draw (``StartOrder``). Handlers of ``Game.apply``.

The seeds leave it to the people at the table (004 "Určení začínajícího hráče"): the first player of the
competition's schedule, or a draw (001, 000, 002: each player draws a tile, the letter nearest the start of the
alphabet starts, tied players draw again, a drawn blank is drawn again, or beats A under the Mattel rules 002:
``Ruleset.draw_blank``). The drawn tiles stay out of the bag until the draw is over (004), so a tile the set has no
more of is refused. Once the draws decide (``engine.draw``), the winner starts and the others follow in the order
they sat (001: "počínaje hráčem po levici začínajícího"): the order is turned round, nothing else changes. The draws
are kept (``Game.start_draws``, by player in the order played). An order given without a draw (by name) ends the
draw: it is not offered again, and the name is how a mistake is put right.

Both are journaled as game events, so a power cut in the middle of a draw or after the decision comes back to the
same draws and the same order. Refused once anything is recorded for a player (a turn, an incident, a resignation).
In doubles (003: "stačí jedno písmeno pro dvojici"; Prague "Začínající dvojice si zvolí, který z jejích hráčů
odehraje první tah") the teams draw at the table and the order is given by name: the seating turned round to start
from the player who plays first (clockwise, partners opposite); ``StartDraw`` is refused there.
"""

from __future__ import annotations

from collections import Counter

from engine.draw import next_to_draw, starting_player
from engine.game.errors import StartRefused
from engine.game.events import StartDraw, StartOrder
from engine.game.records import OnMove, Output
from engine.game.state import GameState
from engine.tiles import BLANK


def draws_by_player(game: GameState) -> dict[int, list[str]]:
    """The tiles each player (in playing order) drew for the start so far, every player listed."""
    return {p: list(game.start_draws.get(p, ())) for p in range(len(game.players))}


def blank_first(game: GameState) -> bool:
    return game.ruleset.draw_blank == "first"


def order_given(game: GameState) -> bool:
    """Who starts was given without a draw (``StartOrder``): no draw from then on."""
    return any(isinstance(e, StartOrder) for e in game.events)


def next_drawer(game: GameState) -> int | None:
    """The player who draws the next tile for the start, or None once decided (by the draw or a given order)."""
    if order_given(game):
        return None
    return next_to_draw(game.tiles, draws_by_player(game), blank_first(game))


def draw_decided(game: GameState) -> bool:
    """The draws so far decide who starts (then player 0 of the order is the winner)."""
    return bool(game.start_draws) and next_drawer(game) is None


def tile_left(game: GameState, tile: str) -> bool:
    """Whether the set in use has a ``tile`` not drawn yet in this draw."""
    drawn = Counter(t for seq in game.start_draws.values() for t in seq)
    return drawn[tile] < game.set_counts.get(tile, 0)


def _require_before_first_move(game: GameState, what: str, *, doubles: bool = False) -> None:
    """Refuse ``what`` once anything is recorded for a player; in doubles unless ``doubles`` (an order given by
    name: the draw there is one tile per team, 003 "stačí jedno písmeno pro dvojici", made at the table)."""
    game._require_running(what)
    if game.history or game.open_move is not None or game.pending is not None:
        raise StartRefused(f"{what} refused: the game has begun ({len(game.history)} turns)")
    if game.doubles and not doubles:
        raise StartRefused(f"{what} refused: in doubles the teams draw one tile each (003); give the order by name")
    if game.incidents or game.adjustments or game.resigning is not None:
        raise StartRefused(f"{what} refused: the referee has recorded something for a player already")
    if len(set(game.players)) != len(game.players):
        raise StartRefused(f"{what} refused: two players have the same name {game.players!r}")


def on_start_draw(game: GameState, event: StartDraw) -> list[Output]:
    """Record the tile the player whose turn it is drew; once the draws decide, the winner starts."""
    what = "start draw"
    _require_before_first_move(game, what)
    game._require_player(event.player, what)
    drawer = next_drawer(game)
    if drawer is None:
        raise StartRefused(f"{what} refused: it is decided, {game.players[0]} starts")
    if drawer is not None and event.player != drawer:
        raise StartRefused(f"{what} refused: {game.players[drawer]} draws now, not {game.players[event.player]}")
    if event.tile != BLANK and event.tile not in game.tiles.letters:
        raise StartRefused(f"{what} refused: no tile {event.tile!r} in the {game.tiles.name} set")
    if not tile_left(game, event.tile):
        raise StartRefused(f"{what} refused: no {event.tile} left in the bag (drawn tiles stay out until the end)")
    draws = draws_by_player(game)
    draws[event.player].append(event.tile)
    game.start_draws = {p: tuple(seq) for p, seq in draws.items() if seq}
    if next_drawer(game) is None:
        starter = starting_player(game.tiles, draws, blank_first(game))
        _reorder(game, game.players[starter:] + game.players[:starter])
        return [OnMove(0)]
    return []


def on_start_order(game: GameState, event: StartOrder) -> list[Output]:
    """Play in the order given (the schedule's first player, or agreed); the draw so far is over."""
    what = "start order"
    _require_before_first_move(game, what, doubles=True)
    if sorted(event.players) != sorted(game.players):
        raise StartRefused(f"{what} refused: {event.players!r} are not the game's players {game.players!r}")
    if game.doubles and not _turned_round(game.players, tuple(event.players)):
        raise StartRefused(
            f"{what} refused: {event.players!r} is not the seating {game.players!r} turned round (003: clockwise, "
            "partners opposite)"
        )
    _reorder(game, tuple(event.players))
    game.start_draws = {}
    return [OnMove(0)]


def _turned_round(seating: tuple[str, ...], order: tuple[str, ...]) -> bool:
    """Whether ``order`` is ``seating`` starting from another seat (doubles: the order stays clockwise and the
    teams stay; 003 Prague "Hráči se ve hře střídají zásadně po směru hodinových ručiček")."""
    return any(seating[k:] + seating[:k] == order for k in range(len(seating)))


def _reorder(game: GameState, order: tuple[str, ...]) -> None:
    """Play in ``order``: every per-player list follows its player (before the first move they hold the racks
    dealt and the tile-set check's effects at most)."""
    old = [game.players.index(name) for name in order]
    game.players = order
    game.scores = [game.scores[i] for i in old]
    game.rack_counts = [game.rack_counts[i] for i in old]
    if not game.doubles:  # doubles: a team's, nothing yet before the first move (the teams follow the order)
        game.crosses = [game.crosses[i] for i in old]
        game.turns_owed = [game.turns_owed[i] for i in old]
    game.leads = {}  # Polish doubles: the order's first player plays the opening move
    game.start_draws = {new: game.start_draws[i] for new, i in enumerate(old) if i in game.start_draws}
    teams = game.info.get("teams")
    if teams:
        game.info = {**game.info, "teams": [teams[i] for i in old]}
