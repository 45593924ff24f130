"""The short form of a player's name on an LCD line (device.lcd_names) and the screens that use it."""

from __future__ import annotations

import pytest

from device.lcd_names import fit_name, fit_names, lcd_name, lcd_names
from device.screens import render
from shared.texts import text


@pytest.mark.parametrize(
    ("name", "width", "short"),
    [
        ("Bedřich Malý", 12, "Bedřich Malý"),  # fits: whole
        ("Bedřich Malý", 10, "B. Malý"),
        ("Bedřich Malý", 6, "B.Malý"),
        ("Bedřich Malý", 4, "Malý"),
        ("Bedřich Malý", 3, "Mal"),
        ("Jan Pavel Novák", 12, "J. Novák"),  # the first given name's initial
        ("Jan Novák ml.", 12, "J. Novák ml."),  # the junior mark stays with the surname
        ("  Bedřich   Malý ", 20, "Bedřich Malý"),  # spaces as written do not count
        ("Kratochvílová", 8, "Kratochv"),  # one word: cut
        ("Bedřich Malý + Jana Nová", 16, "B. Malý+J. Nová"),  # a doubles team: each player in half the room
        ("Bedřich Malý + Jana Nová", 22, "Bedřich Malý+Jana Nová"),
    ],
)
def test_a_name_gives_way_from_the_front_and_keeps_the_surname(name: str, width: int, short: str) -> None:
    assert lcd_name(name, width) == short
    assert len(short) <= width


def test_two_players_with_the_same_short_form_are_told_apart() -> None:
    names = ["Bedřich Malý", "Bohumil Malý", "Jan Novák", "Jiří Novák", "Jiřina Nováková"]
    assert lcd_names(names, 9) == ["Be. Malý", "Bo. Malý", "Jan Novák", "Ji. Novák", "Nováková"]
    assert lcd_names(["Bedřich Malý", "Běla Malá"], 8) == ["B. Malý", "B. Malá"]  # the surnames differ
    assert lcd_names(["Jan Malý", "Jan Malý"], 6) == ["J.Malý", "J.Malý"]  # the same name: nothing tells them apart
    # no room for an initial and the surname: the given names tell partners of one family apart
    assert lcd_names(["Bedřich Malý", "Bohumil Malý", "Ivo Novák"], 4) == ["Bedř", "Bohu", "Novák"[:4]]


def test_a_text_with_a_name_keeps_its_words_and_shortens_the_name() -> None:
    assert fit_name("{name} vzdává", "Bedřich Malý", 16) == "B. Malý vzdává"
    assert fit_name("{name} vzdává", "Bedřich Malý", 20) == "Bedřich Malý vzdává"
    assert fit_names("> Bedřich Malý (1.)", 16, ["Bedřich Malý", "Bohumil Malý"]) == "> Be. Malý (1.)"
    assert fit_names("> Bedřich Malý", 16, ["Bedřich Malý"]) == "> Bedřich Malý"  # fits: as it is


NAMES = ["Bedřich Malý", "Bohumil Malý"]


def test_the_player_on_move_keeps_the_surname_beside_the_move_time() -> None:
    view = {"clock": {"state": "running", "player_on_move": 0, "move_left": 107.0, "game_left": 1865.0},
            "names": NAMES, "scores": [123, 98]}  # fmt: skip
    assert render(view, "cs", 16, 2) == (">Be. Malý   1:47", "123:98     31:05")
    # 20x4: the whole name beside the time; in the names row (half a line each) 5 characters have no room for an
    # initial and the surname, so the given name tells the two apart there
    assert render(view, "cs", 20, 4)[0:2] == (">Bedřich Malý   1:47", "Bedři 123 B.Malý 98 ")


def test_a_notice_names_the_player_by_the_short_form_on_16_columns_and_in_full_on_20() -> None:
    notice = [text("resigned", "cs").format(name="Bedřich Malý"), text("finish_move", "cs")]
    view = {"notice": notice, "names": NAMES, "scores": [10, 0]}
    assert render(view, "cs", 16, 2)[0] == "Be. Malý vzdává "
    assert render(view, "cs", 20, 2)[0] == "Bedřich Malý vzdává "
