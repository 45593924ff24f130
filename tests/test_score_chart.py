"""A game's score over time (``engine.score_chart``): the points of a known game, the SVG that draws them (read
back with an XML parser), doubles by team, escaped names, and the chart on the score sheet's HTML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from test_game_doubles import comb_script
from test_game_scripted import GOLDEN_SCRIPT

from engine.game.script import run_script
from engine.score_chart import HEIGHT, WIDTH, score_chart_svg, score_series
from engine.scoresheet import render_html

SVG = "{http://www.w3.org/2000/svg}"
JAN = ((0, 0), (1, 16), (3, 19), (5, 19), (7, 19), (9, 34), (11, 34), (13, 34), (14, 15))
EVA = ((0, 0), (2, 0), (4, 13), (6, 33), (8, 33), (10, 33), (12, 33), (14, 23))
"""The golden game (tests/test_game_scripted.py): Jan's and Eva's running totals after each of their turns, as
the sheet's "Celkem" column writes them (KOT challenged off: 0; PM 3; aŽ 13; JEPMŽ 20; ÚJEPMŽ 15), then the final
15:23 after the tiles left (-19 / -10) one step after the last of the 13 turns."""


def lines(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(f"{SVG}polyline")


def test_the_golden_games_series_are_the_sheets_running_totals_then_the_final_score() -> None:
    assert score_series(run_script(GOLDEN_SCRIPT)) == (JAN, EVA)


def test_the_chart_draws_each_sides_line_through_its_points() -> None:
    game = run_script(GOLDEN_SCRIPT)
    svg = score_chart_svg(game, "cs")
    root = ET.fromstring(svg)
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}" and root.findtext(f"{SVG}title") == "Skóre v průběhu hry"
    drawn = lines(svg)
    assert [line.get("data-side") for line in drawn] == ["0", "1"]
    assert [line.get("data-totals") for line in drawn] == ["0,16,19,19,19,34,34,34,15", "0,0,13,33,33,33,33,23"]
    for line, series in zip(drawn, (JAN, EVA), strict=True):
        coords = [tuple(map(float, pair.split(","))) for pair in line.get("points", "").split()]
        assert len(coords) == len(series)
        xs = [x for x, _y in coords]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)  # left to right, one point a turn
        for (_x1, y1), (_x2, y2), (_t1, a), (_t2, b) in zip(coords, coords[1:], series, series[1:], strict=False):
            assert (y2 < y1) == (b > a) and (y2 == y1) == (b == a)  # up on the page as the score grows
    # the same turn is at the same x on both lines: Jan's 13th turn and the end
    jan_x = [float(p.split(",")[0]) for p in drawn[0].get("points", "").split()]
    eva_x = [float(p.split(",")[0]) for p in drawn[1].get("points", "").split()]
    assert jan_x[0] == eva_x[0] and jan_x[-1] == eva_x[-1]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Jan 15" in texts and "Eva 23" in texts and "konec" in texts
    assert "end" in [t.text for t in ET.fromstring(score_chart_svg(game, "en")).iter(f"{SVG}text")]


def test_a_running_game_has_no_final_point() -> None:
    game = run_script("start cas Jan Eva\nplay H7V ROZUM =16\npass\n")
    assert score_series(game) == (((0, 0), (1, 16)), ((0, 0), (2, 0)))
    assert "konec" not in score_chart_svg(game)


def test_a_game_before_its_first_move_draws_two_flat_starts() -> None:
    game = run_script("start cas Jan Eva\n")
    assert [line.get("data-totals") for line in lines(score_chart_svg(game))] == ["0", "0"]


def test_doubles_draw_a_line_per_team() -> None:
    """Prague doubles (seed 003): Jan + Eva play turns 1 and 3, Petr + Ivo 2 and 4; a team's line goes through the
    team's running totals (what its sheet column and ``shown_total`` say), named by the team."""
    game = run_script(comb_script("prague", "PPPP"))
    assert score_series(game) == (((0, 0), (1, 76), (3, 192)), ((0, 0), (2, 95), (4, 325)))
    assert [game.shown_total(0), game.shown_total(1)] == [192, 325]
    svg = score_chart_svg(game)
    assert [line.get("data-totals") for line in lines(svg)] == ["0,76,192", "0,95,325"]
    assert "Jan + Eva 192" in svg and "Petr + Ivo 325" in svg


def test_names_are_escaped() -> None:
    game = run_script('start cas <b>Jan</b> Eva&Co\nplay H7V ROZUM =16\n')
    svg = score_chart_svg(game)
    assert "<b>" not in svg and "&lt;b&gt;Jan&lt;/b&gt; 16" in svg and "Eva&amp;Co 0" in svg
    ET.fromstring(svg)  # well-formed


def test_the_score_sheet_shows_the_chart_under_its_summary() -> None:
    page = render_html(run_script(GOLDEN_SCRIPT), "en")
    assert page.count('<svg class="score-chart"') == 1
    assert page.index('class="summary"') < page.index('<svg class="score-chart"') < page.index('class="board"')
    assert 'data-totals="0,16,19,19,19,34,34,34,15"' in page
