"""Who starts, asked at the table before the first move (device/table_start.py): the name the schedule gives, or
the tiles the players drew (001, 004; 002's Mattel blank with ``draw_blank = "first"``), on the real Table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from table_rig import Rig, cut_power_writing

from device import inputs
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


def journal(rig: Rig) -> list[g.Event]:
    events, warning = decode_journal(rig.table.journal.path.read_text(encoding="utf-8"))
    assert warning is None
    return events


def test_the_draw_decides_and_the_game_is_played_in_that_order(rig: Rig) -> None:
    assert rig.table.game.players == ("Anna", "Bedřich")
    assert "starter" in kinds(rig) and "start_draw" in kinds(rig)
    rig.menu("start_draw", "K")  # Anna's tile
    assert rig.table.menu.open and rig.view["menu"][0] == "Los: Bedřich"  # straight on to the next player
    rig.menu_continue("B")
    assert rig.table.game.players == ("Bedřich", "Anna")
    assert rig.notice == ["Začíná Bedřich", "los B"]
    # the draws are game events in the game's one journal: the start keeps the configured order
    events = journal(rig)
    assert [e.players for e in events if isinstance(e, g.Start)] == [("Anna", "Bedřich")]
    assert [(e.player, e.tile) for e in events if isinstance(e, g.StartDraw)] == [(0, "K"), (1, "B")]
    assert g.Game.replay(events).players == ("Bedřich", "Anna")
    assert not list(rig.table.journal.path.parent.glob("journal-*.jsonl"))  # nothing archived: one game
    # the seats stay: Anna (button A) starts Bedřich's clock, then Bedřich (button B) ends his first move
    rig.press(A)
    assert rig.table.clock.state == "running" and rig.table.game.player_on_move == 0
    rig.lay("ROZUM", "8D")
    rig.press(B)
    assert rig.table.game.history[0].player == 0 and rig.table.game.players[0] == "Bedřich"
    assert "starter" not in kinds(rig) and "start_draw" not in kinds(rig)  # once played, never again


def test_a_decided_draw_is_not_offered_again_but_the_starter_can_still_be_set(rig: Rig) -> None:
    rig.menu("start_draw", "K")
    rig.menu_continue("B")
    assert "start_draw" not in kinds(rig) and "starter" in kinds(rig)
    rig.menu("starter", "Anna", "ano")  # a mistake in the draw put right by name
    assert rig.table.game.players == ("Anna", "Bedřich") and rig.table.game.start_draws == {}
    assert "start_draw" not in kinds(rig)  # decided: never drawn again


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
    assert rig.table.game.start_draws == {0: ("Ž",)}
    rig.menu("start_draw", "Z")
    assert rig.table.game.players == ("Bedřich", "Anna")


def test_the_schedules_first_player_is_picked_by_name_and_confirmed(rig: Rig) -> None:
    rig.menu("starter", "Bedřich", "ne")
    assert rig.table.game.players == ("Anna", "Bedřich") and "start_draw" in kinds(rig)
    rig.menu("starter", "Bedřich", "ano")
    assert rig.table.game.players == ("Bedřich", "Anna") and rig.notice == ["Začíná Bedřich", ""]
    assert "start_draw" not in kinds(rig)  # given by the schedule: no draw
    rig.menu("starter", "Bedřich", "ano")  # already so: recorded, the order stays
    assert [e.players for e in journal(rig) if isinstance(e, g.StartOrder)] == [("Bedřich", "Anna")] * 2
    rig.menu("starter", "Anna", "ano")
    assert rig.table.game.players == ("Anna", "Bedřich")


def test_the_tile_set_check_is_kept_when_the_order_changes(rig: Rig) -> None:
    rig.lay_check_square(missing=[(0, 0), (0, 1)])  # two A's missing
    rig.menu("check", "ano")
    rig.menu("set_ruling", "hrát s ní", "ano")
    assert rig.table.game.bag_count == 98 - 14
    rig.menu("starter", "Bedřich", "ano")
    game = rig.table.game
    assert game.players == ("Bedřich", "Anna")
    assert [(e.missing, e.extra, e.referee) for e in game.events if isinstance(e, g.SetChecked)] == [
        ("AA", "", "called"), ("AA", "", "as_found")]
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


# ---- over a power cut: the draws and the decision are in the journal


def test_a_power_cut_in_the_middle_of_the_draw_comes_back_to_the_same_draws(tmp_path: Path, monkeypatch) -> None:
    """Anna's tile is journaled; the power goes before the pending file is written. After the restart Bedřich
    draws, as before the cut: nobody draws again."""
    first = Rig(tmp_path)
    first.start()
    first.menu("start_draw")
    turn_to(first, "K")
    second = cut_power_writing(monkeypatch, first, "pending.json", push(first))
    assert second.table.game.start_draws == {0: ("K",)}
    assert second.table.game.players == ("Anna", "Bedřich")
    labels = [item.label for item in second.table._menu_items()]
    assert "Los: Bedřich" in labels and "Los: Anna" not in labels
    second.menu("start_draw", "B")
    assert second.table.game.players == ("Bedřich", "Anna") and second.notice == ["Začíná Bedřich", "los B"]
    second.close()


def test_a_power_cut_after_a_tie_asks_the_tied_players_again(tmp_path: Path) -> None:
    first = Rig(tmp_path)
    first.start()
    first.menu("start_draw", "K")
    first.menu_continue("K")
    first.close()  # the power goes
    second = first.restarted()
    assert second.table.game.start_draws == {0: ("K",), 1: ("K",)}
    second.menu("start_draw", "C")  # Anna again: the tie's round
    second.menu_continue("A")
    assert second.table.game.players == ("Bedřich", "Anna") and second.notice == ["Začíná Bedřich", "los KA"]
    second.close()


def test_the_menu_open_on_the_next_draw_comes_back_with_the_same_tile_under_the_cursor(tmp_path: Path) -> None:
    first = Rig(tmp_path)
    first.start()
    first.menu("start_draw", "K")  # straight on to Bedřich's tile, the menu open
    first.table.handle(inputs.EncoderTurned(5))
    shown = first.view["menu"]
    assert shown[0] == "Los: Bedřich"
    first.close()  # the power goes
    second = first.restarted()
    assert second.view["menu"] == shown
    assert shown[1] == "> C"
    second.table.handle(inputs.EncoderPushed())  # Bedřich's C beats Anna's K
    assert second.table.game.players == ("Bedřich", "Anna") and second.notice == ["Začíná Bedřich", "los C"]
    second.close()


@pytest.mark.parametrize("how", ["starter", "start_draw"])
def test_a_power_cut_after_the_decision_keeps_who_starts(tmp_path: Path, monkeypatch, how: str) -> None:
    """Decided, journaled, the power goes before the pending file and the clock's checkpoint: Bedřich starts
    after the restart, the draw is not offered again, and the first move is his."""
    first = Rig(tmp_path)
    first.start()
    if how == "starter":
        first.menu("starter", "Bedřich")
        if not first.table.menu.confirm_yes:
            first.table.handle(inputs.EncoderTurned(1))
    else:
        first.menu("start_draw", "K")
        turn_to(first, "B")
    second = cut_power_writing(monkeypatch, first, "pending.json", push(first))
    assert second.table.game.players == ("Bedřich", "Anna")
    assert "start_draw" not in kinds(second)
    second.press(A)  # Anna's press starts Bedřich's clock
    second.lay("ROZUM", "8D")
    second.press(B)
    assert second.table.game.history[0].player == 0 and second.table.game.scores == [18, 0]
    second.close()


def test_a_torn_draw_record_is_a_draw_never_shown(tmp_path: Path) -> None:
    """The power goes while the tile is written: the torn line is dropped (the LCD never showed its outcome) and
    the same player is asked for the tile again."""
    first = Rig(tmp_path)
    first.start()
    first.menu("start_draw", "K")
    first.menu_continue("B")
    first.close()
    path = first.config.journal_path
    data = path.read_bytes()
    path.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 1] + b'{"type":"start_dr')  # Bedřich's B torn
    second = first.restarted()
    assert second.table.game.start_draws == {0: ("K",)} and second.table.game.players == ("Anna", "Bedřich")
    assert "Los: Bedřich" in [item.label for item in second.table._menu_items()]
    second.close()


def turn_to(rig: Rig, label: str) -> None:
    """Turn the open item's choices to ``label``."""
    menu = rig.table.menu
    labels = [c.label for c in menu.chosen.choices]
    rig.table.handle(inputs.EncoderTurned(labels.index(label) - menu.choice_index))


def push(rig: Rig):
    """The encoder's push, to run with the power cut (``cut_power_writing``)."""
    return lambda: rig.table.handle(inputs.EncoderPushed())
