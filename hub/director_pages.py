"""The tournament desk's pages on the hub: the director's page (register, pair, change the pairing, publish, enter
a result, close the round, withdraw and exclude), the printed lists (HTML with print CSS, and A4 PDF through
Chromium), the deník, and the public live standings.

Server-rendered HTML with plain forms, so the pages work without scripts (the hub's content security policy
allows none inline). The referee logs in as on the hub's other pages (``RefereeAuth``, the same session cookie);
every form carries the session's CSRF token and is refused from another origin. An action answers with a redirect
back to the page with what was done or why it was refused (the refusal names the field or the rule).

| method | path | who |
|---|---|---|
| GET | ``/desk`` | referee (else the login form) |
| POST | ``/desk/login`` | all: form ``user``, ``password`` |
| POST | ``/desk/do/<action>`` | referee + CSRF (form field ``csrf``) |
| GET | ``/desk/print/<pairing|results|standings>.html?round=N`` | all |
| GET | ``/desk/print/<pairing|results|standings>.pdf?round=N``, ``/desk/print/denik.<html|pdf>`` | referee |
| GET | ``/live`` | all: the live standings and the round's pairing with results (refreshes itself) |

Language: ``?lang=en`` (Czech without it); the forms keep it.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from html import escape
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from hub import director_render as render
from hub.auth import COOKIE, RefereeAuth
from hub.director import MAX_SCORE, MIN_SCORE, Desk, DeskError, TableLink, TournamentInfo
from hub.director_pairs import PairRefused, import_with_pairs, pairs_section, register_pair
from hub.director_texts import TEXTS, t
from hub.errors import AuthError, HubError
from hub.print_pdf import html_to_pdf
from tournament.errors import (
    DuplicatePlayer,
    PairingError,
    PlayerNotActive,
    ResultError,
    RoundIncomplete,
    SettingsError,
    TournamentError,
    UnknownPlayer,
)
from tournament.folder import FolderError
from tournament.players import BadText, Player
from tournament.settings import TIEBREAKS
from tournament.standings import complete_rounds

log = logging.getLogger(__name__)
Done = tuple[str, dict[str, Any]]
"""What an action did: a key of ``desk_texts`` and its fields (the flash says it in the page's language)."""

LIVE_REFRESH = 20
"""Seconds between reloads of the public live standings."""
PRINTS = ("pairing", "results", "standings", "denik")
KINDS = ("played", "forfeit", "void", "exclusion")


class FormError(DeskError):
    """A form field that is missing or not what it must be; the message names it."""


class Form:
    """A posted ``application/x-www-form-urlencoded`` body, its fields read with checks naming the field."""

    def __init__(self, body: bytes) -> None:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise FormError("refused_not_utf8") from None
        self.fields = {k: v[-1] for k, v in parse_qs(text, keep_blank_values=True).items()}

    def text(self, name: str, *, required: bool = True, longest: int = 300) -> str:
        value = self.fields.get(name, "").strip()
        if required and not value:
            raise FormError("refused_field_missing", field=_label(name))
        if len(value) > longest:
            raise FormError("refused_field_long", field=_label(name), longest=longest)
        return value

    def number(self, name: str, low: int, high: int) -> int:
        value = self.text(name, longest=6)
        if not value.lstrip("-").isdigit():
            raise FormError("refused_field_whole", field=_label(name), value=value)
        if not low <= int(value) <= high:
            raise FormError("refused_field_range", field=_label(name), low=low, high=high, value=value)
        return int(value)


class DeskPages:
    """The routes of the desk over ``desk`` with the hub's ``auth``."""

    def __init__(self, desk: Desk, auth: RefereeAuth, broker: Callable[[], dict[str, Any] | None] | None = None) -> None:
        self.desk = desk
        self.auth = auth
        self.broker = broker
        """The hub's broker link (``HubApp._broker_view``): the page says when it is down."""
        self._live: dict[str, tuple[object, str]] = {}
        self._flashes: dict[str, tuple[str, bool]] = {}
        """The text the next page of a session shows once (by session cookie): what the last action did."""
        self._flash_lock = threading.Lock()
        self.actions: dict[str, Callable[[Form, str], Done]] = {
            "info": self._info, "register": self._register, "import": self._import, "withdraw": self._withdraw,
            "exclude": self._exclude, "change_id": self._change_id, "pair": self._pair,
            "swap_start": self._swap_start, "swap_players": self._swap_players, "publish": self._publish,
            "send": self._send, "result": self._result, "forfeit": self._forfeit, "exclusion": self._exclusion,
            "warning": self._warning, "protest": self._protest, "close": self._close, "settings": self._settings,
            "register_pair": self._register_pair,
            "accept": self._accept, "reject": self._reject,
            "device_code": self._device_code,
        }  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            Route("/desk", self.page),
            Route("/desk/login", self.login, methods=["POST"]),
            Route("/desk/do/{action}", self.action, methods=["POST"]),
            Route("/desk/print/{name}", self.printed),
            Route("/live", self.live),
        ]

    # ------------------------------------------------------------------------------------------ helpers
    @staticmethod
    def lang(request: Request) -> str:
        return "en" if request.query_params.get("lang") == "en" else "cs"

    def _session(self, request: Request) -> tuple[str, str] | None:
        return self.auth.session(request.cookies.get(COOKIE))

    @staticmethod
    def _back(lang: str, **flash: str) -> RedirectResponse:
        query = urlencode({**({"lang": lang} if lang == "en" else {}), **flash})
        return RedirectResponse(f"/desk{'?' + query if query else ''}", status_code=303)

    # ------------------------------------------------------------------------------------------ pages
    async def page(self, request: Request) -> Response:
        lang = self.lang(request)
        session = await run_in_threadpool(self._session, request)
        if session is None:
            return HTMLResponse(render.page(t("login", lang), self._login_form(lang, request), lang))
        await run_in_threadpool(self.desk.file_table_results)
        body = await run_in_threadpool(self._desk_body, session, lang, request)
        return HTMLResponse(render.page(t("desk", lang), body, lang))

    async def login(self, request: Request) -> Response:
        lang = self.lang(request)
        form = Form(await request.body())
        try:
            self._same_origin(request)
            session, _ = await self.auth.login_off_path(form.text("user", longest=100),
                                                        form.text("password", longest=200), _client(request),
                                                        form.text("code", required=False, longest=20))  # fmt: skip
        except AuthError as exc:  # the login page says only its own texts: the code (and a wait) in the query
            return self._back(lang, error=exc.code, **({"wait": f"{exc.retry_after:.0f}"} if exc.retry_after else {}))
        except FormError:
            return self._back(lang, error="login")
        response = self._back(lang)
        response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path="/",
                            secure=request.url.scheme == "https")  # fmt: skip
        return response

    async def action(self, request: Request) -> Response:
        lang = self.lang(request)
        name = request.path_params["action"]
        handler = self.actions.get(name)
        if handler is None:
            return HTMLResponse(f"no desk action {escape(name[:40])!r}", 404)
        try:
            self._same_origin(request)
            form = Form(await request.body())
            referee = await run_in_threadpool(self.auth.check, request.cookies.get(COOKIE), form.fields.get("csrf"))
        except (AuthError, FormError) as exc:
            status = exc.status if isinstance(exc, AuthError) else 400
            return HTMLResponse(render.page(t("desk", lang), f'<p class="flash error">{escape(refusal_text(exc, lang))}</p>'
                                            f'<p><a href="/desk">{t("desk", lang)}</a></p>', lang), status)  # fmt: skip
        try:
            key, params = await run_in_threadpool(handler, form, referee)
        except (DeskError, TournamentError, HubError) as exc:
            log.info("desk: %s by %s refused: %s", name, referee, exc)
            self._tell(request, t("refused", lang).format(why=refusal_text(exc, lang)), error=True)
            return self._back(lang)
        # the audit log keeps what was done in both languages (the referee's page shows it in its own), and no
        # device code: that only the page says, once
        logged = {**params, **({"code": "…"} if "code" in params else {})}
        said = {code: t(key, code).format(**logged) for code in ("cs", "en")}
        await run_in_threadpool(self.auth.audit, referee, f"desk:{name}", {"done": said["en"], **said},
                                _client(request))  # fmt: skip
        said[lang] = t(key, lang).format(**params)
        self._tell(request, t("done", lang).format(what=said[lang]), error=False)
        return self._back(lang)

    def _tell(self, request: Request, text: str, *, error: bool) -> None:
        """What the next page of this session shows once (kept here, not in the address: a link cannot make
        the desk show a text of its own)."""
        with self._flash_lock:
            if len(self._flashes) > 1000:
                self._flashes.clear()
            self._flashes[request.cookies.get(COOKIE, "")] = (text, error)

    def _told(self, request: Request) -> str:
        with self._flash_lock:
            told = self._flashes.pop(request.cookies.get(COOKIE, ""), None)
        return _flash(*told) if told else ""

    @staticmethod
    def _same_origin(request: Request) -> None:
        origin = request.headers.get("origin")
        if origin and urlsplit(origin).netloc != request.headers.get("host", ""):
            raise AuthError(403, f"cross-origin request from {origin[:80]!r} refused", "origin")

    async def printed(self, request: Request) -> Response:
        lang = self.lang(request)
        stem, _, ext = request.path_params["name"].rpartition(".")
        if stem == "denik" and ext == "jsonl":  # the deník as stored, for a machine (``partiar tournament``)
            if await run_in_threadpool(self._session, request) is None:
                return HTMLResponse(render.page(t("login", lang), self._login_form(lang, request), lang), 401)
            data = await run_in_threadpool(self.desk.denik.jsonl)
            return Response(data, media_type="application/x-ndjson",
                            headers={"Content-Disposition": 'attachment; filename="denik.jsonl"'})  # fmt: skip
        if stem not in PRINTS or ext not in ("html", "pdf"):
            return HTMLResponse(f"no such list: use /desk/print/&lt;{'|'.join(PRINTS)}&gt;.html or .pdf", 404)
        if (stem == "denik" or ext == "pdf") and await run_in_threadpool(self._session, request) is None:
            # the deník is the referees'; a PDF starts a Chromium: not for anyone in the hall to ask for
            return HTMLResponse(render.page(t("login", lang), self._login_form(lang, request), lang), 401)
        number_text = request.query_params.get("round", "")
        number = int(number_text) if number_text.isdigit() and len(number_text) <= 3 else None
        html = await run_in_threadpool(self._printed_page, stem, number, lang, ext == "pdf")
        if ext == "html":
            return HTMLResponse(html)
        try:
            data = await run_in_threadpool(html_to_pdf, html)
        except HubError as exc:
            return HTMLResponse(escape(str(exc)), 503)
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{stem}{number or ""}.pdf"'})  # fmt: skip

    async def live(self, request: Request) -> Response:
        lang = self.lang(request)
        html = await run_in_threadpool(self._live_page, lang)
        return HTMLResponse(html)

    # ------------------------------------------------------------------------------------------ rendering
    def _login_form(self, lang: str, request: Request) -> str:
        code, wait = request.query_params.get("error", ""), request.query_params.get("wait", "0")
        known = f"auth_{code}" in TEXTS and wait.isdigit() and len(wait) < 6  # no text of the link's own
        error = t(f"auth_{code}", lang).format(wait=wait) if known else ""
        return (f'<div class="bar"><h1>{t("desk", lang)}</h1>{self._lang_link(lang, "/desk")}</div><main><section>'
                f'<h2>{t("login", lang)}</h2>{_flash(error, True)}'
                f'<form method="post" action="/desk/login{_q(lang)}">'
                f'<label>{t("user", lang)}<input name="user" autocomplete="username" required></label>'
                f'<label>{t("password", lang)}<input name="password" type="password" '
                f'autocomplete="current-password" required></label>'
                f'<label>{t("device_code", lang)} <small>({t("device_code_hint", lang)})</small>'
                f'<input name="code" autocomplete="one-time-code" inputmode="numeric" maxlength="20"></label>'
                f'<button class="primary">{t("log_in", lang)}</button></form></section></main>')  # fmt: skip

    @staticmethod
    def _lang_link(lang: str, path: str) -> str:
        other = "cs" if lang == "en" else "en"
        return f'<a class="right" href="{path}{_q(other)}">{t("other_lang", lang)}</a>'

    def _desk_body(self, session: tuple[str, str], lang: str, request: Request) -> str:
        referee, csrf = session
        desk, tm = self.desk, self.desk.tournament
        hidden = f'<input type="hidden" name="csrf" value="{escape(csrf)}">'

        def form(action: str, inner: str, button: str, cls: str = "") -> str:
            return (f'<form method="post" action="/desk/do/{action}{_q(lang)}" class="{cls}">{hidden}{inner}'
                    f'<button class="primary">{escape(button)}</button></form>')  # fmt: skip

        def field(name: str, label: str, value: str = "", kind: str = "text", extra: str = "") -> str:
            return (f'<label>{escape(label)}<input name="{name}" type="{kind}" value="{escape(value)}" {extra}>'
                    f"</label>")  # fmt: skip

        active = [pid for pid in tm.players if pid not in tm.out_from]
        options = "".join(render.player_option(tm, p) for p in tm.players)
        player_select = f'<label>{t("player", lang)}<select name="player">{options}</select></label>'
        reason = field("reason", t("reason", lang))
        info = desk.info
        parts = [f'<div class="bar"><h1>{t("desk", lang)}: {escape(info.name or "")}</h1>'
                 f'<a href="/">{t("tournament", lang)}</a><a href="/live{_q(lang)}">{t("live", lang)}</a>'
                 f'<span>{t("logged_in", lang)}: {render.isolated(referee)}</span>{self._lang_link(lang, "/desk")}</div><main>']
        broker = self.broker() if self.broker is not None else None
        if broker is not None and not broker["connected"]:
            parts.append(f'<p class="flash error" role="alert" id="broker">{escape(broker["says"][lang])}</p>')
        parts.append(self._told(request))
        # the round
        number = tm.last_round
        rnd = tm.rounds.get(number)
        round_parts = [f'<section class="wide" id="round"><h2>{t("round", lang)}']
        if rnd is None:
            round_parts.append(f'</h2><p>{t("no_round", lang)}</p>')
        else:
            state = t("closed", lang) if rnd.closed else t("published", lang) if rnd.published else t("paired", lang)
            round_parts.append(f' {number}: <span class="state">{state}</span></h2>')
            links = {link.table: link for link in desk.links(number)}
            if links and not rnd.closed:
                round_parts.append(_delivery(list(links.values()), lang))
            round_parts.append(self._round_table(rnd, lang, hidden, links))
            missing = rnd.missing_tables()
            if rnd.published and not rnd.closed and missing:
                round_parts.append(f'<p>{t("missing", lang).format(tables=", ".join(map(str, missing)))}</p>')
        controls = []
        planned = tm.settings.rounds
        if rnd is not None and rnd.closed and planned is not None and number >= planned:
            controls.append(f'<p class="done">{t("all_rounds_done", lang).format(planned=planned)}</p>')
        elif rnd is None or rnd.closed:
            controls.append(form("pair", "", t("pair_next", lang).format(n=number + 1), "inline"))
        elif not rnd.published:
            controls.append(form("publish", f'<input type="hidden" name="round" value="{number}">',
                                 t("publish", lang), "inline"))  # fmt: skip
        else:
            if not rnd.closed:
                controls.append(form("close", f'<input type="hidden" name="round" value="{number}">',
                                     t("close_round", lang), "inline"))  # fmt: skip
            controls.append(form("send", f'<input type="hidden" name="round" value="{number}">',
                                 t("send_again", lang), "inline"))  # fmt: skip
        round_parts.append(f'<div class="noprint">{" ".join(controls)}</div>')
        if rnd is not None and not rnd.published:
            tables = "".join(f"<option>{p.table}</option>" for p in rnd.pairing.pairings)
            round_num = f'<input type="hidden" name="round" value="{number}">'
            round_parts.append(f'<h3>{t("swap", lang)}</h3>')
            round_parts.append(form("swap_start", round_num + f'<label>{t("swap_start", lang)}<select name="table">'
                                    f'{tables}</select></label>' + reason, t("do", lang)))  # fmt: skip
            pick = "".join(render.player_option(tm, p) for p in rnd.pairing.players())  # namesakes: the ids
            round_parts.append(form("swap_players", round_num + f'<label>{t("swap_players", lang)}<select name="a">'
                                    f'{pick}</select></label><label>{t("and", lang)}<select name="b">{pick}</select>'
                                    f"</label>" + reason, t("do", lang)))  # fmt: skip
        if desk.unfiled:
            round_parts.append(self._unfiled(lang, hidden))
        prints = " ".join(f'<a href="/desk/print/{p}.html{_q(lang, number)}">{t(p + "_list", lang)} (HTML)</a>'
                          f'<a href="/desk/print/{p}.pdf{_q(lang, number)}">PDF</a>'
                          for p in ("pairing", "results", "standings"))  # fmt: skip
        prints += (f' <a href="/desk/print/denik.html{_q(lang)}">{t("denik", lang)}</a>'
                   f'<a href="/desk/print/denik.pdf{_q(lang)}">PDF</a>')
        round_parts.append(f'<p class="links noprint">{t("print", lang)}: {prints}</p>')
        files = [("/export/results.csv", t("dl_results", lang))]
        if rnd is not None and rnd.published:
            files.append((f"/export/round/{number}.zip", t("dl_round_zip", lang).format(n=number)))
        files += [(f"/export/{name}", t(key, lang)) for name, key in (("denik.jsonl", "dl_denik"),
                  ("ladder.csv", "dl_ladder"), ("games.csv", "dl_games"), ("tournament.t", "dl_tsh"))]  # fmt: skip
        anchors = "".join(f'<a href="{href}" download>{escape(label)}</a>' for href, label in files)
        round_parts.append(f'<p class="links noprint downloads">{t("downloads", lang)}: {anchors}</p></section>')
        parts.append("".join(round_parts))
        # sanctions and rulings of the round
        if rnd is not None and rnd.published and not rnd.closed:
            round_num = f'<input type="hidden" name="round" value="{number}">'
            parts.append(f'<section><h2>{t("warning", lang)} / {t("protest", lang)}</h2>'
                         + form("warning", round_num + player_select + reason, t("warning", lang))
                         + form("protest", round_num + player_select + field("text", t("protest", lang))
                                + field("decision", t("decision", lang)), t("protest", lang))
                         + f'<h3>{t("exclusion_result", lang)}</h3>'
                         + form("exclusion", round_num + f'<label>{t("table", lang)}<input name="table" type="number" '
                                'min="1" required></label>' + player_select
                                + field("margin", t("margin", lang), "0", "number", 'min="0"'), t("enter", lang))
                         + "</section>")  # fmt: skip
        # the standings
        parts.append(f'<section class="wide"><h2>{t("standings", lang)}</h2>{render.standings_table(tm, lang)}'
                     f"</section>")  # fmt: skip
        # the players
        rows = "".join(
            f'<tr><td>{escape(p.id)}</td><td>{escape(p.name)}</td><td>{escape(p.club)}</td>'
            f'<td class="num">{"" if p.rating is None else p.rating}</td>'
            f'<td>{t(tm.out_reason.get(p.id, "active"), lang)}</td></tr>' for p in tm.players.values())  # fmt: skip
        entrants = t("pairs", lang).capitalize() if tm.settings.doubles else t("players", lang)
        parts.append(
            f'<section id="players"><h2>{entrants} ({len(active)}/{len(tm.players)})</h2>'
            f'<table class="list players"><thead><tr><th>{t("id", lang)}</th><th>{t("name", lang)}</th>'
            f'<th>{t("club", lang)}</th><th>{t("rating", lang)}</th><th>{t("status", lang)}</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            f'<h3>{t("register", lang)}</h3>'
            + form("register", field("id", t("id", lang), extra="required") + field("name", t("name", lang),
                   extra="required") + field("club", t("club", lang)) + field("rating", t("rating", lang), kind="number",
                   extra='min="0"'), t("register", lang))
            + form("import", f'<label class="full">{t("import_csv", lang)}<textarea name="csv"></textarea>'
                   "</label>", t("import", lang))
            + (pairs_section(tm, lang, form, field) if tm.settings.doubles else "")
            + f'<h3>{t("withdraw", lang)} / {t("exclude", lang)}</h3>'
            + form("withdraw", player_select + reason, t("withdraw", lang))
            + form("exclude", player_select + reason, t("exclude", lang))
            + f'<h3>{t("change_id", lang)}</h3>'
            + form("change_id", field("old", t("old_id", lang), extra="required")
                   + field("new", t("new_id", lang), extra="required") + reason, t("save", lang))
            + "</section>")  # fmt: skip
        # the tournament
        referees = "".join(f'<option value="{escape(r)}">{escape(r)}</option>' for r in self.auth.referees())
        parts.append(f'<section><h2>{t("tournament", lang)}</h2>'
                     + form("info", field("name", t("t_name", lang), info.name) + field("place", t("place", lang),
                            info.place) + field("date", t("date", lang), info.date), t("save", lang))
                     + form("settings", self._settings_fields(lang), t("save", lang))
                     + f'<p class="coefficients">{t("settings", lang)}: {escape(render.settings_text(tm.settings, lang))}</p>'
                     + f'<h3>{t("device_code_for", lang)}</h3>'
                     + form("device_code", f'<label>{t("user", lang)}<select name="referee">{referees}</select></label>',
                            t("make_code", lang))
                     + "</section></main>")  # fmt: skip
        return "".join(parts)

    def _settings_fields(self, lang: str) -> str:
        """The settings a director changes on the page: rounds planned, the tie-break and its coefficients, the
        bye (each change is logged with the software and its version)."""
        settings = self.desk.tournament.settings
        st = settings.standings

        def select(name: str, label: str, options: list[tuple[str, str]], current: str) -> str:
            opts = "".join(f'<option value="{v}"{" selected" if v == current else ""}>{escape(text)}</option>'
                           for v, text in options)  # fmt: skip
            return f'<label>{escape(label)}<select name="{name}">{opts}</select></label>'

        def number(name: str, label: str, value: object) -> str:
            return (f'<label>{escape(label)}<input name="{name}" value="{"" if value is None else escape(str(value))}" '
                    f'inputmode="decimal" class="short"></label>')  # fmt: skip

        tiebreaks = [("turcas", "TurČAS"), ("buchholz", "Buchholz"), ("brightwell", "Brightwell"),
                     ("spread", t("difference", lang))]  # fmt: skip
        kinds = [("false", t("singles", lang)), ("true", t("pairs", lang))]
        return (select("doubles", t("entrants", lang), kinds, str(settings.doubles).lower())
                + number("rounds", t("rounds_planned", lang), settings.rounds)
                + select("tiebreak", t("tiebreak", lang), tiebreaks, st.tiebreak)
                + "".join(number(k, k, f"{getattr(st, k):g}") for k in ("A", "B", "C", "D"))
                + select("bye_points", t("bye_points", lang), [("1.0", "1"), ("0.5", "½"), ("0.0", "0")],
                         str(settings.bye_points))
                + number("bye_score", t("bye_score", lang), settings.bye_score))  # fmt: skip

    def _unfiled(self, lang: str, hidden: str) -> str:
        """The tables' games waiting on the desk: each with why, and the director's accept / reject."""
        items = []
        for u in self.desk.unfiled.values():
            keys = (f'{hidden}<input type="hidden" name="round" value="{u.round}">'
                    f'<input type="hidden" name="unit" value="{escape(u.table)}">'
                    f'<input type="hidden" name="game" value="{escape(u.game_id)}">')  # fmt: skip
            buttons = "".join(f'<form method="post" action="/desk/do/{a}{_q(lang)}" class="inline">{keys}'
                              f"<button>{t(a, lang)}</button></form>"
                              for a in (("accept", "reject") if u.acceptable else ("reject",)))  # fmt: skip
            items.append(f'<li data-game="{escape(u.game_id)}">{t("round", lang)} {u.round}, {t("table", lang)} '
                         f"{escape(str(self.desk.table_of(u.table) or u.table))}: {escape(' – '.join(u.players))} "
                         f"{escape(':'.join(map(str, u.scores)))}: {escape(t(u.reason, lang).format(**dict(u.why)))} "
                         f'<span class="noprint">{buttons}</span></li>')  # fmt: skip
        return f'<h3 class="error">{t("unfiled", lang)}</h3><ul class="unfiled">{"".join(items)}</ul>'

    def _round_table(self, rnd: Any, lang: str, hidden: str, links: dict[int, TableLink] | None = None) -> str:
        """The round's tables with their results, each table's link to its unit, and a form per table to enter or
        correct a result (a table flagged late: one click per no-show, 004)."""
        links = links or {}
        tm = self.desk.tournament
        rows = []
        kinds = "".join(f'<option value="{k}">{t("kind_" + k, lang)}</option>' for k in KINDS)
        for game in rnd.pairing.pairings:
            result = rnd.results.get(game.table)
            source = "" if result is None else t("src_" + result.source, lang)
            shown = ("", "") if result is None else (result.first_score, result.second_score) \
                if result.first == game.first else (result.second_score, result.first_score)  # the pairing's order
            entry = ""
            if rnd.published and not rnd.closed:
                base = (f'{hidden}<input type="hidden" name="round" value="{rnd.number}">'
                        f'<input type="hidden" name="table" value="{game.table}">')  # fmt: skip
                entry = (f'<form method="post" action="/desk/do/result{_q(lang)}" class="inline">{base}'
                         f'<input name="first" type="number" min="{MIN_SCORE}" max="{MAX_SCORE}" required aria-label="{t("first", lang)}"'
                         f' value="{shown[0]}">:'
                         f'<input name="second" type="number" min="{MIN_SCORE}" max="{MAX_SCORE}" required aria-label="{t("second", lang)}"'
                         f' value="{shown[1]}">'
                         f'<select name="kind" aria-label="{t("kind", lang)}">{kinds}</select>'
                         + (f'<input name="reason" placeholder="{t("reason", lang)}" required>' if result else "")
                         + f'<button>{t("enter", lang)}</button></form>'
                         f'<form method="post" action="/desk/do/forfeit{_q(lang)}" class="inline">{base}'
                         f'<select name="absent" aria-label="{t("kind_forfeit", lang)}">'
                         f'<option value="first">{t("no_show_first", lang)}</option>'
                         f'<option value="second">{t("no_show_second", lang)}</option>'
                         f'<option value="both">{t("no_show_both", lang)}</option></select>'
                         f'<button>{t("kind_forfeit", lang)}</button></form>')  # fmt: skip
            link = links.get(game.table) if game.table is not None else None
            late = ""
            if link is not None and link.late and entry:
                late = (f'<p class="late error">{t("late", lang).format(minutes=round(self.desk.no_show_after / 60))} '
                        + "".join(f'<form method="post" action="/desk/do/forfeit{_q(lang)}" class="inline">{base}'
                                  f'<input type="hidden" name="absent" value="{absent}">'
                                  f'<button>{t("no_show_" + absent, lang)}</button></form>'
                                  for absent in ("first", "second", "both")) + "</p>")  # fmt: skip
            late_class = ' class="late"' if late else ""
            rows.append(f'<tr data-table="{game.table}"{late_class}><td class="num">{game.table}</td>'
                        f"{render.player_cell(tm, game.first)}{render.player_cell(tm, game.second)}"
                        f'<td class="num result">{escape(render.score_text(result, lang, game.first))}</td><td>{source}</td>'
                        f'<td class="link">{_link_text(link, lang)}</td>'
                        f'<td class="noprint">{late}{entry}</td></tr>')  # fmt: skip
        if rnd.pairing.bye is not None:
            rows.append(f'<tr class="bye"><td>{t("bye", lang)}</td>{render.player_cell(tm, rnd.pairing.bye)}'
                        "<td></td><td></td><td></td><td></td><td></td></tr>")  # fmt: skip
        head = "".join(f"<th>{t(k, lang)}</th>" for k in ("table", "first", "second", "result", "source", "link"))
        return (f'<table class="list round"><thead><tr>{head}<th class="noprint"></th></tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table>')  # fmt: skip

    def _printed_page(self, what: str, number: int | None, lang: str, inline_css: bool) -> str:
        tm, info = self.desk.tournament, self.desk.info
        asked = number is not None and number in tm.rounds
        number = number if asked else tm.last_round
        if what == "standings" and not asked:  # the standings after the last round played, not the one on now
            number = complete_rounds(tm)
        rnd = tm.rounds.get(number)
        if what == "denik":
            title = t("denik", lang)
            names = {pid: p.name for pid, p in tm.players.items()}
            body = render.denik_table(self.desk.denik.entries(), lang, names)
        elif what == "standings":
            upto = number if rnd is not None else None
            title = f'{t("standings", lang)} {t("after_round", lang).format(n=number)}' if number else t("standings", lang)
            body = render.standings_table(tm, lang, upto)
        else:
            title = f'{t(what + "_list", lang)}: {t("round_n", lang).format(n=number)}'
            body = render.pairing_table(tm, rnd, lang, results=what == "results") if rnd is not None else \
                f"<p>{t('no_round', lang)}</p>"  # fmt: skip
        sheet = f'<div class="sheet">{render.heading(info, title)}{body}</div>'
        return render.page(title, sheet, lang, inline_css=inline_css)

    def _live_page(self, lang: str) -> str:
        """The public page, made once per deník entry (and language): the hall's phones reload it often."""
        key = (self.desk.denik.version, self.desk.info, lang)
        cached = self._live.get(lang)
        if cached is not None and cached[0] == key:
            return cached[1]
        html = self._make_live_page(lang)
        self._live[lang] = (key, html)
        return html

    def _make_live_page(self, lang: str) -> str:
        tm, info = self.desk.tournament, self.desk.info
        number = tm.last_round
        rnd = tm.rounds.get(number)
        parts = [f'<div class="bar"><h1>{escape(info.name or "Partiar")}: {t("live", lang)}</h1>'
                 f'<a href="/">{t("tournament", lang)}</a>{self._lang_link(lang, "/live")}</div><main>']  # fmt: skip
        if rnd is not None and rnd.published:
            parts.append(f'<section><h2>{t("round_n", lang).format(n=number)}</h2>'
                         f"{render.pairing_table(tm, rnd, lang, results=True)}</section>")  # fmt: skip
        parts.append(f'<section class="wide"><h2>{t("standings", lang)}</h2>{render.standings_table(tm, lang)}'
                     "</section></main>")  # fmt: skip
        return render.page(t("live", lang), "".join(parts), lang, refresh=LIVE_REFRESH)

    # ------------------------------------------------------------------------------------------ actions
    def _info(self, form: Form, by: str) -> Done:
        info = TournamentInfo(form.text("name", required=False, longest=80), form.text("place", required=False,
                              longest=80), form.text("date", required=False, longest=80))  # fmt: skip
        self.desk.set_info(info, by)
        return "did_info", {"what": f"{info.name} {info.place} {info.date}".strip()}

    def _settings(self, form: Form, by: str) -> Done:
        text = form.text("rounds", required=False, longest=2)
        if text and not text.isdigit():
            raise FormError("refused_field_whole", field=_label("rounds"), value=text)
        coefficients = {}
        for key in ("A", "B", "C", "D"):
            value = form.text(key, longest=12).replace(",", ".")
            try:
                coefficients[key] = float(value)
            except ValueError:
                raise FormError("refused_field_number", field=key, value=value) from None
        tiebreak, bye_points = form.text("tiebreak", longest=12), form.text("bye_points", longest=4)
        if tiebreak not in TIEBREAKS:  # the form's own choices, said in its words (not the rule's English)
            raise FormError("refused_field_one_of", field=_label("tiebreak"), allowed=", ".join(TIEBREAKS),
                            value=tiebreak)  # fmt: skip
        if bye_points not in ("1.0", "0.5", "0.0", "1", "0"):
            raise FormError("refused_field_one_of", field=_label("bye_points"), allowed="1, 0.5, 0", value=bye_points)
        changes = {"doubles": form.text("doubles", required=False, longest=5) == "true",
                   "rounds": int(text) if text else None, "bye_points": bye_points,
                   "bye_score": form.number("bye_score", 0, 2000),
                   "standings": {"tiebreak": tiebreak, **coefficients}}  # fmt: skip
        return ("did_settings", {}) if self.desk.change_settings(changes, by) else ("did_settings_same", {})

    def _register(self, form: Form, by: str) -> Done:
        rating = form.text("rating", required=False, longest=5)
        if rating and not rating.isdigit():
            raise FormError("refused_field_whole", field=_label("rating"), value=rating)
        player = Player(form.text("id", longest=80), form.text("name", longest=80), form.text("club", required=False,
                        longest=80), int(rating) if rating else None)  # fmt: skip
        self.desk.register([player], by)
        return "did_register", {"what": f"{player.name} ({player.id})"}

    def _register_pair(self, form: Form, by: str) -> Done:
        pid = form.text("id", longest=80)
        members = [form.text("a", longest=80), form.text("b", longest=80)]
        name = register_pair(self.desk, pid, members, by, form.text("name", required=False, longest=80))
        return "did_register_pair", {"what": f"{name} ({pid})"}

    def _import(self, form: Form, by: str) -> Done:
        count = import_with_pairs(self.desk, form.text("csv", longest=200_000), by)
        return "did_import", {"n": count}

    def _withdraw(self, form: Form, by: str) -> Done:
        pid = form.text("player", longest=80)
        self.desk.withdraw(pid, by, form.text("reason", required=False))
        return "did_withdraw", {"pid": pid}

    def _exclude(self, form: Form, by: str) -> Done:
        pid = form.text("player", longest=80)
        self.desk.exclude(pid, by, form.text("reason", required=False))
        return "did_exclude", {"pid": pid}

    def _change_id(self, form: Form, by: str) -> Done:
        old, new = form.text("old", longest=80), form.text("new", longest=80)
        self.desk.change_id(old, new, by, form.text("reason", required=False))
        return "did_change_id", {"old": old, "new": new}

    def _pair(self, form: Form, by: str) -> Done:
        return "did_pair", {"n": self.desk.pair(by)}

    def _swap_start(self, form: Form, by: str) -> Done:
        number, table = form.number("round", 1, 99), form.number("table", 1, 9999)
        self.desk.swap_start(number, table, form.text("reason"), by)
        return "did_swap_start", {"n": number, "table": table}

    def _swap_players(self, form: Form, by: str) -> Done:
        number = form.number("round", 1, 99)
        a, b = form.text("a", longest=80), form.text("b", longest=80)
        self.desk.swap_players(number, a, b, form.text("reason"), by)
        return "did_swap_players", {"n": number, "a": a, "b": b}

    def _publish(self, form: Form, by: str) -> Done:
        number = form.number("round", 1, 99)
        sent = self.desk.publish(number, by)
        return "did_publish", {"n": number, "sent": len(sent)}

    def _send(self, form: Form, by: str) -> Done:
        number = form.number("round", 1, 99)
        return "did_send", {"n": number, "sent": len(self.desk.send(number))}

    def _result(self, form: Form, by: str) -> Done:
        number, table = form.number("round", 1, 99), form.number("table", 1, 9999)
        first, second = form.number("first", MIN_SCORE, MAX_SCORE), form.number("second", MIN_SCORE, MAX_SCORE)
        kind = form.text("kind", longest=20)
        if kind not in KINDS:
            raise FormError("refused_field_one_of", field=_label("kind"), allowed=[f"kind_{k}" for k in KINDS], value=kind)
        self.desk.enter_result(number, table, first, second, kind, by, form.text("reason", required=False))
        return "did_result", {"n": number, "table": table, "score": f"{first}:{second}"}

    def _forfeit(self, form: Form, by: str) -> Done:
        number, table = form.number("round", 1, 99), form.number("table", 1, 9999)
        absent = form.text("absent", longest=10)
        self.desk.forfeit(number, table, absent, by)
        return "did_forfeit", {"n": number, "table": table}

    def _exclusion(self, form: Form, by: str) -> Done:
        number, table = form.number("round", 1, 99), form.number("table", 1, 9999)
        pid = form.text("player", longest=80)
        self.desk.exclusion_result(number, table, pid, form.number("margin", 0, 2000), by)
        return "did_exclusion", {"n": number, "table": table, "pid": pid}

    def _warning(self, form: Form, by: str) -> Done:
        number, pid = form.number("round", 1, 99), form.text("player", longest=80)
        self.desk.warning(number, pid, by, form.text("reason", required=False))
        return "did_warning", {"pid": pid}

    def _protest(self, form: Form, by: str) -> Done:
        number, pid = form.number("round", 1, 99), form.text("player", longest=80)
        self.desk.protest(number, pid, form.text("text"), form.text("decision", required=False), by)
        return "did_protest", {"pid": pid}

    def _accept(self, form: Form, by: str) -> Done:
        number, unit, game = form.number("round", 1, 99), form.text("unit", longest=64), form.text("game", longest=80)
        taken = self.desk.accept(number, unit, game, by)
        table = self.desk.table_of(unit) or unit
        return "did_accept", {"n": number, "table": table, "score": ":".join(map(str, taken.scores))}

    def _reject(self, form: Form, by: str) -> Done:
        number, unit, game = form.number("round", 1, 99), form.text("unit", longest=64), form.text("game", longest=80)
        self.desk.reject(number, unit, game, by)
        return "did_reject", {"n": number, "table": self.desk.table_of(unit) or unit}

    def _device_code(self, form: Form, by: str) -> Done:
        name = form.text("referee", longest=64)
        return "did_device_code", {"name": name, "code": self.auth.issue_code(name, by)}

    def _close(self, form: Form, by: str) -> Done:
        number = form.number("round", 1, 99)
        self.desk.close_round(number, by)
        return "did_close", {"n": number}


_REFUSALS = (  # the tournament's refusals in the director's words; the rule's own (English) message follows
    (r"table (\d+) has a result already: a correction needs a reason$", "refused_correction"),
    (r"^round (\d+) is paired but not published: no result before publishing$", "refused_unpublished"),
    (r"^field '(\w+)' is missing$", "refused_field_missing"),
    (r"^field '(\w+)' must be a whole number(?: -?\d+--?\d+)?, got '(.*)'$", "refused_field_whole"),
    (r"^field '(\w+)' must be a number, got '(.*)'$", "refused_field_number"),
    (r"table (\d+): an exclusion is lost 0:100, .* not (\d+:\d+)$", "refused_exclusion_score"),
    (r"pair '([^']*)': '([^']*)' is not a registered player of this tournament$", "refused_pair_member"),
    (r"pair '([^']*)': '([^']*)' already plays in pair '([^']*)'$", "refused_pair_taken"),
    (r"pair '[^']*': this is a singles tournament", "refused_pair_singles"),
    (r"the setting doubles cannot change$", "refused_kind_change"),
)

_FIELD_LABELS = {"id": "id", "name": "name", "club": "club", "rating": "rating", "reason": "reason", "round": "round",
                 "table": "table", "kind": "kind", "rounds": "rounds_planned", "first": "first", "second": "second",
                 "player": "player", "text": "protest", "decision": "decision", "margin": "margin", "csv": "players",
                 "user": "user", "password": "password", "old": "old_id", "new": "new_id", "place": "place",
                 "date": "date", "bye_score": "bye_score", "bye_points": "bye_points", "tiebreak": "tiebreak",
                 "absent": "kind_forfeit", "a": "swap_players", "b": "swap_players"}  # fmt: skip
"""A form field by the label the form shows it with (a key of ``hub.director_texts``)."""
_REFUSAL_KINDS = {UnknownPlayer: "refused_unknown", DuplicatePlayer: "refused_duplicate",
                  PlayerNotActive: "refused_not_active", PairingError: "refused_pairing", ResultError: "refused_result",
                  RoundIncomplete: "refused_round", SettingsError: "refused_settings",
                  PairRefused: "refused_pair"}  # fmt: skip


def _label(field: str) -> list[str] | str:
    """A form field as a refusal names it: its label's text key (said in the page's language), else its name."""
    return [_FIELD_LABELS[field]] if field in _FIELD_LABELS else field


def refusal_text(exc: Exception, lang: str) -> str:
    """Why an action was refused, as the page says it: a player's id or name in its own words; the desk's and the
    login's own refusals in their words (``HubError.said``), the tournament rules' refusals in theirs
    (``TournamentError.said``: the commonest have words of their own, ``tournament.errors.REFUSALS``; a players
    list's bad line names the line and field); a rule's message without words of its own matched against
    ``_REFUSALS``; any other refusal of the rules named by its kind in the page's language, with the rule's message
    after it."""
    if isinstance(exc, BadText):  # a player's id or name: its own words in both languages
        return exc.text(lang)
    if isinstance(exc, DeskError) and exc.rule is not None:
        exc = exc.rule
    elif isinstance(exc, HubError) and exc.key is not None:
        return exc.said(lang)
    if isinstance(exc, TournamentError) and (exc.key is not None or isinstance(exc, FolderError)):
        return exc.said(lang)
    text = str(exc)
    for pattern, key in _REFUSALS:
        match = re.search(pattern, text)
        if match:
            groups = list(match.groups())
            if key.startswith("refused_field") and groups[0] in _FIELD_LABELS:  # the field as the form labels it
                groups[0] = t(_FIELD_LABELS[groups[0]], lang)
            return t(key, lang).format(*groups)
    text = str(exc)
    kind = next((key for cls, key in _REFUSAL_KINDS.items() if isinstance(exc, cls)), None)
    return f"{t(kind, lang)} ({text})" if kind and lang != "en" else text


def _delivery(links: list[TableLink], lang: str) -> str:
    """The round's pairing as delivered: acknowledgements counted (not sends), each table missing named."""
    acked = sum(1 for link in links if link.acked)
    missing = []
    for link in links:
        if link.send_error:
            missing.append(t("link_send_error", lang).format(table=link.table, error=link.send_error))
        elif not link.acked:
            key = "link_unacked" if link.online else "link_offline"
            missing.append(t(key, lang).format(table=link.table))
    text = t("delivered", lang).format(acked=acked, n=len(links)) + (", " + ", ".join(missing) if missing else "")
    return f'<p class="delivery{" error" if missing else ""}">{escape(text)}</p>'


def _link_text(link: TableLink | None, lang: str) -> str:
    """One table's link as its cell says it: connected, last seen, pairing acknowledged, game started, result."""
    if link is None:
        return ""
    parts = [t("online" if link.online else "offline" if link.online is False else "never_seen", lang)]
    if link.seen is not None:
        parts.append(t("seen_at", lang).format(at=time.strftime("%H:%M:%S", time.localtime(link.seen))))
    parts.append(t("acked" if link.acked else "not_acked", lang))
    parts.append(t("game_started" if link.started else "game_not_started", lang))
    if link.result:
        parts.append(t("result_in", lang))
    return escape(" · ".join(parts))


def _q(lang: str, number: int | None = None) -> str:
    """The query string that keeps the language (and a round)."""
    params = {**({"lang": "en"} if lang == "en" else {}), **({"round": str(number)} if number else {})}
    return "?" + urlencode(params) if params else ""


def _flash(text: str, error: bool) -> str:
    if not text:
        return ""
    return f'<p class="flash{" error" if error else ""}" role="status">{escape(text[:500])}</p>'


def _client(request: Request) -> str:
    return request.client.host if request.client else ""

