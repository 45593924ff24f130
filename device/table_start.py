"""Who starts the game, asked before the first move: the menu items and what an answer does.

The seeds leave it to the people at the table: 004 ("Určení začínajícího hráče") names the first player of the
competition's schedule or lets the players draw; 001, 000 and 002 draw (each player draws a tile, the letter nearest
the start of the alphabet starts, the players tied for it draw again; a drawn blank is drawn again under 004/000, or
beats A under the boxed Mattel rules 002: the ruleset's ``draw_blank``). So the table never picks: until the first
move (and before the clock starts) it offers

- ``starter`` ("Začíná" > a name): the player the schedule names, or the players agreed on;
- ``start_draw`` ("Los: Eva" > a tile): the tile each player drew, asked player by player and again for a tie
  (``engine.draw.next_to_draw``); the engine's ``starting_player`` decides.

Without an answer the configured order stands (the schedule's). An answer that changes who starts starts the game
again in the new order (``Table.new_game``; only the start and the tile-set check are in the journal then, and the
check is kept). The other players follow in seating order (001: "počínaje hráčem po levici začínajícího"). Doubles
(003) draw one tile per team and choose the team's first player themselves: not offered there; the configured order
stands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from device.menu import Choice, Item
from device.texts import text
from engine.draw import next_to_draw, starting_player
from engine.game import Game
from engine.tiles import BLANK

START_KINDS = ("starter", "start_draw")


def start_offered(game: Game, clock_started: bool, seats: Sequence[str]) -> bool:
    """Whether who starts can still be chosen: no move yet, the clock not started, the players the configured
    ones, and no doubles."""
    return (
        not game.history
        and not clock_started
        and game.ended is None
        and not game.ruleset.doubles
        and len(seats) > 1
        and sorted(game.players) == sorted(seats)
    )


def start_items(game: Game, seats: Sequence[str], draws: Mapping[int, Sequence[str]], lang: str) -> list[Item]:
    """The items of the choice of who starts (``seats``: the configured players in seating order; ``draws``: the
    tiles each seat drew so far)."""
    items = [Item("starter", text("starter", lang), tuple(Choice(name, seat) for seat, name in enumerate(seats)),
                  confirm=True)]  # fmt: skip
    seat = next_to_draw(game.tiles, _by_seat(draws, len(seats)), blank_first(game))
    if seat is not None:
        choices = (Choice(BLANK, BLANK), *(Choice(letter, letter) for letter in game.tiles.letters))
        items.append(Item("start_draw", text("start_draw", lang).format(name=seats[seat]), choices))
    return items


def blank_first(game: Game) -> bool:
    return game.ruleset.draw_blank == "first"


def _by_seat(draws: Mapping[int, Sequence[str]], count: int) -> dict[int, list[str]]:
    return {seat: list(draws.get(seat, ())) for seat in range(count)}


@dataclass(frozen=True, slots=True)
class DrawStep:
    """What one tile drawn for the start leads to: the draws so far, the seat that drew it, the seat that starts
    once decided, the seat that draws next otherwise, and ``refused`` (the letter is not left in the bag: nothing
    recorded)."""

    draws: dict[int, list[str]]
    seat: int | None = None
    starter: int | None = None
    next_seat: int | None = None
    refused: bool = False
    again: bool = False
    """The tile does not decide for its player: a tie, or a blank drawn again (004)."""


def record_draw(game: Game, seats: Sequence[str], draws: Mapping[int, Sequence[str]], letter: str) -> DrawStep:
    """Record ``letter`` as the tile drawn by the seat whose turn it is. The drawn tiles stay out of the bag until
    the draw is over (004), so a letter the set has no more of is refused."""
    current = _by_seat(draws, len(seats))
    blank = blank_first(game)
    seat = next_to_draw(game.tiles, current, blank)
    if seat is None:  # already decided
        return DrawStep(current, starter=starting_player(game.tiles, current, blank))
    drawn = Counter(x for seq in current.values() for x in seq)
    available = game.tiles.blanks if letter == BLANK else game.tiles.counts.get(letter, 0)
    if drawn[letter] >= available:
        return DrawStep(current, seat, next_seat=seat, refused=True)
    current[seat].append(letter)
    following = next_to_draw(game.tiles, current, blank)
    if following is None:
        return DrawStep(current, seat, starter=starting_player(game.tiles, current, blank))
    # a round of draws ended undecided: a blank drawn again (004) or a tie for the first place
    again = len(current[following]) >= len(current[seat])
    return DrawStep(current, seat, next_seat=following, again=again)


def start_order(seats: Sequence[str], starter: int) -> tuple[str, ...]:
    """The playing order when the player at seat ``starter`` starts: the others follow in seating order."""
    return tuple(seats[starter:]) + tuple(seats[:starter])


@dataclass(frozen=True, slots=True)
class StartAnswer:
    """What the table does with an answer to who starts: keep ``draws``; play in ``order`` (None: not decided
    yet); show ``notice`` (two LCD lines), or open the draw item again for the next player (``reopen``)."""

    draws: dict[int, list[str]]
    order: tuple[str, ...] | None = None
    notice: tuple[str, str] | None = None
    reopen: bool = False


def answer_start(
    game: Game, seats: Sequence[str], draws: Mapping[int, Sequence[str]], kind: str, value: object, lang: str
) -> StartAnswer:
    """The table's answer to a ``starter`` (a seat picked) or ``start_draw`` (a tile drawn) action."""
    if kind == "starter":
        order = start_order(seats, int(str(value)))
        return StartAnswer({}, order, (text("starts", lang).format(name=order[0]), ""))
    step = record_draw(game, seats, draws, str(value))
    if step.starter is not None:
        order = start_order(seats, step.starter)
        drew = text("drew", lang).format(letters="".join(step.draws[step.starter]))
        return StartAnswer({}, order, (text("starts", lang).format(name=order[0]), drew))
    assert step.next_seat is not None
    next_up = text("start_draw", lang).format(name=seats[step.next_seat])
    if step.refused:
        return StartAnswer(step.draws, notice=(text("draw_none_left", lang).format(letter=value), next_up))
    if step.again:
        again = "draw_blank_again" if value == BLANK and step.next_seat == step.seat else "draw_tie"
        return StartAnswer(step.draws, notice=(text(again, lang), next_up))
    return StartAnswer(step.draws, reopen=True)
