"""The tournament's lists as HTML: the pairing of a round, its results, the standings (with the TurČAS
coefficients under every table), the deník. Plain functions of the ``Tournament`` (no request, no database): the
director's page, the public live standings, the printed lists and their PDF (``hub.print_pdf``) use the same.

A printed list is a whole page with the print CSS (``static/desk.css``, A4); ``inline_css`` puts the CSS in the page
itself (for Chromium printing a file, which has no server to load ``/static`` from)."""

from __future__ import annotations

import json
from html import escape
from importlib import resources

from hub.director_texts import t
from shared.version import version_text
from tournament.events import decode_event
from tournament.report import describe, settings_words
from tournament.settings import TournamentSettings
from tournament.standings import StandingRow, complete_rounds, place, standings, turcas_rounds
from tournament.state import Result, RoundState, Tournament

CSS = resources.files("hub") / "static" / "desk.css"


def build_footer() -> str:
    """What every hub page says at its foot: the build that made it (``shared.version``), escaped."""
    return escape(f"partiar {version_text()}")


def page(title: str, body: str, lang: str, *, inline_css: bool = False, refresh: int | None = None) -> str:
    """A whole HTML page around ``body``."""
    style = f"<style>{CSS.read_text(encoding='utf-8')}</style>" if inline_css else \
        '<link rel="stylesheet" href="/static/desk.css">'  # fmt: skip
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">{meta}'
            f"<title>{escape(title)}</title>{style}</head><body>{body}"
            f'<footer class="build">{build_footer()}</footer></body></html>')  # fmt: skip


def heading(info: object, subtitle: str) -> str:
    """The tournament's name, place and date over a list."""
    name = getattr(info, "name", "") or ""
    where = " · ".join(x for x in (getattr(info, "place", ""), getattr(info, "date", "")) if x)
    return (f'<header class="list-head"><h1>{escape(name or "Partiar")}</h1>'
            f'<p>{escape(where)}</p><h2>{escape(subtitle)}</h2></header>')  # fmt: skip


def name_of(tournament: Tournament, pid: str | None) -> str:
    if pid is None:
        return ""
    player = tournament.players.get(pid)
    return player.label if player is not None else pid


def player_cell(tournament: Tournament, pid: str | None) -> str:
    if pid is None:
        return "<td></td>"
    return f'<td>{escape(name_of(tournament, pid))} <small>{escape(pid)}</small></td>'


def score_text(result: Result | None, lang: str, first: str | None = None) -> str:
    """The result's score in the pairing's order (``first``: the pairing's starting player; a game the other
    player started, as the table recorded it, is said so)."""
    if result is None:
        return ""
    turned = first is not None and result.second == first
    a, b = (result.second_score, result.first_score) if turned else (result.first_score, result.second_score)
    text = f"{a}:{b}" + (f" ({t('started_other', lang)})" if turned else "")
    return text if result.kind == "played" else f"{text} ({t('kind_' + result.kind, lang)})"


def pairing_table(tournament: Tournament, rnd: RoundState, lang: str, *, results: bool) -> str:
    """The round's tables: who starts, who replies (and the result, with ``results``), then the bye."""
    head = [t("table", lang), t("first", lang), t("second", lang)] + ([t("result", lang)] if results else [])
    rows = []
    for game in rnd.pairing.pairings:
        result = rnd.results.get(game.table)
        cells = (f'<td class="num">{game.table}</td>{player_cell(tournament, game.first)}'
                 f'{player_cell(tournament, game.second)}')  # fmt: skip
        if results:
            cells += f'<td class="num">{escape(score_text(result, lang, game.first))}</td>'
        rows.append(f'<tr data-table="{game.table}">{cells}</tr>')
    if rnd.pairing.bye is not None:
        bye = rnd.bye_result
        score = f"{bye.first_score}:{bye.second_score}" if bye is not None else ""
        cells = f'<td>{t("bye", lang)}</td>{player_cell(tournament, rnd.pairing.bye)}<td></td>'
        rows.append(f'<tr class="bye">{cells}{f"<td>{score}</td>" if results else ""}</tr>')
    return _table("pairing", head, rows)


def standings_table(tournament: Tournament, lang: str, up_to: int | None = None) -> str:
    """Standings (points, then the tie-break) with the coefficients and the software printed under them."""
    rows_data = standings(tournament, None, up_to)
    head = [t(k, lang) for k in ("rank", "name", "club", "points", "turcas", "buchholz", "own_score", "difference",
                                 "starts", "games", "status")]  # fmt: skip
    rows = [_standing_row(tournament, row, lang) for row in rows_data]
    return _table("standings", head, rows) + coefficients(tournament, lang, up_to)


def _standing_row(tournament: Tournament, row: StandingRow, lang: str) -> str:
    player = tournament.players.get(row.id)
    club = player.club if player is not None else ""
    points = _decimal(f"{row.points:g}", lang)
    cells = [place(row), f'{escape(row.name or row.id)} <small>{escape(row.id)}</small>', escape(club), points,
             _decimal(f"{row.turcas:.2f}", lang), _decimal(f"{row.buchholz:g}", lang), str(row.own_score), f"{row.score_difference:+d}",
             f"{row.starts_balance:+d}", str(row.games), t(row.status, lang)]  # fmt: skip
    status = "" if row.status == "active" else f' class="{row.status}"'
    return f'<tr data-id="{escape(row.id)}"{status}>' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _decimal(text: str, lang: str) -> str:
    """A number as the language writes it (Czech: a decimal comma)."""
    return text.replace(".", ",") if lang == "cs" else text


def coefficients(tournament: Tournament, lang: str, up_to: int | None = None) -> str:
    """The TurČAS formula with the coefficients and the rounds counted, the software and its version."""
    st = tournament.settings.standings
    rounds = complete_rounds(tournament, up_to)  # the rounds Buchholz counts
    tiebreak = {"turcas": "TurČAS", "buchholz": "Buchholz", "brightwell": "Brightwell"}.get(st.tiebreak) or \
        t("difference", lang).lower()  # fmt: skip
    values = {k: _decimal(f"{v:g}", lang) for k, v in st.coefficients.items()}
    text = t("coefficients", lang).format(**values, rounds=rounds, kol=turcas_rounds(tournament, rounds),
                                          tiebreak=tiebreak)
    soft = tournament.software[-1] if tournament.software else ("", "partiar", "?")
    software = t("software", lang).format(software=soft[1], version=soft[2])
    return f'<p class="coefficients">{escape(text)} {escape(software)}</p>'


def denik_table(entries: list[dict[str, object]], lang: str) -> str:
    """Every entry of the deník as stored: number, time, who, what (its fields)."""
    rows = []
    for entry in entries:
        event = dict(entry["event"])  # type: ignore[call-overload]
        kind = str(event.pop("type", ""))
        event.pop("at", None)
        event.pop("by", None)
        detail = json.dumps(event, ensure_ascii=False, separators=(", ", ": "))
        try:  # what the entry says in words (tournament.report), then its type and fields as stored
            words = describe(decode_event(dict(entry["event"])), lang)  # type: ignore[call-overload]
        except ValueError:
            words = kind
        rows.append(f'<tr><td class="num">{entry["n"]}</td><td>{escape(str(entry["at"]))}</td>'
                    f'<td>{escape(str(entry["by"]))}</td><td>{escape(words)}</td>'
                    f'<td class="detail">{escape(kind)} {escape(detail)}</td></tr>')  # fmt: skip
    return _table("denik", ["#", t("at", lang), t("by", lang), t("entry", lang), ""], rows)


def settings_text(settings: TournamentSettings, lang: str) -> str:
    """The settings in words, in the page's language (as the deník's entries say them)."""
    return settings_words(settings, lang)


def _table(kind: str, head: list[str], rows: list[str]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    return (f'<div class="scroll"><table class="list {kind}"><thead><tr>{th}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')
