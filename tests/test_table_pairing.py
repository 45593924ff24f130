"""The round's pairing at the table (``device.table_pairing``): the hub's players and who starts reach the table,
fill the score sheet's header, survive a restart, a correction before the game replaces them, a change after the
start is ignored and logged; then the same through a real mosquitto with the tournament's ACL."""

from __future__ import annotations

import logging

import pytest
from mosquitto_fixture import TABLES, broker, start_hub  # noqa: F401 - broker is the fixture
from table_rig import Rig, first_move
from test_hub_poison import raw_client

from device import inputs
from device.publish import TablePublisher
from device.screens import render
from engine.scoresheet import sheet
from tablelink import topics
from tablelink.pairing import PairedPlayer, TablePairing, parse_pairing
from tablelink.topics import SchemaError

TABLE = "t57"


def pairing(first: tuple[str, str], second: tuple[str, str], round_number: int = 1, pid: str = "p1",
            table: str = TABLE, number: int = 0) -> TablePairing:  # fmt: skip
    return TablePairing(pid, round_number, table, (PairedPlayer(*first), PairedPlayer(*second)),
                        "Velká cena Brna", "Brno", "28.11.2026", 1.0, number)  # fmt: skip


def start_round(rig: Rig) -> None:
    """The chief referee starts the round (a paired game waits for it whatever the table's ``base_time``)."""
    rig.table.handle(inputs.RoundCommand("start"))


EVA, JAN, OTA = ("1203", "Eva Malá"), ("877", "Jan Novák"), ("1500", "Ota Veselý")


@pytest.fixture
def rig(tmp_path):
    rig = Rig(tmp_path / "table")
    rig.start()
    yield rig
    rig.close()


def test_a_pairing_starts_the_game_with_its_players_and_fills_the_header(rig) -> None:
    rig.table.handle(inputs.PairingReceived(pairing(JAN, EVA, 3, number=12)))
    game = rig.table.game
    assert game.players == ("Jan Novák", "Eva Malá")  # the first named starts (004)
    assert game.info["player_ids"] == ["877", "1203"]
    assert rig.notice == ["Kolo 3 stůl 12", "Začíná Jan Novák"]  # the tournament's table number, not the unit id
    kinds = [item.kind for item in rig.table._menu_items()]
    assert "starter" not in kinds and "start_draw" not in kinds  # the pairing decided: no draw
    header = dict(sheet(game, "cs").header)
    assert header["Soutěž"] == "Velká cena Brna" and header["Kolo soutěže"] == "3" and header["Místo"] == "Brno"
    assert header["Stůl"] == "12" and header["Začátek"].startswith("28.11.2026 ")
    rig.press(1)  # a paired game follows the chief referee (the rig's table is base_time = "table")
    assert rig.table.view()["referee_wait"] == "start" and not game.history
    start_round(rig)
    first_move(rig)  # B's press starts A's clock: Jan at A plays ROZUM
    assert game.history[-1].player == 0 and game.scores[0] == 18


def test_the_pairing_notice_gives_way_to_the_move_time_when_the_clock_starts(rig) -> None:
    """Issue 34: a clock started within the pairing notice's 60 s showed "Kolo 1 stůl 1:58" on a 16x2 (the notice
    cut for the running time); the game is on, so the LCD shows the move."""
    rig.table.handle(inputs.PairingReceived(pairing(JAN, EVA, 1, table="2")))
    assert rig.notice == ["Kolo 1 stůl 2", "Začíná Jan Novák"]
    start_round(rig)  # a paired game waits for the chief referee's start
    rig.press(1)
    rig.advance(2.0)
    rows = render(rig.view, "cs", 16, 2)
    assert rig.notice is None and rows[0].startswith(">Jan Novák") and rows[0].endswith("1:58"), rows


def test_without_a_pairing_the_table_keeps_its_menu(rig) -> None:
    assert rig.table.game.players == ("Anna", "Bedřich")
    assert {"starter", "start_draw"} <= {item.kind for item in rig.table._menu_items()}


def test_a_correction_before_the_start_replaces_the_pairing_and_a_restart_keeps_it(rig) -> None:
    rig.table.handle(inputs.PairingReceived(pairing(JAN, EVA, 2, "a")))
    rig.table.handle(inputs.PairingReceived(pairing(EVA, OTA, 2, "b")))  # the referee swapped before the start
    assert rig.table.game.players == ("Eva Malá", "Ota Veselý")
    rig.close()
    again = rig.restarted()
    try:
        assert again.table.pairing == pairing(EVA, OTA, 2, "b")
        assert again.table.game.players == ("Eva Malá", "Ota Veselý")
        assert again.table.game.info["player_ids"] == ["1203", "1500"]
        again.table.handle(inputs.PairingReceived(pairing(EVA, OTA, 2, "b")))  # retained: again on reconnect
        assert len(again.table.game.events) == 2  # start and header: nothing new
    finally:
        again.close()
    rig.journal = again.journal  # closed by the fixture


def test_a_restart_of_a_paired_game_is_not_taken_for_another_game(rig) -> None:
    """The pairing's players are not the config's: a restart mid-game must not ask "Jiná hra!" (the journal's game
    is the hub's, not another one) and the players' presses still count."""
    rig.table.handle(inputs.PairingReceived(pairing(JAN, EVA, 4)))
    start_round(rig)
    first_move(rig)
    rig.close()
    again = rig.restarted()
    try:
        assert not again.table._journal_question
        assert again.table.game.players == ("Jan Novák", "Eva Malá") and again.table.game.scores == [18, 0]
        assert again.notice is None or "Jiná hra!" not in again.notice
        again.press(1)  # Eva, on move, ends her turn: the press counts (no referee question blocks it)
        assert len(again.table.game.history) == 2
    finally:
        again.close()
    rig.journal = again.journal  # closed by the fixture


def test_after_the_start_a_change_of_players_is_ignored_and_logged(rig, caplog) -> None:
    rig.table.handle(inputs.PairingReceived(pairing(JAN, EVA, 1, "a")))
    start_round(rig)
    first_move(rig)
    with caplog.at_level(logging.WARNING, logger="device.table"):
        rig.table.handle(inputs.PairingReceived(pairing(OTA, EVA, 1, "b")))
    assert rig.table.game.players == ("Jan Novák", "Eva Malá") and rig.table.game.scores == [18, 0]
    assert "ignored: the game of that round has started" in caplog.text
    assert rig.table.pairing.id == "a"
    # the next round's pairing while this game runs waits for the next game
    rig.table.handle(inputs.PairingReceived(pairing(OTA, JAN, 2, "c")))
    assert rig.table.game.players == ("Jan Novák", "Eva Malá")
    rig.table.new_game(rig.time.now())
    assert rig.table.game.players == ("Ota Veselý", "Jan Novák") and rig.table.game.info["round"] == "2"


def test_a_doubles_table_keeps_its_players(tmp_path, caplog) -> None:
    rig = Rig(tmp_path / "doubles", clock="prague", players=("Anna", "Bedřich", "Cyril", "Dana"), extra='ruleset = "prague"')
    rig.start()
    try:
        with caplog.at_level(logging.ERROR, logger="device.table"):
            rig.table.handle(inputs.PairingReceived(pairing(JAN, EVA)))
        assert rig.table.game.players == ("Anna", "Bedřich", "Cyril", "Dana")
        assert "a table of 4 players" in caplog.text and not (rig.state_dir / "pairing.json").exists()
    finally:
        rig.close()


@pytest.mark.parametrize("change, error", [
    ({"round": 0}, "'round' must be an integer 1-99"),
    ({"round": "2"}, "'round' must be an integer"),
    ({"table": "t1"}, "names table 't1'"),
    ({"players": [{"id": "1", "name": "Eva"}]}, "'players' must be a list of the two players"),
    ({"players": [{"id": "1", "name": "Eva"}, {"id": "1", "name": "Jan"}]}, "the two players must differ"),
    ({"players": [{"id": "1", "name": "Eva"}, {"id": "2", "name": ""}]}, "player 2: 'name' must not be empty"),
    ({"players": [{"id": "1", "name": "Eva"}, "Jan"]}, "player 2 must be an object"),
    ({"tournament": "x" * 81}, "'tournament' must be text of at most 80"),
    ({"place": "Brno\x07"}, "'place' must be text"),
])  # fmt: skip
def test_a_bad_pairing_is_refused_naming_the_field(change, error) -> None:
    payload = pairing(JAN, EVA).payload() | change
    with pytest.raises(SchemaError, match=error):
        parse_pairing(payload, TABLE)


def test_the_hub_sends_the_pairing_through_the_broker_and_only_that_table_reads_it(broker, tmp_path) -> None:  # noqa: F811
    hub = start_hub(broker.url)
    rig = Rig(tmp_path / "table")
    publisher = TablePublisher(TABLE, broker.url, username=TABLE, password=TABLES[TABLE], queue_dir=tmp_path / "q",
                               on_pairing=lambda p: rig.table.inputs.put(inputs.PairingReceived(p)))  # fmt: skip
    rig.table.publisher = publisher
    spy = raw_client(broker.url, "t58", TABLES["t58"])
    seen: list[str] = []
    spy.on_message = lambda c, u, m: seen.append(m.topic)
    spy.subscribe([("partiar/#", 1)])
    try:
        rig.start()
        publisher.start()
        # a table cannot forge another table's pairing (nor its own): only the hub writes them
        spy.publish(topics.table_topic(TABLE, "pairing"), topics.encode(pairing(OTA, EVA, 1, "forged").payload()),
                    qos=1, retain=True).wait_for_publish(10)  # fmt: skip
        hub.link.send_pairing(pairing(JAN, EVA, 4, "real"))
        got = rig.table.inputs.get(timeout=30)
        assert isinstance(got, inputs.PairingReceived) and got.pairing.id == "real"
        rig.table.handle(got)
        assert rig.table.game.players == ("Jan Novák", "Eva Malá")

        def arrived() -> bool:
            game = hub.store.current_game(TABLE)
            return game is not None and game.game.info.get("player_ids") == ["877", "1203"]

        assert hub.wait_for(arrived, 30), "the table's game with the ids did not reach the hub"
        assert hub.store.current_game(TABLE).game.info["round"] == "4"
        assert not hub.store.rejected, hub.store.rejected_recent
        assert not any(t.endswith(f"{TABLE}/pairing") for t in seen), seen  # t58 never read t57's pairing
    finally:
        spy.loop_stop()
        spy.disconnect()
        publisher.stop()
        hub.stop()
        rig.close()
