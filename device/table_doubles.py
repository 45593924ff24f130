"""How the table runs Prague and Polish doubles (seed 003) with its two player buttons and one move clock.

- The two buttons are the teams' (A = team 1: players 1 and 3 of the config; B = team 2: players 2 and 4): in
  both variants the teams alternate, so each team presses its own button after its move.
- Prague doubles: the clock has a side per player (2 minutes per move, clockwise); a team's press ends the move
  of its player on move.
- Polish doubles: the clock has a side per team (3 minutes per double move). The table takes each move from the
  board when the team presses: the press after the double move's first move records that move and leaves the
  team's time running (003: "Nechtěné zmáčknutí hodin po odehrání prvního hráče ... bude tolerováno s tím, že
  druhý hráč by měl svůj tah odehrát"); the press after the second move ends the double move and starts the other
  team's time ("hodiny se zmáčknou až po druhém tahu dvojice").
"""

from __future__ import annotations

from device.clock.modes import ClockMode
from engine.game import Game, MoveKind, polish
from engine.game.teams import members, team_of
from engine.ruleset import Ruleset


def clock_mode_for(mode: ClockMode, ruleset: Ruleset, players: int) -> ClockMode:
    """The clock for a game: a side per team in Polish doubles (not per player), else a side per player."""
    if mode.sides == 1:
        return mode
    return mode.with_sides(2 if ruleset.doubles == "polish" else players)


def clock_side(game: Game, player: int) -> int:
    """The clock side a player's move runs on: the team's in Polish doubles, else the player's own."""
    return team_of(player) if game.ruleset.doubles == "polish" else player


def side_players(game: Game, side: int) -> tuple[int, ...]:
    """The players of a clock side."""
    return members(side) if game.ruleset.doubles == "polish" else (side,)


def team_sides(game: Game, team: int) -> tuple[int, ...]:
    """The clock sides of a team: its own (Polish doubles) or its two players' (Prague doubles)."""
    return (team,) if game.ruleset.doubles == "polish" else members(team)


def button_player(game: Game, button: int) -> int:
    """The player a button press is for: in doubles the team's player on move (or, if the team is not on move,
    its first-listed player, so that the press is ignored as "not on move"); otherwise the button's player."""
    if not game.doubles:
        return button
    on = game.player_on_move
    return on if team_of(on) == button else button


def presses_clock(game: Game) -> bool:
    """Whether the turn about to be recorded passes the clock on: not after the first move of a Polish double
    move (the team's time keeps running for the second)."""
    if game.ruleset.doubles != "polish":
        return True
    turn = len(game.history)
    return polish.ends_team_turn(turn) or turn == polish.final_turn(game.abc_start)


def leads_double_move(game: Game) -> bool:
    """Polish doubles: the team on move has not started its double move (who plays first can still change)."""
    if game.ruleset.doubles != "polish" or game.ended is not None or game.pending is not None:
        return False
    return not polish.is_second(len(game.history))


def awaited_player(game: Game, side: int) -> int:
    """After a time-out, the player whose press the clock awaits on ``side`` (the LCD, the page and the buttons
    name the same one): the side's own player, or in Polish doubles (a side per team) the team's player who was on
    move when the team's time ran out (the double move's first turn if both were lost)."""
    if game.ruleset.doubles != "polish":
        return side
    lost = [i for i, m in enumerate(game.history) if m.kind is MoveKind.TIMEOUT and team_of(m.player) == side]
    if not lost:
        return members(side)[0]
    last = lost[-1]
    if polish.is_second(last) and last - 1 in lost:  # the whole double move ran out: its first player was on move
        last -= 1
    return game.history[last].player
