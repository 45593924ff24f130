"""Who starts, asked at the table before the first move (device/table_start.py): the name the schedule gives, or
the tiles the players drew (001, 004; 002's Mattel blank with ``draw_blank = "first"``), on the real Table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from table_rig import Rig

from device.config import LCD_SIZES
from device.screens import render
from engine import game as g
from engine.game.events import decode_journal

A, B = 0, 1


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    r.start()
    yield r
    r.close()


def kinds(rig: Rig) -> list[str]:
    return [item.kind for item in rig.table._menu_items()]


def journal_starts(rig: Rig) -> list[tuple[str, ...]]:
    events, warning = decode_journal(rig.table.journal.path.read_text(encoding="utf-8"))
    assert warning is None
    return [e.players for e in events if isinstance(e, g.Start)]


def test_the_draw_decides_and_the_game_starts_again_in_that_order(rig: Rig) -> None:
    assert rig.table.game.players == ("Anna", "Bedřich")
    assert "starter" in kinds(rig) and "start_draw" in kinds(rig)
    rig.menu("start_draw", "K")  # Anna's tile
    assert rig.table.menu.open and rig.view["menu"][0] == "Los: Bedřich"  # straight on to the next player
    rig.menu_continue("B")
    assert rig.table.game.players == ("Bedřich", "Anna")
    assert rig.notice == ["Začíná Bedřich", "los B"]
    assert journal_starts(rig) == [("Bedřich", "Anna")]  # the new journal; the old one is archived
    archived = sorted(rig.table.journal.path.parent.glob("journal-*.jsonl"))
    assert len(archived) == 1
    # the seats stay: Anna (button A) starts Bedřich's clock, then Bedřich (button B) ends his first move
    rig.press(A)
    assert rig.table.clock.state == "running" and rig.table.game.player_on_move == 0
    rig.lay("ROZUM", "8D")
    rig.press(B)
    assert rig.table.game.history[0].player == 0 and rig.table.game.players[0] == "Bedřich"
    assert "starter" not in kinds(rig) and "start_draw" not in kinds(rig)  # once played, never again


def test_a_tie_is_drawn_again_by_the_tied_players(rig: Rig) -> None:
    rig.menu("start_draw", "K")
    rig.menu_continue("K")
    assert rig.notice == ["Shoda: los znovu", "Los: Anna"]
    assert rig.table.game.players == ("Anna", "Bedřich")  # not decided yet
    rig.menu("start_draw", "C")
    rig.menu_continue("A")
    assert rig.table.game.players == ("Bedřich", "Anna") and rig.notice == ["Začíná Bedřich", "los KA"]


def test_a_drawn_blank_is_drawn_again_under_cas(rig: Rig) -> None:
    """004: "Žolík je kamenem mimo pořadí. Je-li vylosován, hráč losuje okamžitě kámen nový"."""
    rig.menu("start_draw", "?")
    assert rig.notice == ["Žolík: los znovu", "Los: Anna"]
    rig.menu("start_draw", "Ž")
    rig.menu_continue("Z")
    assert rig.table.game.players == ("Bedřich", "Anna")


def test_the_mattel_rule_lets_a_blank_beat_a(tmp_path: Path) -> None:
    """002: "Prázdný kámen má přednost před písmenem „A“" (``draw_blank = "first"`` in ``[table.rules]``)."""
    rig = Rig(tmp_path, extra='ruleset = "home"\nrules = { draw_blank = "first" }', clock="home")
    rig.start()
    rig.menu("start_draw", "A")
    rig.menu_continue("?")
    assert rig.table.game.players == ("Bedřich", "Anna") and rig.notice == ["Začíná Bedřich", "los ?"]
    assert rig.table.game.ruleset.draw_blank == "first"
    rig.close()


def test_a_tile_the_bag_has_no_more_of_is_refused(rig: Rig) -> None:
    rig.menu("start_draw", "Ž")  # the Czech set has one Ž, and drawn tiles stay out until the draw is over
    rig.menu_continue("Ž")
    assert rig.notice == ["Ž v sáčku není", "Los: Bedřich"]
    assert rig.table.state.start_draws == {0: ["Ž"], 1: []}
    rig.menu("start_draw", "Z")
    assert rig.table.game.players == ("Bedřich", "Anna")


def test_the_schedules_first_player_is_picked_by_name_and_confirmed(rig: Rig) -> None:
    rig.menu("starter", "Bedřich", "ne")
    assert rig.table.game.players == ("Anna", "Bedřich")
    rig.menu("starter", "Bedřich", "ano")
    assert rig.table.game.players == ("Bedřich", "Anna") and rig.notice == ["Začíná Bedřich", ""]
    rig.menu("starter", "Bedřich", "ano")  # already so: nothing restarts
    assert len(list(rig.table.journal.path.parent.glob("journal-*.jsonl"))) == 1
    rig.menu("starter", "Anna", "ano")
    assert rig.table.game.players == ("Anna", "Bedřich")


def test_the_tile_set_check_is_kept_when_the_order_changes(rig: Rig) -> None:
    rig.lay_check_square(missing=[(0, 0), (0, 1)])  # two A's missing
    rig.menu("check", "ano")
    assert rig.table.game.bag_count == 98 - 14
    rig.menu("starter", "Bedřich", "ano")
    game = rig.table.game
    assert game.players == ("Bedřich", "Anna")
    assert [(e.missing, e.extra) for e in game.events if isinstance(e, g.SetChecked)] == [("AA", "")]
    assert game.set_size == 98 and game.bag_count == 98 - 14


def test_not_offered_once_the_clock_runs(rig: Rig) -> None:
    rig.press(B)
    assert rig.table.clock.started
    assert "starter" not in kinds(rig) and "start_draw" not in kinds(rig)


def test_three_players_follow_the_starter_in_seating_order(tmp_path: Path) -> None:
    rig = Rig(tmp_path, extra='ruleset = "home"', clock="home", players=("Anna", "Bedřich", "Cyril"))
    rig.start()
    rig.menu("start_draw", "M")
    rig.menu_continue("C")
    rig.menu_continue("M")
    assert rig.table.game.players == ("Bedřich", "Cyril", "Anna")  # 001: then the player on the starter's left
    rig.close()


def test_the_order_drawn_survives_a_restart(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.start()
    rig.menu("starter", "Bedřich", "ano")
    rig.close()
    again = Rig(tmp_path)
    assert again.start() is True
    assert again.table.game.players == ("Bedřich", "Anna")
    again.close()


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_the_draw_screens_fit_every_lcd(tmp_path: Path, lang: str) -> None:
    rig = Rig(tmp_path, extra=f'language = "{lang}"')
    rig.start()
    views = []
    rig.menu("start_draw", "?")
    views.append(rig.view)  # blank drawn again
    rig.menu("start_draw", "K")
    views.append(rig.view)  # on to the next player, the menu open
    rig.menu_continue("K")
    views.append(rig.view)  # tie
    rig.menu("start_draw", "Ž")  # Anna again
    rig.menu_continue("Ž")  # Bedřich: none left
    views.append(rig.view)
    rig.menu("start_draw", "A")
    views.append(rig.view)  # decided
    assert rig.table.game.players == ("Bedřich", "Anna")
    problems = []
    for view in views:
        for columns, lines in LCD_SIZES:
            cuts: list[str] = []
            render(view, lang, columns, lines, 0, 1, cuts=cuts)
            if cuts:
                problems.append(f"{columns}x{lines}: {cuts}")
    rig.close()
    assert not problems, problems
