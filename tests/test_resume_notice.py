"""The notice after a restart: one line ("Obnoveno, tah N" / "Resumed, move N") for ``RESUMED_NOTICE_S``, with
the scores in view (a two-line LCD keeps them on row 2, a 20x4 shows the notice on its last row); it fits 16 columns
to move 999 in both languages. Two-line notices keep both rows as before."""

from __future__ import annotations

import pytest
from table_rig import Rig, first_move
from test_lcd_rig import library_time  # noqa: F401 (fixture)

from device.config import parse_config
from device.hardware import close_all
from device.screens import NARROWEST, render, resumed_notice
from device.table import RESUMED_NOTICE_S
from hw_sim.daemon import table_on_panel

NAMES = ("Anna", "Petr")  # no diacritics: the HD44780's rows read as plain text


def a_game_cut_by_a_power_cut(tmp_path, lang: str = "cs") -> Rig:
    """ROZUM for 18 by Anna, Petr on move for 45 s of his 2 minutes; then the power goes."""
    first = Rig(tmp_path, players=NAMES, extra=f'language = "{lang}"')
    first.start()
    first_move(first)
    first.advance(45.0)
    first.close()
    return first


def without_notice(view: dict) -> dict:
    return {**view, "notice": None}


@pytest.mark.parametrize(("lang", "line"), [("cs", "Obnoveno, tah 2"), ("en", "Resumed, move 2")])
def test_the_restart_says_so_on_one_line_and_the_scores_stay(tmp_path, lang: str, line: str) -> None:
    second = a_game_cut_by_a_power_cut(tmp_path, lang).restarted()
    view = second.view
    assert view["resumed"] is True and view["notice"] == [line]
    normal = render(without_notice(view), lang, 16, 2)
    assert normal[1] == "18:0       39:15"  # the scores and the game time, as without the notice
    # 16x2: the notice on row 1; the scores stay, the running move time beside them in place of the game time
    assert render(view, lang, 16, 2) == (line.ljust(16), "18:0        1:15")
    # 20x2: the move time fits beside the notice, row 2 is as without it
    assert render(view, lang, 20, 2) == (f"{line} 1:15".ljust(20), render(without_notice(view), lang, 20, 2)[1])
    # 20x4: the notice takes the last row, the rest of the screen is as without it
    full = render(view, lang, 20, 4)
    assert full[:3] == render(without_notice(view), lang, 20, 4)[:3] and full[3] == line.ljust(20)
    assert full[1] == "Anna   18 Petr    0 "
    second.close()


def test_the_notice_goes_after_four_seconds(tmp_path) -> None:
    second = a_game_cut_by_a_power_cut(tmp_path).restarted()
    assert RESUMED_NOTICE_S == 4.0
    second.advance(RESUMED_NOTICE_S - 0.1)
    assert second.notice == ["Obnoveno, tah 2"]
    second.advance(0.1)
    view = second.view
    assert view["notice"] is None
    assert render(view, "cs", 16, 2) == (">Petr       1:11", "18:0       39:11")
    second.close()


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_the_notice_fits_the_narrowest_lcd_up_to_move_999(lang: str) -> None:
    for move in range(1, 1000):
        line = resumed_notice(move, lang)
        assert len(line) <= NARROWEST, line
        assert line.split()[-1] == str(move) and ("," in line) == (move < 100), line
        cuts: list[str] = []
        rows = render({"notice": [line], "scores": [418, 397]}, lang, NARROWEST, 2, cuts=cuts)
        assert cuts == [] and rows == (line.ljust(16), "418:397".ljust(16))
    assert resumed_notice(100, "cs") == "Obnoveno tah 100" and resumed_notice(999, "en") == "Resumed move 999"


def test_a_two_line_notice_still_takes_both_rows_of_a_16x2_and_the_last_two_of_a_20x4() -> None:
    view = {"notice": ["Vrať kameny", "H4 H5"], "scores": [18, 0], "names": list(NAMES)}
    assert render(view, "cs", 16, 2) == ("Vrať kameny".ljust(16), "H4 H5".ljust(16))
    rows = render(view, "cs", 20, 4)
    assert rows[2:] == ("Vrať kameny".ljust(20), "H4 H5".ljust(20)) and rows[1] == "Anna   18 Petr    0 "


@pytest.mark.parametrize(
    ("columns", "lines", "want"),
    [
        (16, 2, ["Obnoveno, tah 2 ", "18:0        1:15"]),
        (20, 4, [">Petr           1:15", "Anna   18 Petr    0 ", "ROZUM H4V +18       ", "Obnoveno, tah 2     "]),
    ],
)
def test_the_emulated_lcd_after_a_restart(tmp_path, library_time, columns: int, lines: int, want) -> None:  # noqa: F811
    """The daemon's build on the simulator's panel (charlcd on mock pins into an emulated HD44780) resumes the
    game: what the LCD's controller holds."""
    a_game_cut_by_a_power_cut(tmp_path)
    config = parse_config(
        f'[table]\nstate_dir = "{tmp_path}"\npin_factory = "mock"\nserial_url = "loop://"\nplayers = ["Anna", "Petr"]\n'
        f'[display]\ncolumns = {columns}\nlines = {lines}\n[sim]\ntime = "manual"\n'
    )
    table, closers, panel = table_on_panel(config)
    try:
        assert table.resume() is True  # the LCD is written before resume() returns
        assert panel.lcds[0].text_rows() == want
    finally:
        close_all(closers)


def test_a_clock_that_does_not_run_leaves_the_game_time_beside_the_scores() -> None:
    """A move time that does not run (a clock waiting for its start press) gives way to the notice on a 16x2."""
    view = {"notice": ["Obnoveno, tah 1"], "scores": [0, 0], "clock": {"state": "idle", "move_time": 120.0,
            "game_left": 2400.0}}  # fmt: skip
    assert render(view, "cs", 16, 2) == ("Obnoveno, tah 1 ", "0:0        40:00")
    assert render(view, "cs", 20, 2) == ("Obnoveno, tah 1 2:00", "0:0            40:00")


def test_a_ruling_during_the_notice_keeps_it(tmp_path) -> None:
    """A ruling drops the lexicon's hint notice, not the one-line restart notice (it has no second line to read)."""
    first = Rig(tmp_path, players=NAMES)
    first.start()
    first_move(first)
    first.menu("challenge_word", "ROZUM")
    first.close()
    second = first.restarted()
    assert second.notice == ["Obnoveno, tah 2"]
    second.menu("ruling", "neoprávněná")
    assert second.table.game.pending is None and second.notice == ["Obnoveno, tah 2"]
    second.close()
