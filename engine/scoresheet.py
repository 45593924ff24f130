"""The score sheet ("partiář", 004 "Zápis partie") of a game: as plain text and as one printable A4 HTML page.

Pure functions of a ``Game``: ``sheet(game)`` builds the cells once, ``render_text`` and ``render_html`` lay
them out. Per move: the main word first (the other words after it), a blank's letter in parentheses, a bingo
starred; an exchange as the number of tiles with the score crossed out; a pass as "pas"; the move score and the
running total; each player's best move marked. At the end: points played, minus, plus, total, the letters left,
the sum and difference, and the final board diagram. Labels in Czech, English on request.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from engine.board import LETTERS, PREMIUMS, SIZE, Notation, Premium
from engine.game.machine import Game
from engine.game.records import EndReason, Move, MoveKind
from engine.placement import Reason
from engine.score_chart import score_chart_svg
from engine.scoresheet_doubles import doubles_sheet
from engine.scoresheet_rows import Cell, Row, Sheet, cell_of, format_word

__all__ = ["LABELS", "Cell", "Row", "Sheet", "format_word", "render_html", "render_text", "sheet"]

LABELS: dict[str, dict[str, str]] = {
    "cs": {
        "title": "Partiář",
        "round": "Kolo",
        "word": "Slovo",
        "position": "Pozice",
        "pos": "Poz.",
        "score": "Body",
        "total": "Celkem",
        "pass": "pas",
        "time": "čas",
        "penalty": "trest",
        "withdrawn": "námitka",
        "played": "Body zahrané",
        "adjust": "Opravy a tresty",
        "minus": "Minus",
        "plus": "Plus",
        "final": "Celkem",
        "left": "Zbylá písmena",
        "sum": "Součet / rozdíl",
        "crosses": "Křížky",
        "best": "Nejlepší tah",
        "legend": "* = všech 7 kamenů, [ ] = nejlepší tah, ✓ = kolo s uplynutím základní doby (dohrávka A-B-C)",
        "ruleset": "pravidla",
        "running": "Partie pokračuje.",
        "racks_needed": "Zbývá zapsat zásobník hráče",
        "reason": "Konec partie",
        "played_out": "zavření",
        "scoreless": "tahy bez položení kamenů",
        "playout": "konec dohrávky",
        "resigned": "vzdáno",
        "disqualified": "vyloučení",
        "forfeit": "kontumace",
        "dispute_forfeit": "kontumace rozhodčím ve sporu (kameny uklizeny před přijetím partiářů)",
        "challenge_penalty": "neoprávněná námitka",
        "challenge_bonus": "bonus za námitku",
        "correction": "oprava rozhodčího",
        "after_move": "po tahu",
        "result": "Výsledek",
        "draw": "remíza",
        "void": "bez vítěze, body za remízu nezískává nikdo",
        "winner": "vítěz",
        "place": "Místo",
        "competition": "Soutěž",
        "round_no": "Kolo soutěže",
        "started": "Začátek",
        "table": "Stůl",
        "team": "Družstvo",
        "signature": "Podpis",
        "set_check": "Kontrola sady",
        "set_complete": "kompletní",
        "set_called": "volán rozhodčí",
        "set_as_found": "rozhodčí: hraje se s ní",
        "set_put_right": "rozhodčí: sada doplněna",
        "missing": "chybí",
        "extra": "navíc",
        "warnings": "Napomenutí",
        "notes": "Záznam rozhodčího",
        "move": "tah",
        "beyond_set": "nad sadu",
        "announced": "ohlášeno {a}, stůl {t}",
        "warning": "napomenutí",
        "rack_reported": "nesprávný počet kamenů ohlášen ihned, opraveno",
        "rack_upheld": "námitka počtu kamenů oprávněná, ztrácí nejbližší tah",
        "sheet_upheld": "námitka nezapisování partie oprávněná",
        "irregular": "položeno nepravidelně",
        "NOT_IN_LINE": "kameny mimo jednu řadu",
        "GAP": "mezera mezi kameny",
        "FIRST_NOT_CENTRE": "první tah mimo střed",
        "FIRST_ONE_TILE": "první tah jedním kamenem",
        "NOT_CONNECTED": "nenavazuje",
        "ruleset_cas": "ČAS",
        "ruleset_home": "domácí",
        "ruleset_english": "anglická",
        "ruleset_prague": "pražská čtyřhra",
        "ruleset_polish": "polská čtyřhra",
    },
    "en": {
        "title": "Score sheet",
        "round": "Round",
        "word": "Word",
        "position": "Position",
        "pos": "Pos.",
        "score": "Score",
        "total": "Total",
        "pass": "pass",
        "time": "time",
        "penalty": "penalty",
        "withdrawn": "challenged off",
        "played": "Points played",
        "adjust": "Corrections and penalties",
        "minus": "Minus",
        "plus": "Plus",
        "final": "Total",
        "left": "Tiles left",
        "sum": "Sum / difference",
        "crosses": "Crosses",
        "best": "Best move",
        "legend": "* = all 7 tiles, [ ] = best move, ✓ = round in which the base time expired (A-B-C playout)",
        "ruleset": "rules",
        "running": "Game in progress.",
        "racks_needed": "Rack still to be entered for",
        "reason": "Game ended by",
        "played_out": "playing out",
        "scoreless": "scoreless turns",
        "playout": "end of the playout",
        "resigned": "resignation",
        "disqualified": "disqualification",
        "forfeit": "forfeit",
        "dispute_forfeit": "the referee's forfeit in a dispute (tiles cleared before the sheets were accepted)",
        "challenge_penalty": "rejected challenge",
        "challenge_bonus": "challenge bonus",
        "correction": "referee's correction",
        "after_move": "after move",
        "result": "Result",
        "draw": "draw",
        "void": "no winner, no points for a draw",
        "winner": "winner",
        "place": "Place",
        "competition": "Competition",
        "round_no": "Round",
        "started": "Started",
        "table": "Table",
        "team": "Team",
        "signature": "Signature",
        "set_check": "Tile-set check",
        "set_complete": "complete",
        "set_called": "referee called",
        "set_as_found": "referee: played as found",
        "set_put_right": "referee: set put right",
        "missing": "missing",
        "extra": "extra",
        "warnings": "Warnings",
        "notes": "Referee's record",
        "move": "move",
        "beyond_set": "beyond the set",
        "announced": "announced {a}, table {t}",
        "warning": "warning",
        "rack_reported": "wrong rack count reported at once, put right",
        "rack_upheld": "rack count challenge upheld, loses the next turn",
        "sheet_upheld": "challenge for not keeping the sheet upheld",
        "irregular": "placed irregularly",
        "NOT_IN_LINE": "tiles not in one line",
        "GAP": "gap between tiles",
        "FIRST_NOT_CENTRE": "first move off the centre",
        "FIRST_ONE_TILE": "first move of one tile",
        "NOT_CONNECTED": "not connected",
        "ruleset_cas": "ČAS",
        "ruleset_home": "home",
        "ruleset_english": "English",
        "ruleset_prague": "Prague doubles",
        "ruleset_polish": "Polish doubles",
    },
}


def sheet(game: Game, lang: str = "cs") -> Sheet:
    """The score sheet of a game (running or finished); ``lang`` is ``cs`` or ``en``. Raises KeyError for
    another language."""
    t = LABELS[lang]
    n = game.player_count
    best: dict[int, Move] = {}
    for move in game.history:
        if move.kind is MoveKind.PLAY and (move.player not in best or move.score > best[move.player].score):
            best[move.player] = move
    rounds = (len(game.history) + n - 1) // n
    abc = {v: k for k, v in game.abc_rounds.items()}
    rows = []
    for r in range(rounds):
        cells: list[Cell | None] = []
        for p in range(n):
            i = r * n + p
            if i < len(game.history):
                move = game.history[i]
                cells.append(cell_of(move, best.get(move.player) is move, t, Notation.for_language(lang)))
            else:
                cells.append(None)
        rows.append(Row(r + 1, abc.get(r + 1, ""), abc.get(r + 1) == "A", tuple(cells)))
    adjustments = tuple(
        f"{game.players[a.player]}: {a.points:+d} ({a.note or t[a.kind.value]}, {t['after_move']} {a.after})"
        for a in game.adjustments
    )
    words = [sum(m.score for m in game.history if m.player == p) for p in range(n)]
    adjust = [sum(a.points for a in game.adjustments if a.player == p) for p in range(n)]
    summary: list[tuple[str, tuple[str, ...]]] = [(t["played"], tuple(map(str, words)))]
    if any(adjust):
        summary.append((t["adjust"], tuple(f"{a:+d}" for a in adjust)))
    result = game.result
    if result is not None:
        if result.reason in (EndReason.PLAYED_OUT, EndReason.SCORELESS, EndReason.PLAYOUT):
            summary.append((t["minus"], tuple(str(v) for v in result.minus)))
            summary.append((t["plus"], tuple(str(v) for v in result.plus)))
        summary.append((t["final"], tuple(str(v) for v in result.final)))
        if any(result.racks):
            summary.append((t["left"], tuple(r or "—" for r in result.racks)))
        if n == 2:
            a, b = result.final
            summary.append((t["sum"], (f"{a + b}", f"{abs(a - b)}")))
    summary.append((t["crosses"], tuple("×" * c or "—" for c in game.crosses)))
    warnings = [game.warnings(p) for p in range(n)]
    if any(warnings):
        summary.append((t["warnings"], tuple(str(w) if w else "—" for w in warnings)))
    summary.append(
        (
            t["best"],
            tuple(f"{format_word(best[p].words[0])} {best[p].score}" if p in best else "—" for p in range(n)),
        )
    )
    if game.ended is None:
        status = t["running"]
    else:
        status = f"{t['reason']}: {t[game.ended.value]}"
        if game.went_out is not None and game.ended is EndReason.PLAYED_OUT:
            status += f" ({game.players[game.went_out]})"
        elif game.ended_by:  # 004: who resigned, was excluded or did not come
            status += " (" + ", ".join(game.players[p] for p in game.ended_by) + ")"
        if result is None:
            status += f". {t['racks_needed']}: " + ", ".join(game.players[p] for p in game.racks_needed)
        else:
            status += f". {t['result']} " + " : ".join(map(str, result.final))
            if result.outcome == "win":
                status += f" ({t['winner']}: {game.players[result.winners[0]]})"
            else:
                status += f" ({t[result.outcome]})"
    teams = tuple(game.info.get("teams") or ())
    ruleset = t.get(f"ruleset_{game.ruleset.name}", game.ruleset.name)
    out = Sheet(lang, game.players, ruleset, tuple(rows), tuple(game.crosses), adjustments,
                tuple(summary), status, tuple(game.board.rows()), _header(game, t), teams,
                _notes(game, t))  # fmt: skip
    if game.doubles:
        return doubles_sheet(game, out, t)
    return out


def _header(game: Game, t: dict[str, str]) -> tuple[tuple[str, str], ...]:
    info = game.info
    fields = [(t[key], str(info.get(name) or "")) for key, name in
              (("place", "place"), ("competition", "competition"), ("round_no", "round"), ("started", "started"),
               ("table", "table"))]  # fmt: skip
    if game.set_check is not None:
        missing, extra = game.set_check
        found = f"{t['missing']} {missing or '—'}, {t['extra']} {extra or '—'}" if missing or extra else t["set_complete"]
        if game.set_ruling:  # 004: the referee was called to the set and decided
            found += f" ({t['set_' + game.set_ruling]})"
        fields.append((t["set_check"], found))
    return tuple((label, value) for label, value in fields if value)


def _notes(game: Game, t: dict[str, str]) -> tuple[str, ...]:
    out: list[tuple[float, str]] = []
    for move in game.history:
        who = f"{t['move']} {move.number + 1}, {game.players[move.player]}"
        if move.beyond_set:
            out.append((move.number, f"{who}: {t['beyond_set']} {move.beyond_set}"))
        if move.irregular:
            out.append((move.number, f"{who}: {t['irregular']} ({t[Reason(move.irregular).name]})"))
        if move.kind is MoveKind.PLAY and move.announced is not None and move.score != move.engine_score:
            out.append((move.number, f"{who}: " + t["announced"].format(a=move.score, t=move.engine_score)))
    for incident in game.incidents:
        text = t[incident.kind.value] + (f" ({incident.note})" if incident.note else "")
        out.append((incident.after - 0.5, f"{game.players[incident.player]}: {text}, {t['after_move']} {incident.after}"))
    return tuple(text for _, text in sorted(out, key=lambda x: x[0]))


def _board_labels(lang: str) -> tuple[Callable[[int], str], Callable[[int], str]]:
    """Column and row labels of the board diagram in the language's notation (``Notation.for_language``)."""
    if Notation.for_language(lang) is Notation.CLASSIC:
        return (lambda c: LETTERS[c]), (lambda r: str(r + 1))
    return (lambda c: str(c + 1)), (lambda r: LETTERS[r])


# ---- plain text ----------------------------------------------------------------------------------------------


def _fit(text: str, width: int, right: bool = False) -> str:
    return text.rjust(width) if right else text.ljust(width)


def render_text(game: Game, lang: str = "cs") -> str:
    """The score sheet as plain text (monospace), ending with the board diagram."""
    s = sheet(game, lang)
    t = LABELS[lang]
    all_cells = [c for row in s.rows for c in row.cells if c is not None]
    wword = max([len(t["word"]), *(len(c.word) for c in all_cells)])
    lines = [f"{t['title']}: {' : '.join(s.sides or s.players)}   ({t['ruleset']}: {s.ruleset})"]
    if s.header:
        lines.append("   ".join(f"{label}: {value}" for label, value in s.header))
    if s.teams:
        lines.append(f"{t['team']}: " + " : ".join(s.teams))
    lines.append("")
    head = " " * 8
    for p, name in enumerate(s.players):
        head += f"| {_fit((name + ' ' + '×' * s.crosses[p]).strip(), wword + 20)} "
    sub = f"{t['round']:>5}   "
    for _ in s.players:
        sub += f"| {_fit(t['word'], wword)} {_fit(t['pos'], 5)} {t['score']:>6} {t['total']:>6} "
    lines += [head.rstrip(), sub.rstrip(), "-" * len(sub.rstrip())]
    for row in s.rows:
        mark = ("✓" if row.expired else " ") + (row.abc or " ")
        text = f"{'' if row.sub == 2 else row.number:>5} {mark}"
        for c in row.cells:
            if c is None:
                if row.sub:  # Polish doubles: a team's row may be empty while the other team's is not
                    text += f"| {_fit('', wword)} {_fit('', 5)} {'':>6} {'':>6} "
                    continue
                break
            score = f"[{c.score}]" if c.best else c.score
            text += f"| {_fit(c.word, wword)} {_fit(c.position, 5)} {score:>6} {c.total:>6} "
        lines.append(text.rstrip())
    lines.append("")
    wlabel = max(len(label) for label, _ in s.summary)
    columns = s.sides or s.players
    wval = max([12, *(len(v) + 2 for _, vals in s.summary for v in vals), *(len(p) + 2 for p in columns)])
    lines.append(" " * wlabel + "".join(_fit(p, wval, True) for p in columns))
    for label, values in s.summary:
        lines.append(_fit(label, wlabel) + "".join(_fit(v, wval, True) for v in values))
    if s.adjustments:
        lines += ["", *s.adjustments]
    if s.notes:
        lines += ["", f"{t['notes']}:", *(f"  {note}" for note in s.notes)]
    lines += ["", s.status, t["legend"], ""]
    col_label, row_label = _board_labels(lang)
    lines.append("   " + " ".join(f"{col_label(c):>2}" for c in range(SIZE)))
    for r, cells in enumerate(s.board):
        lines.append(f"{row_label(r):>2} " + " ".join(f"{ch:>2}" for ch in cells))
    lines += ["", "   ".join(f"{t['signature']} {name}: {'_' * 16}" for name in s.sides or s.players)]
    return "\n".join(lines) + "\n"


# ---- HTML ------------------------------------------------------------------------------------------------------

_PREMIUM_CLASS = {Premium.DL: "dl", Premium.TL: "tl", Premium.DW: "dw", Premium.TW: "tw", Premium.NONE: ""}

_CSS = """
@page { size: A4; margin: 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9pt; margin: 0; }
.sheet { width: 186mm; page-break-after: always; }
h1 { font-size: 13pt; margin: 0 0 2mm 0; }
table { border-collapse: collapse; }
table.header { width: 100%; margin-bottom: 2mm; }
table.header td { border: 0.2mm solid #888; padding: 0.6mm 1.5mm; vertical-align: top; }
table.header small, th small { color: #555; font-weight: normal; font-size: 7pt; }
table.moves { width: 100%; }
span.crosses { color: #b00; letter-spacing: 0.5mm; }
.notes { margin-top: 2mm; } .notes ul { margin: 0.5mm 0; padding-left: 5mm; }
p.status { font-weight: bold; }
.signatures { display: flex; gap: 20mm; margin-top: 10mm; }
.signature { flex: 1; border-top: 0.3mm solid #000; padding-top: 1mm; font-size: 8pt; }
tr, .bottom, .signatures { page-break-inside: avoid; }
table.moves td, table.moves th { border: 0.2mm solid #444; padding: 0.4mm 1.2mm; }
table.moves td.num { text-align: right; }
td.best span { border: 0.3mm solid #000; border-radius: 50%; padding: 0 1mm; }
td.struck { text-decoration: line-through; }
table.summary td { padding: 0.4mm 2mm; text-align: right; }
table.summary td:first-child { text-align: left; }
table.board td { width: 5.2mm; height: 5.2mm; border: 0.2mm solid #888; text-align: center; font-weight: bold; }
table.board th { font-size: 7pt; font-weight: normal; }
td.dl { background: #cfe8fb; } td.tl { background: #6fb0e0; } td.dw { background: #f8c9c9; } td.tw { background: #e05a5a; }
td.blank { color: #b00; font-style: italic; }
.bottom { display: flex; gap: 6mm; margin-top: 3mm; align-items: flex-start; }
.bottom .left { flex: 1; min-width: 0; }
svg.score-chart { display: block; width: 100%; max-height: 45mm; margin-top: 3mm; }
p.legend { font-size: 7pt; color: #444; }
"""


def render_html(game: Game, lang: str = "cs", full_page: bool = True) -> str:
    """The score sheet as HTML sized for one A4 page; ``full_page`` False gives just the sheet's ``div`` (to put
    several games in one document)."""
    s = sheet(game, lang)
    t = LABELS[lang]
    e = html.escape
    out = ['<div class="sheet">', f"<h1>{e(t['title'])}: {e(' : '.join(s.sides or s.players))}</h1>",
           '<table class="header"><tr>']  # fmt: skip
    for label, value in (*s.header, (t["ruleset"].capitalize(), s.ruleset)):  # a label of its own: capitalised
        out.append(f"<td><small>{e(label)}</small><br>{e(value)}</td>")
    out += ["</tr></table>", '<table class="moves">', "<tr><th></th>"]
    for p, name in enumerate(s.players):
        team = f'<br><small>{e(t["team"])}: {e(s.teams[p])}</small>' if s.teams else ""
        out.append(f'<th colspan="4">{e(name)} <span class="crosses">{"×" * s.crosses[p]}</span>{team}</th>')
    out.append("</tr><tr><th>" + e(t["round"]) + "</th>")
    for _ in s.players:
        out.append(
            f"<th>{e(t['word'])}</th><th>{e(t['position'])}</th><th>{e(t['score'])}</th><th>{e(t['total'])}</th>"
        )
    out.append("</tr>")
    for row in s.rows:
        mark = ("✓" if row.expired else "") + (f" {row.abc}" if row.abc else "")
        out.append(f'<tr><td class="num">{"" if row.sub == 2 else row.number}{e(mark)}</td>')
        for c in row.cells:
            if c is None:
                out.append("<td></td><td></td><td></td><td></td>")
                continue
            wclass = ' class="struck"' if c.struck else ""
            sclass = ' class="num best"' if c.best else ' class="num"'
            out.append(
                f"<td{wclass}>{e(c.word)}</td><td>{e(c.position)}</td>"
                f'<td{sclass}><span>{e(c.score)}</span></td><td class="num">{e(c.total)}</td>'
            )
        out.append("</tr>")
    out.append("</table>")
    out.append('<div class="bottom"><div class="left"><table class="summary"><tr><td></td>')
    out += [f"<th>{e(p)}</th>" for p in s.sides or s.players]
    out.append("</tr>")
    for label, values in s.summary:
        out.append(f"<tr><td>{e(label)}</td>" + "".join(f"<td>{e(v)}</td>" for v in values) + "</tr>")
    out.append("</table>")
    out.append(score_chart_svg(game, lang) + "</div>")  # the score over time, under the summary (engine.score_chart)
    col_label, row_label = _board_labels(lang)
    out.append(
        '<table class="board"><tr><th></th>' + "".join(f"<th>{col_label(c)}</th>" for c in range(SIZE)) + "</tr>"
    )
    for r, board_row in enumerate(s.board):
        out.append(f"<tr><th>{row_label(r)}</th>")
        for col, ch in enumerate(board_row):
            classes = [_PREMIUM_CLASS[PREMIUMS[r * SIZE + col]]] if ch == "." else []
            if ch.islower():
                classes.append("blank")
            attr = f' class="{" ".join(x for x in classes if x)}"' if any(classes) else ""
            out.append(f"<td{attr}>{e(ch.upper()) if ch != '.' else ''}</td>")
        out.append("</tr>")
    out.append("</table></div>")
    if s.adjustments:
        out.append("<ul>" + "".join(f"<li>{e(a)}</li>" for a in s.adjustments) + "</ul>")
    if s.notes:
        out.append(f'<div class="notes"><b>{e(t["notes"])}</b><ul>'
                   + "".join(f"<li>{e(note)}</li>" for note in s.notes) + "</ul></div>")  # fmt: skip
    out.append(f'<p class="status">{e(s.status)}</p><p class="legend">{e(t["legend"])}</p>')
    out.append('<div class="signatures">' + "".join(
        f'<div class="signature">{e(t["signature"])} {e(name)}</div>' for name in s.sides or s.players)
        + "</div></div>")
    body = "\n".join(out)
    if not full_page:
        return body
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{e(t['title'])}: {e(' : '.join(s.sides or s.players))}</title><style>{_CSS}</style></head>\n"
        f"<body>\n{body}\n</body></html>\n"
    )
