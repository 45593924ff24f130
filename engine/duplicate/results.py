"""The results of a duplicate game: per move the top score and each player's score; totals and the percentage of
the top; rendered as a printable HTML sheet (Czech, or English) and as CSV. Pure text in, text out."""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass

from engine.csv_cells import csv_cell
from engine.duplicate.game import DuplicateGame
from engine.duplicate.slips import Verdict

LABELS: dict[str, dict[str, str]] = {
    "cs": {
        "title": "Opisovaný Scrabble: výsledky",
        "move": "Tah",
        "rack": "Zásobník",
        "top": "Nejlepší tah",
        "top_score": "Body",
        "total": "Celkem",
        "percent": "% maxima",
        "rank": "Pořadí",
        "player": "Hráč",
        "points": "Body",
        "refused": "vráceno do sáčku",
        "returned": "Vráceno do sáčku",
        "no_play": "žádný tah",
        "end": "Konec hry",
        "end_all_tiles": "všechny kameny použity",
        "end_exhausted": "došly samohlásky nebo souhlásky",
        "end_no_play": "se zásobníkem nelze táhnout",
        "running": "Hra pokračuje",
        "strict": "Špatně spočítané body: tah neuznán",
        "lenient": "Špatně spočítané body: připsány správné body",
        "undecided": "Špatně spočítané body: pravidlo zatím nebylo třeba (nikdo se nepřepočítal)",
        Verdict.WRONG_POSITION.value: "špatné umístění",
        Verdict.NOT_ON_RACK.value: "kameny mimo zásobník",
        Verdict.UNKNOWN_WORD.value: "nepřípustné slovo",
        Verdict.WRONG_SCORE.value: "špatné body",
        Verdict.NO_SLIP.value: "bez lístku",
        Verdict.WITHDRAWN.value: "lístek škrtnut",
        "claimed": "napsáno {claimed}",
    },
    "en": {
        "title": "Duplicate Scrabble: results",
        "move": "Move",
        "rack": "Rack",
        "top": "Top play",
        "top_score": "Score",
        "total": "Total",
        "percent": "% of top",
        "rank": "Rank",
        "player": "Player",
        "points": "Points",
        "refused": "returned to the bag",
        "returned": "Returned to the bag",
        "no_play": "no play",
        "end": "Game over",
        "end_all_tiles": "all tiles played",
        "end_exhausted": "no vowels or no consonants left",
        "end_no_play": "the rack has no play",
        "running": "Game in progress",
        "strict": "Wrong scores: slip refused",
        "lenient": "Wrong scores: the right score credited",
        "undecided": "Wrong scores: no rule needed so far (nobody miscounted)",
        Verdict.WRONG_POSITION.value: "wrong position",
        Verdict.NOT_ON_RACK.value: "tiles not on the rack",
        Verdict.UNKNOWN_WORD.value: "word not allowed",
        Verdict.WRONG_SCORE.value: "wrong score",
        Verdict.NO_SLIP.value: "no slip",
        Verdict.WITHDRAWN.value: "slip struck out",
        "claimed": "written {claimed}",
    },
}


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    total: int
    percent: float



def percent_text(value: float, lang: str = "cs") -> str:
    """A percentage of the top to one decimal place, with the decimal comma in Czech (``60,0``)."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "cs" else text

def standings(game: DuplicateGame) -> list[Standing]:
    """Players by total, highest first (equal totals share a rank), with their percentage of the top total."""
    totals = game.totals()
    top = game.top_total()
    ordered = sorted(game.players, key=lambda p: (-totals[p], game.players.index(p)))
    out: list[Standing] = []
    for i, player in enumerate(ordered):
        rank = out[-1].rank if out and out[-1].total == totals[player] else i + 1
        out.append(Standing(rank, player, totals[player], 100.0 * totals[player] / top if top else 0.0))
    return out


def _top_text(game: DuplicateGame, number: int, t: dict[str, str]) -> tuple[str, str]:
    r = game.rounds[number - 1]
    if r.top is None:
        return t["no_play"], ""
    return f"{r.top.notation(game.notation)} {r.top.word}", str(r.top.score)


def _cell(game: DuplicateGame, number: int, player: str, t: dict[str, str]) -> str:
    result = game.rounds[number - 1].results[player]
    if result.verdict is Verdict.CREDITED:
        if result.slip.claimed != result.score:  # the lenient rule credited the right score: the written one shown
            return f"{result.score} ({t['claimed'].format(claimed=result.slip.claimed)})"
        return str(result.score)
    if result.verdict is Verdict.UNKNOWN_WORD and result.check is not None and result.check.unknown:
        return f"0 ({t[result.verdict.value]} {', '.join(result.check.unknown)})"  # item 8: the players hear which
    return f"0 ({t[result.verdict.value]})"


def _percents(game: DuplicateGame) -> dict[str, float]:
    """Each player's percentage of the top total, as the standings give it."""
    return {s.player: s.percent for s in standings(game)}


def render_csv(game: DuplicateGame, lang: str = "cs") -> str:
    """One row per move (move, rack, the racks of that move returned to the bag by the rack rule or for want of a
    play, space-separated, top play, top score, each player's score), then totals and percentages (with the decimal
    comma in Czech, as the sheet writes them: the cell is quoted)."""
    t = LABELS[lang]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([t["move"], t["rack"], t["returned"], t["top"], t["top_score"], *map(csv_cell, game.players)])
    for r in game.rounds:
        top, score = _top_text(game, r.number, t)
        w.writerow([r.number, r.rack, " ".join(r.refused), top, score, *(r.results[p].score for p in game.players)])
    totals = game.totals()
    top_total = game.top_total()
    w.writerow([t["total"], "", "", "", top_total, *(totals[p] for p in game.players)])
    percents = _percents(game)
    w.writerow(
        [t["percent"], "", "", "", percent_text(100.0, lang), *(percent_text(percents[p], lang) for p in game.players)]
    )
    return out.getvalue()


def standings_table(game: DuplicateGame, lang: str = "cs") -> str:
    """The standings as an HTML table (rank, player, total, percentage of the top)."""
    t = LABELS[lang]
    e = html.escape
    ranking = "".join(
        f"<tr><td>{s.rank}.</td><td class='player'>{e(s.player)}</td><td>{s.total}</td><td>{percent_text(s.percent, lang)}</td></tr>"
        for s in standings(game)
    )
    return f"""<table class="standings"><thead><tr><th>{e(t["rank"])}</th><th class="left">{e(t["player"])}</th>
<th>{e(t["points"])}</th><th>{e(t["percent"])}</th></tr></thead><tbody>{ranking}</tbody></table>"""


def moves_table(game: DuplicateGame, lang: str = "cs") -> str:
    """Every move as an HTML table row (move, rack, top play, top score, each player's score), then the totals
    and the percentages of the top."""
    t = LABELS[lang]
    e = html.escape
    rows = []
    for r in game.rounds:
        top, score = _top_text(game, r.number, t)
        refused = (
            f'<div class="refused">{e(t["refused"])}: {e(", ".join(r.refused))}</div>' if r.refused else ""
        )
        cells = "".join(f"<td>{e(_cell(game, r.number, p, t))}</td>" for p in game.players)
        rows.append(
            f"<tr><td>{r.number}</td><td class='rack'>{e(r.rack)}{refused}</td><td class='top'>{e(top)}</td>"
            f"<td>{e(score)}</td>{cells}</tr>"
        )
    totals = game.totals()
    top_total = game.top_total()
    players = "".join(f"<th>{e(p)}</th>" for p in game.players)
    total_cells = "".join(f"<td>{totals[p]}</td>" for p in game.players)
    percents = _percents(game)
    percent_cells = "".join(
        f"<td>{percent_text(percents[p], lang)}</td>" for p in game.players
    )
    return f"""<table class="moves"><thead><tr><th>{e(t["move"])}</th><th class="left">{e(t["rack"])}</th>
<th class="left">{e(t["top"])}</th><th>{e(t["top_score"])}</th>{players}</tr></thead>
<tbody>{"".join(rows)}</tbody>
<tfoot><tr><td>{e(t["total"])}</td><td></td><td></td><td>{top_total}</td>{total_cells}</tr>
<tr><td>{e(t["percent"])}</td><td></td><td></td><td>{percent_text(100.0, lang)}</td>{percent_cells}</tr></tfoot></table>"""


def status_line(game: DuplicateGame, lang: str = "cs") -> str:
    """Whether the game is over (and why) and the wrong-score rule, as one sentence."""
    t = LABELS[lang]
    status = f"{t['end']}: {t['end_' + game.over]}" if game.over else t["running"]
    rule = t["undecided"] if game.strict_scores is None else t["strict"] if game.strict_scores else t["lenient"]
    return f"{status}. {rule}."


TABLE_CSS = """table { border-collapse: collapse; margin-bottom: 14pt; }
th, td { border: 1px solid #444; padding: 2pt 6pt; text-align: right; }
th.left, td.player { text-align: left; }
td.rack, td.top { text-align: left; font-family: "DejaVu Sans Mono", monospace; }
tfoot td { font-weight: bold; }
div.refused { font-size: 8pt; color: #555; }"""
"""The look of the standings and moves tables (the printed sheet and the room's page)."""


def render_html(game: DuplicateGame, lang: str = "cs", title: str = "") -> str:
    """A printable results sheet (A4 landscape): standings, then the table of moves."""
    t = LABELS[lang]
    e = html.escape
    head = title or t["title"]
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(head)}</title>
<style>
@page {{ size: A4 landscape; margin: 12mm; }}
body {{ font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; }}
h1 {{ font-size: 16pt; margin: 0 0 4pt; }}
p.meta {{ margin: 0 0 10pt; color: #333; }}
{TABLE_CSS}
</style></head><body>
<h1>{e(head)}</h1>
<p class="meta">{e(status_line(game, lang))}</p>
{standings_table(game, lang)}
{moves_table(game, lang)}
</body></html>
"""
