"""The hub's pieces without a broker: the store (dedup by seq, gaps, the current game), the change feed, the
referee's sessions, standings and the results CSV."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from device.clock.timesource import FakeTime
from device.errors import DeviceError
from device.hub.auth import AuthError, RefereeAuth, read_password_file
from device.hub.brokerconf import acl_text
from device.hub.feed import ChangeFeed
from device.hub.results import GameResult, results_csv, standings
from device.hub.store import HubStore, table_key
from device.publish import SchemaError


def event(seq: int, game: str = "g1", table: str = "t1") -> dict:
    e = {"type": "start", "at": 0.0, "players": ["Jan", "Eva"]} if seq == 0 else {"type": "pass", "at": float(seq)}
    return {"table": table, "game": game, "seq": seq, "event": e | {"round": 2}, "sent": 100.0 + seq}


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
    assert view["state"]["game"]["players"] == ["Jan", "Eva"]  # rebuilt from the events, no state yet


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
    bad = event(1) | {"event": {"type": "ruling", "at": 1.0, "upheld": True}}  # no challenge pending
    store.add_event(bad)
    record = store.current_game("t1")
    assert record is not None and "event 1" in (record.error or "")
    with pytest.raises(SchemaError, match="seq"):
        store.add_event(event(2) | {"seq": -1})
    with pytest.raises(SchemaError, match="not an object"):
        store.set_state({"table": "t1", "state": [1]})


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


def test_referee_sessions_and_csrf(tmp_path) -> None:
    clock = FakeTime(0.0)
    auth = RefereeAuth("tajné", now=clock.now)
    with pytest.raises(AuthError) as wrong:
        auth.login("tajne")
    assert wrong.value.status == 401
    session, token = auth.login("tajné")
    auth.check(session, token)
    with pytest.raises(AuthError) as bad:
        auth.check(session, "x")
    assert bad.value.status == 403
    with pytest.raises(AuthError) as none:
        auth.check(None, token)
    assert none.value.status == 401
    clock.advance(13 * 3600)  # the session expired
    with pytest.raises(AuthError) as expired:
        auth.check(session, token)
    assert expired.value.status == 401
    with pytest.raises(AuthError) as off:
        RefereeAuth(None).login("")
    assert off.value.status == 403
    (tmp_path / "pw").write_text("  tajné \nignored\n", encoding="utf-8")
    assert read_password_file(tmp_path / "pw") == "tajné"
    (tmp_path / "empty").write_text("\n", encoding="utf-8")
    with pytest.raises(DeviceError, match="empty"):
        read_password_file(tmp_path / "empty")
    with pytest.raises(DeviceError, match="No such file"):
        read_password_file(tmp_path / "missing")


def test_standings_by_wins_then_spread() -> None:
    games = [
        GameResult(1, "1", ("Jan", "Eva"), (400, 350), "played_out"),
        GameResult(1, "2", ("Petr", "Ola"), (300, 300), "scoreless"),
        GameResult(2, "1", ("Eva", "Petr"), (420, 380), "played_out"),
        GameResult(2, "2", ("Ola", "Jan"), (390, 200), "played_out"),
    ]
    after1 = standings(games, 1)
    assert [(s.player, s.wins, s.spread) for s in after1] == [
        ("Jan", 1.0, 50), ("Ola", 0.5, 0), ("Petr", 0.5, 0), ("Eva", 0.0, -50)]  # fmt: skip
    after2 = standings(games)
    assert [(s.player, s.wins, s.spread, s.games) for s in after2] == [
        ("Ola", 1.5, 190, 2), ("Eva", 1.0, -10, 2), ("Jan", 1.0, -140, 2), ("Petr", 0.5, -40, 2)]  # fmt: skip
    text = results_csv(games[:1])
    assert text == "round,table,player1,player2,score1,score2,end\r\n1,1,Jan,Eva,400,350,played_out\r\n"


def test_the_deployed_acl_is_the_one_the_tests_use() -> None:
    deployed = Path(__file__).resolve().parents[1] / "deploy" / "mosquitto" / "acl"
    assert deployed.read_text(encoding="utf-8") == acl_text()
    conf = (deployed.parent / "mosquitto.conf").read_text(encoding="utf-8")
    assert "allow_anonymous false" in conf and "acl_file /etc/mosquitto/partiar/acl" in conf


def test_the_hub_command_refuses_bad_arguments(tmp_path, capsys) -> None:
    from device.cli import main
    from device.cli.hub import parse_listen

    assert parse_listen("0.0.0.0:8080") == ("0.0.0.0", 8080) and parse_listen(":81") == ("0.0.0.0", 81)
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_listen("8080")
    assert main(["hub", "--listen", "nowhere"]) == 2
    assert "--listen 'nowhere'" in capsys.readouterr().err
    assert main(["hub", "--referee-password-file", str(tmp_path / "none")]) == 2
    assert "referee password file" in capsys.readouterr().err
    assert main(["hub", "--broker", "http://x"]) == 2
    assert "broker URL" in capsys.readouterr().err


def test_a_state_ahead_of_the_events_asks_for_them() -> None:
    store = HubStore()
    state = {"table": "t1", "game": "g1", "seq": 3, "state": {"name": "t1"}}
    assert store.set_state(state) == ("g1", 0)  # a hub that started after the game: ask from the start
    assert store.set_state(state) is None  # not again at once
    for seq in range(4):
        store.add_event(event(seq))
    assert store.set_state(state) is None  # the state is not ahead any more
    assert store.tables["t1"].game_id == "g1" and store.table_view("t1")["state"]["name"] == "t1"
