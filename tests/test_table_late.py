"""A table that joins late (an empty state folder: a new or wiped card, a spare table, the next day) takes the
round's state retained on a real Mosquitto: the round's real start, every later command, never a command of
another round (``tablelink.rounds``, ``device.table_round.hub_round_steps``); its pairing's acknowledgement reaches
the hub's store, and its LCD names the tournament's table number."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from mosquitto_fixture import HUB_PASSWORD, TABLES, broker, raw_client, start_hub  # noqa: F401 - broker is the fixture
from table_rig import Rig

from device import inputs
from device.hardware import round_command_input
from device.publish import TablePublisher
from engine import game as g
from tablelink import rounds, topics
from tablelink.pairing import PairedPlayer, TablePairing

UNIT, NUMBER = "t56", 7
BASE_TIME = 40 * 60.0
"""The ČAS clock's base game time (``clock = "cas"``, the rig's)."""


def pairing(round_number: int) -> TablePairing:
    return TablePairing(f"r{round_number}-{uuid.uuid4().hex[:6]}", round_number, UNIT,
                        (PairedPlayer("877", "Jan Novák"), PairedPlayer("1203", "Eva Malá")), "Velká cena Brna",
                        "Brno", "6.12.2026", time.time(), NUMBER)  # fmt: skip


class LateTable:
    """A table with an empty state folder, wired to the broker as the daemon is (``device.hardware._publisher``),
    its wall clock the real one (the hub's round times are wall-clock times)."""

    def __init__(self, broker_url: str, folder) -> None:
        self.rig = Rig(folder / "table")
        self.rig.table.wall = time.time
        self.publisher = TablePublisher(
            UNIT, broker_url, username=UNIT, password=TABLES[UNIT], queue_dir=folder / "queue",
            on_command=lambda c: self.put(round_command_input(c)),
            on_pairing=lambda p: self.put(inputs.PairingReceived(p)),
        )  # fmt: skip
        self.rig.table.publisher = self.publisher

    def put(self, item: object) -> None:
        if item is not None:
            self.rig.table.inputs.put(item)

    def start(self) -> None:
        self.rig.start()
        self.publisher.start()

    def handle_until(self, done: Callable[[], bool], timeout: float = 30.0) -> bool:
        """Handle what the broker delivers until ``done()`` (True) or ``timeout`` (False)."""
        return self.rig.handle_until(done, timeout)

    @property
    def game(self) -> g.Game:
        return self.rig.table.game

    def clock(self) -> dict:
        return self.rig.table.view()["clock"]

    def close(self) -> None:
        self.publisher.stop()
        self.rig.close()


@pytest.fixture
def hub(broker):  # noqa: F811 - the fixture
    hub = start_hub(broker.url)
    yield hub
    hub.stop()


@pytest.fixture
def late(broker, tmp_path) -> Iterator[LateTable]:  # noqa: F811 - the fixture
    table = LateTable(broker.url, tmp_path)
    yield table
    table.close()


def publish_round(broker_url: str, command: rounds.RoundCommand) -> None:
    """A round command retained on the broker as the hub publishes it (the hub's credentials)."""
    client = raw_client(broker_url, topics.HUB_USER, HUB_PASSWORD)
    try:
        client.publish(topics.ROUND_COMMAND_TOPIC, topics.encode(command.payload()), qos=1,
                       retain=True).wait_for_publish(10)  # fmt: skip
    finally:
        client.loop_stop()
        client.disconnect()


def test_a_late_table_never_takes_the_last_rounds_end_of_base_time(broker, hub, late) -> None:  # noqa: F811
    hub.link.send_round_command("start_round", 1)
    hub.link.send_round_command("end_base_time", 1)  # retained: the last command when the table connects
    hub.link.send_pairing(pairing(2))
    late.start()
    assert late.handle_until(lambda: late.game.info.get("round") == "2"), late.game.info
    assert hub.wait_for(lambda: hub.store.pairing_acks(2) == {NUMBER: UNIT}, 30), hub.store.pairing_acks(2)
    assert late.rig.notice == ["Kolo 2 stůl 7", "Začíná Jan Novák"]  # the tournament's number, not "t56"
    late.handle_until(lambda: False, 1.0)  # whatever else the broker holds for the table arrives
    assert not any(isinstance(e, g.BaseTimeExpired) for e in late.game.events), late.game.events
    assert late.game.abc_start is None and late.clock()["game_phase"] == "not started"
    assert late.rig.table.view()["referee_wait"] == "start"  # a paired table waits for the chief referee
    hub.link.send_round_command("start_round", 2)
    assert late.handle_until(lambda: late.clock()["game_phase"] == "base")
    assert late.clock()["game_left"] == pytest.approx(BASE_TIME, abs=60)
    hub.link.send_round_command("end_base_time", 1)  # a command of another round: never acts on this game
    late.handle_until(lambda: False, 2.0)
    assert late.game.abc_start is None
    hub.link.send_round_command("end_base_time", 2)
    assert late.handle_until(lambda: late.game.abc_start is not None)


def test_a_table_joining_after_the_warning_gets_the_rounds_real_start(broker, hub, late) -> None:  # noqa: F811
    started = time.time() - 1900.0  # the round started 31:40 ago; the warning came 100 s ago
    start = rounds.round_command("start_round", 3, uuid.uuid4().hex, now=started)
    publish_round(broker.url, rounds.round_command("warning", 3, uuid.uuid4().hex, start, now=time.time() - 100))
    hub.link.send_pairing(pairing(3))
    late.start()
    assert late.handle_until(lambda: late.game.info.get("round") == "3" and late.clock()["game_phase"] != "not started")
    left = late.clock()["game_left"]
    assert left == pytest.approx(BASE_TIME - 1900.0, abs=60), left  # not 40 minutes from the connection
    assert late.game.abc_start is None


def test_the_desk_sees_each_units_link_in_one_view(broker, hub, late) -> None:  # noqa: F811
    """``hub.table_status``: connected, last seen, the pairing acknowledged, the game of the round started."""
    from hub.table_status import table_status

    hub.link.send_pairing(pairing(4))
    hub.link.send_round_command("start_round", 4)
    late.start()
    assert late.handle_until(lambda: late.game.info.get("round") == "4" and late.clock()["game_phase"] == "base")

    def seen() -> bool:
        status = table_status(hub.store, 4).get(UNIT)
        return status is not None and status.connected is True and status.acked == NUMBER
    assert hub.wait_for(seen, 30), table_status(hub.store, 4)
    assert hub.wait_for(lambda: table_status(hub.store, 4)[UNIT].last_seen is not None, 30)
    assert hub.wait_for(lambda: table_status(hub.store, 4)[UNIT].game_started, 30), table_status(hub.store, 4)
    assert not table_status(hub.store, 5)[UNIT].game_started and table_status(hub.store, 5)[UNIT].acked is None
