"""Prague and Polish doubles at the table (seed 003): the teams' buttons, the clock's sides, the LCD texts, the
menu's flows per team, the journal and the resume after a power cut; on fake time through the table rig."""

from __future__ import annotations

import pytest
from table_rig import Rig

from device import inputs
from device.config import parse_config
from device.errors import ConfigError
from device.screens import render
from engine.game import EndReason, MoveKind
from shared.journal import read_journal

A, B = 0, 1  # the buttons: team 1 (Jan + Eva), team 2 (Petr + Ivo)
PLAYERS = ("Jan", "Petr", "Eva", "Ivo")


def doubles_rig(tmp_path, variant: str, **kw) -> Rig:
    rig = Rig(tmp_path, clock=variant, players=PLAYERS, extra=f'ruleset = "{variant}"', **kw)
    rig.start()
    return rig


def lcd(rig: Rig, columns: int = 16, lines: int = 2) -> tuple[str, ...]:
    return render(rig.view, "cs", columns, lines)


# ---- the config --------------------------------------------------------------------------------------------


def test_doubles_config_needs_four_players_and_its_own_clock(tmp_path):
    """003: two teams of two; the clock of the variant (Prague 2 min per move, Polish 3 min per double move)."""
    with pytest.raises(ConfigError, match="need 4 names"):
        parse_config('[table]\nruleset = "prague"\nplayers = ["Jan", "Eva"]')
    with pytest.raises(ConfigError, match="run the 'polish' clock"):
        parse_config(f'[table]\nruleset = "polish"\nclock = "cas"\nplayers = {list(PLAYERS)!r}'.replace("'", '"'))
    config = parse_config(f'[table]\nruleset = "polish"\nplayers = {list(PLAYERS)!r}'.replace("'", '"'))
    assert config.clock == "polish"


# ---- Prague doubles ----------------------------------------------------------------------------------------


def test_prague_clock_has_a_side_per_player_and_the_teams_press(tmp_path):
    """003 Prague: "Hráči se ve hře střídají zásadně po směru hodinových ručiček", "dvě minuty na tah a 35 min
    na partii": four clock sides of 2 minutes; team 2's button starts Jan's move, each team presses after its
    player's move; the LCD says which team and which player is on move."""
    rig = doubles_rig(tmp_path, "prague")
    clock = rig.table.clock
    assert (clock.mode.sides, clock.mode.move_time, clock.mode.game_time) == (4, 120.0, 2100.0)
    rig.press(B)  # team 2 starts the clock for Jan (004: the opponent starts the clock)
    assert clock.player_on_move == 0
    assert lcd(rig)[0].startswith("D1>Jan")
    rig.lay("ROZUM", "8D")
    rig.press(A)
    assert rig.table.game.history[-1].player == 0 and clock.player_on_move == 1
    assert lcd(rig)[0].startswith("D2>Petr") and lcd(rig)[1].startswith("18:0")
    before = len(rig.table.game.events)
    rig.press(A)  # team 1 is not on move
    assert len(rig.table.game.events) == before and clock.player_on_move == 1
    rig.lay("DOMOV", "E7")
    rig.press(B)
    assert clock.player_on_move == 2 and lcd(rig)[0].startswith("D1>Eva")
    assert rig.view["clock"]["move_left"] == pytest.approx(120.0)
    rig.close()


def test_prague_rejected_challenge_gives_the_team_a_cross_and_the_third_costs_its_next_turn(tmp_path):
    """003: "Křížek za neoprávněný protest dostává dvojice ... Za třetí a další křížek ztrácí dvojice jeden tah, a
    to hráč, který je dřív na tahu": from the menu, three rejected challenges by Petr and Ivo; the clock skips the
    team's next player."""
    rig = doubles_rig(tmp_path, "prague")
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.menu("challenge_word", "ROZUM")
    rig.menu("ruling", "neoprávněná")  # Petr: cross 1
    rig.menu("appeal", "zamítnuto")  # his appeal fails: cross 2 (004)
    rig.menu("pass", "ano")  # Petr passes
    rig.lay("K", "E7")  # Eva: KO
    rig.press(A)
    game = rig.table.game
    assert game.history[-1].player == 2 and game.history[-1].words == ("KO",)
    rig.menu("challenge_word", "KO")  # Ivo challenges Eva's play: rejected, the team's third cross
    rig.menu("ruling", "neoprávněná")
    assert game.crosses == [0, 3] and game.turns_owed == [0, 1]
    rig.menu("pass", "ano")  # Ivo's turn in progress; Jan next
    rig.menu("pass", "ano")  # Jan passes: Petr's turn is the one lost, Eva is on move
    assert game.history[-1].kind is MoveKind.PENALTY and game.history[-1].player == 1
    assert game.player_on_move == 2 and rig.table.clock.player_on_move == 2
    rig.close()


# ---- Polish doubles ----------------------------------------------------------------------------------------


def polish_opening(rig: Rig) -> None:
    """Jan's single opening move, then Petr's first move of team 2's double move."""
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.advance(20.0)
    rig.press(A)
    rig.lay("K", "E7")  # Petr: K above the O of ROZUM: KO
    rig.advance(30.0)
    rig.press(B)


def test_polish_clock_has_two_team_sides_and_the_first_press_keeps_the_teams_time(tmp_path):
    """003 Polish: "Na dvojtah má dvojice tři minuty, hodiny se zmáčknou až po druhém tahu dvojice. Nechtěné
    zmáčknutí hodin po odehrání prvního hráče ... bude tolerováno s tím, že druhý hráč by měl svůj tah odehrát":
    2 clock sides (the teams) of 3 minutes, not 4; the press after Petr's move records it and team 2's time runs
    on for Ivo; the press after Ivo's ends the double move."""
    rig = doubles_rig(tmp_path, "polish")
    clock = rig.table.clock
    assert (clock.mode.sides, clock.mode.move_time, clock.mode.game_time) == (2, 180.0, 2100.0)
    polish_opening(rig)
    game = rig.table.game
    assert [m.player for m in game.history] == [0, 1]
    assert clock.player_on_move == 1 and rig.view["clock"]["move_left"] == pytest.approx(150.0)
    assert lcd(rig)[0].startswith("D2>Ivo 2/2")
    assert "challenge_word" not in [item.kind for item in rig.table.menu.items]  # only after the double move
    rig.table.handle(inputs.ButtonPressed(B))  # a bounce within the debounce time is not Ivo's move
    rig.advance(0.1)
    rig.table.handle(inputs.ButtonPressed(B))
    assert len(game.history) == 2
    rig.advance(5.0)
    rig.lay("A", "H9")  # Ivo: A under the M of ROZUM: MA
    rig.press(B)
    assert [m.player for m in game.history] == [0, 1, 3]
    assert clock.player_on_move == 0 and rig.view["clock"]["move_left"] == pytest.approx(180.0)
    assert lcd(rig)[0].startswith("D1>Jan 1/2")
    rig.close()


def test_polish_who_plays_first_is_chosen_on_the_menu(tmp_path):
    """003: "domluvy, kdo pojede jako první a kdo jako druhý („Pojedu já“, resp. „Jeď ty“)": before the team's
    double move the menu offers who plays first; the LCD follows."""
    rig = doubles_rig(tmp_path, "polish")
    polish_opening(rig)
    rig.lay("A", "H9")
    rig.advance(5.0)
    rig.press(B)
    rig.menu("plays_first", "Eva")
    game = rig.table.game
    assert game.player_on_move == 2 and lcd(rig)[0].startswith("D1>Eva 1/2")
    assert [r["type"] for r in read_journal(rig.config.journal_path)][-1] == "plays_first"
    rig.close()


def test_polish_challenge_after_the_double_move_takes_back_both_plays(tmp_path):
    """003: "Námitky se podávají až po dvojtahu ... Pokud je první tah neplatný a druhý na něj navazuje, je
    neplatný i druhý tah": Jan challenges Petr's KO (the first play); Ivo's KOK builds on it: both come off."""
    rig = doubles_rig(tmp_path, "polish")
    polish_opening(rig)
    rig.lay("K", "E6")  # Ivo: K above Petr's K: KKO down column E builds on Petr's tile
    rig.advance(5.0)
    rig.press(B)
    words = [item for item in rig.table.menu.items if item.kind == "challenge_word"][0]
    assert [c.label for c in words.choices] == ["KO", "KKO"]
    rig.menu("challenge_word", "KO")
    rig.menu("ruling", "oprávněná")
    game = rig.table.game
    assert [m.kind for m in game.history[1:]] == [MoveKind.WITHDRAWN, MoveKind.WITHDRAWN]
    assert sorted(map(tuple, rig.view["take_back"])) == [(5, 4), (6, 4)]
    assert rig.table.clock.player_on_move == 0 and rig.view["clock"]["move_left"] == pytest.approx(180.0)
    rig.close()


def test_polish_time_out_loses_the_double_move(tmp_path):
    """003 "Na dvojtah má dvojice tři minuty": the team's three minutes run out: both its moves are lost."""
    rig = doubles_rig(tmp_path, "polish")
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.advance(181.0)
    game = rig.table.game
    assert [(m.player, m.kind) for m in game.history[1:]] == [(1, MoveKind.TIMEOUT), (3, MoveKind.TIMEOUT)]
    assert rig.notice == ["Čas vypršel", "Petr + Ivo"]
    rig.press(B)  # 004: the team whose time ran out starts the other team's
    assert rig.table.clock.player_on_move == 0 and game.player_on_move == 0
    rig.close()


def test_polish_resume_after_a_power_cut_mid_double_move(tmp_path):
    """The journal and the clock checkpoint bring back the game and team 2's time left between Petr's and Ivo's
    moves (2 team sides, not 4)."""
    first = doubles_rig(tmp_path, "polish")
    polish_opening(first)
    first.advance(10.0)
    before = first.view["game"]
    first.close()
    second = Rig(tmp_path, clock="polish", players=PLAYERS, extra='ruleset = "polish"', time=type(first.time)(9000.0))
    assert second.start() is True
    assert second.view["game"] == before
    assert second.table.clock.mode.sides == 2 and second.table.clock.player_on_move == 1
    assert second.view["clock"]["move_left"] == pytest.approx(140.0, abs=2.5)
    second.lay("A", "H9")
    second.advance(5.0)
    second.press(B)
    assert [m.player for m in second.table.game.history] == [0, 1, 3]
    second.close()


def test_polish_playout_at_the_table(tmp_path):
    """003 "Ukončení partie dohrávkou": the chief referee ends the base time while Ivo is to play the second move
    of team 2's double move: Ivo finishes it (A); team 1 plays its double move (B); team 2 plays its double move
    without drawing and team 1's player who drew - Eva, chosen on the menu - plays the final move (C). Each press
    follows the team clock; then the game is over."""
    from device import inputs
    from engine.game import EndReason, Phase

    rig = doubles_rig(tmp_path, "polish")
    polish_opening(rig)
    rig.table.handle(inputs.RoundCommand("end"))
    game = rig.table.game
    assert game.abc_start == 2
    steps = [(B, "A", "H9"), (A, None, None), (A, "Y", "I8"), (B, None, None), (B, None, None)]
    for button, word, at in steps:
        if word:
            rig.lay(word, at)
        rig.advance(10.0)
        rig.press(button)
    assert [m.phase for m in game.history[2:]] == [Phase.A, Phase.B, Phase.B, Phase.C, Phase.C]
    assert rig.table.clock.player_on_move == 0 and rig.view["game"]["teams"]["double_turn"] == 0
    rig.menu("plays_first", "Eva")  # Eva drew after team 1's double move: she plays the final move
    rig.advance(10.0)
    rig.press(A)
    assert game.ended is EndReason.PLAYOUT and game.history[-1].player == 2
    assert sum(m.player % 2 == 0 for m in game.history) == sum(m.player % 2 == 1 for m in game.history) == 4
    assert rig.table.clock.stopped and "Konec hry" in lcd(rig)[0] + lcd(rig)[1]
    rig.close()


def test_the_team_resigns_from_the_menu(tmp_path):
    """004 "Hráč partii vzdá ... Pokud je v okamžiku vzdání partie na tahu soupeř, má právo dohrát svůj tah": in
    doubles the menu names the teams; team 1 resigns while team 2 is on move: Petr finishes his move first."""
    rig = doubles_rig(tmp_path, "prague")
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    resign = [item for item in rig.table.menu.items if item.kind == "resign"][0]
    assert [c.label for c in resign.choices][:2] == ["Jan + Eva", "Petr + Ivo"]
    rig.menu("resign", "Jan + Eva", "ano")
    game = rig.table.game
    assert game.ended is None and rig.notice == ["D1 vzdává", "dohraj tah"]  # the team's tag: fits a 16x2 LCD
    rig.lay("K", "E7")
    rig.advance(5.0)
    rig.press(B)
    assert game.team_result is not None and game.team_result.final == (0, 100)
    rig.close()


def test_polish_words_for_the_page_and_the_announced_score_of_the_first_move(tmp_path):
    """The simulator page's sentences (device.announce) name the player on move, not the clock's team side; the
    first move's score is confirmed from the menu before the second move (003: "musejí oznamovat bodovou hodnotu
    tahu"); the result on the page is the teams'."""
    rig = doubles_rig(tmp_path, "polish")
    polish_opening(rig)
    says = rig.view["says"]["cs"]
    assert says["next_kind"] == "on_move" and says["next_player"] == 3 and "Ivo" in says["next"]
    assert says["times"][3] == "2:30" and says["times"][1] == ""
    rig.menu("announce_ok", "ano")
    assert rig.table.game.history[1].announced == 2
    rig.menu("resign", "Petr + Ivo", "ano")
    result = rig.view["says"]["cs"]["result"]
    assert result is not None and "Jan + Eva" in result["winner"]
    assert result["rows"][-1]["values"] == [str(v) for v in rig.table.game.team_result.final]
    rig.close()


def test_a_resigned_game_shows_no_rack_points(tmp_path):
    """004: a resignation has a fixed result (0 : 100 or the difference), no rack adjustment: the LCD's result
    pages and the page's result table show the result, not the difference as "tiles left" points."""
    rig = doubles_rig(tmp_path, "prague")
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.menu("resign", "Petr + Ivo", "ano")
    shown = []
    for _ in range(3):  # every result page
        rig.advance(4.0)
        shown += lcd(rig)
    assert any("100:0" in row for row in shown) and not any("Kameny" in row for row in shown)
    labels = [row["label"] for row in rig.view["says"]["cs"]["result"]["rows"]]
    assert "Zbylé kameny" not in labels
    rig.close()


@pytest.mark.parametrize("variant", ["prague", "polish"])
def test_the_referee_corrects_a_teams_score_and_forfeits_a_dispute(tmp_path, variant):
    """004 E in doubles (003: the game and its result are the teams'): the correction and the forfeit name the
    teams by the tags the LCD shows their scores with; a team's correction is recorded on its first-listed player."""
    rig = doubles_rig(tmp_path, variant)
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.menu("announce_ok", "ano")
    rig.menu("pause", "ano")
    item = next(i for i in rig.table.menu.items if i.kind == "correction_0")
    assert item.label == "Oprava D1"
    rig.menu("correction_0", "2", "0", "hotovo", "ano")
    game = rig.table.game
    assert game.side_total(0) == 20 and game.adjustments[-1].player == 0 and rig.notice == ["Oprava: D1", "20 (+2)"]
    rig.menu("resume", "ano")
    rig.menu("resign", "Petr + Ivo", "ano")
    assert game.team_result.final == (100, 0)
    assert not any(i.kind.startswith("correction") for i in rig.table.menu.items)  # a fixed result
    rig.menu("dispute_forfeit", "D2")
    assert rig.view["menu"] == ["Vítěz D2?", "> ne"]
    rig.menu_continue("ano")
    assert game.team_result.final == (0, 100) and game.ended is EndReason.DISPUTE_FORFEIT
    rig.close()
    again = rig.restarted()
    assert again.table.game.team_result.final == (0, 100)
    again.close()


@pytest.mark.parametrize("variant", ["prague", "polish"])
def test_a_dispute_forfeit_0_0_in_doubles_is_what_the_referee_answers(tmp_path, variant):
    """004 E's 0:0 in doubles: the table asks void or a draw; a draw gives both teams the draw (the hub counts it
    as one), the LCD says "Remíza"."""
    rig = doubles_rig(tmp_path, variant)
    rig.press(B)
    rig.lay("ROZUM", "8D")
    rig.press(A)
    rig.menu("resign", "Petr + Ivo", "ano")
    rig.menu("dispute_forfeit", "nikdo", "ano")
    assert rig.view["menu"] == ["Kontumace 0:0", "> < zpět"]
    rig.menu_continue("remíza", "ano")
    game = rig.table.game
    assert game.ended is EndReason.DISPUTE_FORFEIT and game.team_result.final == (0, 0)
    assert game.result.outcome == "draw" and game.team_result.winners == (0, 1)
    shown = []
    for _ in range(3):  # every result page
        rig.advance(4.0)
        shown += lcd(rig)
    assert "Remíza" in [row.strip() for row in shown]
    rig.close()
    again = rig.restarted()
    assert again.table.game.result.outcome == "draw"
    again.close()
