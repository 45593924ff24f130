"""Scoring per RULES.md: every worked example of the seeds, end-of-game racks, and scoring invariants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.board import SIZE, Board, Direction, Notation, Position, Square
from engine.placement import IllegalPlacement, Placement, Play, apply, placements_from_word, validate
from engine.rules import RuleOptions
from engine.scoring import end_adjustments, score_play, score_word
from engine.tiles import Tile, tile_set

CZECH = tile_set("czech")
ENGLISH = tile_set("english")


def at(pos: str) -> Position:
    return Position.from_notation(pos, Notation.CLASSIC)


def play_word(board: Board, pos: str, word: str) -> Play:
    play = validate(board, placements_from_word(board, at(pos), word), at(pos).direction)
    assert play.main.position == at(pos), "the word must be written in full"
    return play


def score(board: Board, pos: str, word: str, tiles=CZECH) -> int:  # type: ignore[no-untyped-def]
    """Validate, score and apply a play; its total score."""
    play = play_word(board, pos, word)
    total = score_play(play, tiles).total
    apply(board, play)
    return total


def put(board: Board, pos: str, word: str) -> None:
    """Lay tiles without validation: the part of a seed's position that the seed does not give."""
    p = at(pos)
    dr, dc = p.direction.step
    for k, ch in enumerate(word):
        board.put(Square(p.square.row + dr * k, p.square.col + dc * k), Tile.from_notation(ch))


# --- worked examples (Czech tile values: A C D E ... 1 or 2 points as in RULES.md) ---------------------------


def test_rozum_first_move_r_on_dl() -> None:
    # 8D: R on D8 (DL), ... M on H8 (centre, DW): (R1*2 + O1 + Z2 + U2 + M2) * 2 = 9 * 2 = 18
    board = Board()
    assert board.cells[7 * 15 + 3] is None and Square(7, 3).premium.name == "DL"
    assert score(board, "8D", "ROZUM") == 18


def test_posel_adds_osel_to_p_with_s_on_tl() -> None:
    # first move PES down H6..H8 (P1 + E1 + S1 on the centre DW = 6); then OSEL after the P across row 6:
    # P1 (old) + O1 + S1*3 (J6 is TL) + E1 + L1 = 7, no word premium
    board = Board()
    assert score(board, "H6", "PES") == 6
    assert Square(5, 9).premium.name == "TL"
    assert score(board, "6H", ".OSEL") == 7


def test_emu_parallel_forms_ze_um_mu() -> None:
    # ZUM across the centre (F8..H8), EMU parallel below it on F9..H9 with M on G9 (DL):
    # EMU = E1 + M2*2 + U2 = 7; ZE = 2 + 1 = 3; UM = 2 + 2*2 = 6; MU = 2 + 2 = 4; total 20
    board = Board()
    score(board, "8F", "ZUM")
    play = play_word(board, "9F", "EMU")
    result = score_play(play, CZECH)
    assert [(w.word.text, w.score) for w in result.words] == [("EMU", 7), ("ZE", 3), ("UM", 6), ("MU", 4)]
    assert result.total == 20


def test_korenka_hooks_ocka_into_kocka() -> None:
    # OČKA lies down H2..H5. Row 1 premiums: A1 TW, D1 DL, H1 TW. KOŘENKA on C1..I1: O on D1 (DL), second K on H1 (TW) hooking OČKA.
    # KOŘENKA = (K1 + O1*2 + Ř4 + E1 + N1 + K1 + A1) * 3 = 11 * 3 = 33; KOČKA = (K1 + O1 + Č4 + K1 + A1) * 3 = 24
    board = Board()
    put(board, "H2", "OČKA")
    play = play_word(board, "1C", "KOŘENKA")
    result = score_play(play, CZECH)
    assert [(w.word.text, w.score) for w in result.words] == [("KOŘENKA", 33), ("KOČKA", 24)]
    assert result.bingo == 50 and result.total == 57 + 50  # all seven tiles of a full rack
    # the seed's move (57) is not a bingo: play it from a rack of six by taking the final A from the board
    board = Board()
    put(board, "H2", "OČKA")
    put(board, "1I", "A")
    result = score_play(play_word(board, "1C", "KOŘENK."), CZECH)
    assert result.total == 57 and result.bingo == 0


def test_programy_bridges_over_two_tw_and_dl() -> None:
    # O (C1) and M (G1) lie at the top of two down words; PR, GRA and Y go round them on row 1:
    # P on A1 (TW), G on D1 (DL), Y on H1 (TW): (P1 + R1 + O1 + G5*2 + R1 + A1 + M2 + Y2) * 3 * 3 = 19 * 9 = 171
    board = Board()
    put(board, "C1", "OKO")
    put(board, "G1", "MÁK")
    play = play_word(board, "1A", "PR.GRA.Y")
    assert play.tile_count == 6 and play.cross == ()
    assert score_play(play, CZECH).total == 171


def test_x_and_a_left() -> None:
    # X 10 + A 1 = 11: the player left with them loses 11, the player who went out gains 11 (Czech 1x)
    assert end_adjustments({0: "", 1: "XA"}, 0, CZECH, RuleOptions(going_out="1x")) == {0: 11, 1: -11}
    assert end_adjustments({0: "", 1: "XA"}, 0, CZECH, RuleOptions(going_out="2x")) == {0: 22, 1: 0}
    assert end_adjustments({0: "?E", 1: "XA"}, None, CZECH) == {0: -1, 1: -11}


def test_seed_001_first_moves() -> None:
    # Seed 001's sequence, the O of COP on the centre (Czech values C2 L1 O1 P1 V1 E1 S1 N1 A1 Ř4):
    board = Board()
    # COP on G8..I8, O on H8 (DW): (2 + 1 + 1) * 2 = 8
    assert score(board, "8G", "COP") == 8
    # CLO down from the C of COP: C2 (old) + L1*2 (G9 DL) + O1 = 5
    assert score(board, "G8", "CLO") == 5
    # OVES across from the O of CLO: O1 (old) + V1 + E1 + S1*3 (J10 TL) = 6
    assert score(board, "10G", "OVES") == 6
    # CLONA: N and A added to CLO (G11, G12, no premiums): 2 + 1 + 1 + 1 + 1 = 6
    assert score(board, "G8", "CLONA") == 6
    # PŘES down from the P of COP bridging to the E of OVES: P1 (old) + Ř4*2 (I9 DL) + E1 (old) + S1 = 11
    assert score(board, "I8", "PŘES") == 11


# --- rules as data ------------------------------------------------------------------------------------------


def test_blank_scores_zero_but_its_word_premium_counts() -> None:
    board = Board()
    play = play_word(board, "8D", "rOZUM")  # blank R on the DL
    assert score_play(play, CZECH).total == (1 + 2 + 2 + 2) * 2
    play = play_word(Board(), "8D", "ROZUm")  # blank M on the centre DW: worth 0, the word still doubles
    assert score_play(play, CZECH).total == (1 * 2 + 1 + 2 + 2 + 0) * 2


def test_word_multipliers_compound_and_bingo_comes_after() -> None:
    board = Board()
    put(board, "8H", "A")  # something to connect to
    play = play_word(board, "H1", "ABCDEFG.")  # H1 is a TW, H4 a DL, H8 (old) the centre DW
    result = score_play(play, ENGLISH)
    base = 1 + 3 + 3 + 2 * 2 + 1 + 4 + 2 + 1  # H4 is a DL under the D; H8 (old) counts face value
    assert result.words[0].score == base * 3  # H1 is a TW; H8's DW was covered before
    assert result.bingo == 50 and result.total == base * 3 + 50
    assert score_play(play, ENGLISH, RuleOptions(bingo_bonus=35)).total == base * 3 + 35
    assert score_play(play, ENGLISH, RuleOptions(rack_size=8)).bingo == 0


def test_two_dw_quadruple() -> None:
    board = Board()
    put(board, "1H", "A")  # an old tile above H2 to connect to
    play = play_word(board, "2B", "ABCDEFGHIJKLM")  # B2 and N2 are DWs
    word = play.main
    assert word.squares[0] == Square(1, 1) and word.squares[-1] == Square(1, 13)
    face = sum(ENGLISH.points[ch] for ch in "ABCDEFGHIJKLM")
    letters = 2 * ENGLISH.points["E"] + 2 * ENGLISH.points["I"]  # F2 and J2 are TLs
    assert score_word(word, ENGLISH) == (face + letters) * 4


def test_unknown_letter_on_a_plain_tile_is_refused() -> None:
    board = Board()
    play = play_word(board, "8G", "WOW")
    with pytest.raises(ValueError, match="'W'.*czech"):
        score_play(play, CZECH)


# --- invariants (hypothesis) --------------------------------------------------------------------------------

LETTERS = st.sampled_from(list("ABCDEFGHIJKLMNOPRSTUVWXYZ") + ["a", "e", "q"])


@st.composite
def positions_and_plays(draw: st.DrawFn) -> tuple[Board, list[Placement], Direction]:
    """A board with tiles around a line, and new tiles on that line (often, not always, legal)."""
    row = draw(st.integers(0, SIZE - 1))
    start = draw(st.integers(0, SIZE - 1))
    length = draw(st.integers(1, min(8, SIZE - start)))
    board = Board()
    for _ in range(draw(st.integers(1, 12))):
        r = draw(st.integers(max(0, row - 2), min(SIZE - 1, row + 2)))
        c = draw(st.integers(max(0, start - 2), min(SIZE - 1, start + length + 1)))
        board.put(Square(r, c), Tile.from_notation(draw(LETTERS)))
    placements = [
        Placement(Square(row, c), Tile.from_notation(draw(LETTERS)))
        for c in range(start, start + length)
        if board.get(row, c) is None
    ]
    across = draw(st.booleans())
    if not across:  # the same thing down a column
        board = board.transposed()
        placements = [Placement(p.square.transposed(), p.tile) for p in placements]
    return board, placements, Direction.ACROSS if across else Direction.DOWN


def _legal(board: Board, placements: list[Placement], direction: Direction) -> Play:
    try:
        return validate(board, placements, direction)
    except IllegalPlacement:
        assume(False)
        raise


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(positions_and_plays())
def test_transposing_board_and_move_leaves_the_score_unchanged(
    case: tuple[Board, list[Placement], Direction],
) -> None:
    board, placements, direction = case
    play = _legal(board, placements, direction)
    flipped = validate(
        board.transposed(), [Placement(p.square.transposed(), p.tile) for p in placements], direction.other
    )
    assert score_play(flipped, ENGLISH).total == score_play(play, ENGLISH).total
    assert [w.text for w in flipped.words] == [w.text for w in play.words]


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(positions_and_plays())
def test_score_is_the_sum_of_the_words_plus_the_bingo(case: tuple[Board, list[Placement], Direction]) -> None:
    board, placements, direction = case
    play = _legal(board, placements, direction)
    result = score_play(play, ENGLISH)
    assert result.total == sum(score_word(w, ENGLISH) for w in play.words) + result.bingo
    assert result.bingo == (50 if len(placements) == 7 else 0)
    # every new tile is in the main word; each cross word holds exactly one new tile
    assert sum(play.main.new) == len(placements)
    assert all(sum(w.new) == 1 for w in play.cross)
    # a word's score is never below its face value without premiums
    for w in play.words:
        assert score_word(w, ENGLISH) >= sum(ENGLISH.value(t) for t in w.tiles)
