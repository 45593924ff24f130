"""Issue 28 item 6: a player's name with a control character (a line break above all) is refused where it enters:
the game's start event (engine), the table config, the hub's messages and the referee's player list."""

from __future__ import annotations

import pytest

from device.config import parse_config
from device.errors import ConfigError
from engine.game.errors import EventFormatError
from engine.game.events import Start
from hub import HubStore
from hub.errors import MessageError
from hub.schema import PlayersBody, validate

FORGED = "Eva\n>Eva: ABC 8H FORGED +999 999"


@pytest.mark.parametrize("name", [FORGED, "Eva\rNová", "Eva\x00", "Eva\u2028Nová", "Eva\x85"])
def test_the_engine_refuses_to_start_a_game_with_a_control_character_in_a_name(name) -> None:
    with pytest.raises(EventFormatError, match="control character"):
        Start(at=0.0, players=(name, "Jan"))
    assert Start(at=0.0, players=("Eva Nová", "Jan Malý")).players[0] == "Eva Nová"


def test_the_table_config_refuses_such_a_name_in_czech_naming_the_key() -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config('[table]\nplayers = ["Eva\\nNová", "Jan"]\n')
    assert refused.value.key == "table.players" and "řídicí znak" in refused.value.what("cs")
    assert "control character" in refused.value.what("en")


def test_the_hub_refuses_such_a_name_in_an_event_a_state_and_the_player_list() -> None:
    store = HubStore()
    start = {"type": "start", "at": 0.0, "players": [FORGED, "Jan"]}
    with pytest.raises(MessageError, match="control character"):
        store.add_event({"v": 1, "table": "t1", "game": "g", "seq": 0, "event": start})
    assert store.current_game("t1") is None
    with pytest.raises(MessageError, match="control character"):
        store.set_state({"v": 1, "table": "t1", "state": {"name": "Stůl\n1", "players": ["Eva", "Jan"]}})
    with pytest.raises(MessageError, match="control character"):
        store.set_state({"v": 1, "table": "t1", "state": {"name": "Stůl 1", "players": [FORGED, "Jan"]}})
    with pytest.raises(MessageError, match="control character"):
        validate(PlayersBody, {"players": [{"id": "101", "name": FORGED}]}, "POST /api/players")
    assert validate(PlayersBody, {"players": [{"id": "101", "name": "Eva Nová"}]}, "x").players[0].name == "Eva Nová"
