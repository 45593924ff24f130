"""Issue 28 item 4: one table's password must not remove that table for the tournament. A flood of made-up games
with the table's credentials fills no limit for good: later rounds' real games are taken in, the flooded round's
real game is taken in by the pairing or by a referee from the games put aside, and a referee clears the rest."""

from __future__ import annotations

import json

from mosquitto_fixture import finished_games, login, referee_hub, request

from hub import HubStore
from hub.quarantine import ASIDE_GAMES, GAMES_PER_ROUND
from hub.share import TableShare


def published(table: str, events: list, game: str, number: int) -> list[dict]:
    return [{"v": 1, "table": table, "game": game, "seq": i, "event": e.to_json() | {"round": number}}
            for i, e in enumerate(events)]  # fmt: skip


def flood(store: HubStore, table: str, number: int, count: int, players: list[str] | None = None) -> None:
    """``count`` made-up games (a start each) with the table's credentials, as the attacker sent them."""
    for i in range(count):
        store.add_event({"v": 1, "table": table, "game": f"fake{number}-{i}", "seq": 0,
                         "event": {"type": "start", "at": 0.0, "players": players or ["X", "Y"], "round": number}})  # fmt: skip


def play(store: HubStore, messages: list[dict]) -> None:
    for message in messages:
        store.add_event(message)


def start_round(store: HubStore, number: int) -> None:
    store.round_command({"id": f"r{number}", "command": "start_round", "round": number, "sent": float(number)})


def test_a_flood_in_one_round_leaves_the_tables_later_rounds_and_a_referee_takes_its_real_game_in() -> None:
    store = HubStore()
    games = finished_games(3, seed=11)
    start_round(store, 3)
    flood(store, "t1", 3, 600)  # about 20 s of flooding: more than the old limit of 500 games
    real3 = published("t1", games[0], "real3", 3)
    play(store, real3)  # the table's real game comes after the flood: without a pairing it goes aside
    assert store.current_game("t1").game_id.startswith("fake")
    aside = store.status_view()["aside"]["tables"]["t1"]
    assert aside["count"] == ASIDE_GAMES and aside["games"][0]["game"] == "real3"
    assert len(store.games) == GAMES_PER_ROUND
    for number, game in ((4, games[1]), (7, games[2])):  # later rounds: the table's real games as always
        start_round(store, number)
        play(store, published("t1", game, f"real{number}", number))
        assert store.current_game("t1").game_id == f"real{number}"
    assert [r.round for r in store.results()] == [4, 7]
    assert store.release("t1", "real3")  # the referee takes the real game of round 3 in
    assert [(r.round, r.game_id) for r in store.results()] == [(3, "real3"), (4, "real4"), (7, "real7")]
    assert store.clear_aside("t1") == ASIDE_GAMES - 1
    assert store.status_view()["aside"]["tables"] == {}


def test_the_rounds_pairing_takes_the_real_game_in_whatever_the_flood() -> None:
    store = HubStore()
    events = finished_games(1, seed=12)[0]
    players = list(events[0].players)
    store.pairing = lambda table, number: set(players) if (table, number) == ("t1", 2) else None
    assert store.expected_players("t1", 2) == set(players) and store.expected_players("t2", 2) is None
    start_round(store, 2)
    flood(store, "t1", 2, 50)
    real = published("t1", events, "real", 2)
    play(store, real[3:5])  # a gap first: aside, the hub asks the table for the start
    assert ("t1", "real") not in store.games
    assert store.add_event(real[5]) is None  # asked once already (RESEND_AFTER)
    play(store, real[:3] + real[5:])  # the start comes: the pairing's players, taken in with what was aside
    record = store.current_game("t1")
    assert record is not None and record.game_id == "real" and record.applied == len(events)
    assert [r.game_id for r in store.results()] == ["real"]
    assert all(t != "t1" or g == "real" for t, g in store.games)  # no made-up game was taken in
    flood(store, "t1", 2, 3, players)  # made-up games with the pairing's names: taken in (as a restart would be)
    assert store.current_game("t1").game_id.startswith("fake")  # a new start is the table's game, as a restart


def test_a_referee_sees_and_clears_the_games_aside_from_the_status_page() -> None:
    with referee_hub() as (server, auth):
        store = server.store
        start_round(store, 1)
        flood(store, "t9", 1, GAMES_PER_ROUND + 3)
        status = json.loads(request(server.port, "GET", "/api/status")[2])
        assert status["aside"]["tables"]["t9"]["count"] == 3
        body = {"action": "release", "table": "t9", "game": f"fake1-{GAMES_PER_ROUND}"}
        assert request(server.port, "POST", "/api/aside", body)[0] == 401  # referees only
        headers = login(server.port)
        assert request(server.port, "POST", "/api/aside", body, headers)[0] == 200
        assert store.current_game("t9").game_id == f"fake1-{GAMES_PER_ROUND}"
        status, _, answer = request(server.port, "POST", "/api/aside", {"action": "clear", "table": "t9"}, headers)
        assert status == 200 and json.loads(answer)["games"] == 2
        assert json.loads(request(server.port, "GET", "/api/status")[2])["aside"]["tables"] == {}
        assert [e["action"] for e in auth.audit_log()][:2] == ["aside_clear", "aside_release"]


def test_a_flooding_table_gets_its_share_and_the_other_tables_theirs() -> None:
    clock = [0.0]
    share = TableShare(rate=20.0, burst=500, now=lambda: clock[0])
    handled = sum(share.take("t1") for _ in range(5000))  # a flood at one instant
    assert handled == 500 and share.dropped["t1"] == 4500
    assert share.take("t2")  # another table is not held up behind it
    clock[0] += 1.0
    assert sum(share.take("t1") for _ in range(100)) == 20  # then 20 a second
