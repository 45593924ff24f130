"""The rules audit (docs/game.md "Seed rules and where they live"): rules of seeds 003 (doubles) and 004
(sanctions, the clock) that the audit found missing or wrong, each test quoting the seed line it checks.

Players of the doubles games are listed in the seed's seating: 0 and 2 are the starting team, 1 and 3 the other.
"""

from __future__ import annotations

import pytest
from table_rig import Rig
from test_game_doubles import comb_script
from test_game_scripted import COMB_ROWS, comb_letters

from device.screens import render
from device.table_menu import menu_items
from engine.game import (
    BadPlayer,
    ChallengeRack,
    ChallengeSheet,
    EndReason,
    Game,
    MoveKind,
    Phase,
    Resign,
    StartDraw,
    StartOrder,
    StartRefused,
)
from engine.game.events import decode_journal, encode_event
from engine.game.export import game_gcg
from engine.game.script import run_script
from engine.scoresheet import render_text


def items(game: Game) -> dict[str, object]:
    """The table's menu items now (kind -> item), the clock running."""
    offered = menu_items(game, paused=False, unnamed_blanks=False, clock_started=True, lang="cs")
    return {item.kind: item for item in offered}


# ---- sanctions in doubles ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["prague", "polish"])
@pytest.mark.parametrize("challenge", [ChallengeRack, ChallengeSheet])
def test_a_rack_or_sheet_challenge_is_the_opponents_not_the_partners(variant, challenge):
    """004 "soupeř má právo vznést námitku proti nesprávnému počtu kamenů v zásobníku hráče" and "Hráč, který je
    na tahu, může vznést námitku proti: ... Nezapisování partie soupeřem": the challenge is against an opponent.
    In doubles the partner is no opponent (003: the pair plays together; a cross would fall on the own team)."""
    game = run_script(comb_script(variant, "P"))  # player 1 (team 1) on move
    on_move = game.player_on_move
    partner = (on_move + 2) % 4
    with pytest.raises(BadPlayer, match="same team"):
        game.apply(challenge(at=50.0, player=partner))
    with pytest.raises(BadPlayer, match="same team"):
        game.apply(challenge(at=50.0, player=0, by=2))
    kind = "challenge_rack" if challenge is ChallengeRack else "challenge_sheet"
    names = [c.label for c in items(game)[kind].choices][:-1]  # type: ignore[attr-defined]
    assert names == [game.players[p] for p in (0, 2)]  # the opponents only
    game.apply(challenge(at=50.0, player=2))  # an opponent: waits for the ruling
    assert game.pending is not None and game.pending.challenger == on_move


# ---- resignation ------------------------------------------------------------------------------------------------


def test_a_polish_team_resigning_lets_the_other_team_finish_its_double_move():
    """004 "Pokud je v okamžiku vzdání partie na tahu soupeř, má právo dohrát svůj tah a započítat výsledky
    tohoto tahu do skóre partie" with 003 Polish "Na dvojtah má dvojice tři minuty": the other team's turn is its
    double move, so both of its moves are played before the game ends (docs/game.md reads "svůj tah" of a team
    the same way in the playout)."""
    game = run_script(comb_script("polish", "P"))  # team 1 on move, its double move not begun
    game.apply(Resign(at=50.0, player=0, after_turn=True))
    run_script("pass", game)
    assert game.ended is None and game.player_on_move == 3  # the double move's second move comes
    run_script(comb_script("polish", "PP").rsplit("\n", 1)[1], game)
    assert game.ended is EndReason.RESIGNED
    assert [m.kind for m in game.history[1:]] == [MoveKind.PASS, MoveKind.PLAY]
    assert game.team_result.final == (0, max(100, game.side_total(1) - game.side_total(0)))


def test_a_polish_resignation_waits_for_a_struck_second_move_too():
    """003 "druhý řádek se proškrtne": when the second move of the finishing double move is struck (an empty
    rack), the double move is over with it and the resignation takes effect."""
    game = run_script(comb_script("polish", "P" * 12 + "-" + "--"))  # Jan is out; team 0 on move
    game.apply(Resign(at=90.0, player=1, after_turn=True))
    run_script("pass", game)  # Eva plays first; Jan's row is struck
    assert (game.history[-1].player, game.history[-1].kind) == (0, MoveKind.STRUCK)
    assert game.ended is EndReason.RESIGNED


def test_a_prague_resignation_ends_after_the_opponents_single_move():
    """003 Prague: a move is one player's ("Hráči se ve hře střídají"): the opponent on move finishes that move."""
    game = run_script(comb_script("prague", "P"))  # Petr (team 1) on move
    game.apply(Resign(at=50.0, player=0, after_turn=True))
    run_script("pass", game)
    assert game.ended is EndReason.RESIGNED and len(game.history) == 2


# ---- exchanges -------------------------------------------------------------------------------------------------


def cas_playout_round_c() -> Game:
    """A two-player game in round C of the A-B-C playout with 58 tiles still in the bag."""
    letters = comb_letters()
    lines = ["start cas Jan Eva"]
    for i in range(5):
        if i == 1:
            lines.append("expire")
        lines.append(f"play {COMB_ROWS[i]}5V {''.join(letters[i * 7 : i * 7 + 7])}")
    game = run_script("\n".join(lines))
    assert game.phase is Phase.C and game.bag_count >= 7
    return game


def test_the_menu_offers_no_exchange_in_round_c():
    """004 Dohrávka C: "Hráči sehrají jedno úplné další kolo — závěrečné, v tomto kole již nedobírají kameny ze
    sáčku" (an exchange draws tiles; the engine refuses it): the table does not offer it either."""
    game = cas_playout_round_c()
    assert "exchange" not in items(game)
    assert "pass" in items(game)



# ---- who starts in doubles ------------------------------------------------------------------------------------


def test_prague_the_starting_team_chooses_its_first_player_and_the_order_stays_clockwise():
    """003 Prague: "Začínající dvojice si zvolí, který z jejích hráčů odehraje první tah. Hráči se ve hře střídají
    zásadně po směru hodinových ručiček." and who starts (004: the schedule or a draw; 003 Polish: "stačí jedno
    písmeno pro dvojici"): the order given by name is the seating turned round, partners still opposite."""
    game = run_script("start prague Jan Petr Eva Ivo")
    game.apply(StartOrder(at=1.0, players=("Eva", "Ivo", "Jan", "Petr")))  # Jan's team starts, Eva plays first
    assert game.players == ("Eva", "Ivo", "Jan", "Petr") and game.side_names == ("Eva + Jan", "Ivo + Petr")
    game.apply(StartOrder(at=2.0, players=("Petr", "Eva", "Ivo", "Jan")))  # the other team starts after all
    assert game.side_names == ("Petr + Ivo", "Eva + Jan") and game.crosses == [0, 0]
    with pytest.raises(StartRefused, match="seating"):  # partners side by side in the order: not clockwise
        game.apply(StartOrder(at=3.0, players=("Petr", "Ivo", "Eva", "Jan")))
    with pytest.raises(StartRefused, match="doubles"):  # the draw is one tile per team: given by name
        game.apply(StartDraw(at=3.0, player=0, tile="A"))
    run_script(comb_script("prague", "P").split("\n", 1)[1], game)
    assert game.history[0].player == 0 and game.players[0] == "Petr"
    events, _ = decode_journal("\n".join(encode_event(e) for e in game.events))  # the journal after a power cut
    again = Game.replay(events)
    assert again.players == game.players and again.to_dict() == game.to_dict()


def test_polish_the_team_that_starts_is_given_by_name():
    """003 Polish: "Určí se, kdo začíná." - the starting team's named player plays the single opening move; the
    other team's double move follows."""
    game = run_script("start polish Jan Petr Eva Ivo")
    game.apply(StartOrder(at=1.0, players=("Ivo", "Jan", "Petr", "Eva")))
    assert game.side_names == ("Ivo + Petr", "Jan + Eva")
    run_script(comb_script("polish", "PP").split("\n", 1)[1], game)
    assert [game.players[m.player] for m in game.history] == ["Ivo", "Jan"]


def test_the_table_asks_who_starts_in_doubles_and_the_buttons_stay_the_teams(tmp_path):
    """003 Prague "Začínající dvojice si zvolí, který z jejích hráčů odehraje první tah": the table offers "Začíná"
    before the clock starts in doubles too (no draw there: one tile per team, drawn by hand). Petr's team starts:
    button A (Jan + Eva's, by the seats) starts Petr's move, button B (Petr + Ivo's) ends it."""
    rig = Rig(tmp_path, clock="prague", players=("Jan", "Petr", "Eva", "Ivo"), extra='ruleset = "prague"')
    rig.start()
    offered = [item.kind for item in rig.table._menu_items()]
    assert "starter" in offered and "start_draw" not in offered
    rig.menu("starter", "Petr", "ano")
    game = rig.table.game
    assert game.players == ("Petr", "Eva", "Ivo", "Jan")
    rig.press(0)  # Jan + Eva start the clock for Petr (004: the opponent starts it)
    assert rig.table.clock.player_on_move == 0 and not game.history
    rig.lay("ROZUM", "8D")
    rig.press(0)  # Jan's team is not on move
    assert not game.history
    rig.press(1)
    assert [game.players[m.player] for m in game.history] == ["Petr"]
    assert rig.table.clock.player_on_move == 1  # Eva
    rig.close()


# ---- who ended the game: the sheet and the GCG name them --------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "reason", "named"),
    [
        ("disqualify 3", "vyloučení", "Ivo"),
        ("resign 1", "vzdáno", "Petr"),
    ],
)
def test_the_sheet_names_the_player_excluded_or_resigning_in_doubles(script, reason, named):
    """004 "Vyloučení se týká celého turnaje nebo utkání" and "rozhodčí vyznačí do partiáře hráče a uvede
    v zápisu": the referee must know who was excluded (in doubles the team loses, but the player is the one
    excluded from the tournament); the sheet's end line and the GCG name the player."""
    game = run_script(comb_script("prague", "PP") + f"\n{script}")
    assert game.ended_by == (game.players.index(named),)
    line = render_text(game, "cs").split("Konec partie: ", 1)[1].splitlines()[0]
    assert line.startswith(f"{reason} ({named}).")
    assert f"({named})" in game_gcg(game).splitlines()[-1]


def test_the_sheet_names_the_absent_player():
    """004 "Rozhodčí ukončí partii kontumací pro nenastoupení hráče k partii": the absent player is named."""
    game = run_script("start cas Jan Eva\nforfeit 1")
    assert game.ended_by == (1,)
    assert "Konec partie: kontumace (Eva). Výsledek 100 : 0" in render_text(game, "cs")
    assert "Game ended by: forfeit (Eva)" in render_text(game, "en")
    assert game.to_dict()["ended_by"] == [1]


# ---- rules the audit found right, shown -------------------------------------------------------------------------


def test_prague_a_time_out_loses_only_that_players_move():
    """003 Prague "dvě minuty na tah" with 004 "Překročení časového limitu na tah": the move of the player whose
    time ran out is lost; the next player clockwise (the other team) is on move."""
    game = run_script(comb_script("prague", "P") + "\ntimeout")
    assert [(m.player, m.kind) for m in game.history] == [(0, MoveKind.PLAY), (1, MoveKind.TIMEOUT)]
    assert game.player_on_move == 2


def test_exchanges_in_doubles_are_single_moves():
    """004 "Výměna kamenů je možná kdykoli ... pokud je v sáčku ještě nejméně sedm kamenů" (003 changes nothing):
    in Polish doubles an exchange is one move of the double move, the partner still plays the second."""
    game = run_script(comb_script("polish", "P") + "\nexchange 3")
    assert [(m.player, m.kind) for m in game.history[1:]] == [(1, MoveKind.EXCHANGE)]
    assert game.player_on_move == 3 and game.open_move is None
    game = run_script(comb_script("prague", "P") + "\nexchange 7")
    assert game.history[-1].exchanged == 7 and game.player_on_move == 2


def test_the_next_doubles_game_of_a_match_is_started_by_the_other_team_and_the_buttons_follow(tmp_path):
    """004 "v dalších partiích se hráči v zahajování pravidelně střídají" in doubles: the next game is started by
    the other team (the seating turned round by one); the buttons stay the teams' by their seats."""
    rig = Rig(tmp_path, clock="prague", players=("Jan", "Petr", "Eva", "Ivo"), extra='ruleset = "prague"')
    rig.start()
    rig.menu("new_game", "ano")
    game = rig.table.game
    assert game.players == ("Petr", "Eva", "Ivo", "Jan")
    rig.press(0)  # Jan + Eva start the clock for Petr
    rig.lay("ROZUM", "8D")
    rig.press(1)  # Petr + Ivo end Petr's move
    assert [game.players[m.player] for m in game.history] == ["Petr"]
    rig.close()


def test_at_the_table_a_polish_team_resigning_lets_the_other_team_finish_its_double_move(tmp_path):
    """004 "má právo dohrát svůj tah" with 003 Polish "Na dvojtah má dvojice tři minuty": the LCD asks the other
    team to finish its double move; the game ends after its second move, not its first."""
    rig = Rig(tmp_path, clock="polish", players=("Jan", "Petr", "Eva", "Ivo"), extra='ruleset = "polish"')
    rig.start()
    rig.press(1)
    rig.lay("ROZUM", "8D")
    rig.press(0)  # Jan's opening move; Petr + Ivo's double move comes
    rig.menu("resign", "Jan + Eva", "ano")
    assert rig.notice == ["D1 vzdává", "dohrajte dvojtah"]
    assert render(rig.view, "cs", 16, 2)[1] == "dohrajte dvojtah"
    game = rig.table.game
    rig.lay("K", "E7")  # Petr: KO
    rig.advance(5.0)
    rig.press(1)
    assert game.ended is None and len(game.history) == 2
    rig.lay("A", "H9")  # Ivo: MA
    rig.advance(5.0)
    rig.press(1)
    assert game.team_result is not None and game.team_result.final[0] == 0 and len(game.history) == 3
    rig.close()


def test_a_resignation_in_a_three_player_home_game_waits_for_the_player_on_move_only():
    """004 "na tahu soupeř, má právo dohrát svůj tah": the player on move finishes that move and the game ends (the
    Polish double move is the only turn of more than one move)."""
    game = run_script("start home Jan Eva Ota\npass")  # Eva on move
    game.apply(Resign(at=50.0, player=0, after_turn=True))
    run_script("pass", game)
    assert game.ended is EndReason.RESIGNED and len(game.history) == 2
