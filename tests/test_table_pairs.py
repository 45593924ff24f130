"""A pairs tournament's pairing at the table (``device.table_pairs``): a Prague or Polish doubles table starts the
hub's four players in the pairing's order (the first team starts, no menu choice), the sheet's header names the
teams; a pairing of the wrong kind (four players at a singles table, two at a doubles table) starts no game and
says so on the LCD and in the log, in Czech."""

from __future__ import annotations

import logging

import pytest
from table_rig import Rig

from device import inputs
from engine.scoresheet import render_text, sheet
from shared.texts import TEXTS
from tablelink.pairing import PairedPlayer, TablePairing, parse_pairing
from tablelink.topics import SchemaError

TABLE = "t57"
JAN, EVA, OTA, IVA = (PairedPlayer("877", "Jan Novák"), PairedPlayer("1203", "Eva Malá"),
                      PairedPlayer("1500", "Ota Veselý"), PairedPlayer("1620", "Iva Krátká"))  # fmt: skip
D1, D2 = PairedPlayer("D1", "Novák + Veselý"), PairedPlayer("D2", "Malá + Krátká")


def doubles_pairing(round_number: int = 2) -> TablePairing:
    """D2 starts: its players first and third; D1's second and fourth."""
    return TablePairing("r2", round_number, TABLE, (EVA, JAN, IVA, OTA), "Pražská čtyřhra", "Praha", "6.12.2026",
                        1.0, teams=(D2, D1))  # fmt: skip


def doubles_rig(tmp_path, ruleset: str) -> Rig:
    rig = Rig(tmp_path / ruleset, clock=ruleset, players=("Anna", "Bedřich", "Cyril", "Dana"),
              extra=f'ruleset = "{ruleset}"')  # fmt: skip
    rig.start()
    return rig


@pytest.mark.parametrize("ruleset", ["prague", "polish"])
def test_a_doubles_table_starts_the_pairs_pairing_in_its_order(tmp_path, ruleset) -> None:
    rig = doubles_rig(tmp_path, ruleset)
    try:
        rig.table.handle(inputs.PairingReceived(doubles_pairing()))
        game = rig.table.game
        assert game.players == ("Eva Malá", "Jan Novák", "Iva Krátká", "Ota Veselý")
        assert game.player_on_move == 0 and game.side_names[0] == "Eva Malá + Iva Krátká"  # D2 starts
        assert game.info["player_ids"] == ["1203", "877", "1620", "1500"]
        assert game.info["teams"] == ["Malá + Krátká", "Novák + Veselý", "Malá + Krátká", "Novák + Veselý"]
        assert rig.notice == ["Kolo 2: začíná", "Eva Malá + Iva Krátká"]
        kinds = {item.kind for item in rig.table._menu_items()}
        assert "starter" not in kinds and "start_draw" not in kinds  # the pairing says who starts: no menu choice
        header = dict(sheet(game, "cs").header)
        assert header["Soutěž"] == "Pražská čtyřhra" and header["Kolo soutěže"] == "2"
        assert "Družstvo: Malá + Krátká : Novák + Veselý" in render_text(game, "cs")
        assert (rig.state_dir / "pairing.json").exists()
    finally:
        rig.close()
    again = Rig(tmp_path / ruleset, clock=ruleset, players=("Anna", "Bedřich", "Cyril", "Dana"),
                extra=f'ruleset = "{ruleset}"')  # fmt: skip
    again.start()  # a restart keeps the paired game
    try:
        assert again.table.game.players == ("Eva Malá", "Jan Novák", "Iva Krátká", "Ota Veselý")
        assert again.table.pairing == doubles_pairing()
    finally:
        again.close()


def test_a_singles_table_refuses_a_pairs_pairing_on_its_lcd_and_in_its_log(tmp_path, caplog) -> None:
    rig = Rig(tmp_path / "singles")
    rig.start()
    try:
        with caplog.at_level(logging.ERROR, logger="device.table"):
            rig.table.handle(inputs.PairingReceived(doubles_pairing()))
        assert rig.table.game.players == ("Anna", "Bedřich")  # no wrong game
        assert rig.notice == ["Los pro dvojice!", "volej rozhodčího"]
        assert "Los pro dvojice!" in caplog.text and "a pairing of 4" in caplog.text
        assert not (rig.state_dir / "pairing.json").exists()
    finally:
        rig.close()


def test_a_doubles_table_refuses_a_singles_pairing_on_its_lcd(tmp_path, caplog) -> None:
    rig = doubles_rig(tmp_path, "prague")
    try:
        single = TablePairing("s1", 1, TABLE, (JAN, EVA), "Turnaj", "Brno", "", 1.0)
        with caplog.at_level(logging.ERROR, logger="device.table"):
            rig.table.handle(inputs.PairingReceived(single))
        assert rig.table.game.players == ("Anna", "Bedřich", "Cyril", "Dana")
        assert rig.notice == ["Los pro 2 hráče!", "volej rozhodčího"]
        assert "Los pro 2 hráče!" in caplog.text
    finally:
        rig.close()


def test_the_pairs_pairing_round_trips_and_its_teams_are_checked() -> None:
    payload = doubles_pairing().payload()
    assert parse_pairing(payload, TABLE) == doubles_pairing()
    with pytest.raises(SchemaError, match="names its two 'teams'"):
        parse_pairing({k: v for k, v in payload.items() if k != "teams"}, TABLE)
    with pytest.raises(SchemaError, match="the two teams must differ"):
        parse_pairing(payload | {"teams": [{"id": "D1", "name": "a"}, {"id": "D1", "name": "b"}]}, TABLE)
    with pytest.raises(SchemaError, match="the four players must differ"):
        parse_pairing(payload | {"players": payload["players"][:3] + payload["players"][:1]}, TABLE)
    with pytest.raises(SchemaError, match="two players has no 'teams'"):
        parse_pairing(payload | {"players": payload["players"][:2]}, TABLE)
    with pytest.raises(SchemaError, match="team 2: 'name' must not be empty"):
        parse_pairing(payload | {"teams": [{"id": "D1", "name": "a"}, {"id": "D2", "name": ""}]}, TABLE)


def test_the_pairs_notices_fit_a_16x2_lcd_in_both_languages() -> None:
    for key in ("pairing_of_pairs", "pairing_of_two", "round_starts"):
        for words in TEXTS[key]:
            assert len(words.format(r=99)) <= 16, words
