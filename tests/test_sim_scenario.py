"""Scenario files: parsing, line-numbered errors, formatting round trip, the bundled scenarios parse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.board import Direction, Position, Square
from hw_sim.scenario import (
    Advance,
    BoardLayout,
    Choose,
    Daemon,
    ExpectScore,
    Fault,
    Flicker,
    Link,
    Place,
    Press,
    Remove,
    Scenario,
    ScenarioFailed,
    ScenarioSyntaxError,
    Turn,
    WaitDaemon,
    WaitLcd,
    parse_step,
)

SCENARIOS = sorted(Path(__file__).with_name("scenarios").glob("*.txt"))


def test_every_kind_of_step() -> None:
    text = """
    # a comment line
    place ROZUM at 8D        # across
    place rOZUM at D8        # down, first tile a blank
    place A at H8
    remove 8D..8H
    remove H8
    press A
    press b hold 2.5
    press encoder
    turn encoder +3
    turn encoder -2
    advance 30
    wait lcd "ROZUM # not a comment"
    wait lcd "A" within 10
    choose "Výměna"
    wait daemon
    expect score 18 0
    unplug
    replug
    flicker H8 5
    fault A1 open
    unfault A1
    check square
    clear board
    kill daemon
    restart daemon
    """
    steps = Scenario.parse(text).steps
    assert steps == [
        Place("ROZUM", Position(Square(7, 3), Direction.ACROSS)),
        Place("rOZUM", Position(Square(7, 3), Direction.DOWN)),
        Place("A", Position(Square(7, 7), Direction.DOWN)),
        Remove(Square(7, 3), Square(7, 7)),
        Remove(Square(7, 7), Square(7, 7)),
        Press("a"),
        Press("b", 2.5),
        Press("encoder"),
        Turn(3),
        Turn(-2),
        Advance(30.0),
        WaitLcd("ROZUM # not a comment"),
        WaitLcd("A", 10.0),
        Choose("Výměna"),
        WaitDaemon(),
        ExpectScore((18, 0)),
        Link("unplug"),
        Link("replug"),
        Flicker(Square(7, 7), 5),
        Fault(Square(0, 0), "open"),
        Fault(Square(0, 0), None),
        BoardLayout("check_square"),
        BoardLayout("clear"),
        Daemon("kill"),
        Daemon("restart"),
    ]


def test_place_cells_read_blanks_as_question_marks() -> None:
    step = parse_step("place rOzUM at 8D")
    assert step.cells() == [(7, 3, "?"), (7, 4, "O"), (7, 5, "?"), (7, 6, "U"), (7, 7, "M")]
    assert parse_step("remove H6..H8").cells() == [(5, 7), (6, 7), (7, 7)]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("jump A", "unknown step 'jump'"),
        ("place ROZUM 8D", "place WORD at POSITION"),
        ("place ROZUM at 8L", "runs off the board"),
        ("place R2D2 at 8D", "letters"),
        ("place ROZUM at Z9", "not a position"),
        ("remove 8D..9E", "not one row or column"),
        ("press C", "unknown button 'C'"),
        ("press A hold 99", "hold must be 0-10"),
        ("turn encoder 1.5", "whole number"),
        ("turn encoder 0", "steps must be 1-100"),
        ("turn wheel +1", "turn encoder"),
        ("advance -3", "forward"),
        ("advance soon", "must be a number"),
        ('wait lcd "open', "unbalanced quotes"),
        ('wait lcd ""', "empty"),
        ('wait lcd "X" within 0', "positive"),
        ("expect score 18", "expect score N N"),
        ("flicker H8 0", "times must be 1-1000"),
        ("fault H8 wet", "open, short, band"),
        ("kill board", "'kill daemon'"),
        ("check", "'check square'"),
    ],
)
def test_errors_name_the_line_and_the_reason(line: str, reason: str) -> None:
    with pytest.raises(ScenarioSyntaxError) as info:
        Scenario.parse(f"# header\n\npress A\n{line}\n", "game.txt")
    assert info.value.line_no == 4
    assert str(info.value).startswith("game.txt:4: ")
    assert reason in str(info.value)


letters = st.sampled_from("AÁBČĎEÉĚIÍOÓUÚŮYÝŘŠŽaáčz")
squares = st.builds(Square, st.integers(0, 14), st.integers(0, 14))


@st.composite
def places(draw: st.DrawFn) -> Place:
    direction = draw(st.sampled_from(Direction))
    start = draw(squares)
    room = 15 - (start.col if direction is Direction.ACROSS else start.row)
    word = draw(st.text(letters, min_size=1, max_size=min(room, 8)))
    return Place(word, Position(start, direction))


@st.composite
def removes(draw: st.DrawFn) -> Remove:
    first = draw(squares)
    if draw(st.booleans()):
        last = Square(first.row, draw(st.integers(0, 14)))
    else:
        last = Square(draw(st.integers(0, 14)), first.col)
    return Remove(first, last)


steps = st.one_of(
    places(),
    removes(),
    st.builds(Press, st.sampled_from(["a", "b", "encoder"]), st.sampled_from([0.0, 0.5, 2.0])),
    st.builds(Turn, st.integers(1, 100) | st.integers(-100, -1)),
    st.builds(Advance, st.floats(0, 10_000, allow_nan=False).map(lambda x: round(x, 2))),
    st.builds(
        WaitLcd,
        st.text(
            st.characters(codec="utf-8", exclude_categories=["Cs", "Cc", "Zl", "Zp"]), min_size=1, max_size=12
        ).filter(str.strip),
        st.sampled_from([5.0, 0.5, 30.0]),
    ),
    st.builds(WaitDaemon, st.sampled_from([20.0, 3.0])),
    st.builds(Choose, st.sampled_from(["Pas", "Výměna", "> zpět", 'say "hi"', "3"])),
    st.builds(ExpectScore, st.lists(st.integers(0, 999), min_size=2, max_size=4).map(tuple)),
    st.builds(Link, st.sampled_from(["unplug", "replug"])),
    st.builds(Flicker, squares, st.integers(1, 1000)),
    st.builds(Fault, squares, st.sampled_from(["open", "short", "band", None])),
    st.builds(BoardLayout, st.sampled_from(["check_square", "clear"])),
    st.builds(Daemon, st.sampled_from(["kill", "restart"])),
)


@given(st.lists(steps, min_size=1, max_size=12))  # no step at all is an error (below)
def test_format_parse_round_trip(script: list) -> None:
    scenario = Scenario.parse("".join(step.text() + "\n" for step in script))
    assert scenario.steps == script
    assert Scenario.parse(scenario.text()).steps == script


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_bundled_scenarios_parse(path: Path) -> None:
    scenario = Scenario.load(path)
    assert len(scenario.lines) >= 5


def test_there_are_bundled_scenarios() -> None:
    assert {p.name for p in SCENARIOS} >= {
        "tournament_game.txt",
        "unplug_mid_move.txt",
        "flicker.txt",
        "wrong_player.txt",
    }


def test_wait_lcd_reads_the_czech_letters_the_custom_glyphs_draw() -> None:
    """The emulated HD44780 shows custom glyphs as codes (``Vra₀ kameny``); a scenario waits for what a player reads
    (``Vrať kameny``). The letter comes from the glyph's bitmap on that LCD, so a slot reused for another letter on
    another LCD reads as that letter; a glyph that draws no known letter keeps its marker."""
    from device.transliterate import GLYPHS
    from hw_sim.scenario import lcd_rows

    blank = [0] * 8
    unknown = [0b11111] * 8
    first = {"rows": ["Vra₀ kameny     ", "₁ ₂             "], "cgram": [list(GLYPHS["ť"]), list(GLYPHS["Ž"]), unknown]
             + [blank] * 5}  # fmt: skip
    second = {"rows": ["N₀mitka: konec? ", "                "], "cgram": [list(GLYPHS["á"])] + [blank] * 7}
    state = {"panel": {"lcds": [first, second]}}
    assert lcd_rows(state) == ["Vrať kameny     ", "Ž ₂             ", "Námitka: konec? ", "                "]


# ------------------------------------------------------------------------------------- what a user is told
def _sim(*args: str) -> subprocess.CompletedProcess[str]:
    """``partiar sim --headless --scenario ...`` as a user runs it (a bad file stops it before the sim starts)."""
    return subprocess.run([sys.executable, "-m", "device.cli", "sim", "--headless", *args],
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_a_file_that_is_not_utf8_names_its_line_in_czech_and_english(tmp_path: Path) -> None:
    bad = tmp_path / "hra.txt"
    bad.write_bytes("wait daemon\npress A\nchoose \"Výměna\"\n".encode("cp1250"))
    with pytest.raises(ScenarioSyntaxError) as info:
        Scenario.load(bad)
    assert (info.value.source, info.value.line_no) == (str(bad), 3)
    for options, words in (((), "soubor není v kódování UTF-8 (bajt 0xFD ve sloupci 10)"),
                           (("--lang", "en"), "the file is not UTF-8 (byte 0xFD in column 10)")):
        done = _sim("--scenario", str(bad), *options)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert done.stderr.startswith(f"partiar sim: {bad}:3: {words}")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("cs", "{path}:2: neznámé tlačítko 'C' (A, B nebo encoder): 'press C'"),
     ("en", "{path}:2: unknown button 'C' (A, B or encoder): 'press C'")],
)  # fmt: skip
def test_a_bad_step_is_named_in_the_users_language(tmp_path: Path, lang: str, expected: str) -> None:
    bad = tmp_path / "hra.txt"
    bad.write_text("wait daemon\npress C\n", encoding="utf-8")
    done = _sim("--scenario", str(bad), "--lang", lang)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "partiar sim: " + expected.format(path=bad)


def test_a_missing_file_is_named_in_czech(tmp_path: Path) -> None:
    done = _sim("--scenario", str(tmp_path / "nic.txt"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"partiar sim: {tmp_path / 'nic.txt'}: soubor nelze přečíst: soubor ani složka neexistuje"


@pytest.mark.parametrize("line", ["jump A", "place R2D2 at 8D", "advance soon", "turn encoder 1.5", "fault H8 wet",
                                  "kill board", 'wait lcd "open', "remove 8D..9E", "expect score 18"])  # fmt: skip
def test_every_syntax_error_has_its_czech_wording(line: str) -> None:
    with pytest.raises(ScenarioSyntaxError) as info:
        Scenario.parse(f"press A\n{line}\n", "hra.txt")
    czech, english = info.value.describe("cs"), info.value.describe("en")
    assert czech.startswith("hra.txt:2: ") and czech != english and str(info.value) == english


def test_a_failed_step_says_where_in_czech_and_english() -> None:
    failed = ScenarioFailed("score_differs", expected=[18, 0], shown=[0, 0]).at("hra.txt", 7, "expect score 18 0")
    assert failed.describe("cs") == "hra.txt:7: expect score 18 0: čekáno skóre [18, 0], stůl ukazuje [0, 0]"
    assert str(failed) == "hra.txt:7: expect score 18 0: expected scores [18, 0], the table shows [0, 0]"


def test_a_byte_order_mark_is_not_part_of_the_first_step(tmp_path: Path) -> None:
    saved = tmp_path / "hra.txt"
    saved.write_bytes("wait daemon\npress A\n".encode("utf-8-sig"))  # as Notepad saves "UTF-8 with BOM"
    scenario = Scenario.load(saved)
    assert [line.step.text() for line in scenario.lines] == ["wait daemon", "press A"]


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n   # and another\n", "\ufeff# BOM and a comment\n"])
def test_a_scenario_without_a_step_is_an_error_in_czech_and_english(tmp_path: Path, text: str) -> None:
    with pytest.raises(ScenarioSyntaxError) as info:
        Scenario.parse(text, "hra.txt")
    assert info.value.describe("cs") == ("hra.txt: scénář nemá žádný krok (je prázdný nebo jen s komentáři), "
                                         "nic by se neověřilo")  # fmt: skip
    assert str(info.value) == "hra.txt: the scenario has no step (it is empty or only comments): nothing would be checked"
    empty = tmp_path / "prazdny.txt"
    empty.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioSyntaxError, match="no step"):
        Scenario.load(empty)


def test_an_empty_scenario_fails_the_command_before_the_sim_starts(tmp_path: Path) -> None:
    empty = tmp_path / "prazdny.txt"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    done = _sim("--scenario", str(empty))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"partiar sim: {empty}: scénář nemá žádný krok (je prázdný nebo jen s komentáři), " \
                                  "nic by se neověřilo"
