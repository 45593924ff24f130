"""What the director prints, as plain text (and HTML for the deník): the pairing list, the standings table with its
coefficients under it, and the deník. Czech by default, English with ``lang="en"``. Pure: strings in, strings
out."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tournament import events as ev
from tournament.errors import TournamentError
from tournament.floats import WHY_TEXT
from tournament.folder import WITHDRAWN_AFTER_LAST_GAME
from tournament.games import RoundPairing
from tournament.settings import StandingsSettings, TournamentSettings
from tournament.standings import StandingRow, place
from tournament.state import Tournament

TEXTS: dict[str, dict[str, str]] = {
    "cs": {
        "round": "Kolo {n}", "table": "Stůl", "starts": "Začíná", "replies": "Druhý", "bye": "Volný los",
        "rank": "Poř.", "id": "ID", "name": "Jméno", "points": "Body", "turcas": "TurČAS", "buchholz": "Buchholz",
        "own": "Skóre", "diff": "Rozdíl", "startsbal": "Odp.−Zač.", "status": "Stav",
        "after": "Pořadí po {n}. kole", "coef": "TurČAS = A/Kol × Buchholz + B × skóre + C × rozdíl + D × "
        "(odpovědi − začátky); A = {A:g}, B = {B:g}, C = {C:g}, D = {D:g}; pomocné kritérium: {tb}",
        "kol": "Kol = {kol} (počet kol turnaje)",
        "withdrawn": "odstoupil", "excluded": "vyloučen", "active": "",
        "log": "Deník turnaje",
    },
    "en": {
        "round": "Round {n}", "table": "Table", "starts": "Starts", "replies": "Replies", "bye": "Bye",
        "rank": "Rank", "id": "ID", "name": "Name", "points": "Points", "turcas": "TurČAS", "buchholz": "Buchholz",
        "own": "Score", "diff": "Diff", "startsbal": "Repl.−Starts", "status": "Status",
        "after": "Standings after round {n}", "coef": "TurČAS = A/Kol × Buchholz + B × score + C × difference + "
        "D × (replies − starts); A = {A:g}, B = {B:g}, C = {C:g}, D = {D:g}; tie-break: {tb}",
        "kol": "Kol = {kol} (the tournament's number of rounds)",
        "withdrawn": "withdrawn", "excluded": "excluded", "active": "",
        "log": "Tournament log (deník)",
    },
}


def _t(lang: str) -> dict[str, str]:
    return TEXTS.get(lang, TEXTS["cs"])


def _name(tournament: Tournament, pid: str) -> str:
    p = tournament.players.get(pid)
    return f"{p.name} ({pid})" if p is not None and p.name else pid


def pairing_text(tournament: Tournament, number: int, pairing: RoundPairing, lang: str = "cs") -> str:
    """The pairing list of round ``number``: table, who starts, who replies; then the bye."""
    t = _t(lang)
    rows = [(str(p.table), _name(tournament, p.first), _name(tournament, p.second)) for p in pairing.pairings]
    lines = [t["round"].format(n=number), ""]
    lines += table_lines((t["table"], t["starts"], t["replies"]), rows, right=(0,))
    if pairing.bye is not None:
        lines += ["", f"{t['bye']}: {_name(tournament, pairing.bye)}"]
    return "\n".join(lines) + "\n"


def _fmt_points(x: float) -> str:
    return f"{x:g}".replace(".", ",") if x != int(x) else str(int(x))


_TIEBREAKS = {"turcas": ("TurČAS", "TurČAS"), "buchholz": ("Buchholz", "Buchholz"),
              "brightwell": ("Brightwell", "Brightwell"), "spread": ("rozdíl skóre", "score difference")}


def standings_text(rows: Sequence[StandingRow], rounds: int, settings: StandingsSettings, lang: str = "cs",
                   kol: int | None = None) -> str:
    """The standings table (a place shared by players tied on every criterion written "1.–3.") with the TurČAS
    coefficients printed under it, and TurČAS's Kol when given."""
    t = _t(lang)
    table = [(place(r), r.id, r.name, _fmt_points(r.points), f"{r.turcas:.1f}", _fmt_points(r.buchholz),
              str(r.own_score), str(r.score_difference), f"{r.starts_balance:+d}", t[r.status]) for r in rows]
    lines = [t["after"].format(n=rounds), ""]
    lines += table_lines((t["rank"], t["id"], t["name"], t["points"], t["turcas"], t["buchholz"], t["own"], t["diff"],
                     t["startsbal"], t["status"]), table, right=(0, 3, 4, 5, 6, 7, 8))
    tiebreak = _TIEBREAKS.get(settings.tiebreak, ("", ""))[lang == "en"] or settings.tiebreak
    lines += ["", t["coef"].format(tb=tiebreak, **settings.coefficients)
              + (f"; {t['kol'].format(kol=kol)}" if kol is not None and settings.tiebreak == "turcas" else "")]
    return "\n".join(lines) + "\n"


def _number(x: float, lang: str) -> str:
    text = f"{x:g}"
    return text if lang == "en" else text.replace(".", ",")


_SETTING_WORDS = {
    "cs": {"system": "systém", "swiss": "švýcarský systém", "round_robin": "každý s každým", "rounds": "kol",
           "open": "neurčeno", "tiebreak": "pomocné kritérium", "bye": "volno", "newcomer": "síla nováčka",
           "koth": "King of the Hill", "doubles": "dvojice", "yes": "ano", "no": "ne"},
    "en": {"system": "system", "swiss": "Swiss", "round_robin": "round robin", "rounds": "rounds",
           "open": "not fixed", "tiebreak": "tie-break", "bye": "bye", "newcomer": "newcomer's rating",
           "koth": "King of the Hill", "doubles": "doubles", "yes": "yes", "no": "no"},
}


def _points_words(x: float, lang: str) -> str:
    if lang == "en":
        return f"{_number(x, lang)} point{'' if x == 1 else 's'}"
    return f"{_number(x, lang)} {'bod' if x == 1 else 'bodu' if x != int(x) else 'body' if 2 <= x <= 4 else 'bodů'}"


def settings_words(settings: TournamentSettings | Mapping[str, Any], lang: str = "cs") -> str:
    """The settings in words, as the deník and the desk show them ("kol: neurčeno, pomocné kritérium: TurČAS
    (A 100, B 0,05, C 1, D 15), volno: 1 bod, 100:0, ..."); settings that do not read back are shown as stored."""
    if not isinstance(settings, TournamentSettings):
        stored = settings
        try:
            settings = TournamentSettings.from_dict(stored)
        except (TournamentError, TypeError):
            return ", ".join(f"{k}={v}" for k, v in stored.items())
    w = _SETTING_WORDS["en" if lang == "en" else "cs"]
    st = settings.standings
    tiebreak = _TIEBREAKS.get(st.tiebreak, ("", ""))[lang == "en"] or st.tiebreak
    if st.tiebreak == "turcas":
        tiebreak += " (" + ", ".join(f"{k} {_number(v, lang)}" for k, v in st.coefficients.items()) + ")"
    rounds = w["open"] if settings.rounds is None else str(settings.rounds)
    parts = [f"{w['system']}: {w[settings.system]}", f"{w['rounds']}: {rounds}", f"{w['tiebreak']}: {tiebreak}",
             f"{w['bye']}: {_points_words(settings.bye_points, lang)}, {settings.bye_score}:{settings.bye_against}",
             f"{w['newcomer']}: {settings.newcomer_rating}",
             f"{w['koth']}: {w['yes' if settings.king_of_the_hill else 'no']}",
             f"{w['doubles']}: {w['yes' if settings.doubles else 'no']}"]
    return ", ".join(parts)


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) if rows else len(header[i])
              for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _parts(*parts: str) -> str:
    """The non-empty parts, comma-separated (an empty club is left out, not shown as ", ,")."""
    return ", ".join(p for p in parts if p)


def describe(event: ev.Event, lang: str = "cs", names: Mapping[str, str] | None = None) -> str:
    """One deník entry in words (without its time and author); with ``names`` (id -> name) a player is named
    "name (id)", else by the id."""
    cs = lang != "en"

    def who(pid: str | None) -> str:
        name = names.get(pid, "") if names and pid is not None else ""
        return f"{name} ({pid})" if name and name != pid else str(pid)
    match event:
        case ev.SettingsChanged():
            items = settings_words(event.settings, lang)
            return (f"Software {event.software} {event.version}, nastavení: {items}" if cs
                    else f"Software {event.software} {event.version}, settings: {items}")
        case ev.PlayerRegistered():
            p = event.player
            r = "—" if p.rating is None else str(p.rating)
            details = _parts(p.name, p.club, f"síla {r}" if cs else f"rating {r}")
            if p.members:  # a pair (seed 003): its players, its strength their average
                of = " + ".join(who(m) for m in p.members)
                return (f"Registrace dvojice {p.id} z hráčů {of}: {details} (průměr sil)" if cs
                        else f"Registered pair {p.id} of players {of}: {details} (the average strength)")
            return f"Registrace {p.id}: {details}" if cs else f"Registered {p.id}: {details}"
        case ev.PlayerUpdated():
            p = event.player
            r = "—" if p.rating is None else str(p.rating)
            details = _parts(p.id, p.name, p.club, r)
            return (f"Změna hráče {event.player_id}: {details} ({event.reason})" if cs
                    else f"Player {event.player_id} changed: {details} ({event.reason})")
        case ev.PlayerWithdrawn():
            reason = _FOLDER_REASONS.get(event.reason, (event.reason, event.reason))[not cs]
            return (f"Odstoupení {who(event.player_id)} ({reason})" if cs
                    else f"Withdrawal of {who(event.player_id)} ({reason})")
        case ev.PlayerExcluded():
            return (f"Vyloučení {who(event.player_id)} z turnaje ({event.reason})" if cs
                    else f"{who(event.player_id)} excluded from the tournament ({event.reason})")
        case ev.RoundPaired():
            games = "; ".join(f"{p.table}: {who(p.first)}–{who(p.second)}" for p in event.pairings)
            bye = f"; {'volný los' if cs else 'bye'} {who(event.bye)}" if event.bye else ""
            how = _METHODS_CS.get(event.method, event.method) if cs else event.method
            seed = ""  # only round 1's random draw uses its seed (later Swiss rounds: the error function)
            if event.seed is not None and event.method == "swiss" and event.round == 1:
                seed = f", {'semínko' if cs else 'seed'} {event.seed}"
            floats = _floats(event, cs)
            return (f"Los {event.round}. kola ({how}{seed}): {games}{bye}{floats}" if cs
                    else f"Round {event.round} paired ({how}{seed}): {games}{bye}{floats}")
        case ev.PairingChanged():
            games = "; ".join(f"{p.table}: {who(p.first)}–{who(p.second)}" for p in event.pairings)
            return (f"Ruční změna losu {event.round}. kola ({event.reason}): {games}" if cs
                    else f"Round {event.round} pairing changed by hand ({event.reason}): {games}")
        case ev.RoundPublished():
            return f"Zveřejněn los {event.round}. kola" if cs else f"Round {event.round} published"
        case ev.ResultCorrected():
            return (f"Oprava výsledku {event.round}. kola: {_result(event, cs, who)} ({event.reason})" if cs
                    else f"Result corrected, round {event.round}: {_result(event, cs, who)} ({event.reason})")
        case ev.ResultRecorded():
            src = {"table": "ze stolu", "manual": "ručně"}[event.source] if cs else event.source
            return (f"Výsledek {event.round}. kola: {_result(event, cs, who)} [{src}]" if cs
                    else f"Result, round {event.round}: {_result(event, cs, who)} [{src}]")
        case ev.ProtestRecorded():
            return (f"Námitka/protest {who(event.player_id)}, {event.round}. kolo, stůl {event.table}: {event.text} — "
                    f"rozhodnutí: {event.decision}" if cs
                    else f"Protest by {who(event.player_id)}, round {event.round}, table {event.table}: {event.text} — "
                    f"decision: {event.decision}")
        case ev.WarningRecorded():
            return (f"Napomenutí {who(event.player_id)}, {event.round}. kolo, stůl {event.table}: {event.reason}" if cs
                    else f"Warning to {who(event.player_id)}, round {event.round}, table {event.table}: {event.reason}")
        case ev.RoundClosed():
            return f"Uzavřeno {event.round}. kolo" if cs else f"Round {event.round} closed"
    return type(event).__name__  # pragma: no cover - every event type is listed above


# the reason a tournament folder logs for a player with no game after a round (``tournament.folder``), in either
# language; logs written before it was Czech have the English one
_FOLDER_REASONS = {reason: (WITHDRAWN_AFTER_LAST_GAME, "no game after this round")
                   for reason in (WITHDRAWN_AFTER_LAST_GAME, "no game after this round")}
_KINDS_CS = {"played": "odehráno", "forfeit": "kontumace", "bye": "volný los", "void": "anulováno",
             "exclusion": "vyloučení"}
_METHODS_CS = {"swiss": "švýcarský systém", "round_robin": "každý s každým", "king_of_the_hill": "král kopce",
               "manual": "ručně"}


def _floats(e: ev.RoundPaired, cs: bool) -> str:
    """Who was paired out of their score group and why (``tournament.floats``), or nothing."""
    if not e.floats:
        return ""
    lang = "cs" if cs else "en"
    parts = []
    for f in e.floats:
        why = WHY_TEXT.get(str(f.get("why")), (str(f.get("why")),) * 2)[not cs]
        parts.append(f"{f.get('player')} {_number(float(f.get('points', 0)), lang)}→"
                     f"{_number(float(f.get('opponent_points', 0)), lang)} ({why})")
    return ("; mimo svou bodovou skupinu: " if cs else "; floated: ") + ", ".join(parts)


def _result(e: ev.ResultRecorded, cs: bool = False, who: Callable[[str | None], str] = str) -> str:
    kind = _KINDS_CS.get(e.kind, e.kind) if cs else e.kind
    if e.kind == "bye":
        return f"{who(e.first)} {kind}"
    return f"{e.table}: {who(e.first)} {e.first_score}:{e.second_score} {who(e.second)} ({kind})"


def log_text(events: Sequence[ev.Event], lang: str = "cs") -> str:
    """The deník, one numbered entry a line: time, who, what."""
    lines = [_t(lang)["log"], ""]
    for i, e in enumerate(events, 1):
        lines.append(f"{i:4d}  {e.at}  {e.by}  {describe(e, lang)}")
    return "\n".join(lines) + "\n"


def log_html(events: Sequence[ev.Event], lang: str = "cs") -> str:
    """The deník as a printable HTML page."""
    title = html.escape(_t(lang)["log"])
    rows = "\n".join(f"<tr><td>{i}</td><td>{html.escape(e.at)}</td><td>{html.escape(e.by)}</td>"
                     f"<td>{html.escape(describe(e, lang))}</td></tr>" for i, e in enumerate(events, 1))
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title}</title>"
            "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
            "td{border:1px solid #999;padding:2px 6px;vertical-align:top}</style></head>"
            f"<body><h1>{title}</h1><table>\n{rows}\n</table></body></html>\n")
