"""The hub's live feeds against uvicorn: a table's whole view (``event: table``) when its game changed, only the
rest of the view (``event: state``: names, clock, claims) when it did not, each stream keeping track of which
game it has sent; the page's script keeps the last view and lays the short message over it."""

from __future__ import annotations

import http.client
import threading
from typing import Any

import pytest
from mosquitto_fixture import SseClient, finished_games, table_state

from engine.game import Game
from hub import HubStore
from hub.auth import COOKIE, RefereeAuth
from hub.db import Database
from hub.link import HubLink
from hub.web import HubServer

WAIT = 30.0


def event(table: str, seq: int, data: dict[str, Any]) -> dict[str, Any]:
    return {"v": 1, "table": table, "game": "g1", "seq": seq, "event": data}


def state(table: str, seq: int, game: Game, name: str) -> dict[str, Any]:
    return {"v": 1, "table": table, "game": "g1", "seq": seq, "state": table_state(table, game) | {"name": name}}


@pytest.fixture
def server():
    store = HubStore()
    server = HubServer(store, "127.0.0.1", 0)
    server.start()
    yield store, server
    server.stop()
    store.db.close()


@pytest.mark.parametrize("path", ["/events", "/events/table/s1"])
def test_a_state_alone_sends_the_view_without_its_game(server, path: str) -> None:
    store, hub = server
    events = finished_games(1, seed=41)[0][:4]
    game = Game()
    for seq, e in enumerate(events[:3]):
        game.apply(e)
        store.add_event(event("s1", seq, e.to_json()))
    store.set_state(state("s1", 2, game, "Stůl u okna"))
    sse = SseClient(hub.port, path).start()
    try:
        def got(kind: str, test) -> bool:
            return sse.wait_for(lambda r: any(n == kind and test(d) for n, d, _ in r), WAIT)

        # a new stream gets the whole view first, the state's names in it
        assert got("table", lambda d: d["seq"] == 2 and d["state"]["name"] == "Stůl u okna" and d["game"])
        store.set_state(state("s1", 2, game, "Stůl u dveří"))  # the clock and names only: the game is the same
        assert got("state", lambda d: d["state"]["name"] == "Stůl u dveří")
        short = [d for n, d, _ in sse.received if n == "state"]
        assert all("game" not in d and d["seq"] == 2 and d["table"] == "s1" for d in short)
        game.apply(events[3])
        store.add_event(event("s1", 3, events[3].to_json()))  # a move: the whole view again
        assert got("table", lambda d: d["seq"] == 3 and d["state"]["name"] == "Stůl u dveří")
        last = [d for n, d, _ in sse.received if n == "table"][-1]
        assert last["game"]["scores"] == list(game.scores)
        assert ("history" in last["game"]) == (path != "/events")  # the overview's summary has no history
    finally:
        sse.close()


def test_a_claim_the_events_refute_reaches_the_page_as_a_state(server) -> None:
    store, hub = server
    events = finished_games(1, seed=42)[0][:3]
    game = Game.replay(events)
    for seq, e in enumerate(events):
        store.add_event(event("s2", seq, e.to_json()))
    sse = SseClient(hub.port, "/events").start()
    try:
        assert sse.wait_for(lambda r: any(n == "table" and d["table"] == "s2" for n, d, _ in r), WAIT)
        claim = state("s2", 2, game, "s2")
        claim["state"]["game"]["scores"] = [s + 10 for s in game.scores]
        store.set_state(claim)
        assert sse.wait_for(lambda r: any(n == "state" and d["disagreement"] for n, d, _ in r), WAIT)
    finally:
        sse.close()


class SlowDisk:
    """Wraps the database's connection lock (``Database._lock``, held through a commit and its fsync): a test
    holding ``lock`` is a commit on a slow disk; ``reached`` is set once a thread other than the group commit's
    comes for it."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock
        self.reached = threading.Event()

    def __enter__(self) -> None:
        if threading.current_thread().name != "hub-db-commit":  # the group commit's own thread does not count
            self.reached.set()
        self.lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


REFEREE_REQUESTS = [("GET", "/api/session"), ("GET", "/api/audit"), ("GET", "/export/results.csv"),
                    ("POST", "/api/logout"), ("POST", "/api/round")]  # fmt: skip


@pytest.mark.parametrize(("method", "path"), REFEREE_REQUESTS)
def test_a_request_waiting_for_the_database_never_stalls_the_live_pages(tmp_path, method: str, path: str) -> None:
    """A referee's request that reads or writes the database waits for a commit in progress (slow on a Pi's SD
    card or a busy disk) off the event loop: every live page goes on meanwhile."""
    store = HubStore(Database(tmp_path / "hub.sqlite", commit_window=0.05))
    auth = RefereeAuth(store.db)
    auth.add_referee("Jana", "heslo-rozhodci")
    session, csrf = auth.login("Jana", "heslo-rozhodci", "127.0.0.1")
    link = HubLink(store, "mqtt://127.0.0.1:1")  # never started: a round command waits in paho's queue
    server = HubServer(store, "127.0.0.1", 0, link=link, auth=auth)
    server.start()
    sse = SseClient(server.port).start()
    answers: list[int] = []
    try:
        events = finished_games(1, seed=41)[0][:2]
        store.add_event(event("s1", 0, events[0].to_json()))
        assert sse.wait_for(lambda r: any(n == "table" and d["seq"] == 0 for n, d, _ in r), WAIT)
        store.db.flush()  # nothing queued: only the request comes for the lock below

        def ask() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2 * WAIT)
            body = b'{"command": "warning", "round": 1}' if path == "/api/round" else None
            conn.request(method, path, body, {"Cookie": f"{COOKIE}={session}", "X-CSRF-Token": csrf,
                                               "Content-Type": "application/json"})  # fmt: skip
            answers.append(conn.getresponse().status)
            conn.close()

        disk = SlowDisk(store.db._lock)
        store.db._lock = disk  # type: ignore[assignment]
        asker = threading.Thread(target=ask)
        with disk.lock:  # a commit on a slow disk, as long as this block lasts
            asker.start()
            assert disk.reached.wait(WAIT), f"{method} {path} never reached the database"
            mqtt_thread = threading.Thread(target=store.add_event, args=(event("s1", 1, events[1].to_json()),))
            mqtt_thread.start()  # the next move comes in (on paho's thread in the hub)
            arrived = sse.wait_for(lambda r: any(n == "table" and d["seq"] == 1 for n, d, _ in r), WAIT)
        asker.join(2 * WAIT)
        mqtt_thread.join(2 * WAIT)
        assert arrived, f"the live page stalled while {method} {path} waited for the database"
        assert answers == [200]
    finally:
        sse.close()
        server.stop()
        store.db.close()
