"""Scripted full games: every turn type and end condition, the A-B-C playout in each seat, the third-cross
penalty and appeals; each asserts its final score sheet (scores checked by hand against the premium layout)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from engine.game import EndReason, Game, GameInfo, MoveKind, Phase
from engine.game.script import run_script
from engine.scoresheet import format_word, render_html, render_text, sheet
from engine.tiles import tile_set

# Hand check of the golden game: ROZUM H7V 1+1+2+2+2 with O on the centre DW = 16. KOT withdrawn.
# PM G11S: P 1 + M 2 = 3. (A)Ž I10V: blank 0 + Ž 4 = 4, U(A) 2 + 0 = 2, PMŽ 1+2+4 = 7: 13.
# JEPMŽ E11S, J on the DW at E11: (2+1+1+2+4) x 2 = 20. ÚJEPMŽ D11S: 5+2+1+1+2+4 = 15.
# Four passes end the game; racks ÁBCDEFG = 2+3+2+1+1+5+5 = 19, HIJKLMN = 2+1+2+1+1+2+1 = 10.
GOLDEN_SCRIPT = """start cas Jan Eva
play H7V ROZUM =16
play G8S K.T
challenge KOT
ruling upheld
play G11S P.
challenge 0
ruling rejected
appeal against
play I10V aŽ
challenge 1
ruling rejected
exchange 3
play E11S JE..
pass
timeout
play D11S Ú
pass
pass
pass
pass
rack 0 ÁBCDEFG
rack 1 HIJKLMN
"""

GOLDEN_SHEET = """Partiář: Jan : Eva   (pravidla: ČAS)

        | Jan ×                               | Eva ××
 Kolo   | Slovo           Poz.    Body Celkem | Slovo           Poz.    Body Celkem
-----------------------------------------------------------------------------------
    1   | ROZUM           H7V     [16]     16 | KOT (námitka)              0      0
    2   | PM              G11S       3     19 | (A)Ž, U(A), PMŽ I10V      13     13
    3   | 3                          —     19 | JEPMŽ           E11S    [20]     33
    4   |                          pas     19 |                          čas     33
    5   | ÚJEPMŽ          D11S      15     34 |                          pas     33
    6   |                          pas     34 |                          pas     33
    7   |                          pas     34

                        Jan         Eva
Body zahrané             34          33
Minus                    19          10
Plus                      0           0
Celkem                   15          23
Zbylá písmena       ÁBCDEFG     HIJKLMN
Součet / rozdíl          38           8
Křížky                    ×          ××
Nejlepší tah       ROZUM 16    JEPMŽ 20

Konec partie: tahy bez položení kamenů. Výsledek 15 : 23 (vítěz: Eva)
* = všech 7 kamenů, [ ] = nejlepší tah, ✓ = kolo s uplynutím základní doby (dohrávka A-B-C)

    1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
 A  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 B  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 C  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 D  .  .  .  .  .  .  .  .  .  .  Ú  .  .  .  .
 E  .  .  .  .  .  .  .  .  .  .  J  .  .  .  .
 F  .  .  .  .  .  .  .  .  .  .  E  .  .  .  .
 G  .  .  .  .  .  .  .  .  .  .  P  .  .  .  .
 H  .  .  .  .  .  .  R  O  Z  U  M  .  .  .  .
 I  .  .  .  .  .  .  .  .  .  a  Ž  .  .  .  .
 J  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 K  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 L  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 M  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 N  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
 O  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .

Podpis Jan: ________________   Podpis Eva: ________________
"""


def test_golden_game_scoreless_end_sheet():
    game = run_script(GOLDEN_SCRIPT)
    assert game.ended is EndReason.SCORELESS
    assert game.result.final == (15, 23)
    assert render_text(game) == GOLDEN_SHEET


def comb_letters() -> list[str]:
    """The Czech set in check-square order, blanks named E (written lowercase), two A's moved to the end."""
    square = tile_set("czech").check_square()
    square.remove("A")
    square.remove("A")
    return ["e" if ch == "?" else ch for ch in square] + ["A", "A"]


COMB_ROWS = "HIJKLMNOGFEDCB"


def comb(steps: str) -> str:
    """Script lines: ``P`` = the next 7 letters across the next comb row (columns 5-11), ``-`` = pass,
    ``E`` = base game time expires."""
    letters = comb_letters()
    lines = ["start cas Jan Eva"]
    played = 0
    for step in steps:
        if step == "P":
            word = "".join(letters[played * 7 : played * 7 + 7])
            lines.append(f"play {COMB_ROWS[played]}5V {word}")
            played += 1
        elif step == "-":
            lines.append("pass")
        else:
            lines.append("expire")
    return "\n".join(lines)


def test_playing_out_with_an_empty_bag_computes_the_opponents_rack():
    game = run_script(comb("P" * 14))
    assert game.ended is EndReason.PLAYED_OUT and game.went_out == 1
    assert game.bag_count == 0 and game.rack_counts == [2, 0]
    result = game.result
    assert result.racks == ("AA", "")
    assert result.minus == (2, 0) and result.plus == (0, 2)
    assert result.final == (game.scores[0] - 2, game.scores[1] + 2)
    text = render_text(game)
    assert text.count("*") == 14 + 1  # every move a bingo, plus the legend
    assert "Konec partie: zavření (Eva)" in text
    lines = text.splitlines()
    minus = next(line for line in lines if line.startswith("Minus"))
    assert minus.split() == ["Minus", "2", "0"]
    assert next(line for line in lines if line.startswith("Zbylá")).split() == ["Zbylá", "písmena", "AA", "—"]


def test_playout_started_in_round_a_ends_normally_by_playing_out():
    game = run_script(comb("P" * 12 + "E" + "PP"))  # expiry with Jan on move: A = rounds 7 (both turns)
    assert game.abc_rounds == {"A": 7, "B": 8, "C": 9}
    assert game.ended is EndReason.PLAYED_OUT and game.result.plus == (0, 2)
    assert "    7 ✓A|" in render_text(game)


def test_playing_out_in_round_c_with_an_empty_bag_is_a_normal_close():
    game = run_script(comb("P" * 10 + "E" + "PP" + "-P" + "P"))
    assert [game.history[i].phase for i in (10, 12, 14)] == [Phase.A, Phase.B, Phase.C]
    assert game.history[14].bingo and game.ended is EndReason.PLAYED_OUT
    assert game.result.plus == (game.result.minus[1], 0) and game.result.minus[1] > 0
    text = render_text(game)
    assert "    6 ✓A|" in text and "    7  B|" in text and "    8  C|" in text


def test_playing_out_in_round_c_with_tiles_in_the_bag_is_a_normal_move():
    game = run_script(comb("PE-P-P"))  # expiry with Eva on move: A = her turn of round 1
    assert game.abc_rounds == {"A": 1, "B": 2, "C": 3}
    assert game.history[4].phase is Phase.C and game.history[4].bingo
    assert game.rack_counts[0] == 0 and game.bag_count > 0
    assert game.ended is None and game.player_on_move == 1
    run_script("pass", game)
    assert game.ended is EndReason.PLAYOUT and game.racks_needed == (1,)
    rest = "".join(comb_letters()[21:28])
    run_script(f"rack 1 {rest}", game)
    result = game.result
    assert result.plus == (0, 0) and result.minus[0] == 0
    assert result.minus[1] == tile_set("czech").rack_value(rest)
    assert game.history[4].score == game.history[4].engine_score and game.history[4].bingo


def test_third_cross_penalty_and_appeal_on_the_sheet():
    game = run_script(
        """
        start cas Jan Eva
        play H7V ROZUM
        challenge 0
        ruling rejected
        play G8S K.T
        challenge KOT
        ruling upheld
        appeal for
        play I10V aŽ
        challenge 0
        ruling rejected
        appeal against
        pass
        pass
        resign 1
        """
    )
    # Eva: rejected (1); Jan's upheld challenge of KOT reversed on appeal: a cross for Jan instead;
    # Eva's challenge of (A)Ž rejected (2) and her appeal fails (3): she loses her next turn.
    assert game.crosses == [1, 3]
    kinds = [(m.player, m.kind) for m in game.history]
    assert kinds == [(0, MoveKind.PLAY), (1, MoveKind.PLAY), (0, MoveKind.PLAY), (1, MoveKind.PASS),
                     (0, MoveKind.PASS), (1, MoveKind.PENALTY)]  # fmt: skip
    assert game.ended is EndReason.RESIGNED and game.result.final == (100, 0)
    text = render_text(game)
    assert "trest" in text and "Eva ×××" in text and "Jan ×" in text
    assert "Konec partie: vzdáno (Eva). Výsledek 100 : 0 (vítěz: Jan)" in text


@pytest.mark.parametrize(
    ("script", "status"),
    [
        ("start cas Jan Eva\nforfeit 0", "Konec partie: kontumace (Jan). Výsledek 0 : 100 (vítěz: Eva)"),
        (
            "start cas Jan Eva\nforfeit 0 1",
            "Konec partie: kontumace (Jan, Eva). Výsledek 0 : 0 (bez vítěze, body za remízu nezískává nikdo)",
        ),
        (
            "start cas Jan Eva\nplay H7V ROZUM\ndisqualify 0",
            "Konec partie: vyloučení (Jan). Výsledek 0 : 100 (vítěz: Eva)",
        ),
        ("start cas Jan Eva\npass", "Partie pokračuje."),
        (
            "start cas Jan Eva\npass\npass\npass\npass",
            "Konec partie: tahy bez položení kamenů. Zbývá zapsat zásobník hráče: Jan, Eva",
        ),
    ],
)
def test_end_status_lines(script, status):
    assert status in render_text(run_script(script)).splitlines()


def test_english_labels_and_home_play_with_three_players():
    game = run_script("start home Ann Ben Cid\nplay H7V ROZUM\npass\nexchange 2\ntimeout")
    text = render_text(game, "en")
    assert "Score sheet: Ann : Ben : Cid" in text
    assert "| ROZUM 8G      [16]     16 |               pass      0 | 2                —      0" in text
    rows = sheet(game, "en").rows
    assert [r.number for r in rows] == [1, 2] and rows[1].cells[1] is None
    assert "    2   | " + " " * 14 + "time     16" in text
    # one notation per language: classic in English (8G across, columns lettered), ČAS in Czech (H7V, rows lettered)
    assert "    A  B  C  D  E  F  G  H  I  J  K  L  M  N  O" in text.splitlines()
    assert "(rules: home)" in text.splitlines()[0]
    czech = render_text(game, "cs")
    assert "ROZUM H7V" in czech and "    1  2  3  4  5  6  7  8  9 10 11 12 13 14 15" in czech.splitlines()


def test_format_word_puts_blank_letters_in_parentheses():
    assert format_word("KoČKA") == "K(O)ČKA"
    assert format_word("ab") == "(A)(B)"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.rows = 0
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in ("meta", "br"):
            self.stack.append(tag)
        self.rows += tag == "tr"

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (
            f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        )
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def test_html_sheet_is_one_balanced_a4_page():
    game = run_script(GOLDEN_SCRIPT)
    page = render_html(game)
    parser = _Tags()
    parser.feed(page)
    assert parser.stack == []
    assert "size: A4" in page and page.startswith("<!DOCTYPE html>")
    # the header fields, 2 column header rows + 7 rounds, summary header + 8 lines, board header + 15 rows
    assert parser.rows == 1 + 2 + 7 + 1 + 8 + 1 + 15
    text = "".join(parser.text)
    for expected in ("ÚJEPMŽ", "(A)Ž, U(A), PMŽ", "KOT (námitka)", "ÁBCDEFG", "Konec partie"):
        assert expected in text
    assert 'class="blank">A<' in page  # the blank on the board diagram
    assert render_html(game, "en", full_page=False).startswith('<div class="sheet">')


@pytest.mark.parametrize(("lang", "rules"), [("cs", "Pravidla"), ("en", "Rules")])
def test_html_sheet_header_labels_are_capitalised_alike(lang, rules):
    """The printed header's small labels (Místo, Soutěž, ..., Pravidla) all start with a capital letter."""
    game = run_script(GOLDEN_SCRIPT)
    game.apply(GameInfo(99, "Praha", "Mistrovství ČR", "5", "23.11.2026 13:05", "Stůl 7", ("Praha", "Brno")))
    labels = re.findall(r"<td><small>([^<]*)</small>", render_html(game, lang))
    assert len(labels) == 6 and labels[-1] == rules
    assert all(label[0].isupper() for label in labels), labels


def test_sheet_of_a_running_game_and_of_a_new_game():
    assert "Partie pokračuje." in render_text(run_script("start cas A B"))
    with pytest.raises(KeyError):
        render_text(Game(), "de")


def test_no_result_while_the_closing_play_is_challenged_and_it_stands_after_a_rejected_challenge():
    game = run_script(comb("P" * 14))
    final = game.result.final
    run_script("challenge 0", game)
    assert game.ended is EndReason.PLAYED_OUT and game.result is None and game.to_dict()["result"] is None
    run_script("ruling rejected", game)
    assert game.result.final == final and game.crosses == [1, 0]


def test_an_upheld_challenge_of_the_closing_play_reopens_the_game():
    game = run_script(comb("P" * 14))
    assert game.ended is EndReason.PLAYED_OUT
    run_script("challenge 0\nruling upheld", game)
    assert game.ended is None and game.history[13].kind is MoveKind.WITHDRAWN
    assert game.rack_counts == [2, 7] and game.bag_count == 0
    assert game.player_on_move == 0 and game.scores[1] == sum(m.score for m in game.history if m.player == 1)
    run_script("pass\npass", game)  # Jan, Eva: withdrawn + 2 passes = 3 scoreless turns
    assert game.ended is None
    run_script("pass", game)
    assert game.ended is EndReason.SCORELESS
    assert game.racks_needed == (0, 1)  # the bag is empty: one entry gives the other rack
    rack = "".join("?" if ch == "e" else ch for ch in comb_letters()[91:98])  # the blanks go back as "?"
    assert rack == "ÝÝZZŽ??"
    run_script(f"rack 1 {rack}", game)
    assert game.racks()[0] == "AA"
    assert game.result.minus == (2, 4 + 4 + 2 + 2 + 4)
