"""The tournament's lists as HTML: the pairing of a round, its results, the standings (with the TurČAS
coefficients under every table), the deník. Plain functions of the ``Tournament`` (no request, no database): the
director's page, the public live standings, the printed lists and their PDF (``hub.print_pdf``) use the same.

A printed list is a whole page with the print CSS (``static/desk.css``, A4); ``inline_css`` puts the CSS in the page
itself (for Chromium printing a file, which has no server to load ``/static`` from)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
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


def isolated(text: str) -> str:
    """Text a person typed (a name, an id, a club) escaped and isolated (``<bdi>``): a right-to-left character
    or a bidi control in it (U+202E) cannot reorder what stands around it."""
    return f"<bdi>{escape(text)}</bdi>"


def player_label(tournament: Tournament, pid: str) -> str:
    """A player as plain text (a ``<select>``'s option, a flash): the name and the id, each isolated by
    U+2068/U+2069 (FSI/PDI) as ``isolated`` does in HTML, so namesakes are told apart and no name reorders the
    line."""
    return f"\u2068{name_of(tournament, pid)}\u2069 (\u2068{pid}\u2069)"


def player_option(tournament: Tournament, pid: str) -> str:
    return f'<option value="{escape(pid)}">{escape(player_label(tournament, pid))}</option>'


def player_cell(tournament: Tournament, pid: str | None) -> str:
    if pid is None:
        return "<td></td>"
    return f"<td>{isolated(name_of(tournament, pid))} <small>{isolated(pid)}</small></td>"


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
    cells = [place(row), f"{isolated(row.name or row.id)} <small>{isolated(row.id)}</small>", isolated(club), points,
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


def denik_table(entries: list[dict[str, object]], lang: str, names: Mapping[str, str] | None = None) -> str:
    """The deník as the committee reads it: one line per entry, its number, its local time, who made it and what
    it says in words (``tournament.report.describe``), players by name and ČAS id (``names``). The entries as
    stored (JSON, UTC) are the download, ``/desk/print/denik.jsonl``."""
    rows = []
    for entry in entries:
        try:
            words = describe(decode_event(dict(entry["event"])), lang, names)  # type: ignore[call-overload]
        except ValueError:
            words = str(entry.get("type", ""))
        rows.append(f'<tr><td class="num">{entry["n"]}</td><td class="at">{escape(local_time(str(entry["at"]), lang))}'
                    f'</td><td>{isolated(str(entry["by"]))}</td><td>{escape(words)}</td></tr>')  # fmt: skip
    return _table("denik", ["#", t("at", lang), t("by", lang), t("entry", lang)], rows)


def local_time(stamp: str, lang: str) -> str:
    """An ISO time as stored (UTC) in the hub's local time, as the hall's clock shows it: Czech ``6. 12. 2026
    01:11:12``, English ``2026-12-06 01:11:12``; a stamp that is no time is shown as it is."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    if lang == "en":
        return moment.strftime("%Y-%m-%d %H:%M:%S")
    return f"{moment.day}. {moment.month}. {moment.year} {moment:%H:%M:%S}"


def settings_text(settings: TournamentSettings, lang: str) -> str:
    """The settings in words, in the page's language (as the deník's entries say them)."""
    return settings_words(settings, lang)


def _table(kind: str, head: list[str], rows: list[str]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    return (f'<div class="scroll"><table class="list {kind}"><thead><tr>{th}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')
