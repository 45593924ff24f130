"""A game's score over time as a small inline SVG chart: the score sheet's (``engine.scoresheet.render_html``) and
the hub's table page (``GET /api/table/<id>/chart.svg``).

One line per side (a player, in doubles a team: ``Game.side_of``), through the running totals the sheet's "Celkem"
column shows (``Move.total``) after each of the side's turns, from 0 before the first; the x axis counts the
game's turns, so the lines climb in the order the moves were made. Once the result is known its final scores (the
tiles left counted, or a fixed result) are the last point, one step after the last turn, marked "konec"/"end". Plain SVG with presentation attributes only
(no ``<style>``, no script: a page whose content security policy allows no inline style shows it), sized by its
``viewBox``; the names are escaped. Each line carries ``data-side`` and ``data-totals`` (the totals, comma
separated) for a reader or a test.
"""

from __future__ import annotations

import html
import math

from engine.game.machine import Game

WIDTH, HEIGHT = 360, 150
"""The chart's drawing units (its ``viewBox``); the page sizes it."""
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 18, 18
"""Margins: the score labels on the left, the legend on top, the turn labels below."""
COLOURS = ("#1f6f50", "#b03a2e", "#2e5fa8", "#9a6a00")
"""A side's line colour, by side."""
TEXTS = {
    "cs": ("Skóre v průběhu hry", "tah", "konec"),
    "en": ("Score over the game", "turn", "end"),
}
"""The chart's title, the x axis's word and the final point's, by language."""


def score_series(game: Game) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per side: ``(turn, running total)`` points, ``(0, 0)`` first, then one after each of the side's turns
    (turns counted over the whole game from 1), then with a result its final score at the turn after the last."""
    series: list[list[tuple[int, int]]] = [[(0, 0)] for _ in game.side_names]
    for turn, move in enumerate(game.history, start=1):
        series[game.side_of(move.player)].append((turn, move.total))
    result = game.result
    if result is not None and len(result.final) == len(series):
        for side, final in enumerate(result.final):
            series[side].append((len(game.history) + 1, final))
    return tuple(tuple(points) for points in series)


def _step(span: int) -> int:
    """A round step for the score grid: about four lines over ``span`` points (10, 20, 25, 50, 100, ...)."""
    rough = max(span / 4, 1)
    power = 10 ** math.floor(math.log10(rough))
    return int(next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= rough)) or 1


def score_chart_svg(game: Game, lang: str = "cs") -> str:
    """The chart as an ``<svg class="score-chart">`` element (``lang``: ``cs`` or ``en``; KeyError for another)."""
    title, turn_word, end_word = TEXTS[lang]
    series = score_series(game)
    ended = game.result is not None and any(len(points) > 1 and points[-1][0] > len(game.history)
                                            for points in series)  # fmt: skip
    turns = max(len(game.history) + ended, 1)
    values = [total for points in series for _turn, total in points]
    step = _step(max(values) - min(values))
    low = math.floor(min(values) / step) * step
    high = max(math.ceil(max(values) / step) * step, low + step)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: int) -> float:
        return round(LEFT + plot_w * turn / turns, 1)

    def y(total: int) -> float:
        return round(TOP + plot_h * (high - total) / (high - low), 1)

    e = html.escape
    out = [f'<svg class="score-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'role="img" aria-label="{e(title)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="8">',
           f"<title>{e(title)}</title>"]  # fmt: skip
    for value in range(low, high + 1, step):
        out.append(f'<line x1="{LEFT}" y1="{y(value)}" x2="{WIDTH - RIGHT}" y2="{y(value)}" stroke="#ccc" '
                   f'stroke-width="0.5"/><text x="{LEFT - 3}" y="{y(value) + 3}" text-anchor="end" '
                   f'fill="#555">{value}</text>')  # fmt: skip
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#888" stroke-width="0.7"/>')
    played = len(game.history)
    tick = _step(played) if played > 10 else 1
    for turn in range(0, played + 1, tick):
        out.append(f'<text x="{x(turn)}" y="{HEIGHT - 6}" text-anchor="middle" fill="#555">{turn}</text>')
    if ended:
        out.append(f'<text x="{x(turns) + 4}" y="{HEIGHT - 6}" text-anchor="end" fill="#555">{e(end_word)}</text>')
    out.append(f'<text x="{WIDTH - RIGHT}" y="{TOP - 6}" text-anchor="end" fill="#777">{e(turn_word)} →</text>')
    legend_x = LEFT
    for side, (name, points) in enumerate(zip(game.side_names, series, strict=True)):
        colour = COLOURS[side % len(COLOURS)]
        coords = " ".join(f"{x(turn)},{y(total)}" for turn, total in points)
        totals = ",".join(str(total) for _turn, total in points)
        out.append(f'<polyline class="series" data-side="{side}" data-totals="{totals}" points="{coords}" '
                   f'fill="none" stroke="{colour}" stroke-width="1.6" stroke-linejoin="round"/>')  # fmt: skip
        last_turn, last_total = points[-1]
        out.append(f'<circle cx="{x(last_turn)}" cy="{y(last_total)}" r="2" fill="{colour}"/>')
        label = f"{name} {last_total}"
        out.append(f'<text x="{legend_x}" y="{TOP - 6}" fill="{colour}" font-weight="bold">{e(label)}</text>')
        legend_x += 12 + 5 * len(label)
    out.append("</svg>")
    return "".join(out)
