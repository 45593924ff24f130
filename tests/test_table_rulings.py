"""Rulings the table must get right through a tournament day (issue 26): the tiles of a timed-out move, who must
press after a time-out in every variant, an exchange the opponent may challenge, and the exchange that ends with
the player's press; on fake time through the table rig."""

from __future__ import annotations

import pytest
from table_rig import Rig

from device.screens import render
from engine.game import MoveKind

A, B = 0, 1
DOUBLES = ("Jan", "Petr", "Eva", "Ivo")


def variant_rig(tmp_path, variant: str) -> Rig:
    if variant == "singles":
        rig = Rig(tmp_path)
    else:
        rig = Rig(tmp_path, clock=variant, players=DOUBLES, extra=f'ruleset = "{variant}"')
    rig.start()
    return rig


def opened(tmp_path, variant: str) -> Rig:
    """A table of the variant after the opening move: B starts the clock, the first player lays ROZUM at 8D."""
    rig = variant_rig(tmp_path, variant)
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    return rig


def move_time(rig: Rig) -> float:
    return rig.table.clock.mode.move_time


# ---- 1. the tiles of a timed-out move ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["singles", "prague", "polish"])
def test_tiles_left_by_a_timed_out_move_are_taken_back_never_scored_for_the_opponent(tmp_path, variant):
    """004 "Při ztrátě práva na tah hráč žádné kameny ani nepokládá na desku": A lays ROZUM, the long signal ends
    the move, A presses late, B presses without laying a tile: not B's ROZUM; the table asks for the tiles back."""
    rig = variant_rig(tmp_path, variant)
    rig.press(B)  # B starts A's clock (doubles: team 2 starts Jan's)
    cells = rig.lay("ROZU", "8D")
    rig.advance(move_time(rig) + 1.0)  # the long signal: the move is lost
    game = rig.table.game
    assert game.history[0].kind is MoveKind.TIMEOUT
    assert rig.notice[0] == "Vrať kameny"
    rig.lay("ROZUM", "8D")  # the M laid after the signal, before the late press
    rig.press(A)  # the late press starts the next move
    assert sorted(map(tuple, rig.view["take_back"])) == sorted([*cells, (7, 7)])
    rig.press(B)  # nothing laid by B: ROZUM is not B's
    assert not any(game.scores) and all(m.kind is not MoveKind.PLAY for m in game.history)
    assert rig.notice[0] == "Vrať kameny"
    rig.lift([*cells, (7, 7)])
    assert rig.view["take_back"] == []
    rig.press(B)
    assert not any(game.scores) and game.history[-1].kind is MoveKind.PASS
    rig.close()


def test_the_tiles_to_take_back_after_a_time_out_survive_a_restart(tmp_path):
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    cells = rig.lay("ROZUM", "8D")
    rig.advance(121.0)
    rig.close()
    again = rig.restarted()
    assert sorted(map(tuple, again.view["take_back"])) == sorted(cells)
    again.press(A)
    again.press(B)
    assert again.table.game.scores == [0, 0]
    again.close()


def test_the_take_back_request_stays_until_the_board_is_clear_and_holds_the_next_move(tmp_path):
    """Issue 34: "Vrať kameny" stays on the LCD while the timed-out move's tiles lie: past its 15 s, after the late
    press (no ">Bedřich 1:59" while ROZUM lies: the next move's time stands at 2:00) and after a restart; once the
    last tile is lifted the next player's move time runs, in full."""
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    cells = rig.lay("ROZUM", "8D")
    rig.advance(121.0)
    rig.advance(20.0)  # the notice's own 15 s are over
    assert render(rig.view, "cs", 16, 2, 0, 2)[0].startswith("Vrať kameny"), render(rig.view, "cs", 16, 2, 0, 2)
    rig.press(A)  # the late press: B's move, held while the tiles lie
    rig.advance(10.0)
    rows = render(rig.view, "cs", 16, 2, 0, 2)
    assert rows[0].startswith("Vrať kameny") and rows[1].startswith("H4 H5"), rows
    assert rig.table.clock.player_on_move == B and rig.view["clock"]["move_left"] == pytest.approx(120.0)
    says = rig.view["says"]  # the page: not a referee's pause
    assert says["cs"]["next"] == "Vraťte kameny z desky: čas hráče Bedřich poběží, až bude deska čistá", says
    assert says["en"]["next_kind"] == "take_back" and says["en"]["next_player"] == B
    rig.close()
    again = rig.restarted()
    assert again.notice[0].startswith("Obnoveno")  # first the restart, then the tiles again
    again.advance(30.0)
    assert again.notice[0] == "Vrať kameny" and again.view["clock"]["move_left"] == pytest.approx(120.0)
    again.lift(cells[:2])
    assert again.notice == ["Vrať kameny", "H6 H7 H8"] and again.table.clock.paused
    again.lift(cells[2:])
    again.advance(10.0)
    assert again.notice is None and again.view["clock"]["move_left"] == pytest.approx(110.0)
    assert render(again.view, "cs", 16, 2, 1, 2)[0].startswith(">ty")
    again.close()


# ---- 2. who must press: the same on the LCD, the page and the buttons ------------------------------------------


def button_of(rig: Rig, player: int) -> int:
    """The button a player presses: their own, in doubles their team's (team 1 = A)."""
    return player % 2 if rig.table.game.doubles else player


def assert_one_presser(rig: Rig, name: str) -> None:
    """The LCD, the page (both languages) and the buttons agree that ``name`` must press to start the next move
    after a time-out: the other button changes nothing, ``name``'s starts the next move."""
    rig.advance(7.0)  # the time-out notice leaves the status row
    view = rig.view
    player = rig.table.game.players.index(name)
    assert rig.table.clock.state == "awaiting"
    assert render(view, "cs", 16, 2)[0].startswith(f"{name}: stiskni")
    assert view["says"]["cs"]["next"] == f"Čas vypršel, stiskne: {name}"
    assert view["says"]["en"]["next_player"] == player
    assert view["says"]["cs"]["times"][player] == "0.0"
    events = len(rig.table.game.events)
    rig.press(1 - button_of(rig, player))
    assert rig.table.clock.state == "awaiting" and len(rig.table.game.events) == events
    rig.press(button_of(rig, player))
    assert rig.table.clock.state == "running"


@pytest.mark.parametrize("variant", ["singles", "prague", "polish"])
def test_after_a_time_out_the_lcd_the_page_and_the_buttons_name_the_same_presser(tmp_path, variant):
    """Issue 26: team 1 ran out of time in its double move; the LCD said "Petr: stiskni", the page "stiskne: Jan"
    and Petr's button did nothing. Every variant: the player whose move timed out (Polish: who was on move when
    the team's time ran out) presses, and everything says so."""
    rig = opened(tmp_path, variant)  # the opening move: Anna's / Jan's
    names = rig.table.game.players
    if variant == "polish":  # team 2's double move, then team 1's runs out with Eva first, Jan on move
        rig.press(B)
        rig.press(B)
        rig.menu("plays_first", "Eva")
        rig.press(A)  # Eva passes; Jan is on move when the three minutes run out
    rig.advance(move_time(rig) + 1.0)
    assert rig.table.game.history[-1].kind is MoveKind.TIMEOUT
    timed_out = {"singles": names[1], "prague": names[1], "polish": "Jan"}[variant]
    assert_one_presser(rig, timed_out)
    rig.close()


def test_a_polish_double_move_lost_whole_names_its_first_player(tmp_path):
    """Team 2's three minutes run out before either move: Petr (first listed, on move) presses."""
    rig = opened(tmp_path, "polish")
    rig.advance(181.0)
    assert_one_presser(rig, "Petr")
    rig.close()


# ---- 13. the blank's question leaves once the blank is named --------------------------------------------------


def test_the_blank_question_leaves_the_lcd_once_the_blank_is_named_without_time_passing(tmp_path):
    """Issue 26: "Jaký je žolík?" stayed on the LCD after the blank was named (the simulator's manual time: no
    second passes)."""
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    rig.lay("ROZUm", "8D")
    rig.table.menu.close()
    rig.press(A)
    assert rig.notice[0] == "Jaký je žolík?"
    rig.menu_continue("M", "hotovo")
    assert rig.table.game.history[-1].words == ("ROZUm",)
    assert rig.notice is None
    assert all("žolík" not in row for row in render(rig.view, "cs", 16, 2))
    rig.close()


# ---- 11. the exchange ends with the player's press ---------------------------------------------------------------


def test_an_exchange_ends_with_the_press_never_with_tiles_laid_and_lapses_at_a_time_out(tmp_path):
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    rig.menu("exchange", "2", "ano")  # Anna announces "měním 2 kameny"
    cells = rig.lay("ROZUM", "8D")  # ... then lays a word: the table does not guess which she meant
    rig.press(A)
    assert rig.table.game.history == [] and rig.notice == ["Výměna 2", "sundej kameny"]
    rig.menu("exchange_cancel", "ano")
    rig.press(A)  # called off: the press takes the word
    assert rig.table.game.history[-1].words == ("ROZUM",)
    rig.menu("exchange", "7", "ano")  # Bedřich announces an exchange, but his time runs out
    rig.advance(121.0)
    assert rig.table.game.history[-1].kind is MoveKind.TIMEOUT
    assert "exchange_cancel" not in [i.kind for i in rig.table.menu.items]
    rig.press(B)  # his late press starts Anna's move
    rig.press(A)  # Anna presses with nothing new: a pass, not Bedřich's lapsed exchange
    assert rig.table.game.history[-1].kind is MoveKind.PASS
    assert cells
    rig.close()


def test_an_announced_exchange_survives_a_restart(tmp_path):
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    rig.menu("exchange", "4", "ano")
    rig.close()
    again = rig.restarted()
    assert again.table.game.history == [] and "exchange_cancel" in [i.kind for i in again.table.menu.items]
    again.press(A)
    move = again.table.game.history[-1]
    assert (move.kind, move.exchanged) == (MoveKind.EXCHANGE, 4)
    again.close()


def test_a_polish_exchange_is_one_move_of_the_double_move_ended_by_the_teams_press(tmp_path):
    rig = opened(tmp_path, "polish")
    rig.menu("exchange", "3", "ano")  # Petr's move of team 2's double move
    rig.press(B)
    game = rig.table.game
    assert [(m.player, m.kind) for m in game.history[1:]] == [(1, MoveKind.EXCHANGE)]
    assert game.player_on_move == 3 and rig.table.clock.player_on_move == 1  # Ivo: team 2's time runs on
    rig.close()


# ---- 5. an exchange with six or fewer tiles in the bag is the opponent's challenge -----------------------------


def short_bag_rig(tmp_path, variant: str) -> Rig:
    """A table whose ruleset wants more tiles in the bag for an exchange than a new game has (87 > 86)."""
    extra = "" if variant == "singles" else f'ruleset = "{variant}"\n'
    players = {} if variant == "singles" else {"clock": variant, "players": DOUBLES}
    rig = Rig(tmp_path, extra=extra + "[table.rules]\nexchange_min_bag = 87", **players)
    rig.start()
    return rig


@pytest.mark.parametrize("upheld", [True, False])
@pytest.mark.parametrize("variant", ["singles", "prague"])
def test_an_exchange_with_too_few_tiles_in_the_bag_is_recorded_and_the_referee_rules(tmp_path, variant, upheld):
    """000 "Protest lze podat i na neoprávněnou výměnu (situaci, kdy je v sáčku 6 a méně kamenů) ... pokud je
    protest úspěšný, hráč, který chtěl vyměnit kameny ztrácí svůj tah bez výměny": the table used to refuse it."""
    rig = short_bag_rig(tmp_path, variant)
    rig.press(B)
    rig.menu("exchange", "3", "ano")
    rig.press(A)
    game = rig.table.game
    assert game.history[-1].kind is MoveKind.EXCHANGE and game.history[-1].exchanged == 3
    rig.menu("challenge_exchange", "ano")
    assert rig.table.clock.paused and game.pending is not None
    rig.menu("ruling", "oprávněná" if upheld else "neoprávněná")
    assert game.history[0].kind is (MoveKind.WITHDRAWN if upheld else MoveKind.EXCHANGE)
    assert game.crosses[1] == (0 if upheld else 1)
    assert rig.view["take_back"] == [] and not rig.table.clock.paused
    assert "challenge_exchange" not in [i.kind for i in rig.table.menu.items]
    rig.close()


def test_an_exchange_with_enough_tiles_in_the_bag_offers_no_challenge(tmp_path):
    rig = variant_rig(tmp_path, "singles")
    rig.press(B)
    rig.menu("exchange", "3", "ano")
    rig.press(A)
    assert "challenge_exchange" not in [i.kind for i in rig.table.menu.items]
    rig.close()


# ---- 4. a tile missing at the set check is the referee's ---------------------------------------------------------


@pytest.mark.parametrize("ruling", ["put_right", "as_found", "recheck"])
def test_a_tile_missing_at_the_set_check_waits_for_the_referee_who_rules_on_record(tmp_path, ruling):
    """004 "při zjištění okolností bránících řádné hře přivolají rozhodčího ... Rozhodčí zjedná nápravu": the check
    used to accept "chybí A" and let the game start with 99 tiles without the referee."""
    from engine.scoresheet import sheet
    from shared.journal import read_journal

    rig = variant_rig(tmp_path, "singles")
    rig.lay_check_square([(0, 0)])  # the first A is missing
    rig.menu("check", "ano")
    game = rig.table.game
    assert rig.notice == ["chybí A", "navíc -"]
    assert game.set_ruling == "called" and game.bag_count == 100 - 14  # not yet a 99-tile game
    assert rig.table.menu.open and rig.table.menu.chosen.kind == "set_ruling"
    rig.table.menu.close()
    rig.press(B)  # the game does not start while the referee is called
    assert not rig.table.clock.started and rig.notice == ["Sada neúplná", "volej rozhodčího"]
    again = rig.restarted()  # the question survives a restart: it is journaled
    rig = again
    assert rig.table.game.set_ruling == "called"
    if ruling == "recheck":  # the referee brings the tile; the players check again
        rig.grid[0][0] = "A"
        rig.send([(0, 0)])
        rig.menu("check", "ano")
    else:
        rig.menu("set_ruling", "doplněna" if ruling == "put_right" else "hrát s ní", "ano")
    game = rig.table.game
    expected = "as_found" if ruling == "as_found" else "put_right"
    last = list(read_journal(rig.config.journal_path))[-1]
    assert (last["type"], last["missing"], last["referee"]) == ("set_checked", "A", expected)
    assert game.bag_count == (99 if ruling == "as_found" else 100) - 14
    header = dict(sheet(game).header)
    assert header["Kontrola sady"] == "chybí A, navíc — (" + (
        "rozhodčí: hraje se s ní)" if ruling == "as_found" else "rozhodčí: sada doplněna)")
    for r in range(10):
        rig.lift([(r, c) for c in range(10)])
    rig.press(B)
    assert rig.table.clock.started
    rig.close()


def assert_on_move(rig: Rig) -> int:
    """While a move runs, the LCD's player on move, the page's and the button that ends the move are the same
    player; returns that player."""
    view = rig.view
    player = view["says"]["cs"]["next_player"]
    name = rig.table.game.players[player]
    assert view["says"]["cs"]["next_kind"] == "on_move" and rig.table.game.player_on_move == player
    assert name in render({**view, "notice": None, "menu": None}, "cs", 16, 2)[0]
    events = len(rig.table.game.events)
    rig.press(1 - button_of(rig, player))  # the other button ends no move
    assert len(rig.table.game.events) == events and view["says"]["cs"]["next_player"] == player
    return player


@pytest.mark.parametrize("variant", ["singles", "prague", "polish"])
def test_while_a_move_runs_the_lcd_the_page_and_the_buttons_agree_after_every_kind_of_move_end(tmp_path, variant):
    rig = variant_rig(tmp_path, variant)
    rig.press(B)
    player = assert_on_move(rig)
    rig.lay("ROZUM", "8D")
    rig.press(button_of(rig, player))  # a play
    assert_on_move(rig)
    rig.advance(move_time(rig) + 1.0)  # a time-out, then the late press
    rig.press(button_of(rig, rig.view["must_press"]))
    player = assert_on_move(rig)
    rig.press(button_of(rig, player))  # a pass
    player = assert_on_move(rig)
    rig.lay("K", "E7")
    rig.press(button_of(rig, player))  # a play (four scoreless turns in a row would end the game)
    player = assert_on_move(rig)
    rig.menu("exchange", "2", "ano")
    rig.press(button_of(rig, player))  # an exchange
    player = assert_on_move(rig)
    rig.lay("A", "H9")
    rig.press(button_of(rig, player))  # a play, then its challenge upheld
    if rig.table.game.open_move is None:  # Polish: the challenge comes after the double move
        player = assert_on_move(rig)
        rig.press(button_of(rig, player))
    rig.menu("challenge_word", "MA")
    rig.menu("ruling", "oprávněná")
    rig.lift([(8, 7)])
    assert_on_move(rig)
    assert rig.table.game.ended is None
    rig.close()
