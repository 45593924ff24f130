"""Issue 32 (hub desk): the desk shows each link. The tables' acknowledgements of the pairing
(``HubStore.record_pairing_ack``, kept in the hub's SQLite) are counted, not the sends ("Los doručen 1/2, stůl 2
nepřipojen"); each table's unit shows connected, last seen, pairing acknowledged, game started, result in; a
table whose game has not begun ``no_show_after`` after publishing is flagged, with one click per no-show (004).

The acknowledgement's MQTT topic is the link engineer's (not in this branch): these tests call
``record_pairing_ack`` directly, as the hub's MQTT side will."""

from __future__ import annotations

import pytest
from desk_rig import PLAYERS, Director, start_desk_hub
from mosquitto_fixture import broker  # noqa: F401 - the fixture

from hub.auth import RefereeAuth
from hub.db import Database
from hub.director import Desk
from hub.director_pages import DeskPages
from hub.errors import MessageError
from hub.store import HubStore
from hub.tournament_store import DenikStore


def test_pairing_acks_are_kept_in_the_hubs_database(tmp_path) -> None:
    path = tmp_path / "hub.sqlite"
    db = Database(path)
    store = HubStore(db)
    store.record_pairing_ack(1, 3, "t3")
    store.record_pairing_ack(1, 4, "t4")
    store.record_pairing_ack(1, 4, "spare")  # the table's unit changed: the last acknowledgement counts
    store.record_pairing_ack(2, 3, "t3")
    assert store.pairing_acks(1) == {3: "t3", 4: "spare"} and store.pairing_acks(2) == {3: "t3"}
    for bad in ((0, 1, "t1"), (1, 0, "t1"), (1, 1, ""), (1, 1, "x" * 65)):
        with pytest.raises(MessageError):
            store.record_pairing_ack(*bad)
    db.close()
    again = Database(path)
    assert HubStore(again).pairing_acks(1) == {3: "t3", 4: "spare"} and HubStore(again).pairing_acks(5) == {}
    again.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_table_not_started_ten_minutes_after_publishing_is_flagged() -> None:
    clock = Clock()
    db = Database()
    desk = Desk(HubStore(db), DenikStore(db), unit_prefix="t", clock=clock)
    desk.start("test")
    desk.import_csv(PLAYERS, "test")
    desk.pair("test")
    assert desk.links(1) == []  # not published: nothing sent, nothing to show
    desk.publish(1, "test")
    desk.store.record_pairing_ack(1, 1, "t1")
    desk.store.set_status({"v": 1, "table": "t1", "online": True})
    clock.now += 9 * 60
    links = {link.table: link for link in desk.links(1)}
    assert links[1].acked == "t1" and links[1].online is True and links[2].acked is None
    assert links[2].online is None and not any(link.late for link in links.values())
    clock.now += 2 * 60
    assert all(link.late for link in desk.links(1))
    pages = DeskPages(desk, RefereeAuth(Database()))
    from types import SimpleNamespace

    body = pages._desk_body(("test", "csrf"), "cs", SimpleNamespace(query_params={}, cookies={}))  # type: ignore[arg-type]
    assert "Los doručen 1/2, stůl 2 nepřipojen" in body
    assert "připojen · los potvrzen · partie nezačala" in body and "zatím se neozval · los nepotvrzen" in body
    assert body.count("10 min po zveřejnění partie nezačala") == 2
    english = pages._desk_body(("test", "csrf"), "en", SimpleNamespace(query_params={}, cookies={}))  # type: ignore[arg-type]
    assert "Pairing delivered 1/2, table 2 not connected" in english
    desk.forfeit(1, 2, "both", "test")
    links = {link.table: link for link in desk.links(1)}
    assert links[2].result and not links[2].late and links[1].late


def test_the_desk_counts_acknowledgements_and_a_no_show_is_one_click(broker) -> None:  # noqa: F811
    hub = start_desk_hub(broker.url)
    try:
        hub.desk.no_show_after = 0.0  # flagged at once
        director = Director(hub.port)
        director.ok("import", csv=PLAYERS)
        director.ok("pair")
        director.ok("publish", round="1")
        page = director.page()
        assert "Los doručen 0/2, stůl 1 nepřipojen, stůl 2 nepřipojen" in page
        hub.store.record_pairing_ack(1, 2, "t2")
        page = director.page()
        assert "Los doručen 1/2, stůl 1 nepřipojen" in page and "stůl 2 nepřipojen" not in page
        assert page.count("0 min po zveřejnění partie nezačala") == 2
        game = hub.desk.tournament.rounds[1].pairing.by_table(1)
        assert director.ok("forfeit", round="1", table="1", absent="second") == "Hotovo: 1. kolo, stůl 1: kontumace"
        result = hub.desk.tournament.rounds[1].results[1]
        assert (result.first, result.first_score, result.second_score, result.kind) == (game.first, 100, 0, "forfeit")
        assert director.page().count("0 min po zveřejnění partie nezačala") == 1
    finally:
        hub.stop()
