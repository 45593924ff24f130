"""The hub's pieces without a broker: message validation (size, depth, types), the store (dedup by seq, gaps,
the game rebuilt from the events, claims checked against it, persistence in SQLite), the change feed, referee
accounts (argon2, rate limiting, audit), standings per ČAS and the results CSV."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mosquitto_fixture import finished_games, table_state

from engine.game import Game
from hub.auth import SESSION_SECONDS, LoginLimits, RefereeAuth
from hub.brokerconf import acl_text
from hub.db import Database
from hub.errors import AuthError, HubError, MessageError
from hub.feed import ChangeFeed
from hub.link import HubLink
from hub.results import results_csv, standings
from hub.schema import MAX_DEPTH, RoundBody, json_depth, table_message, validate
from hub.store import GameResult, HubStore, table_key
from shared.timesource import FakeTime
from tablelink import topics


def event(seq: int, game: str = "g1", table: str = "t1") -> dict:
    e = {"type": "start", "at": 0.0, "players": ["Jan", "Eva"]} if seq == 0 else {"type": "pass", "at": float(seq)}
    return {"v": 1, "table": table, "game": game, "seq": seq, "event": e | {"round": 2}, "sent": 100.0 + seq}


def published(table: str, events: list, game: str = "g1", round_number: int = 1) -> list[dict]:
    return [{"v": 1, "table": table, "game": game, "seq": i, "event": e.to_json() | {"round": round_number}}
            for i, e in enumerate(events)]  # fmt: skip


def message(topic: str, payload: bytes) -> SimpleNamespace:
    return SimpleNamespace(topic=topic, payload=payload, retain=False, qos=1, mid=1)


@pytest.fixture
def link():
    store = HubStore()
    link = HubLink(store, "mqtt://127.0.0.1:1")  # never started: messages are handed to it directly
    yield link
    store.db.close()


def test_events_are_deduplicated_and_applied_in_order() -> None:
    store = HubStore()
    assert store.add_event(event(0)) is None
    assert store.add_event(event(2)) == ("g1", 1)  # a gap: ask the table from seq 1
    assert store.add_event(event(3)) is None  # asked already, not again at once
    record = store.current_game("t1")
    assert record is not None and record.applied == 1
    store.add_event(event(1))
    assert record.applied == 4 and record.game.scoreless_streak == 3
    store.add_event(event(2))
    assert store.duplicates == 1 and len(record.events) == 4
    assert record.round == 2  # the daemon's own field
    view = store.table_view("t1")
    assert view is not None and view["seq"] == 3 and view["sent"] == 103.0
    assert view["game"]["players"] == ["Jan", "Eva"]


def test_a_new_game_becomes_the_current_one_and_old_resends_do_not_switch_back() -> None:
    store = HubStore()
    store.add_event(event(0, "g1"))
    store.add_event(event(0, "g2"))
    assert store.tables["t1"].game_id == "g2"
    store.add_event(event(1, "g1"))
    assert store.tables["t1"].game_id == "g2"


def test_a_refused_event_is_reported_not_raised() -> None:
    store = HubStore()
    store.add_event(event(0))
    store.add_event(event(1) | {"event": {"type": "ruling", "at": 1.0, "upheld": True}})  # no challenge pending
    record = store.current_game("t1")
    assert record is not None and "event 1" in (record.error or "")
    store.add_event(event(2) | {"event": {"type": "play", "at": 2.0, "placements": "nonsense"}})
    assert record.applied == 3  # still counted; the game stays as it was at the first refused event
    with pytest.raises(MessageError, match="seq"):
        store.add_event(event(3) | {"seq": -1})
    with pytest.raises(MessageError, match="state"):
        store.set_state({"v": 1, "table": "t1", "state": [1]})


# ------------------------------------------------------------------------------------ issue 14 item 1
def test_a_deeply_nested_payload_is_refused_before_parsing() -> None:
    bomb = b'{"v":1,"table":"t1","game":"g","seq":0,"event":' + b"[" * 30_000 + b"]" * 30_000 + b"}"
    topic = topics.table_topic("t1", "event")
    with pytest.raises(MessageError, match=f"nested 30001 deep, at most {MAX_DEPTH}"):
        table_message("event", bomb, topic)
    assert json_depth(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[\\"]]", "b": [[1]]}') == 3  # strings do not count


def nesting(value: object) -> int:
    """The nesting depth of a parsed JSON value (a scalar 0, an empty container 1)."""
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    return 0


TRICKY_TEXT = st.text(alphabet='[]{}"\\\\/ ažu\n', max_size=8)
JSON_VALUES = st.recursive(
    st.none() | st.integers() | TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY_TEXT, inner, max_size=3),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON_VALUES, ascii_only=st.booleans())
def test_json_depth_counts_what_the_parser_nests(value: object, ascii_only: bool) -> None:
    """Brackets, quotes and backslashes inside strings (escaped or as \\u sequences) never count."""
    text = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert json_depth(text) == nesting(json.loads(text))


def test_a_nested_payload_never_stops_the_mqtt_thread(link) -> None:
    """The callback runs on paho's network thread: whatever it raises kills that thread for good."""
    topic = topics.table_topic("t1", "event")
    bomb = b"[" * 30_000 + b"]" * 30_000
    for _ in range(2):  # the broker redelivers it after a restart: the same again
        link._on_message(None, None, message(topic, bomb))
    link._on_message(None, None, message(topic, topics.encode(event(0))))
    assert link.store.rejected == 2
    assert link.store.current_game("t1") is not None
    assert "nested" in link.store.status_view()["rejected_recent"][-1]["error"]


def test_no_message_escapes_the_callback(link, monkeypatch) -> None:
    def broken(payload):  # a bug in the store must cost one message only
        raise KeyError("bug")

    monkeypatch.setattr(link.store, "set_status", broken)
    link._on_message(None, None, message(topics.table_topic("t1", "status"), topics.encode({"table": "t1",
                                                                                            "online": True})))  # fmt: skip
    assert link.store.rejected == 1 and "KeyError" in link.store.rejected_recent[0].error


# ------------------------------------------------------------------------------------ issue 14 item 2
def test_one_bad_retained_state_never_breaks_the_others(link) -> None:
    good = {"table": "t1", "game": "g1", "seq": 0, "state": {"name": "t1", "clock": {"state": "running"}}}
    link._on_message(None, None, message(topics.table_topic("t1", "state"), topics.encode(good)))
    for bad in ({"game": "abc"}, {"clock": "x"}, {"players": [1, 2]}, {"clock": {"budgets": "a"}}, "text"):
        payload = {"table": "t2", "game": "g2", "seq": 0, "state": bad}
        link._on_message(None, None, message(topics.table_topic("t2", "state"), topics.encode(payload)))
    assert link.store.rejected == 5
    assert link.store.table_view("t1")["state"]["clock"]["state"] == "running"
    assert "t2" not in link.store.tables or link.store.table_view("t2")["state"] == {}


# ------------------------------------------------------------------------------------ issue 14 item 3
def store_with(events: list) -> tuple[HubStore, Game]:
    """A store that got ``events`` as table t1's game g1, and the game they give."""
    store = HubStore()
    for payload in published("t1", events):
        store.add_event(payload)
    return store, Game.replay(events)


def test_the_hub_shows_the_game_of_the_events_and_flags_claims_that_disagree() -> None:
    events = finished_games(1, seed=3)[0][:9]
    store, game = store_with(events)
    honest = {"v": 1, "table": "t1", "game": "g1", "seq": len(events) - 1, "state": table_state("t1", game)}
    store.set_state(honest)
    assert store.table_view("t1")["disagreement"] is None
    liar = json.loads(json.dumps(honest))
    liar["state"]["game"]["scores"] = [999, 0]
    store.set_state(liar)
    view = store.table_view("t1")
    assert view["game"]["scores"] == game.scores != [999, 0]  # the page shows what the events give
    assert "claims scores 999:0" in view["disagreement"]
    assert "t1" in store.status_view()["disagreements"]
    store.set_state(honest)
    assert store.table_view("t1")["disagreement"] is None


def test_a_compact_claim_with_the_wrong_number_of_moves_is_flagged() -> None:
    events = finished_games(1, seed=3)[0][:9]
    store, game = store_with(events)
    compact = topics.compact_state(table_state("t1", game))
    assert compact["game"] == {"scores": game.scores, "ended": None, "moves": len(game.history)}
    honest = {"v": 1, "table": "t1", "game": "g1", "seq": len(events) - 1, "state": compact}
    store.set_state(honest)
    assert store.table_view("t1")["disagreement"] is None
    store.set_state(honest | {"state": compact | {"game": compact["game"] | {"moves": len(game.history) + 1}}})
    assert f"claims {len(game.history) + 1} moves, its events give {len(game.history)}" in (
        store.table_view("t1")["disagreement"])
    liar = honest | {"state": compact | {"game": compact["game"] | {"scores": [999, 0]}}}
    store.set_state(liar)
    assert "claims scores 999:0" in store.table_view("t1")["disagreement"]
    store.set_state(honest)
    assert store.table_view("t1")["disagreement"] is None


def test_tables_of_either_state_version_give_the_hub_the_same_record() -> None:
    """A table of an earlier version publishes its whole view (the game with its history, 8-30 KB); a table now
    publishes ``compact_state`` of it (a few hundred bytes). Both are version 1: the hub keeps the same names,
    clock and claim from either, and checks the claim of either."""
    events = finished_games(1, seed=5)[0]
    game = Game.replay(events)
    view = table_state("t1", game) | {"physical": [["A"] * 15] * 15, "says": {"cs": "x" * 300}, "menu": None}
    seq = len(events) - 1
    whole = topics.encode({"table": "t1", "game": "g1", "seq": seq, "state": view})
    compact = topics.encode({"table": "t1", "game": "g1", "seq": seq, "state": topics.compact_state(view)})
    assert b'"history"' in whole and b'"history"' not in compact and b'"board"' not in compact
    assert len(whole) > 8000 and len(compact) < 600, (len(whole), len(compact))
    records = []
    for payload in (whole, compact):
        store, _ = store_with(events)
        store.set_state(table_message("state", payload, topics.table_topic("t1", "state")))
        table = store.tables["t1"]
        records.append((table.state, table.claimed[:3], table.disagreement))
        liar = json.loads(payload)
        liar["state"]["game"]["scores"] = [s + 1 for s in game.scores]
        store.set_state(liar)
        assert "claims scores" in store.table_view("t1")["disagreement"]
    assert records[0] == records[1]
    assert records[0][0]["clock"] == {k: v for k, v in view["clock"].items() if v is not None}
    assert records[0][1:] == (("g1", seq, game.scores), None)
    assert store.tables["t1"].claimed[3] == len(game.history)  # the compact claim also names its moves


# ------------------------------------------------------------------------------------ issue 14 item 4
def test_sizes_and_round_numbers_are_limited() -> None:
    huge = topics.encode({"table": "t1", "game": "g", "seq": 0, "state": {"name": "x" * (20 * 1024 * 1024)}})
    with pytest.raises(MessageError, match="bytes, at most"):
        table_message("state", huge, topics.table_topic("t1", "state"))
    for number in (10**30, 0, -1, 100, 1.5, "3", True):
        with pytest.raises(MessageError, match="round"):
            validate(RoundBody, {"command": "start_round", "round": number}, "round command")
    assert validate(RoundBody, {"command": "start_round", "round": 99}, "round command").round == 99
    link = HubLink(HubStore(), "mqtt://127.0.0.1:1")
    with pytest.raises(MessageError, match="round"):
        link.send_round_command("start_round", 10**30)
    assert link.store.round_view()["number"] == 0


def test_login_attempts_are_rate_limited() -> None:
    clock = FakeTime(0.0)
    auth = RefereeAuth(Database(), now=clock.now, limits=LoginLimits(per_client=5, per_user=10))
    auth.add_referee("Hlavní", "správné heslo")
    answers = []
    for i in range(300):
        try:
            auth.login("Hlavní", f"guess {i}", client="10.0.0.9")
            answers.append(200)
        except AuthError as exc:
            answers.append(exc.status)
    assert answers.count(401) == 5 and answers.count(429) == 295
    with pytest.raises(AuthError) as limited:  # the right password too, until the window passes
        auth.login("Hlavní", "správné heslo", client="10.0.0.9")
    wait = limited.value.retry_after or 0
    assert limited.value.status == 429 and 0 < wait <= auth.limits.base
    auth.login("Hlavní", "správné heslo", client="10.0.0.8")  # another client is not locked out
    clock.advance(wait + 1)
    auth.login("Hlavní", "správné heslo", client="10.0.0.9")


# ------------------------------------------------------------------------------------ issue 14 item 5
def test_rounds_games_results_and_players_survive_a_restart(tmp_path) -> None:
    path = tmp_path / "hub.sqlite"
    store = HubStore(Database(path))
    store.round_command({"id": "c1", "command": "start_round", "round": 1, "sent": 1.0})
    games = finished_games(2, seed=9)
    for payload in published("t1", games[0], "g1", 1):
        store.add_event(payload)
    store.round_command({"id": "c2", "command": "start_round", "round": 2, "sent": 2.0})
    running = [dict(p, event={k: v for k, v in p["event"].items() if k != "round"})
               for p in published("t2", games[1][:10], "g2")]  # fmt: skip
    for payload in running:  # no round field: filed under the round the referee started last
        store.add_event(payload)
    view = store.table_view("t2")
    assert view is not None and view.pop("received") is not None  # when this hub run got the event
    before = (store.round_view(), store.results(), store.players(), view)
    store.db.close()

    again = HubStore(Database(path))
    view = again.table_view("t2")
    assert view is not None and view.pop("received") is None  # read back at start-up: not received by this run
    assert (again.round_view(), again.results(), again.players(), view) == before
    assert again.current_game("t2").round == 2 and again.results()[0].round == 1
    assert again.current_game("t1").game.to_dict() == Game.replay(games[0]).to_dict()
    again.add_event(running[3])  # a duplicate after the restart is still one
    assert again.duplicates == 1


def test_a_result_is_withdrawn_when_the_game_reopens_and_stays_withdrawn_after_a_restart(tmp_path) -> None:
    """004: a game closes on a *valid* closing play. The table's referee upheld a challenge of the play that went
    out: the game goes on, so the hub's results, standings and export drop the result it had filed."""
    from test_game_scripted import comb

    from engine.game import ChallengeWord, Ruling
    from engine.game.script import run_script

    path = tmp_path / "hub.sqlite"
    store = HubStore(Database(path))
    game = run_script(comb("P" * 14))
    assert game.ended is not None
    events = list(game.events)
    for payload in published("t1", events):
        store.add_event(payload)
    assert [(r.table, r.scores) for r in store.results()] == [("t1", game.result.final)]
    assert "t1" in results_csv(store.results())
    end = events[-1].at
    later = [ChallengeWord(at=end + 5, word=0), Ruling(at=end + 60, upheld=True)]
    challenge, ruling = published("t1", events + later)[len(events):]
    store.add_event(challenge)
    assert store.results() == []  # no result while the referee rules on the closing play
    store.add_event(ruling)
    assert store.current_game("t1").game.ended is None
    assert store.results() == [] and standings(store.results()) == []
    store.db.close()
    again = HubStore(Database(path))
    assert again.results() == [] and again.current_game("t1").game.ended is None
    again.db.close()


# ------------------------------------------------------------------------------------ issue 14 item 6
def test_the_view_of_an_ended_game_carries_the_final_result() -> None:
    store = HubStore()
    events = finished_games(1, seed=0)[0]
    for payload in published("t1", events):
        store.add_event(payload)
    final = Game.replay(events).result
    assert final is not None and list(final.final) != list(Game.replay(events).scores)
    for full in (True, False):
        assert store.table_view("t1", full)["game"]["result"]["final"] == list(final.final)
    assert store.results()[0].scores == final.final


# ------------------------------------------------------------------------------------ issue 14 item 7
def test_standings_follow_cas_and_a_double_no_show_is_no_draw() -> None:
    games = [
        GameResult(1, "1", "a", ("Jan", "Eva"), ("11", "12"), (400, 350), "played_out"),
        GameResult(1, "2", "b", ("Petr", "Ola"), ("13", "14"), (300, 300), "scoreless"),
        GameResult(2, "1", "c", ("Eva", "Petr"), ("12", "13"), (420, 380), "played_out"),
        GameResult(2, "2", "d", ("Ola", "Jan"), ("14", "11"), (0, 0), "forfeit", forfeit_all=True),
        GameResult(2, "3", "e", ("Iva", "Ota"), ("15", "16"), (100, 0), "forfeit"),
    ]
    after1 = standings(games, 1)
    assert [(s.player, s.wins, s.spread) for s in after1] == [
        ("Jan", 1.0, 50), ("Ola", 0.5, 0), ("Petr", 0.5, 0), ("Eva", 0.0, -50)]  # fmt: skip
    after2 = {s.player: (s.wins, s.spread, s.games) for s in standings(games)}
    assert after2["Ola"] == (0.5, 0, 2) and after2["Jan"] == (1.0, 50, 2)  # 0:0, no draw point, no spread
    assert after2["Iva"] == (1.0, 100, 1) and after2["Ota"] == (0.0, -100, 1)
    text = results_csv(games[:1])
    assert text == ("round,table,player1_id,player1,player2_id,player2,score1,score2,end\r\n"
                    "1,1,11,Jan,12,Eva,400,350,played_out\r\n")  # fmt: skip


def test_a_forfeit_of_both_players_is_recorded_as_nobody_came() -> None:
    store = HubStore()
    store.add_event(event(0))
    store.add_event(event(1) | {"event": {"type": "forfeit", "at": 130.0, "absent": [0, 1]}})
    (result,) = store.results()
    assert result.forfeit_all and result.scores == (0, 0)
    assert [(s.wins, s.spread) for s in standings([result])] == [(0.0, 0), (0.0, 0)]


def test_players_get_ids_and_registered_ids_are_used(tmp_path) -> None:
    store = HubStore()
    store.set_players([("CZ-0042", "Hráč 1"), ("7", "Nehraje")])
    for payload in published("t1", finished_games(1, seed=3)[0], "g1"):
        store.add_event(payload)
    (result,) = store.results()
    assert result.players == ("Hráč 1", "Žák 2")
    assert result.player_ids[0] == "CZ-0042" and result.player_ids[1] not in ("", "CZ-0042", "7")
    assert {p["name"]: p["id"] for p in store.players()} == {"Hráč 1": "CZ-0042", "Nehraje": "7",
                                                              "Žák 2": result.player_ids[1]}  # fmt: skip


# ------------------------------------------------------------------------------------------ other parts
def test_the_feed_wakes_only_streams_that_care() -> None:
    feed = ChangeFeed()
    seen = feed.version
    assert feed.wait(seen, [table_key("t2")], 0.0) == (seen, [])
    feed.bump(table_key("t1"))
    assert feed.wait(seen, [table_key("t2")], 0.0) == (seen, [])
    version, changed = feed.wait(seen, None, 0.0) or (0, [])
    assert changed == [table_key("t1")] and version == seen + 1
    woke = threading.Event()

    def wait() -> None:
        if feed.wait(version, [table_key("t2")], 10) is None:
            woke.set()

    thread = threading.Thread(target=wait)
    thread.start()
    feed.close()
    thread.join(5)
    assert woke.is_set()


def test_referee_accounts_sessions_csrf_and_audit(tmp_path) -> None:
    clock = FakeTime(0.0)
    db = Database(tmp_path / "hub.sqlite")
    auth = RefereeAuth(db, now=clock.now, wall=clock.now)
    with pytest.raises(AuthError) as off:
        auth.login("Hlavní", "x")
    assert off.value.status == 403
    with pytest.raises(HubError, match="at least 8"):
        auth.add_referee("Hlavní", "krátké")
    auth.add_referee("Hlavní", "tajné heslo")
    stored = db.query("SELECT hash FROM referees")[0]["hash"]
    assert stored.startswith("$argon2id$") and "tajné" not in stored
    with pytest.raises(AuthError) as wrong:
        auth.login("Hlavní", "tajne heslo")
    assert wrong.value.status == 401
    session, token = auth.login("Hlavní", "tajné heslo", client="127.0.0.1")
    assert auth.check(session, token) == "Hlavní"
    with pytest.raises(AuthError) as bad:
        auth.check(session, "x")
    assert bad.value.status == 403
    clock.advance(13 * 3600)  # the session expired
    with pytest.raises(AuthError) as expired:
        auth.check(session, token)
    assert expired.value.status == 401
    actions = [(a["referee"], a["action"]) for a in auth.audit_log()]
    assert actions == [("Hlavní", "login"), (None, "login_failed"), (None, "referee_set")]
    assert auth.remove_referee("Hlavní") and not auth.enabled


def test_sessions_live_in_the_database_hashed_and_end_at_logout_or_removal(tmp_path) -> None:
    clock = FakeTime(1_000_000.0)
    path = tmp_path / "hub.sqlite"
    auth = RefereeAuth(Database(path), wall=clock.now)
    auth.add_referee("Hlavní", "tajné heslo")
    auth.add_referee("Zástupce", "jiné heslo")
    session, csrf = auth.login("Hlavní", "tajné heslo")
    other, _ = auth.login("Zástupce", "jiné heslo")
    raw = path.read_bytes() + (path.parent / "hub.sqlite-wal").read_bytes()
    assert session.encode() not in raw and csrf.encode() not in raw  # only a hash of the token is kept
    # a new hub on the same file (a restart): the same sessions, the same CSRF tokens
    again = RefereeAuth(Database(path), wall=clock.now)
    assert again.session(session) == ("Hlavní", csrf) and again.check(other, again.session(other)[1]) == "Zástupce"
    assert again.session(session[:-1] + "x") is None and again.session("") is None
    again.logout(session)
    assert again.session(session) is None
    assert RefereeAuth(Database(path), wall=clock.now).session(session) is None  # revoked for good
    assert again.remove_referee("Zástupce")
    assert RefereeAuth(Database(path), wall=clock.now).session(other) is None  # removed: its session ends
    third, _ = again.login("Hlavní", "tajné heslo")
    clock.advance(SESSION_SECONDS + 1)
    assert RefereeAuth(Database(path), wall=clock.now).session(third) is None  # expired, after a restart too
    again.login("Hlavní", "tajné heslo")  # a login clears expired rows
    assert len(Database(path).query("SELECT * FROM sessions")) == 1


def test_the_database_can_be_backed_up_while_in_use(tmp_path) -> None:
    store = HubStore(Database(tmp_path / "hub.sqlite"))
    store.add_event(event(0))
    store.db.backup(tmp_path / "copy.sqlite")
    copy = sqlite3.connect(tmp_path / "copy.sqlite")
    assert copy.execute("SELECT count(*) FROM events").fetchone() == (1,)
    copy.close()


def test_the_deployed_acl_is_the_one_the_tests_use() -> None:
    deployed = Path(__file__).resolve().parents[1] / "deploy" / "mosquitto" / "acl"
    assert deployed.read_text(encoding="utf-8") == acl_text()
    conf = (deployed.parent / "mosquitto.conf").read_text(encoding="utf-8")
    assert "allow_anonymous false" in conf and "acl_file /etc/mosquitto/partiar/acl" in conf
    assert "listener 8883" in conf and "certfile" in conf and "max_packet_size" in conf


def test_the_hub_command_refuses_bad_arguments(tmp_path, capsys, monkeypatch) -> None:
    from device.cli import build_parser, main
    from hub.cli import DEFAULT_LISTEN, parse_listen

    args = build_parser().parse_args(["hub"])
    assert args.listen == DEFAULT_LISTEN and parse_listen(args.listen) == ("127.0.0.1", 8070)
    assert parse_listen(":81") == ("127.0.0.1", 81)
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_listen("8080")
    monkeypatch.chdir(tmp_path)
    assert main(["hub", "--listen", "nowhere"]) == 2
    assert "--listen 'nowhere'" in capsys.readouterr().err
    assert main(["hub", "--broker-password-file", str(tmp_path / "none")]) == 2
    assert f"soubor {tmp_path / 'none'} (heslo hubu u brokera): soubor ani složka neexistuje" in capsys.readouterr().err
    assert main(["hub", "--lang", "en", "--broker-password-file", str(tmp_path / "none")]) == 2
    assert "broker password file" in capsys.readouterr().err
    assert main(["hub", "--broker", "http://x"]) == 2
    assert "broker URL" in capsys.readouterr().err
    assert main(["hub", "--tls-cert", "x.pem"]) == 2
    assert "--tls-cert a --tls-key patří k sobě" in capsys.readouterr().err
    (tmp_path / "pw").write_text("dlouhé heslo\n", encoding="utf-8")
    assert main(["hub", "--db", str(tmp_path / "h.sqlite"), "referee", "add", "Eva", "--password-file",
                 str(tmp_path / "pw")]) == 0  # fmt: skip
    assert main(["hub", "--db", str(tmp_path / "h.sqlite"), "referee", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Eva"
    assert main(["hub", "--db", str(tmp_path / "h.sqlite"), "backup", str(tmp_path / "b.sqlite")]) == 0
    assert (tmp_path / "b.sqlite").exists()


def test_a_state_ahead_of_the_events_asks_for_them() -> None:
    store = HubStore()
    state = {"v": 1, "table": "t1", "game": "g1", "seq": 3, "state": {"name": "t1"}}
    assert store.set_state(state) == ("g1", 0)  # a hub that started after the game: ask from the start
    assert store.set_state(state) is None  # not again at once
    for seq in range(4):
        store.add_event(event(seq))
    assert store.set_state(state) is None  # the state is not ahead any more
    assert store.tables["t1"].game_id == "g1" and store.table_view("t1")["state"]["name"] == "t1"


def imports_of(package: str) -> list[tuple[str, str]]:
    """``(file, module)`` for every import in a package of the project."""
    import ast

    root = Path(__file__).resolve().parents[1] / package
    out = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            out += [(str(path.relative_to(root)), n) for n in names]
    return out


def test_the_table_unit_never_imports_the_hub_nor_the_hub_the_simulator() -> None:
    """``device/`` is the table unit: the hub is another program (its command only is listed by name). The hub
    is production code: it never imports the simulator (it did: ``hw_sim.httpjson``)."""
    assert [(f, m) for f, m in imports_of("device") if m.split(".")[0] == "hub"] == []
    assert [(f, m) for f, m in imports_of("hub") if m.split(".")[0] == "hw_sim"] == []


def test_the_round_archive_leaves_out_a_game_abandoned_before_its_first_move() -> None:
    """Who starts changed at the table (device/table_start.py) or a new game before any move: the table starts a
    new game; the empty one it left is not a game of the round."""
    import io
    import zipfile

    from engine.game import Pass, Start
    from hub.results import round_archive

    store = HubStore()
    for payload in published("t1", [Start(0.0, ("Jan", "Eva"))], game="first"):
        store.add_event(payload)
    for payload in published("t1", [Start(1.0, ("Eva", "Jan")), Pass(2.0)], game="second"):
        store.add_event(payload)
    for payload in published("t2", [Start(0.0, ("Ota", "Iva"))], game="waiting"):  # current, not yet played
        store.add_event(payload)
    names = set(zipfile.ZipFile(io.BytesIO(round_archive(store, 1))).namelist())
    assert names == {"round1-table-t1.gcg", "round1-table-t1.html", "round1-table-t1.txt",
                     "round1-table-t2.gcg", "round1-table-t2.html", "round1-table-t2.txt", "results.csv"}  # fmt: skip
    store.db.close()


def test_pairing_acknowledgements_are_kept_by_round_and_table_number() -> None:
    """``record_pairing_ack`` (the hub's MQTT link calls it for a table's ``ack``) and ``pairing_acks``."""
    store = HubStore()
    store.record_pairing_ack(2, 7, "t57")
    store.record_pairing_ack(2, 7, "t57")  # the retained pairing acknowledged again after a reconnect
    store.record_pairing_ack(2, 8, "t58")
    store.record_pairing_ack(3, 7, "t57")
    assert store.pairing_acks(2) == {7: "t57", 8: "t58"} and store.pairing_acks(3) == {7: "t57"}
    assert store.pairing_acks(4) == {}
