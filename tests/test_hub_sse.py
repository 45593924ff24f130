"""The hub's live feeds against uvicorn: a table's whole view (``event: table``) when its game changed, only the
rest of the view (``event: state``: names, clock, claims) when it did not, each stream keeping track of which
game it has sent; the page's script keeps the last view and lays the short message over it."""

from __future__ import annotations

from typing import Any

import pytest
from mosquitto_fixture import SseClient, finished_games, table_state

from engine.game import Game
from hub import HubStore
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
