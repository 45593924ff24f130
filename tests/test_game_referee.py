"""The tournament rules a referee meets (issue 16): a defective tile set, no-shows, the announced score,
warnings and disqualification, wrong rack counts and the score sheet challenge. Each test quotes its seed."""

from __future__ import annotations

import pytest
from test_game_rules import refused

from engine.game import (
    AlreadyRuled,
    Announce,
    AppealRuling,
    BadPlayer,
    BadSetCheck,
    BeyondSet,
    ChallengePending,
    ChallengeRack,
    Correction,
    DisputeForfeit,
    EndReason,
    Forfeit,
    Game,
    GameError,
    GameNotOver,
    GameOver,
    IncidentKind,
    MoveKind,
    NoOpenMove,
    Play,
    RackReport,
    RefereeWarning,
    RestartMoveClock,
    Ruling,
    ScoreAnnounced,
    SetChecked,
    Start,
    TimeOut,
    WarningGiven,
    decode_event,
    encode_event,
)
from engine.game.script import run_script
from engine.placement import Placement
from engine.ruleset import preset

OPENING = "start cas Jan Eva\nplay H7V ROZUM\n"


# ---- 1. a defective tile set ----------------------------------------------------------------------------------


def test_a_letter_beyond_the_standard_set_is_recorded_and_flagged_not_refused():
    """004: "Pokud je během partie zjištěn nesprávný počet kamenů v hrací sadě ..., dohraje se partie s takovou
    sadou kamenů, se kterou se rozehrála." 000: "Turnajovou hru je nutné dohrát s takovou sadou, s jakou byla
    rozehrána. Zásahy během hry nejsou možné." The Czech set has one X: a second X is played all the same."""
    game = run_script("start cas Jan Eva")
    out = game.apply(Play(1, (Placement.at(7, 6, "X"), Placement.at(7, 7, "X"))))
    assert BeyondSet(0, "X") in out
    move = game.history[0]
    assert move.kind is MoveKind.PLAY and move.beyond_set == "X" and move.words == ("XX",)
    assert game.scores == [40, 0]  # X 10 + X 10 on the centre DW
    assert game.bag_count == 100 - 2 - 14
    assert game.to_dict()["history"][0]["beyond_set"] == "X"


def test_the_set_found_at_the_check_gives_the_bag_count_and_the_flags():
    """004 "Před každou partií": "kontrola počtu hracích kamenů v sadě"; the game is then played with the set
    it started with: two A's missing and an extra X found at the check make a 99-tile set."""
    game = run_script("start cas Jan Eva\nset AA X")
    assert game.set_size == 99 and game.bag_count == 99 - 14
    assert game.to_dict()["set_check"] == {"missing": "AA", "extra": "X", "referee": ""}
    run_script("play H7V XX", game)  # two X in this set: no flag
    assert game.history[0].beyond_set == ""
    assert game.bag_count == 99 - 2 - 14
    assert game.unseen()["A"] == 3 and game.unseen()["X"] == 0


def test_the_check_is_refused_once_the_game_has_begun_or_when_it_does_not_fit_the_set():
    """004: "Není přípustné provádět jakékoli změny sady hracích kamenů po začátku partie." """
    refused(run_script(OPENING), SetChecked(5, "A", ""), BadSetCheck)
    refused(run_script("start cas Jan Eva"), SetChecked(5, "XX", ""), BadSetCheck)  # the set has one X
    journal = encode_event(SetChecked(1.0, "AÁ", "?"))
    assert decode_event(journal) == SetChecked(1.0, "AÁ", "?")


# ---- 2. no-shows ------------------------------------------------------------------------------------------------


def test_a_double_no_show_is_zero_zero_with_no_winner_and_no_draw():
    """004: "Pokud nenastoupil ani jeden z hráčů, je výsledek 0:0 a žádný z hráčů nezískává body za nerozhodný
    výsledek." """
    result = run_script("start cas Jan Eva\nforfeit 0 1").result
    assert result is not None
    assert result.final == (0, 0)
    assert result.winners == () and not result.draw and result.outcome == "void"
    assert result.to_dict()["outcome"] == "void" and result.to_dict()["winners"] == []


def test_a_single_no_show_is_a_win_and_a_real_tie_is_still_a_draw():
    """004: "Výsledek partie je 100:0 v neprospěch hráče, který nenastoupil." ... "V případě rovnosti bodů je hra
    prohlášena za remízu" (000)."""
    result = run_script("start cas Jan Eva\nforfeit 1").result
    assert result.final == (100, 0) and result.outcome == "win" and result.winners == (0,)
    tie = run_script("start cas Jan Eva\npass\npass\npass\npass\nrack 0 AAAAIII\nrack 1 EEEEOOO").result
    assert tie.final == (-7, -7) and tie.outcome == "draw" and tie.winners == (0, 1)


def test_a_player_whose_first_move_timed_out_can_still_be_declared_absent():
    """004: "Pokud se hráč nedostaví k partii nejpozději do konce doby vymezené na jeho prvý tah, je partie
    kontumována ve prospěch soupeře" - the referee declares it after the time ran out (a time-out is recorded
    first: the table does not guess absence)."""
    game = run_script("start cas Jan Eva")
    game.apply(TimeOut(120))
    game.apply(Forfeit(130, (0,)))
    assert game.ended is EndReason.FORFEIT and game.result.final == (0, 100)
    refused(run_script(OPENING), Forfeit(5, (0,)), BadPlayer)  # Jan played: he is there


# ---- 4. the announced score -------------------------------------------------------------------------------------


def test_the_announced_score_stands_unless_challenged():
    """004: "Součást tahu je i oznámení zahraných slov a jejich bodové hodnoty"; a challenge is possible only
    against over-announcing: "pokud se namítající hráč domnívá, že bodové ohodnocení tahu je nadhodnoceno"."""
    game = run_script(OPENING)
    assert game.scores == [16, 0]  # the table's score until the player's is entered
    out = game.apply(Announce(3, 20))
    assert out == [ScoreAnnounced(0, 20, 16)]
    assert game.scores == [20, 0] and game.history[0].score == 20 and game.history[0].total == 20
    assert game.history[0].engine_score == 16 and game.history[0].announced == 20
    run_script("pass", game)  # not challenged: 20 stands
    assert game.scores == [20, 0]
    refused(game, Announce(9, 16), NoOpenMove)


def test_an_under_announced_score_stands_and_an_upheld_challenge_withdraws_the_move():
    """000: "Za provinění se nepovažuje podhodnocení svého tahu." 004: an upheld challenge - "hráč, proti jehož
    tahu byla vznesena námitka, ztrácí tah"."""
    game = run_script(OPENING + "announce 12")
    assert game.scores == [12, 0]
    over = run_script(OPENING + "announce 30\nchallenge score")
    refused(over, Announce(9, 16), ChallengePending)
    run_script("ruling upheld", over)
    assert over.history[0].kind is MoveKind.WITHDRAWN and over.scores == [0, 0]
    refused(over, Announce(10, 16), NoOpenMove)
    home = run_script(OPENING.replace("cas", "home") + "announce 30\nchallenge score\nruling upheld")
    assert home.scores == [16, 0] and home.crosses == [1, 0]  # 000: corrected, a cross
    refused(home, Announce(11, 16), AlreadyRuled)


def test_without_record_announced_the_table_score_is_kept_and_the_announcement_noted():
    """The ``english`` preset (GCG records) keeps the true score; the announcement stays with the move."""
    game = Game()
    game.apply(Start(0, ("A", "B"), preset("cas", record_announced_score=False)))
    run_script("play H7V ROZUM\nannounce 30", game)
    assert game.scores == [16, 0] and game.history[0].announced == 30


# ---- 7. warnings and disqualification ---------------------------------------------------------------------------


def test_warnings_are_recorded_and_after_the_third_the_chief_referee_decides_the_exclusion():
    """004 "Sankce": "Rozhodčí může ... udělit hráči napomenutí; tuto skutečnost rozhodčí vyznačí do partiáře
    hráče", "je po třetím napomenutí vyloučen z další hry, tj. hraná partie je kontumována v jeho neprospěch se
    skórem 0:100" and "O vyloučení hráče z další hry vždy rozhoduje hlavní rozhodčí na návrh rozhodčího": the
    third warning makes the exclusion due; the game never ends by itself on it."""
    game = run_script(OPENING)
    assert game.apply(RefereeWarning(3, 1, "mluví")) == [WarningGiven(1, 1)]
    run_script("warn 1 ruší", game)
    assert game.ended is None and game.warnings(1) == 2 and game.to_dict()["warnings"] == [0, 2]
    assert game.apply(RefereeWarning(5, 1)) == [WarningGiven(1, 3, exclusion_due=True)]
    assert game.ended is None  # the chief referee has not decided yet
    assert [i.kind for i in game.incidents] == [IncidentKind.WARNING] * 3
    run_script("disqualify 1", game)  # the chief referee's decision
    assert game.ended is EndReason.DISQUALIFIED and game.result.final == (100, 0)
    refused(game, RefereeWarning(6, 0), GameOver)


def test_disqualification_with_a_lead_over_100_loses_by_the_difference():
    """004: "pokud je bodový rozdíl hráčů v okamžiku vyloučení hráče z další hry větší než 100, prohrává hráč,
    který byl vyloučen z další hry, se skórem 0 : stávající rozdíl." """
    game = run_script(OPENING + "correction 0 150 test\nwarn 1\nwarn 1\nwarn 1\ndisqualify 1")
    assert game.result.final == (166, 0)
    never = Game()
    never.apply(Start(0, ("A", "B"), preset("cas", warnings_to_disqualify=0)))
    run_script("warn 0\nwarn 0\nwarn 0", never)
    assert never.apply(RefereeWarning(4, 0)) == [WarningGiven(0, 4)]  # never due
    assert never.ended is None and never.warnings(0) == 4


def test_the_leader_resigning_or_excluded_loses_by_the_difference_over_100():
    """004, to the letter: "Pokud je rozdíl skóre v okamžiku vzdání partie větší než 100, prohrává hráč, který
    vzdal, poměrem 0 : stávající rozdíl" (and the same for an exclusion): the difference whoever leads. At 139:0
    the leader who resigns loses 0:139 (it was 0:100), and so does a leader excluded."""
    game = run_script(OPENING + "correction 0 123 test\nresign 0")
    assert game.result.final == (0, 139) and game.ended is EndReason.RESIGNED
    game = run_script(OPENING + "correction 0 123 test\nwarn 0\nwarn 0\nwarn 0\ndisqualify 0")
    assert game.result.final == (0, 139) and game.ended is EndReason.DISQUALIFIED
    game = run_script(OPENING + "correction 0 50 test\nresign 0")  # a lead of 66: 0:100 as before
    assert game.result.final == (0, 100)


# ---- 8. rack count and score sheet challenges -------------------------------------------------------------------


def test_a_wrong_rack_count_reported_at_once_is_put_right_without_penalty():
    """004: "Pokud hráč, který má v zásobníku nesprávný počet kamenů, upozorní na tuto skutečnost soupeře
    neprodleně po jejím zjištění, má právo učinit nápravu ...; hráč neztrácí tah." """
    game = run_script(OPENING + "rack_report 0 8")
    assert game.rack_counts == [7, 7] and game.turns_owed == [0, 0] and game.crosses == [0, 0]
    assert game.incidents[0].kind is IncidentKind.RACK_REPORTED and game.incidents[0].note == "8"


def test_an_upheld_rack_challenge_costs_the_next_turn_and_a_rejected_one_a_cross():
    """004: "soupeř má právo vznést námitku proti nesprávnému počtu kamenů v zásobníku hráče a je-li tato
    námitka uznána za oprávněnou, hráč, který měl v zásobníku nesprávný počet kamenů, ztrácí v hrané partii svůj
    nejbližší tah." A rejected challenge: "namítajícímu hráči je neoprávněně vznesená námitka vyznačena
    rozhodčím do jeho partiáře (křížkem za jménem hráče)"."""
    game = run_script(OPENING)  # Eva on move challenges Jan's rack
    game.apply(ChallengeRack(3, 0))
    refused(game, Play(4, ()), ChallengePending)
    out = game.apply(Ruling(5, True))
    assert out == [RestartMoveClock(1)]
    assert game.turns_owed == [1, 0]
    out = run_script("pass", game).history[-1]
    assert out.kind is MoveKind.PENALTY and out.player == 0 and game.player_on_move == 1
    rejected = run_script(OPENING + "challenge rack 0\nruling rejected")
    assert rejected.crosses == [0, 1] and rejected.turns_owed == [0, 0]
    appeal = run_script(OPENING + "challenge rack 0\nruling upheld")
    appeal.apply(AppealRuling(9, True))  # Jan appeals and wins: no lost turn, a cross for Eva
    assert appeal.turns_owed == [0, 0] and appeal.crosses == [0, 1]


def test_the_score_sheet_challenge_is_recorded_for_the_referee():
    """004 "Námitky": "Hráč, který je na tahu, může vznést námitku proti: ... Nezapisování partie soupeřem do
    jeho partiáře." The seed names no fixed penalty: upheld, it is recorded (a warning is the referee's)."""
    game = run_script(OPENING + "challenge sheet 0\nruling upheld")
    assert [i.kind for i in game.incidents] == [IncidentKind.SHEET_UPHELD]
    assert game.turns_owed == [0, 0] and game.crosses == [0, 0]
    refused(game, ChallengeRack(9, 1, by=1), BadPlayer)


def test_rack_over_the_limit_alternative_rule_keeps_the_reported_count():
    """001 "Alternativní pravidla": "Zásobník může obsahovat více než sedm kamenů." """
    game = Game()
    game.apply(Start(0, ("A", "B"), preset("home", rack_over_limit=True)))
    game.apply(RackReport(1, 0, 9))
    assert game.rack_counts == [9, 7] and game.bag_count == 100 - 16


def test_new_events_round_trip_through_the_journal():
    game = run_script(OPENING + "announce 20\nwarn 1 a note\nrack_report 0 6\nchallenge sheet 0\nruling rejected")
    again = Game.replay(decode_event(encode_event(e)) for e in game.events)
    assert again.to_dict() == game.to_dict()


# ---- 9. the full score sheet --------------------------------------------------------------------------------------


def test_the_sheet_has_the_header_the_referees_record_and_signature_lines():
    """004 "Zápis partie": "Do záhlaví partiáře se vyplňuje (pokud je to relevantní): místo konání partie, název
    soutěže a číslo kola v soutěži, datum a čas začátku partie, číslo nebo označení hracího stolu, jména a příjmení
    hráčů (začínající hráč na prvním místě), názvy družstev"; "Po ukončení partie oba hráči oba partiáře
    podepíší"; the warning "rozhodčí vyznačí do partiáře hráče"."""
    from engine.game import GameInfo
    from engine.scoresheet import render_html, render_text

    game = run_script(OPENING + "announce 20\nwarn 1 mluví\nchallenge rack 0\nruling upheld\npass")
    game.apply(GameInfo(9, "Praha", "MČR 2026", "5", "23.11.2026 13:05", "Stůl 7", ("Praha", "Brno")))
    text = render_text(game)
    lines = text.splitlines()
    assert lines[1] == ("Místo: Praha   Soutěž: MČR 2026   Kolo soutěže: 5   Začátek: 23.11.2026 13:05   "
                        "Stůl: Stůl 7")  # fmt: skip
    assert lines[2] == "Družstvo: Praha : Brno"
    assert next(line for line in lines if line.startswith("Napomenutí")).split() == ["Napomenutí", "—", "1"]
    assert "  tah 1, Jan: ohlášeno 20, stůl 16" in lines
    assert "  Eva: napomenutí (mluví), po tahu 1" in lines
    assert "  Jan: námitka počtu kamenů oprávněná, ztrácí nejbližší tah, po tahu 1" in lines
    assert lines[-1] == "Podpis Jan: ________________   Podpis Eva: ________________"
    page = render_html(game, "en")
    for expected in ("Place</small><br>Praha", "Team: Brno", "Signature Eva", "Referee&#x27;s record",
                     "announced 20, table 16"):  # fmt: skip
        assert expected in page


def test_the_set_check_and_a_letter_beyond_it_are_on_the_sheet():
    """004: "Pokud je během partie zjištěn nesprávný počet kamenů ..., dohraje se partie s takovou sadou"."""
    from engine.scoresheet import render_text

    lines = render_text(run_script("start cas Jan Eva\nset A -\nplay H7V XX")).splitlines()
    assert lines[1] == "Kontrola sady: chybí A, navíc —"
    assert "  tah 1, Jan: nad sadu X" in lines


# ---- 5. a play against the placing rules ----------------------------------------------------------------------------


def test_a_play_against_the_placing_rules_recorded_as_laid_stands_unless_challenged():
    """004: "Zahrání neplatného tahu (pouze při podané námitce uznané za oprávněnou – formálně neplatně zahraný
    tah, proti jehož platnosti soupeř nepodal námitku, se v daném tahu a partii považuje za platný)"."""
    from engine.game import IllegalMove

    game = run_script("start cas Jan Eva")
    off_centre = (Placement.at(0, 0, "O"), Placement.at(0, 1, "S"))
    refused(game, Play(1, off_centre), IllegalMove)  # not asked to record it as laid: refused as before
    game.apply(Play(2, off_centre, irregular=True))
    move = game.history[0]
    assert move.kind is MoveKind.PLAY and move.irregular == "first move does not cover the centre square"
    assert move.words == ("OS",) and game.scores == [3 * (1 + 1), 0]  # A1 is a TW
    run_script("pass", game)  # not challenged: it stands
    assert game.board.get(0, 0) is not None and game.scores == [6, 0]


def test_an_upheld_placement_challenge_withdraws_the_play_a_rejected_one_gives_a_cross():
    """000: "Protest lze podat i proti nesprávně položenému tahu. Např. pokud hráč v prvním tahu položí slovo mimo
    středové pole" - a successful protest: "napadený tah je neplatný jako celek"."""
    gap = OPENING + "play_as_laid H13V OK\n"  # ROZUM ends at H11: OK at H13 does not touch it
    game = run_script(gap)
    assert game.history[1].irregular == "no new tile touches a tile on the board"
    assert game.history[1].words[0] == "OK"
    run_script("challenge placement\nruling upheld", game)
    assert game.history[1].kind is MoveKind.WITHDRAWN and game.board.get(7, 12) is None
    rejected = run_script(gap + "challenge placement\nruling rejected")
    assert rejected.crosses == [1, 0] and rejected.history[1].kind is MoveKind.PLAY
    refused(rejected, decode_event(encode_event(Ruling(9, True))), GameError)  # nothing pending
    with pytest.raises(GameError):
        run_script("challenge placement", rejected)  # already ruled on


def test_a_scattered_play_is_read_as_laid_every_run_a_word():
    from engine.board import Board
    from engine.placement import irregular_play

    board = Board.from_rows(["." * 15] * 7 + [".....ROZUM....."] + ["." * 15] * 7)
    play = irregular_play(board, (Placement.at(6, 5, "K"), Placement.at(8, 9, "A"), Placement.at(0, 0, "X")))
    assert [w.text for w in play.words] == ["KR", "MA", "X"]


# ---- 6. resignation, the match, the draw, the scoreless end --------------------------------------------------------


def test_resigning_while_the_opponent_is_on_move_lets_the_opponent_finish_the_move():
    """004: "Pokud je v okamžiku vzdání partie na tahu soupeř, má právo dohrát svůj tah a započítat výsledky tohoto
    tahu do skóre partie. Hráč, který vzdal partii během jejího průběhu, prohrává se skóre 0:100." """
    from engine.game import Resign

    game = run_script(OPENING)  # Eva on move
    assert game.apply(Resign(3, 0, after_turn=True)) == []
    assert game.ended is None
    run_script("play G8S K.T", game)  # Eva finishes her move: 3 points, then the resignation
    assert game.ended is EndReason.RESIGNED and game.scores == [16, 3] and game.result.final == (0, 100)
    now = run_script(OPENING)
    now.apply(Resign(3, 1, after_turn=True))  # Eva is on move herself: at once
    assert now.ended is EndReason.RESIGNED and now.result.final == (100, 0)


def test_the_starting_player_alternates_across_a_match():
    """004: "V případě, že zápas se skládá z více partií, v dalších partiích se hráči v zahajování pravidelně
    střídají." """
    from engine.draw import match_order

    assert [match_order(("Jan", "Eva"), n) for n in range(3)] == [("Jan", "Eva"), ("Eva", "Jan"), ("Jan", "Eva")]
    assert match_order(("A", "B", "C"), 4) == ("B", "C", "A")


def test_the_mattel_draw_rule_lets_a_blank_beat_a():
    """002: "Začíná hráč, jehož písmeno je nejbližší začátku abecedy. (Prázdný kámen má přednost před písmenem
    „A“.)" 004 instead: "Žolík je kamenem mimo pořadí. Je-li vylosován, hráč losuje okamžitě kámen nový"."""
    from engine.draw import starting_player
    from engine.tiles import tile_set

    czech = tile_set("czech")
    assert starting_player(czech, {0: ["?", "B"], 1: ["A"]}) == 1  # 004: the blank is drawn again
    assert starting_player(czech, {0: ["?"], 1: ["A"]}, blank_first=True) == 0  # 002
    assert preset("home", draw_blank="first").draw_blank == "first"


def test_four_scoreless_turns_end_a_three_player_home_game_under_the_000_option():
    """000: "Hra je taktéž ukončena v okamžiku kdy čtyři bezprostředně po sobě navazující tahy nepoloží žádný nový
    kámen na desku"; 001: "Teprve když se všichni hráči ve dvou po sobě jdoucích kolech vzdají tahu, hra
    skončí" (the home preset's default)."""
    rounds = run_script("start home A B C\npass\npass\npass\npass")
    assert rounds.ended is None and rounds.ruleset.scoreless_turns(3) == 6
    game = Game()
    game.apply(Start(0, ("A", "B", "C"), preset("home", scoreless_turns_total=4)))
    run_script("pass\npass\npass\npass", game)
    assert game.ended is EndReason.SCORELESS


# ---- 10. the alternative rules of seed 001 --------------------------------------------------------------------------


def home_with(**options) -> Game:
    game = Game()
    game.apply(Start(0, ("Jan", "Eva"), preset("home", **options)))
    return game


def test_a_played_blank_swapped_for_its_tile_uses_the_turn():
    """001 "Alternativní pravidla" 1: "Prázdný kámen (žolík), který už byl někým použit, může být vyměněn za kámen
    s písmenem, které zastupuje. Hráč, který si ho vymění, tím vyčerpá svůj tah"."""
    from engine.game import IllegalMove, SwapBlank

    game = run_script("play H7V rOZUM", home_with(blank_swap=True))
    run_script("swap_blank H7", game)
    move = game.history[-1]
    assert move.kind is MoveKind.BLANK_SWAP and move.player == 1 and game.player_on_move == 0
    assert game.board.get(7, 6).blank is False and game.unseen()["?"] == 2 and game.scoreless_streak == 1
    refused(game, SwapBlank(9, 7, 6), IllegalMove)  # no blank there any more
    refused(run_script("start home A B\nplay H7V rOZUM"), SwapBlank(9, 7, 6), IllegalMove)  # not allowed


def test_the_sheet_names_the_swapped_blank_in_the_languages_notation():
    """Row H column 7 is H7 in Czech (ČAS) and G8 in English (classic), as every other square on the sheet."""
    from engine.scoresheet import sheet

    game = run_script("play H7V rOZUM\nswap_blank H7", home_with(blank_swap=True))
    for lang, square in (("cs", "H7"), ("en", "G8")):
        cell = sheet(game, lang).rows[0].cells[1]
        assert cell is not None and (cell.word, cell.position) == ("(R) → R", square)


def test_premiums_count_for_everyone_who_uses_the_tile():
    """001 "Alternativní pravidla" 2: "Prémie za prémiová pole se započítá nejen hráči, který na pole kámen
    položil, ale i všem hráčům, kteří kámen využijí při tvorbě nových slov." """
    from engine.rules import RuleOptions

    plain = run_script("play H7V ROZUM\nplay H12V OK", home_with())
    every = run_script("play H12V OK", run_script("play H7V ROZUM",
                       home_with(scoring=RuleOptions(premiums_for_all=True))))  # fmt: skip
    assert plain.history[1].words == every.history[1].words == ("ROZUMOK",)
    # ROZUMOK: 1+1+2+2+2 + O 1 on the DL at H12 (2) + K 1 = 11; with the centre DW under the O of ROZUM still
    # counting: 22
    assert plain.history[1].score == 11 and every.history[1].score == 22


def test_words_read_both_ways_is_a_ruleset_option_for_the_referee():
    """001 "Alternativní pravidla" 4: "Slova lze tvořit nejenom zleva doprava a shora dolů, ale i v protisměru." """
    assert preset("home", reverse_words=True).reverse_words and not preset("cas").reverse_words


# ---- 9. the sheets disagree; the tiles were cleared ---------------------------------------------------------------

SCORELESS_END = OPENING + "pass\n" * 4


def test_the_referee_corrects_a_score_after_the_game_when_the_sheets_disagree():
    """004 E: "Pokud se hráči neshodnou na souladu svých partiářů, přivolají rozhodčího, který rozhodne o způsobu
    řešení situace." The referee's correction counts in the final result and is on the record."""
    game = run_script(SCORELESS_END)
    assert game.ended is EndReason.SCORELESS
    run_script("correction 1 12\nrack 0 ABCDEEF\nrack 1 IJKLMNO", game)
    assert game.scores == [16, 12] and game.adjustments[-1].points == 12
    assert game.result.final == (16 - game.result.minus[0], 12 - game.result.minus[1])


def test_a_dispute_after_the_tiles_were_cleared_is_forfeited_as_the_referee_decides():
    """004 E: "Pokud hráči odklidí kameny z desky a dojde ke sporu, který není možné bez těchto kamenů rozhodnout,
    rozhodčí má právo kontumovat výsledek partie 0:0, 100:0 nebo 0:100 podle povahy sporu a podle toho, který
    z hráčů kameny odklidil." """
    game = run_script(SCORELESS_END + "dispute_forfeit 1")
    assert game.ended is EndReason.DISPUTE_FORFEIT and game.result.final == (0, 100) and game.result.winners == (1,)
    assert game.racks_needed == ()  # a fixed result: no racks to enter
    void = run_script(SCORELESS_END + "rack 0 ABCDEEF\nrack 1 IJKLMNO\ndispute_forfeit -")
    assert void.result.final == (0, 0) and void.result.outcome == "void"
    refused(void, Correction(99, 0, 5), GameOver)  # the forfeit is the result
    refused(void, DisputeForfeit(99, 0), GameOver)  # ruled once
    refused(run_script(OPENING), DisputeForfeit(99, 0), GameNotOver)  # during the game: not this ruling
    refused(run_script("start cas Jan Eva\nforfeit 1"), DisputeForfeit(99, 0), GameOver)  # a no-show: no tiles
    refused(run_script(SCORELESS_END), DisputeForfeit(99, 2), BadPlayer)
    assert decode_event(encode_event(DisputeForfeit(3.0, None))) == DisputeForfeit(3.0, None)


def test_a_dispute_forfeit_0_0_is_void_or_a_draw_as_the_referee_answered():
    """004 E does not say whether its 0:0 gives draw points: the referee's answer is the event's ``draw``."""
    draw = run_script(SCORELESS_END + "dispute_forfeit =")
    assert draw.result.final == (0, 0) and draw.result.outcome == "draw" and draw.result.winners == (0, 1)
    assert decode_event(encode_event(DisputeForfeit(3.0, None, draw=True))) == DisputeForfeit(3.0, None, draw=True)
    doubles = run_script("start polish A B C D\nplay H7V ROZUM\nresign 1\ndispute_forfeit =")
    assert doubles.team_result.final == (0, 0) and doubles.team_result.winners == (0, 1)
    assert run_script("start prague A B C D\nplay H7V ROZUM\nresign 1\ndispute_forfeit -").result.outcome == "void"


def test_a_dispute_forfeit_in_doubles_goes_to_the_team():
    """003: a doubles game is the teams' (a fixed result on the team's first-listed player)."""
    game = run_script("start prague A B C D\nplay H7V ROZUM\nresign 1\ndispute_forfeit 3")
    assert game.ended is EndReason.DISPUTE_FORFEIT and game.team_result.final == (0, 100)
