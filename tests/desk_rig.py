"""A hub with the tournament desk on the test broker, and a referee's browser-less session on its pages (form
posts with the session cookie and the CSRF token, as the desk's forms send them)."""

from __future__ import annotations

import http.client
import re
import uuid
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

from mosquitto_fixture import HUB_PASSWORD, REFEREE, REFEREE_PASSWORD, Hub

from hub.auth import RefereeAuth
from hub.db import COMMIT_WINDOW, Database
from hub.director import Desk, open_desk
from hub.link import HubLink
from hub.store import HubStore
from hub.web import HubServer

PLAYERS = "id,name,club,rating\n1203,Eva Malá,Brno,1500\n877,Jan Novák,Praha,1700\n1500,Ota Veselý,,\n" \
          "12,Petr Dlouhý,Zlín,1200\n"  # fmt: skip
"""Four players (one without a club or a rating) as the desk's CSV import takes them."""


def started_desk_server() -> tuple[HubServer, Desk]:
    """A hub's web server with the tournament desk and the test referee's account, on an in-memory database, no
    broker (started; stop the server, then the desk)."""
    db = Database()
    store = HubStore(db)
    auth = RefereeAuth(db)
    auth.add_referee(REFEREE, REFEREE_PASSWORD)
    desk = open_desk(store)
    server = HubServer(store, auth=auth, desk=desk)
    server.start()
    return server, desk


def close_round_1(desk: Desk, by: str = "test") -> None:
    """``PLAYERS`` imported, round 1 paired, published, both tables 420:380 and the round closed."""
    desk.import_csv(PLAYERS, by)
    desk.pair(by)
    desk.publish(1, by)
    for table in (1, 2):
        desk.enter_result(1, table, 420, 380, "played", by)
    desk.close_round(1, by)


@dataclass
class DeskHub(Hub):
    desk: Desk

    def stop(self) -> None:
        self.desk.stop()
        super().stop()


def start_desk_hub(broker_url: str, prefix: str = "t", db: Path | None = None) -> DeskHub:
    """A hub with its desk (tournament table N = the unit ``<prefix>N``) and the referee ``REFEREE``."""
    database = Database(db or ":memory:", commit_window=COMMIT_WINDOW)
    store = HubStore(database)
    link = HubLink(store, broker_url, password=HUB_PASSWORD, client_id=f"hub-{uuid.uuid4().hex[:8]}")
    auth = RefereeAuth(database)
    if REFEREE not in auth.referees():
        auth.add_referee(REFEREE, REFEREE_PASSWORD)
    desk = open_desk(store, link.send_pairing, prefix)
    server = HubServer(store, "127.0.0.1", 0, link=link, auth=auth, desk=desk)
    link.start()
    server.start()
    assert link.connected.wait(15), "the hub did not connect to the broker"
    return DeskHub(store, link, server, desk)


class Director:
    """The referee at the desk: logs in through the login form, posts the desk's forms, reads the answers."""

    raw = b""
    """The body of the last answer as bytes."""

    def __init__(self, port: int, lang: str = "cs") -> None:
        self.port = port
        self.lang = lang
        self.cookie = ""
        status, headers, _ = self.request("POST", "/desk/login", {"user": REFEREE, "password": REFEREE_PASSWORD})
        assert status == 303 and "set-cookie" in headers, (status, headers)
        self.cookie = headers["set-cookie"].split(";", 1)[0]
        page = self.page()
        match = re.search(r'name="csrf" value="([^"]+)"', page)
        assert match, page[:500]
        self.csrf = unescape(match.group(1))

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:  # fmt: skip
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        body = urlencode(form).encode() if form is not None else None
        all_headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
        if self.cookie:
            all_headers["Cookie"] = self.cookie
        conn.request(method, path, body=body, headers=all_headers | (headers or {}))
        response = conn.getresponse()
        data = self.raw = response.read()
        conn.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data.decode("utf-8", "replace")

    def page(self, path: str = "/desk") -> str:
        status, _, body = self.request("GET", path)
        assert status == 200, (status, body[:300])
        return body

    def do(self, action: str, **fields: object) -> tuple[str, str]:
        """Post a desk form: ``(done, error)`` as the page's redirect reports them."""
        form = {"csrf": self.csrf, **{k: str(v) for k, v in fields.items()}}
        status, headers, body = self.request("POST", f"/desk/do/{action}", form)
        assert status == 303, (status, body[:300])
        return self.flash(headers["location"])

    def flash(self, location: str) -> tuple[str, str]:
        """``(done, error)`` as the page the desk redirected to says it once (its flash)."""
        page = self.page(location)
        done = re.search(r'<p class="flash" role="status">([^<]*)</p>', page)
        error = re.search(r'<p class="flash error" role="status">([^<]*)</p>', page)
        return (unescape(done.group(1)) if done else "", unescape(error.group(1)) if error else "")

    def ok(self, action: str, **fields: object) -> str:
        done, error = self.do(action, **fields)
        assert not error, f"{action} refused: {error}"
        return done
