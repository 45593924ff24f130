"""The table's referee flows (issue 16): no-show, the tile-set check's set, the announced score, warnings and
disqualification, rack and sheet challenges, a rack count put right. Each test quotes its seed."""

from __future__ import annotations

import json

import pytest
from table_rig import PowerCut, Rig, cut_journal_op, cut_power_writing, first_move, started_rig

from device import inputs
from device.config import LCD_SIZES
from device.screens import render
from engine import scoresheet
from engine.game import (
    Correction,
    DisputeForfeit,
    EndReason,
    EventFormatError,
    IncidentKind,
    MoveKind,
    event_from_json,
)
from engine.game.export import to_gcg
from engine.gcg import write_gcg
from hub.results import standings
from hub.store import HubStore
from shared.journal import read_journal
from shared.texts import text

A, B = 0, 1


@pytest.fixture
def rig(tmp_path):
    yield from started_rig(tmp_path)


def test_a_first_move_without_a_sign_of_the_player_is_a_time_out_and_the_referee_declares_the_no_show(rig):
    """004: "Pokud se hráč nedostaví k partii nejpozději do konce doby vymezené na jeho prvý tah, je partie
    kontumována ve prospěch soupeře (tj. výsledek 100 : 0)." - a player who is there and lets the time run out
    only loses the turn ("Překročení časového limitu na tah"), so the table records a time-out and asks."""
    rig.press(B)  # B is there and starts A's clock; A does not press nor lay a tile
    rig.advance(121.0)
    game = rig.table.game
    assert game.ended is None and game.history[-1].kind is MoveKind.TIMEOUT
    assert rig.notice == ["Nepřišel?", "volej rozhodčího"]
    rig.menu("no_show", "Anna")
    assert rig.view["menu"] == ["Nenastoupil?", "> < zpět"]  # the referee turns to "ano": a push alone never acts
    rig.menu("referee_ok", "ano: Anna")
    assert game.ended is EndReason.FORFEIT and game.result.final == (0, 100)
    assert rig.table.clock.stopped


def test_a_no_show_declaration_the_referee_does_not_confirm_changes_nothing(rig):
    """The opponent may report a no-show; only the referee's yes records it (004: "O oprávněnosti ... rozhoduje
    zásadně rozhodčí")."""
    rig.press(B)
    rig.menu("no_show", "Anna")
    rig.menu("referee_ok", "ne")
    assert rig.table.game.ended is None and rig.table.state.referee_ok is None


def test_nobody_came_is_a_void_game(rig):
    """004: "Pokud nenastoupil ani jeden z hráčů, je výsledek 0:0 a žádný z hráčů nezískává body za nerozhodný
    výsledek." """
    rig.menu("no_show", "nikdo")
    rig.menu("referee_ok", "ano: nikdo")
    result = rig.table.game.result
    assert result.final == (0, 0) and result.outcome == "void"
    assert rig.view["game"]["result"]["winners"] == []


def test_the_tile_set_check_before_the_game_gives_the_bag_count(rig):
    """004: "dohraje se partie s takovou sadou kamenů, se kterou se rozehrála": the set found at the check."""
    rig.lay_check_square(missing=[(0, 0), (0, 1)])  # two A's missing
    rig.menu("check", "ano")
    assert rig.table.game.set_size == 100  # the referee is called first (004)
    rig.menu("set_ruling", "hrát s ní", "ano")
    game = rig.table.game
    assert game.set_size == 98 and game.bag_count == 98 - 14
    assert rig.view["game"]["set_check"] == {"missing": "AA", "extra": "", "referee": "as_found"}


def test_a_letter_beyond_the_set_is_recorded_and_shown_to_the_referee(rig):
    """000: "Turnajovou hru je nutné dohrát s takovou sadou, s jakou byla rozehrána. Zásahy během hry nejsou
    možné." The Czech set has one Ď: a second one is a defective set, recorded and flagged."""
    rig.press(B)
    rig.lay("ĎĎ", "8G")
    rig.press(A)
    game = rig.table.game
    assert game.history[-1].kind is MoveKind.PLAY and game.history[-1].beyond_set == "Ď"
    assert rig.notice == ["Nad sadu Ď", "volej rozhodčího"]


def test_the_announced_score_is_entered_shown_with_the_difference_and_stands(rig):
    """004: "Zahrání platného slova. Hráč zahraje tah/slovo položením kamenů na hrací desku, oznámením
    vytvořeného základního slova ... a oznámením celkového bodového ohodnocení zahraného tahu." """
    first_move(rig)
    rig.menu("announce", "2", "0", "hotovo")
    game = rig.table.game
    assert game.scores == [20, 0] and game.history[0].announced == 20
    assert rig.notice == ["Hlásí 20", "stůl 18 (+2)"]
    kinds = [item.kind for item in rig.table.menu.items]
    assert "announce" not in kinds and "challenge_score" in kinds


def test_the_table_score_confirmed_as_the_announced_one(rig):
    first_move(rig)
    rig.menu("announce_ok", "ano")
    assert rig.table.game.history[0].announced == 18 and rig.notice == ["Hlásí 18", "stůl 18 (+0)"]


def test_after_the_third_warning_the_table_asks_the_chief_referee_to_disqualify(rig):
    """004 "Sankce": "Hráč, který byl napomínán rozhodčím opakovaně, je po třetím napomenutí vyloučen z další hry,
    tj. hraná partie je kontumována v jeho neprospěch se skórem 0:100" and "O vyloučení hráče z další hry vždy
    rozhoduje hlavní rozhodčí na návrh rozhodčího": the table asks at once, and never ends the game by itself."""
    first_move(rig)
    for n in (1, 2, 3):
        rig.menu("warning", f"Bedřich ({n}.)")
        rig.menu("referee_ok", "ano: Bedřich")
    game = rig.table.game
    assert game.warnings(B) == 3 and game.ended is None
    assert rig.notice == ["Napomenutí 3.", "Bedřich"]
    assert rig.view["menu"][0] == "Vyloučení (HR)?" and rig.table.menu.open  # asked at once
    for columns, lines in LCD_SIZES:
        cuts: list[str] = []
        render(rig.view, "cs", columns, lines, 0, 2, cuts=cuts)
        assert not cuts, (columns, lines, cuts)
    rig.menu_continue("ano: Bedřich")  # the chief referee's yes
    assert game.ended is EndReason.DISQUALIFIED and game.result.final == (100, 0)


def test_the_chief_referee_may_keep_a_player_after_the_third_warning(rig):
    first_move(rig)
    for n in (1, 2, 3):
        rig.menu("warning", f"Bedřich ({n}.)")
        rig.menu("referee_ok", "ano: Bedřich")
    rig.menu_continue("ne")
    assert rig.table.game.ended is None and "referee_ok" not in [i.kind for i in rig.table.menu.items]
    rig.press(B)  # the game goes on
    assert len(rig.table.game.history) == 2


def test_disqualification_by_the_chief_referee(rig):
    """004: "V případech hrubého porušování hracího řádu ... může být hráč vyloučen z další hry i bez předchozího
    napomínání." """
    first_move(rig)
    rig.menu("disqualify", "Anna")
    rig.menu("referee_ok", "ano: Anna")
    assert rig.table.game.ended is EndReason.DISQUALIFIED and rig.table.game.result.final == (0, 100)


def test_a_rack_challenge_pauses_for_the_ruling_and_an_upheld_one_costs_the_next_turn(rig):
    """004: "je-li tato námitka uznána za oprávněnou, hráč, který měl v zásobníku nesprávný počet kamenů, ztrácí
    v hrané partii svůj nejbližší tah." """
    first_move(rig)
    rig.menu("challenge_rack", "Anna")  # B, on move, challenges A's rack
    assert rig.table.clock.paused
    rig.menu("ruling", "oprávněná")
    game = rig.table.game
    assert game.turns_owed == [1, 0] and not rig.table.clock.paused
    rig.press(B)  # B passes; A's turn is lost, B is on move again
    assert [m.kind for m in game.history[-2:]] == [MoveKind.PASS, MoveKind.PENALTY]
    assert rig.table.clock.player_on_move == B


def test_a_rejected_sheet_challenge_gives_a_cross_and_a_rack_count_report_no_penalty(rig):
    """004: "Nezapisování partie soupeřem do jeho partiáře" may be challenged; an unjustified challenge is marked
    "křížkem za jménem hráče". A wrong count reported at once: "hráč neztrácí tah"."""
    first_move(rig)
    rig.menu("challenge_sheet", "Anna")
    rig.menu("ruling", "neoprávněná")
    game = rig.table.game
    assert game.crosses == [0, 1]
    rig.menu("rack_report", "Anna 8")
    assert game.incidents[-1].kind is IncidentKind.RACK_REPORTED and game.turns_owed == [0, 0]


def test_a_play_against_the_placing_rules_is_recorded_on_a_second_press_and_can_be_challenged(rig):
    """004: "formálně neplatně zahraný tah, proti jehož platnosti soupeř nepodal námitku, se v daném tahu a partii
    považuje za platný" - the table does not refuse it for good: the first press warns (a misread tile can be put
    right), the second records the tiles as laid, the opponent may challenge, the referee rules."""
    rig.press(B)
    rig.lay("OS", "1A")  # off the centre
    rig.press(A)
    game = rig.table.game
    assert game.history == [] and rig.notice == ["Nepravidelný tah", "znovu=zápis"]
    rig.press(A)
    assert game.history[0].irregular and game.player_on_move == B
    rig.menu("challenge_placement", "ano")
    assert rig.table.clock.paused
    rig.menu("ruling", "oprávněná")
    assert game.history[0].kind is MoveKind.WITHDRAWN
    assert sorted(map(tuple, rig.view["take_back"])) == [(0, 0), (0, 1)]


def test_resigning_while_the_opponent_is_on_move_waits_for_the_opponents_move(rig):
    """004: "Pokud je v okamžiku vzdání partie na tahu soupeř, má právo dohrát svůj tah a započítat výsledky tohoto
    tahu do skóre partie." """
    first_move(rig)  # Bedřich on move
    rig.menu("resign", "Anna", "ano")
    game = rig.table.game
    assert game.ended is None and rig.notice == ["Anna vzdává", "dohraj tah"]
    rig.lay("K.T", "E7")
    rig.press(B)
    assert game.ended is EndReason.RESIGNED and game.scores[B] > 0 and game.result.final == (0, 100)


def test_resigning_after_ones_own_time_out_names_who_plays_and_who_presses(rig):
    """Issue 34: Anna's move times out and she resigns: the LCD names who finishes ("dohraje Bedřich"), then again
    who must press (her press starts Bedřich's move); the game ends after it."""
    rig.press(B)
    rig.advance(121.0)  # Anna's move times out: the clock awaits her press
    rig.menu("resign", "Anna", "ano")
    assert rig.notice == ["Anna vzdává", "dohraje Bedřich"]
    for columns, lines in LCD_SIZES:
        cuts: list[str] = []
        render(rig.view, "cs", columns, lines, 0, 2, cuts=cuts)
        assert not cuts, (columns, lines, cuts)
    rig.advance(7.0)
    assert render(rig.view, "cs", 16, 2)[0].startswith("Anna: stiskni"), render(rig.view, "cs", 16, 2)
    rig.press(A)
    rig.lay("ROZUM", "8D")
    rig.press(B)
    game = rig.table.game
    assert game.ended is EndReason.RESIGNED and game.result.final == (0, 100)


def test_the_leader_resigning_at_the_table_loses_by_the_difference_over_100(rig):
    """004 "Pokud je rozdíl skóre v okamžiku vzdání partie větší než 100, prohrává hráč, který vzdal, poměrem
    0 : stávající rozdíl", whoever leads: Anna resigns at 139:0 and the table records and shows 0:139."""
    first_move(rig)
    rig.menu("pause", "ano")
    rig.menu("correction_0", "1", "3", "9", "hotovo", "ano")
    rig.menu("resume", "ano")
    game = rig.table.game
    assert game.scores == [139, 0]
    rig.press(B)  # Bedřich passes: Anna on move
    rig.menu("resign", "Anna", "ano")
    assert game.ended is EndReason.RESIGNED and game.result.final == (0, 139)
    assert render(rig.view, "cs", 16, 2, 0, 2)[0].strip().endswith("0:139"), render(rig.view, "cs", 16, 2, 0, 2)


def blank_played(tmp_path, lang: str) -> Rig:
    """A home game whose rules let a played blank be swapped (001, alternative rule 1): Anna has played rOZUM
    across from H4 (classic D8), the blank named R; Bedřich is on move."""
    rig = Rig(tmp_path, extra=f'language = "{lang}"\nruleset = "home"\nrules = {{ blank_swap = true }}', clock="home")
    rig.start()
    rig.press(B)
    rig.lay("rOZUM", "8D")
    rig.menu("blank", "R", text("done", lang))
    rig.press(A)
    return rig


def test_a_blank_swapped_on_the_board_uses_the_turn_under_the_alternative_rule(tmp_path):
    """001 "Alternativní pravidla" 1: "Prázdný kámen (žolík), který už byl někým použit, může být vyměněn za kámen
    s písmenem, které zastupuje. Hráč, který si ho vymění, tím vyčerpá svůj tah"."""
    rig = blank_played(tmp_path, "cs")
    rig.menu("swap_blank", "H4")
    assert rig.notice == ["Vyměň na desce", "H4"]  # the tile is not swapped on the board yet
    rig.grid[7][3] = "R"
    rig.send([(7, 3)])
    rig.menu("swap_blank", "H4")
    game = rig.table.game
    assert game.history[-1].kind is MoveKind.BLANK_SWAP and rig.table.clock.player_on_move == A
    rig.close()


def test_the_blank_to_swap_is_named_in_the_languages_notation(tmp_path):
    """In English the squares are classic (column letter, row number), on the menu as on the notice: the blank on
    the 8th row, 4th column is D8 (in Czech H4)."""
    rig = blank_played(tmp_path, "en")
    swap = next(item for item in rig.table.menu.items if item.kind == "swap_blank")
    assert [c.label for c in swap.choices][0] == "D8"
    rig.menu("swap_blank", "D8")
    assert rig.notice == ["Swap on board", "D8"]
    rig.close()


def test_a_broken_rules_table_in_the_config_is_named():
    from device.config import ConfigError, parse_config

    with pytest.raises(ConfigError, match="table.rules"):
        parse_config('[table]\nruleset = "home"\nrules = { blank_swop = true }')


def test_the_next_game_of_a_match_is_started_by_the_other_player_and_the_seats_stay(rig):
    """004: "V případě, že zápas se skládá z více partií, v dalších partiích se hráči v zahajování pravidelně
    střídají." Anna sits at button A in both games; in the second Bedřich starts."""
    first_move(rig)
    rig.menu("resign", "Bedřich", "ano")
    rig.menu("new_game", "ano")
    game = rig.table.game
    assert game.players == ("Bedřich", "Anna")
    rig.grid = [[None] * 15 for _ in range(15)]
    rig.send([])
    rig.press(A)  # Anna (button A) starts the clock for Bedřich's first move
    assert rig.table.clock.player_on_move == 0  # Bedřich, the starting player
    rig.lay("ROZUM", "8D")
    rig.press(A)  # Anna's button does not end Bedřich's move
    assert game.history == []
    rig.press(B)
    assert game.history[0].player == 0 and game.players[0] == "Bedřich"
    rig.menu("new_game", "ano")
    assert rig.table.game.players == ("Anna", "Bedřich")


# ---- the sheets disagree; the tiles were cleared (004 E "Zápis partie") -----------------------------------------


def played_to_the_end(rig: Rig, racks: bool = True) -> None:
    """ROZUM (A 18), then passes until the scoreless turns end the game; the racks entered if ``racks``."""
    first_move(rig)
    while rig.table.game.ended is None:
        rig.press(rig.table.game.player_on_move)
    if racks:
        rig.menu("racks", *"AEIOUNS", "hotovo", "ano")
        rig.menu("racks", *"AEIOTNS", "hotovo", "ano")
        assert rig.table.game.result is not None


def fits_every_lcd(rig: Rig) -> None:
    for columns, lines in LCD_SIZES:
        for owner in (0, 1):
            cuts: list[str] = []
            render(rig.view, "cs", columns, lines, owner, 2, cuts=cuts)
            assert not cuts, (columns, lines, cuts)


def test_the_referee_settles_a_score_the_sheets_disagree_on(rig):
    """004 E: "Pokud se hráči neshodnou na souladu svých partiářů, přivolají rozhodčího, který rozhodne o způsobu
    řešení situace." The referee enters the player's corrected final score; its difference is journaled, shown,
    and on the score sheet."""
    played_to_the_end(rig)
    game = rig.table.game
    before = game.result.final
    rig.menu("correction_1", "1", "2", "hotovo")
    assert rig.view["menu"] == ["Bedřich 12?", "> ne"]  # a push alone never acts
    fits_every_lcd(rig)
    rig.menu_continue("ano")
    diff = 12 - before[1]
    assert game.result.final == (before[0], 12) and game.events[-1] == Correction(game.events[-1].at, 1, diff)
    assert rig.notice == ["Oprava: Bedřich", f"12 ({diff:+d})"]
    fits_every_lcd(rig)
    assert f"Bedřich: {diff:+d} (oprava rozhodčího" in scoresheet.render_text(game)
    assert [j["type"] for j in read_journal(rig.config.journal_path)][-1] == "correction"
    rig.menu("correction_0", "-", "5", "hotovo", "ano")  # a negative score
    assert game.result.final == (-5, 12)
    rig.menu("correction_0", "5", "-", "hotovo", "ano")  # the sign only first: asked again, nothing recorded
    assert rig.notice == ["Oprava: číslo?", "5-"] and game.result.final == (-5, 12)


def test_a_correction_during_the_game_is_the_referees_while_the_clock_is_paused(rig):
    first_move(rig)
    assert not any(i.kind.startswith("correction") for i in rig.table.menu.items)  # not while the clock runs
    rig.menu("pause", "ano")
    rig.menu("correction_0", "2", "0", "hotovo", "ano")
    assert rig.table.game.scores == [20, 0] and rig.table.game.adjustments[-1].points == 2


def test_a_correction_being_entered_survives_a_restart_and_a_power_cut_after_the_yes(tmp_path, monkeypatch):
    rig = Rig(tmp_path)
    rig.start()
    played_to_the_end(rig)
    final = rig.table.game.result.final
    rig.menu("correction_1", "3", "0")
    shown = rig.view["menu"]
    assert shown == ["Bedřich: 30", "> 0"]
    rig.close()
    rig = rig.restarted()
    assert rig.view["menu"] == shown  # the same digits, the cursor on the same key
    rig.menu_continue("hotovo")
    assert rig.view["menu"] == ["Bedřich 30?", "> ne"]
    rig.close()
    rig = rig.restarted()
    assert rig.view["menu"] == ["Bedřich 30?", "> ne"]  # a confirmation comes back on "no"
    rig = cut_power_writing(monkeypatch, rig, "pending.json", lambda: rig.menu_continue("ano"))
    assert rig.table.game.result.final == (final[0], 30)  # journaled before the cut
    assert not rig.table.menu.open
    fits_every_lcd(rig)


def test_a_power_cut_before_the_correction_is_journaled_asks_again(tmp_path, monkeypatch):
    rig = Rig(tmp_path)
    rig.start()
    played_to_the_end(rig)
    final = rig.table.game.result.final
    rig.menu("correction_1", "3", "0", "hotovo")
    cut_journal_op(monkeypatch, rig.config.journal_path, 0, "before")
    with pytest.raises(PowerCut):
        rig.menu_continue("ano")
    monkeypatch.undo()
    rig.close()
    rig = rig.restarted()
    assert rig.table.game.result.final == final and rig.view["menu"] == ["Bedřich 30?", "> ne"]


def test_a_dispute_after_the_tiles_were_cleared_is_forfeited_as_the_referee_decides(tmp_path, monkeypatch):
    """004 E: "Pokud hráči odklidí kameny z desky a dojde ke sporu, který není možné bez těchto kamenů rozhodnout,
    rozhodčí má právo kontumovat výsledek partie 0:0, 100:0 nebo 0:100 podle povahy sporu a podle toho, který
    z hráčů kameny odklidil." Before the racks are entered too (the tiles are gone)."""
    rig = Rig(tmp_path)
    rig.start()
    played_to_the_end(rig, racks=False)
    item = next(i for i in rig.table.menu.items if i.kind == "dispute_forfeit")
    assert [c.label for c in item.choices] == ["Anna", "Bedřich", "nikdo", "< zpět"]
    rig.menu("dispute_forfeit", "Bedřich")
    assert rig.view["menu"] == ["Vítěz Bedřich?", "> ne"]
    fits_every_lcd(rig)
    rig = cut_power_writing(monkeypatch, rig, "pending.json", lambda: rig.menu_continue("ano"))
    game = rig.table.game
    assert game.ended is EndReason.DISPUTE_FORFEIT and game.result.final == (0, 100)
    assert "racks" not in [i.kind for i in rig.table.menu.items] and "dispute_forfeit" not in [
        i.kind for i in rig.table.menu.items]  # fmt: skip
    assert "Konec partie: kontumace rozhodčím ve sporu" in scoresheet.render_text(game)
    fits_every_lcd(rig)


@pytest.mark.parametrize("answer", ["bez bodů", "remíza"])
def test_a_dispute_forfeit_0_0_asks_whether_it_is_void_or_a_draw(tmp_path, answer):
    """004 E lets the referee forfeit 0:0 but does not say whether it gives draw points (the double no-show's
    0:0 gives none, 004: "žádný z hráčů nezískává body"): the table asks, journals the answer, and the LCD, the
    score sheet, the GCG and the hub's result say it. The question survives a restart."""
    rig = Rig(tmp_path)
    rig.start()
    played_to_the_end(rig)
    rig.menu("dispute_forfeit", "nikdo")
    assert rig.view["menu"] == ["Vítěz nikdo?", "> ne"]
    rig.menu_continue("ano")
    assert rig.table.game.ended is not EndReason.DISPUTE_FORFEIT  # nothing journaled before the second answer
    assert rig.view["menu"] == ["Kontumace 0:0", "> < zpět"]
    fits_every_lcd(rig)
    rig.close()
    rig = rig.restarted()
    assert rig.view["menu"] == ["Kontumace 0:0", "> < zpět"]
    rig.menu_continue(answer)
    assert rig.view["menu"] == [f"0:0 {answer}?", "> ne"]
    fits_every_lcd(rig)
    rig.menu_continue("ano")
    draw = answer == "remíza"
    game = rig.table.game
    assert list(read_journal(rig.config.journal_path))[-1] == {"type": "dispute_forfeit", "at": game.events[-1].at,
                                                         "winner": None, "draw": draw, "turn": 5}  # fmt: skip
    result = game.result
    assert result.final == (0, 0) and result.outcome == ("draw" if draw else "void")
    assert rig.view["game"]["result"]["winners"] == ([0, 1] if draw else [])
    assert not rig.table.menu.open and rig.table.state.dispute_zero is False
    pages = []
    for _ in range(3):  # every result page
        rig.advance(4.0)
        pages += render(rig.view, "cs", 16, 2, 0, 2)
    assert ("Remíza" if draw else "Bez vítěze") in [row.strip() for row in pages]
    assert rig.view["says"]["cs"]["result"]["winner"] == ("Remíza" if draw else
                                                          "Bez vítěze, body za remízu nezískává nikdo")  # fmt: skip
    sheet = scoresheet.render_text(game)
    assert ("Výsledek 0 : 0 (remíza)" if draw else "Výsledek 0 : 0 (bez vítěze") in sheet
    gcg = write_gcg(to_gcg(game))
    assert f"game ended by dispute_forfeit: 0 : 0 ({'draw' if draw else 'void'})" in gcg
    store = HubStore()
    for seq, event in enumerate(game.events):  # what the table published, rebuilt by the hub
        store.add_event({"v": 1, "table": "t1", "game": "g1", "seq": seq, "event": event.to_json()})
    (hub_result,) = store.results()
    assert hub_result.scores == (0, 0) and hub_result.end == "dispute_forfeit" and hub_result.forfeit_all is not draw
    assert [s.wins for s in standings([hub_result])] == ([0.5, 0.5] if draw else [0.0, 0.0])
    rig.close()


def test_a_journal_from_before_the_question_reads_a_0_0_dispute_forfeit_as_void():
    """Journals written before the table asked have no ``draw``: their 0:0 stays void, as it was recorded."""
    event = event_from_json({"type": "dispute_forfeit", "at": 1.0, "winner": None})
    assert event == DisputeForfeit(at=1.0, winner=None, draw=False)
    with pytest.raises(EventFormatError):
        event_from_json({"type": "dispute_forfeit", "at": 1.0, "winner": 0, "draw": True})
    with pytest.raises(EventFormatError):
        event_from_json({"type": "dispute_forfeit", "at": 1.0, "winner": None, "draw": "yes"})


def warned_twice(rig: Rig) -> None:
    first_move(rig)
    for n in (1, 2):
        rig.menu("warning", f"Bedřich ({n}.)")
        rig.menu("referee_ok", "ano: Bedřich")


def test_the_referees_open_question_survives_a_restart_on_the_same_choice(tmp_path):
    """A power cut while the table asks for the referee's yes ("Napomenutí?") brings the same question back, the
    cursor on the same choice; the yes then has its effect once."""
    rig = Rig(tmp_path)
    rig.start()
    warned_twice(rig)
    rig.menu("warning", "Bedřich (3.)")
    rig.table.handle(inputs.EncoderTurned(1))  # the cursor on "ano: Bedřich", not pushed yet
    shown, where = rig.view["menu"], rig.table.menu.state()
    assert shown == ["Napomenutí?", "> ano: Bedřich"]
    rig.close()
    rig = rig.restarted()
    assert rig.view["menu"] == shown and rig.table.menu.state() == where
    rig.table.handle(inputs.EncoderPushed())
    game = rig.table.game
    assert game.warnings(B) == 3 and rig.view["menu"][0] == "Vyloučení (HR)?"
    rig.close()
    rig = rig.restarted()  # the chief referee's question, asked at once, is kept as well
    assert rig.view["menu"] == ["Vyloučení (HR)?", "> < zpět"] and rig.table.game.warnings(B) == 3
    rig.menu_continue("ano: Bedřich")
    assert rig.table.game.ended is EndReason.DISQUALIFIED and rig.table.game.warnings(B) == 3
    rig.close()


def test_a_power_cut_after_the_third_warning_is_journaled_asks_for_the_exclusion_and_not_the_warning(
    tmp_path, monkeypatch
):
    """The cut comes after the warning's journal line, before ``pending.json`` holds the new question: the warning
    is not asked again, the exclusion is."""
    rig = Rig(tmp_path)
    rig.start()
    warned_twice(rig)
    rig.menu("warning", "Bedřich (3.)")
    rig.table.handle(inputs.EncoderTurned(1))  # to "ano: Bedřich"
    rig = cut_power_writing(monkeypatch, rig, "pending.json", lambda: rig.table.handle(inputs.EncoderPushed()))
    assert rig.table.game.warnings(B) == 3
    assert rig.view["menu"] == ["Vyloučení (HR)?", "> < zpět"]
    rig.menu_continue("ne")  # the chief referee keeps the player
    assert rig.table.game.ended is None and rig.table.state.referee_ok is None and rig.table.game.warnings(B) == 3
    rig.close()


def no_show_asked(tmp_path, who: str) -> Rig:
    """A table stopped while the referee is asked "Nenastoupil?" about ``who``."""
    rig = Rig(tmp_path)
    rig.start()
    rig.menu("no_show", who)
    rig.close()
    return rig


def test_a_no_show_question_for_both_players_comes_back_after_a_restart(tmp_path):
    rig = no_show_asked(tmp_path, "nikdo").restarted()
    assert rig.view["menu"] == ["Nenastoupil?", "> < zpět"]
    assert rig.table.state.referee_ok is not None and rig.table.state.referee_ok[0].value == (A, B)
    rig.menu_continue("ano: nikdo")
    assert rig.table.game.result.final == (0, 0) and rig.table.game.result.outcome == "void"
    rig.close()


def test_a_pending_file_with_a_question_it_cannot_have_written_is_not_used(tmp_path):
    rig = no_show_asked(tmp_path, "Anna")
    data = json.loads((tmp_path / "pending.json").read_text(encoding="utf-8"))
    data["referee_ok"]["value"] = "Anna"
    (tmp_path / "pending.json").write_text(json.dumps(data), encoding="utf-8")
    rig = rig.restarted()
    assert rig.table.state.referee_ok is None and not rig.table.menu.open and rig.table.game.ended is None
    rig.close()


def test_the_no_show_choice_under_the_cursor_survives_a_restart(tmp_path):
    """The no-show's choices are players (tuples, lists in ``pending.json``): the cursor comes back on the same."""
    rig = Rig(tmp_path)
    rig.start()
    rig.press(B)
    rig.menu("no_show")
    rig.table.handle(inputs.EncoderTurned(-3))  # from "< zpět" to "Anna"
    shown = rig.view["menu"]
    assert shown == ["Nenastoupil", "> Anna"]
    rig.close()
    rig = rig.restarted()
    assert rig.view["menu"] == shown
    rig.close()
