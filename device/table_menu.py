"""Which menu items the table offers now: a pure function of the game, the clock's pause and the board.

The table calls ``menu_items`` after every change; the menu (``device.menu``) keeps the cursor on the same item
when it is still offered. Every item that records a turn or ends the game (pass, exchange, resign, the racks
that close the game, a new game) asks "no / yes" before it acts (``Item.confirm``); ``device.menu`` puts the
cursor on a neutral entry everywhere, so pushes alone never act.
"""

from __future__ import annotations

from collections.abc import Sequence

from device.menu import BACK, DONE, Choice, Item
from device.table_doubles import leads_double_move
from device.table_start import start_items, start_offered
from engine.board import Notation
from engine.game import EndReason, Game, MoveKind, doubles, polish
from engine.game.teams import members, team_of
from engine.tiles import BLANK
from shared.texts import text

EXTRA_BLANK_LETTERS = ("Q", "W", "X", "Ö", "Ä", "Ü")
"""Letters a blank may stand for beyond the set's own (RULES.md: a blank's letter may lie outside the set)."""


def blank_letters(game: Game) -> tuple[str, ...]:
    """Every letter a blank may stand for: the set's, then the extra ones."""
    return tuple(game.tiles.letters) + tuple(x for x in EXTRA_BLANK_LETTERS if x not in game.tiles.letters)


def letter_choices(
    game: Game, lang: str, *, with_blank: bool, first: Sequence[str] = ()
) -> tuple[Choice, ...]:
    """The letters to pick from (``first``: the likely ones, e.g. from ``engine.blanks``; then the set's and the
    extra ones), then ``done`` and ``back``."""
    letters = list(dict.fromkeys([*first, *blank_letters(game)]))
    choices = [Choice(ch, ch) for ch in letters]
    if with_blank:
        choices.insert(0, Choice(BLANK, BLANK))
    choices.append(Choice(text("done", lang), DONE))
    choices.append(Choice(text("back", lang), BACK))
    return tuple(choices)


def _yes_no(lang: str, yes: str, no: str) -> tuple[Choice, ...]:
    return (Choice(text(yes, lang), True), Choice(text(no, lang), False))


def open_move_words(game: Game) -> tuple[str, ...]:
    """The words that can be challenged now (main word first; Polish doubles: the double move's first play's,
    then the second's), or ()."""
    return tuple(word for _, _, word in game.open_words())


def plays_first_choices(game: Game) -> tuple[Choice, ...]:
    """Polish doubles, before a double move: the team's players who can play its first move."""
    if not leads_double_move(game):
        return ()
    team = team_of(game.player_on_move)
    final = len(game.history) == polish.final_turn(game.abc_start)
    return tuple(Choice(game.players[p], p) for p in members(team) if final or game.rack_counts[p] > 0)


def menu_items(
    game: Game,
    *,
    paused: bool,
    unnamed_blanks: bool,
    clock_started: bool,
    lang: str,
    referee_ok: tuple[str, str] | None = None,
    dispute_zero: bool = False,
    likely_letters: Sequence[str] = (),
    seats: Sequence[str] = (),
    exchange_announced: bool = False,
) -> list[Item]:
    """The items for the situation: game over, paused (challenge / referee), or a move in progress. The tile-set
    check and who starts (``device.table_start``: ``seats`` are the configured players in seating order) are
    offered before the clock starts; the check after the
    game too. ``referee_ok`` = (label, whom) of an action that
    waits for the referee's confirmation: then only that question is offered ("Napomenutí?" > "ano: Eva"). A
    blank's letters start with ``likely_letters``."""
    items: list[Item] = []
    if referee_ok is not None:
        label, whom = referee_ok
        yes = Choice(f"{text('yes', lang)}: {whom}", True)
        return [Item("referee_ok", f"{label}?", (yes, Choice(text("no", lang), False)))]
    if dispute_zero:
        return [dispute_zero_item(lang)]
    if game.ended is not None:
        if game.pending is not None:  # the play that closed the game was challenged: the ruling first
            return [_ruling_item(lang)]
        if game.appealable:
            items.append(_appeal_item(lang))
        if game.correctable:  # 004 "platně zahrál": the closing play (or the playout's last) is announced and
            items += challenge_items(game, lang)  # may be challenged like any other
            items += announce_items(game, lang)
        if game.racks_needed:
            items.append(
                Item("racks", text("racks", lang), letter_choices(game, lang, with_blank=True), repeat=True,
                     head=text("racks_head", lang), confirm=True)
            )
        items += correction_items(game, lang)
        if game.ended not in NOT_DISPUTED:
            items.append(dispute_forfeit_item(game, lang))
        items.append(Item("new_game", text("new_game", lang), confirm=True))
        items.append(Item("check", text("check", lang)))
        return items
    if game.pending is not None:
        return [_ruling_item(lang)]
    if game.appealable:
        items.append(_appeal_item(lang))
    items += set_ruling_items(game, lang)
    if paused:
        items.append(Item("resume", text("resume", lang)))
        return items + referee_items(game, lang) + correction_items(game, lang)
    if unnamed_blanks:
        items.append(
            Item("blank", text("blank", lang), letter_choices(game, lang, with_blank=False, first=likely_letters),
                 repeat=True, head=text("blank_head", lang))
        )
    first = plays_first_choices(game)
    if len(first) > 1:
        items.append(Item("plays_first", text("plays_first", lang), first))
    items += challenge_items(game, lang)
    items += exchange_challenge_items(game, lang)
    items += announce_items(game, lang)
    items.append(Item("pass", text("pass", lang), confirm=True))
    if exchange_announced:  # the player's press ends the move with it; or it is called off
        items.append(Item("exchange_cancel", text("exchange_cancel", lang)))
    if not game.exchange_refused():  # not in round C (004); too few in the bag is the opponent's challenge (000)
        counts = tuple(Choice(str(n), n) for n in range(1, 8))
        items.append(Item("exchange", text("exchange", lang), counts, confirm=True))
    items.append(Item("pause", text("pause", lang)))
    # doubles: the team resigns (its first-listed player's index); the question names it without spaces so that
    # it fits a 16-column LCD ("Vzdává Petr+Ivo?")
    sides = [Choice(name, p, short=name.replace(" + ", "+")) for p, name in enumerate(game.side_names)]
    items.append(Item("resign", text("resign", lang), (*sides, _back(lang)), head=text("resign_head", lang), confirm=True))
    if game.ruleset.blank_swap:
        blanks = [sq for sq, tile in game.board.occupied() if tile.blank]
        if blanks:
            items.append(Item("swap_blank", text("swap_blank", lang),
                              (*(Choice(sq.notation(Notation.for_language(lang)), sq.index) for sq in blanks),
                               _back(lang))))  # fmt: skip
    items += referee_items(game, lang)
    items.append(Item("new_game", text("new_game", lang), confirm=True))
    if start_offered(game, clock_started, seats):
        items += start_items(game, seats, lang)
    if not game.history and not clock_started:
        items.append(Item("check", text("check", lang)))
    return items


def set_ruling_items(game: Game, lang: str) -> list[Item]:
    """The tile-set check found the set wrong and the referee is called (004 "přivolají rozhodčího ... Rozhodčí
    zjedná nápravu"): the referee's decision, the set put right or the game played with the set as found; the game
    waits for it (a re-check that finds the set complete records it put right)."""
    if game.set_ruling != "called" or game.history:
        return []
    choices = (Choice(text("set_put_right", lang), "put_right"), Choice(text("set_as_found", lang), "as_found"))
    return [Item("set_ruling", text("set_ruling", lang), (*choices, _back(lang)), confirm=True)]


def _ruling_item(lang: str) -> Item:
    return Item("ruling", text("ruling", lang), _yes_no(lang, "upheld", "rejected"))


def _appeal_item(lang: str) -> Item:
    return Item("appeal", text("appeal", lang), _yes_no(lang, "for_appellant", "against"))


def challenge_items(game: Game, lang: str) -> list[Item]:
    """The challenges of the open play (004): a word of it, its announced score once announced, how it was placed
    when it broke the placing rules and that is not ruled yet; nothing when no play is open."""
    words = open_move_words(game)
    if not words:
        return []
    items = [Item("challenge_word", text("challenge_word", lang), tuple(Choice(w, i) for i, w in enumerate(words)))]
    om = game.open_move
    assert om is not None  # words come from the open play
    open_play = game.history[om.index]
    if open_play.announced is not None:
        items.append(Item("challenge_score", text("challenge_score", lang)))
    if open_play.irregular and not om.placement_ruled:
        items.append(Item("challenge_placement", text("challenge_placement", lang)))
    return items


def exchange_challenge_items(game: Game, lang: str) -> list[Item]:
    """The challenge of an open exchange made with too few tiles in the bag (000: "Protest lze podat i na
    neoprávněnou výměnu"): the referee checks the bag by touch and rules; the table never refuses the exchange."""
    om = game.open_move
    if om is None or game.history[om.index].kind is not MoveKind.EXCHANGE:
        return []
    return [Item("challenge_exchange", text("challenge_exchange", lang))]


def announce_items(game: Game, lang: str) -> list[Item]:
    """The announced score of the open play (004: part of the move): the table's score confirmed, or the
    player's own entered digit by digit. Offered until entered or ruled on."""
    index = doubles.announce_target(game)
    if index is None or game.history[index].announced is not None:
        return []
    table_score = game.history[index].engine_score
    digits = tuple(Choice(str(d), str(d)) for d in range(10))
    return [
        Item("announce_ok", text("announce_ok", lang).format(score=table_score)),
        Item("announce", text("announce", lang), (*digits, Choice(text("done", lang), "done"),
                                                   Choice(text("back", lang), "back")), repeat=True,
             head=text("announce_head", lang)),
    ]  # fmt: skip


def referee_items(game: Game, lang: str) -> list[Item]:
    """The referee's flows (004): no-show, a challenge of a rack count or of the score sheet, a rack count put
    right at once, warnings and disqualification. The ones that end a game or sanction a player are confirmed
    by the referee (``referee_ok``)."""
    names = game.players
    on_move = game.player_on_move
    items: list[Item] = []
    absent = game.not_seen()
    if absent:
        choices = [Choice(names[p], (p,)) for p in absent]
        if len(absent) == game.player_count:
            choices.append(Choice(text("nobody_came", lang), absent))
        items.append(Item("no_show", text("no_show", lang), (*choices, _back(lang))))
    others = tuple(Choice(names[p], p) for p in range(game.player_count)
                   if game.side_of(p) != game.side_of(on_move))  # the opponents (doubles: not the partner)
    items.append(Item("challenge_rack", text("challenge_rack", lang), (*others, _back(lang))))
    items.append(Item("challenge_sheet", text("challenge_sheet", lang), (*others, _back(lang))))
    steps = (-1, 1, 2, 3) if game.ruleset.rack_over_limit else (-1, 1)
    size = game.ruleset.scoring.rack_size
    reports = [
        Choice(f"{names[p]} {game.rack_counts[p] + d}", (p, game.rack_counts[p] + d))
        for p in range(game.player_count)
        for d in steps
        if 0 <= game.rack_counts[p] + d <= size + 3
    ]
    items.append(Item("rack_report", text("rack_report", lang), (*reports, _back(lang))))
    warned = tuple(Choice(f"{names[p]} ({game.warnings(p) + 1}.)", p) for p in range(game.player_count))
    items.append(Item("warning", text("warning_give", lang), (*warned, _back(lang))))
    items.append(Item("disqualify", text("disqualify", lang), (*(Choice(n, p) for p, n in enumerate(names)),
                                                                 _back(lang))))  # fmt: skip
    return items


CORRECTION = "correction_"
"""The kind of a side's correction item is this and the side's number (``correction_0``)."""
MINUS = "-"
"""The sign a corrected score may start with."""
NOT_DISPUTED = (EndReason.FORFEIT, EndReason.DISPUTE_FORFEIT)
"""Ends the referee cannot forfeit over cleared tiles: a no-show (nothing on the board) and a dispute forfeit."""
VOID = -1
"""The value of the 0:0 choice of the dispute forfeit (no winner)."""
ZERO_VOID, ZERO_DRAW = "void", "draw"
"""The values of the dispute's 0:0 question: void (no draw points) or a draw."""


def correction_items(game: Game, lang: str) -> list[Item]:
    """The referee settles a score the sheets disagree on (004 E "Pokud se hráči neshodnou na souladu svých
    partiářů, přivolají rozhodčího, který rozhodne o způsobu řešení situace"): one item per player (doubles: per
    team, by its tag as the LCD shows its score), the corrected score entered digit by digit (``-`` first for a negative one) and confirmed. Offered
    after the game and while the clock is paused for the referee; not after a fixed result."""
    if not game.correctable:
        return []
    keys = (Choice(MINUS, MINUS), *(Choice(str(d), str(d)) for d in range(10)),
            Choice(text("done", lang), DONE), _back(lang))  # fmt: skip
    return [Item(f"{CORRECTION}{side}", text("correction", lang).format(name=name), keys, repeat=True, head=name,
                 confirm=True) for side, name in enumerate(side_labels(game, lang))]  # fmt: skip


def side_labels(game: Game, lang: str) -> tuple[str, ...]:
    """Whose score the LCD shows: the players' names, or in doubles the teams' tags (``D1``, ``D2``)."""
    if game.doubles:
        return tuple(text("team_tag", lang).format(n=side + 1) for side in range(len(game.side_names)))
    return game.side_names


def corrected_score(picked: Sequence[object]) -> int | None:
    """The score a correction item's picked keys spell (``("-", "1", "5")`` -> -15), or None if they spell none."""
    keys = "".join(str(p) for p in picked)
    digits = keys.removeprefix(MINUS)
    if not digits.isdigit() or len(digits) > 4:
        return None
    return -int(digits) if keys.startswith(MINUS) else int(digits)


def dispute_forfeit_item(game: Game, lang: str) -> Item:
    """004 E: the tiles were cleared before the referee accepted the sheets and the dispute cannot be settled
    without them: the referee forfeits the game 100:0, 0:100 or 0:0 ("podle povahy sporu a podle toho, který
    z hráčů kameny odklidil"). A choice per player (doubles: team) who wins (``forfeit_points`` : 0), then nobody
    ("nikdo": 0:0); confirmed ("Vítěz Anna?": short enough for a 16x2 LCD)."""
    winners = tuple(Choice(name, side) for side, name in enumerate(side_labels(game, lang)))
    return Item("dispute_forfeit", text("dispute_forfeit", lang),
                (*winners, Choice(text("forfeit_void", lang), VOID), _back(lang)), head=text("forfeit_winner", lang),
                confirm=True)  # fmt: skip


def dispute_zero_item(lang: str) -> Item:
    """The referee forfeited the dispute 0:0; 004 E does not say whether a 0:0 gives draw points (the double
    no-show's 0:0 gives none), so the table asks: void, no points ("bez bodů"), or a draw ("remíza"); confirmed
    ("0:0 remíza?"). Offered alone until answered (``dispute_zero`` of ``menu_items``)."""
    return Item("dispute_zero", text("forfeit_zero", lang),
                (Choice(text("forfeit_no_points", lang), ZERO_VOID), Choice(text("forfeit_draw", lang), ZERO_DRAW)),
                head="0:0", confirm=True)  # fmt: skip


def _back(lang: str) -> Choice:
    return Choice(text("back", lang), "back")
