"""Which menu items the table offers now: a pure function of the game, the clock's pause and the board.

The table calls ``menu_items`` after every change; the menu (``device.menu``) keeps the cursor on the same item
when it is still offered.
"""

from __future__ import annotations

from device.menu import Choice, Item
from device.texts import text
from engine.game import Game
from engine.tiles import BLANK

EXTRA_BLANK_LETTERS = ("Q", "W", "X", "Ö", "Ä", "Ü")
"""Letters a blank may stand for beyond the set's own (RULES.md: a blank's letter may lie outside the set)."""


def letter_choices(game: Game, lang: str, *, with_blank: bool) -> tuple[Choice, ...]:
    """The letters to pick from (the set's, then the extra ones), then ``done`` and ``back``."""
    letters = list(game.tiles.letters) + [x for x in EXTRA_BLANK_LETTERS if x not in game.tiles.letters]
    choices = [Choice(ch, ch) for ch in letters]
    if with_blank:
        choices.insert(0, Choice(BLANK, BLANK))
    choices.append(Choice(text("done", lang), "done"))
    choices.append(Choice(text("back", lang), "back"))
    return tuple(choices)


def _yes_no(lang: str, yes: str, no: str) -> tuple[Choice, ...]:
    return (Choice(text(yes, lang), True), Choice(text(no, lang), False))


def open_move_words(game: Game) -> tuple[str, ...]:
    """The words of the move that can be challenged now (main word first), or ()."""
    if game.open_move is None:
        return ()
    return game.history[game.open_move.index].words


def menu_items(game: Game, *, paused: bool, unnamed_blanks: bool, clock_started: bool, lang: str) -> list[Item]:
    """The items for the situation: game over, paused (challenge / referee), or a move in progress. The tile-set
    check is offered before the clock starts and after the game."""
    items: list[Item] = []
    if game.ended is not None:
        if game.racks_needed:
            items.append(Item("racks", text("racks", lang), letter_choices(game, lang, with_blank=True), repeat=True))
        items.append(Item("new_game", text("new_game", lang)))
        items.append(Item("check", text("check", lang)))
        return items
    if game.pending is not None:
        items.append(Item("ruling", text("ruling", lang), _yes_no(lang, "upheld", "rejected")))
        return items
    if game.appealable:
        items.append(Item("appeal", text("appeal", lang), _yes_no(lang, "for_appellant", "against")))
    if paused:
        items.append(Item("resume", text("resume", lang)))
        return items
    if unnamed_blanks:
        items.append(Item("blank", text("blank", lang), letter_choices(game, lang, with_blank=False), repeat=True))
    words = open_move_words(game)
    if words:
        items.append(
            Item("challenge_word", text("challenge_word", lang), tuple(Choice(w, i) for i, w in enumerate(words)))
        )
        if game.history[game.open_move.index].announced is not None:  # type: ignore[union-attr]
            items.append(Item("challenge_score", text("challenge_score", lang)))
    items.append(Item("pass", text("pass", lang)))
    if game.bag_count >= game.ruleset.exchange_min_bag:
        items.append(Item("exchange", text("exchange", lang), tuple(Choice(str(n), n) for n in range(1, 8))))
    items.append(Item("pause", text("pause", lang)))
    items.append(Item("resign", text("resign", lang), _yes_no(lang, "yes", "no")))
    items.append(Item("new_game", text("new_game", lang), _yes_no(lang, "yes", "no")))
    if not game.history and not clock_started:
        items.append(Item("check", text("check", lang)))
    return items
