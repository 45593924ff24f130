"""The table publishes its game to the hub through a real mosquitto, and takes the chief referee's round
commands from it (the daemon's wiring: ``device.hardware.round_command_input``)."""

from __future__ import annotations

import pytest
from mosquitto_fixture import TABLES, broker, start_hub  # noqa: F401 - broker is the fixture
from table_rig import Rig

from device.hardware import round_command_input
from device.publish import TablePublisher

TABLE = "t59"


@pytest.fixture
def published(broker, tmp_path):  # noqa: F811 - the fixture
    hub = start_hub(broker.url)
    rig = Rig(tmp_path / "table")
    publisher = TablePublisher(
        TABLE, broker.url, username=TABLE, password=TABLES[TABLE], queue_dir=tmp_path / "queue",
        on_command=lambda command: rig.table.inputs.put(round_command_input(command)),
    )  # fmt: skip
    rig.table.publisher = publisher
    publisher.start()
    yield rig, hub
    publisher.stop()
    hub.stop()
    rig.close()


def test_every_game_event_and_the_state_reach_the_hub(published):
    rig, hub = published
    rig.start()
    rig.press(1)
    rig.lay("ROZUM", "8D")
    rig.press(0)

    def arrived() -> bool:
        game = hub.store.current_game(TABLE)
        view = hub.store.table_view(TABLE) or {}
        state = view.get("game") or {}
        return game is not None and len(game.events) == 3 and state.get("scores") == [18, 0]

    assert hub.wait_for(arrived, 15.0), hub.store.table_view(TABLE)
    record = hub.store.current_game(TABLE)
    assert [record.events[seq]["type"] for seq in sorted(record.events)] == ["start", "info", "play"]
    assert record.game.scores == rig.table.game.scores  # the hub rebuilt the same game from the events


def test_the_referees_round_commands_reach_the_table(published):
    rig, hub = published
    rig.start()
    hub.link.send_round_command("warning", 1)
    rig.table.handle(rig.table.inputs.get(timeout=15))
    assert rig.notice == ["Zbývá 10 minut", "hry"]
    hub.link.send_round_command("end_base_time", 1)
    rig.table.handle(rig.table.inputs.get(timeout=15))
    assert rig.table.game.abc_start is not None
