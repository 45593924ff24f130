"""The game machine's doubles rules (seed 003) as functions of a ``Game``: the Polish move order with the team's
choice of who plays first, the struck row, the draw of the Polish playout's final move, the challenges after the
double move, and the teams' part of the game's state. ``engine.game.machine`` calls them from small hooks;
``engine.game.teams`` and ``engine.game.polish`` hold the pure rules they use."""

from __future__ import annotations

from typing import Any

from engine.game import polish, teams
from engine.game.errors import BadPlayer, PlayNotAllowed
from engine.game.events import Event, Exchange, Pass, Play, PlaysFirst, TimeOut
from engine.game.records import MoveKind, OnMove, OpenMove, Output
from engine.game.state import GameState


def polish_on_move(game: GameState) -> int:
    """The player on move in Polish doubles: the double move's second turn is the partner's; the first is the
    team's first-listed player's unless ``PlaysFirst`` said otherwise, and always the player with tiles left
    (003: "hráč, kterému zbyly kameny zahraje první tah dvojice")."""
    turn = len(game.history)
    if polish.is_second(turn):
        return teams.partner(game.history[turn - 1].player)
    lead = game.leads.get(turn, polish.team_on(turn))
    if game.rack_counts and game.rack_counts[lead] == 0 and game.rack_counts[teams.partner(lead)] > 0:
        lead = teams.partner(lead)
    return lead


def struck_due(game: GameState) -> bool:
    """Polish doubles: the double move's second turn falls to a player with an empty rack ("druhý řádek se
    proškrtne")."""
    turn = len(game.history)
    return (
        game.ruleset.doubles == "polish"
        and polish.is_second(turn)
        and game.rack_counts[game.player_on_move] == 0
    )


def final_draw_due(game: GameState, event: Event) -> bool:
    """A turn event for the Polish playout's final move: the player who plays it draws first."""
    return (
        game.ruleset.doubles == "polish"
        and isinstance(event, Play | Pass | Exchange | TimeOut)
        and game.ended is None
        and len(game.history) == polish.final_turn(game.abc_start)
    )


def settle_final_draw(game: GameState) -> None:
    """Polish playout: after the other team's double move "pouze jeden z hráčů dolosuje písmena" - the one who
    plays the final move; the draw is counted when that move is made (the table learns who only then)."""
    p = game.player_on_move
    game.rack_counts[p] += min(game.ruleset.scoring.rack_size - game.rack_counts[p], max(0, game.bag_count))


def open_double(game: GameState, last: int) -> None:
    """Polish doubles: challenges only after the double move ("Námitky se podávají až po dvojtahu"): after
    the team's last turn its plays open, the first to be challenged first; a team's first turn closes the
    other team's plays."""
    if not polish.ends_team_turn(last) and last != polish.final_turn(game.abc_start):
        game.open_move, game.open_rest = None, ()
        return
    start = polish.double_start(last)
    plays = [i for i in range(start, last + 1) if game.history[i].kind is MoveKind.PLAY]
    if not plays:
        game.open_move, game.open_rest = None, ()
        return
    first = game.history[plays[0]]
    challenger = game.player_on_move
    if teams.team_of(challenger) == teams.team_of(first.player):  # after the playout's final move
        challenger = 1 - teams.team_of(first.player)
    game.open_move = OpenMove(plays[0], first.player, challenger)
    game.open_rest = tuple(plays[1:])


def plays_first(game: GameState, event: PlaysFirst) -> list[Output]:
    """The ``plays_first`` event: the team on move says who plays the first move of its double move."""
    game._require_turn("plays_first")
    what = f"{event.player} plays first"
    if game.ruleset.doubles != "polish":
        raise PlayNotAllowed(f"{what} refused: only Polish doubles choose who plays first")
    game._require_player(event.player, what)
    turn = len(game.history)
    if polish.is_second(turn):
        raise PlayNotAllowed(f"{what} refused: the second move of a double move is the partner's")
    if teams.team_of(event.player) != polish.team_on(turn):
        raise BadPlayer(f"{what} refused: player {event.player} is not on the team on move")
    if game.rack_counts[event.player] == 0 and turn != polish.final_turn(game.abc_start):
        raise PlayNotAllowed(f"{what} refused: player {event.player} has no tiles left")
    game.leads[turn] = event.player
    return [OnMove(game.player_on_move)]


def teams_dict(game: GameState) -> dict[str, Any] | None:
    """Doubles: the teams (names, members, totals, the team on move, crosses are ``Game.crosses``) and, in Polish
    doubles, the turn of the double move to come (1 or 2; 0 = the single opening or final move)."""
    if not game.doubles or not game.players:
        return None
    team_result = game.team_result
    turn = len(game.history)
    single = turn == 0 or turn == polish.final_turn(game.abc_start)
    return {
        "kind": game.ruleset.doubles,
        "names": list(game.side_names),
        "members": [list(teams.members(t)) for t in range(teams.TEAMS)],
        "totals": [game.side_total(t) for t in range(teams.TEAMS)],
        "on_move": teams.team_of(game.player_on_move),
        "double_turn": (0 if single else 2 if polish.is_second(turn) else 1)
        if game.ruleset.doubles == "polish"
        else None,
        "result": team_result.to_dict() if team_result else None,
    }


def announce_target(game: GameState) -> int | None:
    """The play whose announced score the table takes next (history index), or None. Polish doubles (003: "Hráči
    samozřejmě musejí oznamovat bodovou hodnotu tahu"): each play of the double move is announced when it is made,
    the first one too (although it can be challenged only after the double move); otherwise the open play."""
    om = game.open_move
    if game.ruleset.doubles != "polish":
        return None if om is None or om.score_ruled else om.index
    turn = len(game.history)
    if polish.is_second(turn) and game.ended is None:
        candidates: tuple[int, ...] = (turn - 1,)
    else:
        candidates = () if om is None else (om.index, *game.open_rest)
    for index in candidates:
        move = game.history[index]
        ruled = om is not None and om.index == index and om.score_ruled
        if move.kind is MoveKind.PLAY and move.announced is None and not ruled:
            return index
    return None
