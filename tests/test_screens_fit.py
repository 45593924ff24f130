"""Every screen the table shows fits every supported LCD (16x2, 20x2, 20x4) in Czech and English: no cut word.

A table (the real ``Table`` on a fake time source, ``tests/table_rig.py``) is walked through a game: the clock
before the start, moves, a challenge and its ruling, a referee pause, a blank the table waits for, a time-out,
the playout, the end with racks to enter and the final result, the board unplugged, a cell fault, the tile-set
check, every refusal reason; and every menu item with every one of its choices. Each view is rendered on one and
on two LCDs of each size; ``render(..., cuts=...)`` reports every text it had to cut, and none may be.
"""

from __future__ import annotations

import pytest
from table_rig import Rig

from device import inputs
from device.config import LCD_SIZES
from device.journal_referee import Report, report_lines
from device.menu import Menu
from device.screens import render, resumed_notice
from engine.placement import Reason
from shared.board_link.events import CellFault
from shared.journal import SetAside
from shared.texts import text

A, B = 0, 1


def views_of_a_game(rig: Rig) -> list[tuple[str, dict]]:
    """(what, view) for every kind of screen, menus and notices included."""
    out: list[tuple[str, dict]] = []
    table = rig.table

    def snap(what: str) -> None:
        out.append((what, table.view()))
        for kind in [item.kind for item in table.menu.items]:
            menu_views(what, kind)

    def menu_views(what: str, kind: str) -> None:
        menu = table.menu
        saved = (menu.open, menu.index, menu.chosen, menu.choice_index, list(menu.picked))
        menu.close()
        menu.open, menu.index = True, [i.kind for i in menu.items].index(kind)
        out.append((f"{what}: menu at {kind}", table.view()))
        menu.open_item(kind)
        item = menu.chosen
        for i in range(len(item.choices)):
            menu.choice_index = i
            if item.repeat:  # a head with letters picked: the longest the table makes (a 7-tile rack)
                menu.picked = ["Ž", "Š", "Č", "Ř", "Ď", "Ť", "Ň"][: 7 if kind == "racks" else 2]
            out.append((f"{what}: {kind} > {item.choices[i].label}", table.view()))
            menu.picked = []
        menu.close()
        menu.open, menu.index, menu.chosen, menu.choice_index, menu.picked = saved
        menu.index = min(menu.index, len(menu.items))

    def notice(key: str, *args: str) -> None:
        table._notify(tuple(args) or (text(key, table.lang), ""), 5.0)  # type: ignore[arg-type]
        out.append((f"notice {key}", table.view()))
        table.state.notice = None

    rig.start()
    snap("idle")
    rig.press(B)
    snap("running")
    rig.lay("ROZUM", "8D")
    rig.press(A)
    snap("after a move")
    rig.menu("challenge_word", "ROZUM")
    snap("challenge pending")
    rig.menu("ruling", text("rejected", table.lang))
    snap("after the ruling")
    rig.menu("pause", text("yes", table.lang))
    snap("referee pause")
    rig.menu("resume", text("yes", table.lang))
    cells = rig.lay("KOzO", "E5")
    rig.press(B)
    snap("waiting for the blank's letter")
    rig.lift(cells)
    rig.advance(125.0)
    snap("time-out: the timed-out player must press")
    rig.press(B)
    rig.press(A)
    table.handle(inputs.RoundCommand("end"))
    snap("playout round")
    for _ in (1, 2, 3):  # 004: after the third warning the chief referee is asked to disqualify
        rig.menu("warning", B)  # the second player
        rig.menu("referee_ok", f"{text('yes', table.lang)}: {table.game.players[B]}")
    rig.advance(5.0)
    out.append(("exclusion asked", table.view()))
    rig.menu_continue(text("no", table.lang))
    for key in ("warning", "timeout", "turn_lost", "base_time_over", "link_up", "refused", "set_ok"):
        notice(key)
    lang = table.lang
    notice("warning", text("warning", lang), text("ten_minutes", lang))
    notice("base_time_over", text("base_time_over", lang), text("round_abc", lang).format(r="C"))
    for move in (9, 99, 100, 999):  # the restart's one-line notice (the comma left out from move 100)
        notice(f"resumed at {move}", resumed_notice(move, lang))
    notice("timeout", text("timeout", lang), table.game.players[B])
    notice("take_back", text("take_back", lang), "H12 H13 H14 H15")
    notice("set_check", text("set_missing", lang).format(tiles="ŽŠ?"), text("set_extra", lang).format(tiles="AB"))
    # the card and the journal at start (device/journal_referee.py)
    for key in ("card_full", "card_error", "journal_differs"):
        notice(key, text(key, lang), text("call_referee", lang))
    for kind in (None, "play", "pass", "exchange", "challenge_word", "ruling", "appeal", "start"):
        notice(f"set aside {kind}", *report_lines([Report("x", (SetAside(312, kind, ""),))], lang))
    notice("set aside many", *report_lines([Report("x", tuple(SetAside(312 + i, None, "") for i in range(13)))], lang))
    for reason in Reason:
        notice(f"illegal {reason.name}", text("illegal", lang), text("reason_" + reason.name.lower(), lang))
    notice("lexicon", "ROZUMĚLI", text("word_unknown", lang))
    # the referee's flows (seed 004)
    notice("irregular", text("irregular", lang), text("press_again", lang))
    notice("announced", text("announced", lang).format(score=128),
           text("table_score", lang).format(score=118, diff=10))  # fmt: skip
    notice("warned", text("warned", lang).format(n=2), table.game.players[B])
    notice("beyond_set", text("beyond_set", lang).format(letters="ŽŽ"), text("call_referee", lang))
    notice("resigned", text("resigned", lang).format(name=table.game.players[B]), text("finish_move", lang))
    notice("resigned doubles", text("resigned", lang).format(name=text("team_tag", lang).format(n=1)),
           text("finish_double", lang))  # fmt: skip
    notice("swap_on_board", text("swap_on_board", lang), "O15")
    notice("no_show_q", text("no_show_q", lang), text("call_referee", lang))
    notice("journal_failed", text("journal_failed", lang), text("call_referee", lang))
    for kind in ("open", "short", "band"):
        table.handle(inputs.LinkEvent(CellFault(14, 14, kind)))
        out.append((f"cell fault {kind}", table.view()))
    rig.unplug()
    snap("board unplugged")
    rig.replug()
    while table.game.ended is None:  # passes until the game ends (scoreless turns)
        rig.press(table.game.player_on_move)
    snap("game over: racks to enter")
    rig.menu("racks", *"AEIOUNS", text("done", lang), text("yes", lang))
    rig.menu("racks", *"AEIOTNS", text("done", lang), text("yes", lang))
    assert table.game.result is not None
    snap("final result")
    rig.advance(4.0)
    snap("final result, second page")
    return out


LONG_NAMES = ("Bedřich Malý", "Bohumil Malý")
"""Two players whose names do not fit a 16x2 beside the time, and whose short forms must be told apart."""


@pytest.mark.parametrize("players", [("Anna", "Bedřich"), LONG_NAMES], ids=["short names", "long names"])
@pytest.mark.parametrize("lang", ["cs", "en"])
def test_every_screen_fits_every_lcd_size(tmp_path, lang: str, players: tuple[str, str]) -> None:
    rig = Rig(tmp_path, extra=f'language = "{lang}"', players=players)
    views = views_of_a_game(rig)
    assert len(views) > 250  # the walk reached the menus
    problems = []
    for what, view in views:
        for columns, lines in LCD_SIZES:
            for count in (1, 2):
                for index in range(count):
                    cuts: list[str] = []
                    rows = render(view, lang, columns, lines, index, count, cuts=cuts)
                    assert len(rows) == lines and all(len(r) == columns for r in rows)
                    if cuts:
                        problems.append(f"{columns}x{lines} LCD {index + 1}/{count}, {what}: cut {cuts} -> {rows}")
    rig.close()
    assert not problems, "\n".join(problems[:40])


def test_a_cut_is_reported() -> None:
    cuts: list[str] = []
    render({"notice": ["Příliš dlouhá zpráva na displej", ""]}, "cs", 16, 2, cuts=cuts)
    assert cuts == ["Příliš dlouhá zpráva na displej"]


def test_the_final_result_and_the_winner_show_on_both_lcds_until_a_new_game(tmp_path) -> None:
    rig = Rig(tmp_path)
    rig.start()
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    while rig.table.game.ended is None:
        rig.press(rig.table.game.player_on_move)
    assert render(rig.view, "cs", 16, 2, 0, 2) == ("Konec hry       ", "Kameny: Anna    ")
    rig.menu("racks", *"AEIOUNS", "hotovo", "ano")
    rig.menu("racks", *"AEIOTNS", "hotovo", "ano")
    rig.advance(30.0)  # the notices are gone; the result stays
    pages = set()
    for _ in range(2):
        pages.add(render(rig.view, "cs", 16, 2, 0, 2) + render(rig.view, "cs", 16, 2, 1, 2))
        rig.advance(4.0)
    assert pages == {
        ("Konec 10:-7     ", "Vítěz: Anna     ", "Konec -7:10     ", "Vítěz: Anna     "),
        ("Hráno 18:0      ", "Kameny -8:-7    ", "Hráno 0:18      ", "Kameny -7:-8    "),
    }
    assert render(rig.view, "cs", 20, 4, 1, 2) == (
        "Konec hry           ",
        "Bedřich -7   Anna 10",
        "Kameny -7:-8        ",
        "Vítěz: Anna         ",
    )
    rig.advance(3600.0)
    assert render(rig.view, "en", 20, 2, 0, 1)[1].startswith(("Winner: Anna", "Tiles -8:-7"))
    rig.menu("new_game", "ano")
    assert render(rig.view, "cs", 16, 2, 0, 1)[0] == "Spusť hodiny    "
    rig.close()


def test_menu_lines_are_the_menus_own() -> None:
    assert Menu().lines() == ("", "")  # closed: nothing overlays the screens


DOUBLES = ["Jan", "Petr", "Eva", "Ivo"]
LONG_DOUBLES = ["Bedřich Malý", "Jaroslava Nováková", "Bohumil Malý", "Květoslav Dvořák"]


@pytest.mark.parametrize("lang", ["cs", "en"])
@pytest.mark.parametrize("ruleset", ["cas", "prague", "polish"])
@pytest.mark.parametrize("long", [False, True], ids=["short names", "long names"])
def test_every_confirmation_fits_every_lcd_size(tmp_path, lang: str, ruleset: str, long: bool) -> None:
    """The "no / yes" question of every item that asks one (pass, exchange, resign: the side's name, in doubles
    the team's; the racks), with every value, before and after the first move, singles and doubles."""
    singles = {"players": LONG_NAMES} if long else {}
    doubles = singles if ruleset == "cas" else {"players": LONG_DOUBLES if long else DOUBLES, "clock": ruleset}
    rig = Rig(tmp_path, extra=f'language = "{lang}"\nruleset = "{ruleset}"', **doubles)
    problems: list[str] = []
    asked = set()

    def confirmations(what: str) -> None:
        menu = rig.table.menu
        for item in [i for i in menu.items if i.confirm or not i.choices]:
            for choice in item.choices or (None,):
                value = None if choice is None else choice.value
                if value == "back":
                    continue
                menu.close()
                menu.open, menu.index = True, [i.kind for i in menu.items].index(item.kind)
                menu.open_item(item.kind)
                if item.repeat:
                    menu.picked = ["Ž", "Š", "Č", "Ř", "Ď", "Ť", "Ň"]
                    value = tuple(menu.picked)
                menu.confirming = value
                asked.add(item.kind)
                view = rig.table.view()
                for columns, lines in LCD_SIZES:
                    cuts: list[str] = []
                    rows = render(view, lang, columns, lines, 0, 2, cuts=cuts)
                    if cuts:
                        problems.append(f"{columns}x{lines}, {what}, {item.kind}={value!r}: cut {cuts} -> {rows}")
                menu.close()

    rig.start()
    rig.press(B)
    confirmations("first move")
    rig.lay("ROZUM", "8D")
    rig.press(A)
    confirmations("after a move")
    rig.close()
    assert {"pass", "exchange", "resign"} <= asked
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize(("lang", "passed", "exchanged", "taken_back"),
                         [("cs", "Pas", "Výměna", "ROZUM vzato zpět"),
                          ("en", "Pass", "Exchange", "ROZUM taken back")])  # fmt: skip
def test_the_last_move_row_names_every_kind_of_turn_in_the_lcds_language(tmp_path, lang, passed, exchanged,
                                                                         taken_back) -> None:  # fmt: skip
    """20x4's third row: a play as ``ROZUM H4V +18``; a pass, an exchange or a play taken back after an upheld
    challenge in words (it said ``pass +0`` and ``exchange +0`` on a Czech LCD, and the taken-back play with its
    position as if it stood)."""
    rig = Rig(tmp_path, extra=f'language = "{lang}"')
    yes = text("yes", lang)
    rig.start()
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    assert render(rig.view, lang, 20, 4)[2].startswith("ROZUM " + ("H4V" if lang == "cs" else "8D") + " +18")
    rig.press(B)
    assert render(rig.view, lang, 20, 4)[2] == passed.ljust(20)
    rig.menu("exchange", "3", yes)
    rig.press(A)
    assert render(rig.view, lang, 20, 4)[2] == exchanged.ljust(20)
    cells = rig.lay("SO", "7D")  # above the R and the O of ROZUM
    rig.press(B)
    rig.menu("challenge_word", "SO")
    rig.menu("ruling", text("upheld", lang))
    assert render(rig.view, lang, 20, 4)[2].startswith(text("take_back", lang))
    rig.lift(cells)  # the order to take the tiles back goes with them
    assert render(rig.view, lang, 20, 4)[2] == taken_back.replace("ROZUM", "SO").ljust(20)
    rig.close()
