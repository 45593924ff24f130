"""Who starts the game, asked before the first move: the menu items and what an answer does.

The seeds leave it to the people at the table: 004 ("Určení začínajícího hráče") names the first player of the
competition's schedule or lets the players draw; 001, 000 and 002 draw (each player draws a tile, the letter nearest
the start of the alphabet starts, the players tied for it draw again; a drawn blank is drawn again under 004/000, or
beats A under the boxed Mattel rules 002: the ruleset's ``draw_blank``). So the table never picks: until the first
move (and before the clock starts) it offers

- ``starter`` ("Začíná" > a name): the player the schedule names, or the players agreed on (a ``StartOrder``
  event);
- ``start_draw`` ("Los: Eva" > a tile): the tile each player drew, asked player by player and again for a tie
  (a ``StartDraw`` event each; ``engine.game.start`` decides, and turns the order round once the draws decide).

Both are game events in the journal, so a power cut in the middle of the draw or after the decision comes back to
the same draws and order. Without an answer the configured order stands (the schedule's). The other players follow
in seating order (001: "počínaje hráčem po levici začínajícího"). Doubles (003) draw one tile per team by hand
("stačí jedno písmeno pro dvojici") and the starting team chooses who plays first (Prague "Začínající dvojice si
zvolí, který z jejích hráčů odehraje první tah"): only ``starter`` is offered there; the order is the seating turned
round to start from that player (clockwise, partners opposite), the buttons stay the teams' by their seats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from device.menu import Choice, Item
from engine import game as g
from engine.game.start import draw_decided, next_drawer, tile_left
from engine.tiles import BLANK
from shared.texts import text

START_KINDS = ("starter", "start_draw")


def start_offered(game: g.Game, clock_started: bool, seats: Sequence[str]) -> bool:
    """Whether who starts can still be chosen: no move yet, the clock not started, the players the configured
    ones."""
    return (
        not game.history
        and not clock_started
        and game.ended is None
        and len(seats) > 1
        and sorted(game.players) == sorted(seats)
    )


def start_items(game: g.Game, seats: Sequence[str], lang: str) -> list[Item]:
    """The items of the choice of who starts (``seats``: the configured players in seating order); the draw is
    offered until it has decided."""
    items = [Item("starter", text("starter", lang), tuple(Choice(name, seat) for seat, name in enumerate(seats)),
                  confirm=True)]  # fmt: skip
    player = None if game.doubles else next_drawer(game)  # doubles: one tile per team, drawn by hand (003)
    if player is not None:
        choices = (Choice(BLANK, BLANK), *(Choice(letter, letter) for letter in game.tiles.letters))
        items.append(Item("start_draw", text("start_draw", lang).format(name=game.players[player]), choices))
    return items


def start_order(seats: Sequence[str], starter: int) -> tuple[str, ...]:
    """The playing order when the player at seat ``starter`` starts: the others follow in seating order."""
    return tuple(seats[starter:]) + tuple(seats[:starter])


@dataclass(frozen=True, slots=True)
class StartAnswer:
    """What the table shows after an answer to who starts: ``notice`` (two LCD lines), or the draw item opened
    again for the next player (``reopen``)."""

    notice: tuple[str, str] | None = None
    reopen: bool = False


def answer_start(
    game: g.Game, seats: Sequence[str], kind: str, value: object, lang: str, apply: Callable[[g.Event], object],
    at: float,
) -> StartAnswer:
    """Record a ``starter`` (a seat picked) or ``start_draw`` (a tile drawn) answer through ``apply`` (the table's
    journaling ``_apply``; it raises GameError for a refused event) and say what the table shows next."""
    if kind == "starter":
        order = start_order(seats, int(str(value)))
        apply(g.StartOrder(at=at, players=order))
        return StartAnswer((text("starts", lang).format(name=order[0]), ""))
    player, letter = next_drawer(game), str(value)
    if player is None:
        return StartAnswer()
    if not tile_left(game, letter):  # the drawn tiles stay out until the draw is over (004)
        next_up = text("start_draw", lang).format(name=game.players[player])
        return StartAnswer((text("draw_none_left", lang).format(letter=letter), next_up))
    before = len(game.start_draws.get(player, ()))
    apply(g.StartDraw(at=at, player=player, tile=letter))
    if draw_decided(game):
        drew = text("drew", lang).format(letters="".join(game.start_draws[0]))
        return StartAnswer((text("starts", lang).format(name=game.players[0]), drew))
    following = next_drawer(game)
    assert following is not None
    next_up = text("start_draw", lang).format(name=game.players[following])
    if len(game.start_draws.get(following, ())) > before:
        # a round of draws ended undecided: a blank drawn again (004) or a tie for the first place
        again = "draw_blank_again" if letter == BLANK and following == player else "draw_tie"
        return StartAnswer((text(again, lang), next_up))
    return StartAnswer(reopen=True)
