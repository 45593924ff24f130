"""The chief referee's word on the clock (issue 26 item 3; 004 "Hlavní rozhodčí ... vyhlašuje zahájení partií
hraného kola a uplynutí času vymezeného na partie hraného kola"): a table configured ``base_time = "referee"``
waits for the round's start and the base time's end, given by the hub or on the table's menu; club and home play
keep the table's own clock. On fake time through the table rig."""

from __future__ import annotations

import pytest
from table_rig import Rig
from test_table import play_until_game_left

from device import hardware, inputs
from device.config import LCD_SIZES, parse_config
from device.errors import ConfigError
from device.screens import render
from shared.journal import read_journal
from shared.texts import text
from tablelink import rounds
from tablelink.pairing import PairedPlayer, TablePairing

A, B = 0, 1
REFEREE = 'base_time = "referee"'


def lcd(rig: Rig, lang: str = "cs") -> tuple[str, ...]:
    return render(rig.view, lang, 16, 2)


def test_base_time_is_the_tables_unless_the_config_says_referee_and_a_wrong_value_is_a_czech_error():
    assert parse_config("[table]\n").base_time == "table"
    assert parse_config(f"[table]\n{REFEREE}\n").base_time == "referee"
    with pytest.raises(ConfigError) as e:
        parse_config('[table]\nbase_time = "hub"\n')
    czech = e.value.describe("cs")
    assert "klíč table.base_time" in czech and "musí být jedno z: table, referee; je 'hub'" in czech, czech


@pytest.mark.parametrize("word", ["menu", "hub"])
def test_a_tournament_table_waits_for_the_referees_start_and_end_of_the_base_time(tmp_path, word):
    """Without the referee's word the first press does not start the game and the table's own 40 minutes do not
    end the base time; the LCD and the page say what the table waits for."""
    rig = Rig(tmp_path, extra=REFEREE)
    rig.start()
    assert lcd(rig)[0].startswith("Čeká na start")
    assert rig.view["says"]["cs"]["next"] == "Čeká se na start kola: vyhlásí rozhodčí"
    rig.press(B)
    assert not rig.table.clock.started and rig.notice == ["Čeká na start", "kola: rozhodčí"]
    rig.advance(300.0)  # the players wait: no game time runs
    assert rig.view["clock"]["game_phase"] == "not started"
    if word == "menu":
        rig.menu("round_start", "ano")
    else:
        rig.table.handle(inputs.RoundCommand("start"))
    assert rig.view["clock"]["game_phase"] == "base" and rig.view["referee_wait"] is None
    play_until_game_left(rig, 100.0)
    left = rig.view["clock"]["game_left"]
    rig.advance(left + 1.0)  # the table's own base time is over: it waits for the referee's word
    game = rig.table.game
    assert game.abc_start is None and rig.view["referee_wait"] == "end"
    assert rig.notice == ["Čas stolu 0:00", "konec: HR"]
    assert lcd(rig) == ("Čas stolu 0:00  ", "konec: HR   " + lcd(rig)[1][-4:])  # not "Čas stolu 0 2:00"
    for lang in ("cs", "en"):
        for columns, lines in LCD_SIZES:
            cuts: list[str] = []
            render({**rig.view, "notice": [text("base_wait", lang), text("base_wait_2", lang)]}, lang, columns,
                   lines, cuts=cuts)  # fmt: skip
            assert not cuts, (lang, columns, lines, cuts)
    rig.advance(31.0)
    assert lcd(rig)[1].endswith("0:00 HR?")
    moves = len(game.history)
    rig.press(game.player_on_move)  # the game goes on in its normal phase meanwhile
    assert len(game.history) == moves + 1 and game.abc_start is None
    rig.close()
    rig = rig.restarted()  # the wait survives a restart
    assert rig.view["referee_wait"] == "end" and rig.table.game.abc_start is None
    if word == "menu":
        rig.menu("round_end", "ano")
    else:
        rig.table.handle(inputs.RoundCommand("end"))
    assert [r["type"] for r in read_journal(rig.config.journal_path)][-1] == "base_time_expired"
    assert rig.table.game.abc_start is not None and rig.view["referee_wait"] is None
    assert "round_end" not in [i.kind for i in rig.table.menu.items]
    rig.close()


def test_the_referees_start_survives_a_restart(tmp_path):
    rig = Rig(tmp_path, extra=REFEREE)
    rig.start()
    rig.menu("round_start", "ano")
    rig.advance(60.0)
    rig.close()
    again = rig.restarted()
    assert again.view["clock"]["game_phase"] == "base" and again.view["referee_wait"] is None
    again.press(B)
    assert again.table.clock.started
    again.close()


def test_a_club_table_keeps_its_own_clock(tmp_path):
    """``base_time = "table"`` (the default): the first press starts the game time, the table's clock ends it."""
    rig = Rig(tmp_path)
    rig.start()
    assert "round_start" not in [i.kind for i in rig.table.menu.items]
    play_until_game_left(rig, 100.0)
    rig.advance(rig.view["clock"]["game_left"] + 1.0)
    assert rig.table.game.abc_start is not None and rig.view["referee_wait"] is None
    rig.close()


def test_the_english_lcd_says_it_waits(tmp_path):
    rig = Rig(tmp_path, extra=REFEREE + '\nlanguage = "en"')
    rig.start()
    assert lcd(rig, "en")[0].startswith("Awaiting start")
    rig.press(B)
    assert rig.notice == ["Awaiting start", "by the referee"]
    rig.close()


# ---------------------------------------------------------------------------- the hub's commands, scoped to a round
def hub_command(command: str, round_number: int, given: dict[str, float]) -> inputs.RoundCommand:
    """The hub's ``command`` as the broker delivers it live: its round and the round's times (``given``; this
    command's time is the hub's now)."""
    state = rounds.RoundCommand("id-" + command, command, round_number, given[command], given)
    return inputs.RoundCommand(hardware.HUB_COMMANDS[command], state, live=True)


def paired(round_number: int) -> TablePairing:
    return TablePairing(f"p{round_number}", round_number, "t57",
                        (PairedPlayer("877", "Jan Novák"), PairedPlayer("1203", "Eva Malá")), number=12)  # fmt: skip


def test_an_old_rounds_end_never_acts_on_a_new_unpaired_game(tmp_path):
    """A round started before this game began (its end comes live, with the round's times) is another game's."""
    rig = Rig(tmp_path, extra=REFEREE)
    rig.start()
    now = 1_800_000_000.0
    rig.table.handle(hub_command("end_base_time", 4, {"start_round": now - 2500.0, "end_base_time": now}))
    assert rig.table.game.abc_start is None and rig.view["clock"]["game_phase"] == "not started"
    assert [r["type"] for r in read_journal(rig.config.journal_path)] == ["start", "info"]
    rig.table.handle(hub_command("start_round", 5, {"start_round": now + 10.0}))  # a round after the game began
    assert rig.view["clock"]["game_phase"] == "base"
    rig.table.handle(hub_command("end_base_time", 5, {"start_round": now + 10.0, "end_base_time": now + 2410.0}))
    assert rig.table.game.abc_start is not None  # the same round's end: this game's
    rig.close()


def test_a_paired_game_takes_only_its_rounds_commands(tmp_path):
    rig = Rig(tmp_path, extra=REFEREE)
    rig.start()
    rig.table.handle(inputs.PairingReceived(paired(3)))
    now = 1_800_000_000.0
    rig.table.handle(hub_command("start_round", 2, {"start_round": now}))
    assert rig.view["clock"]["game_phase"] == "not started"  # round 2's start: not this game's
    rig.table.handle(hub_command("start_round", 3, {"start_round": now + 5.0}))
    assert rig.view["clock"]["game_phase"] == "base"
    rig.table.handle(hub_command("end_base_time", 2, {"start_round": now, "end_base_time": now + 9.0}))
    assert rig.table.game.abc_start is None
    rig.close()


def test_a_paired_game_follows_the_referee_whatever_base_time_says(tmp_path):
    """A table left at ``base_time = "table"`` that gets the hub's pairing does not end the 40 minutes itself."""
    rig = Rig(tmp_path)  # base_time = "table"
    rig.start()
    rig.table.handle(inputs.PairingReceived(paired(1)))
    assert rig.view["referee_wait"] == "start"
    rig.table.handle(inputs.RoundCommand("start"))
    play_until_game_left(rig, 100.0)
    rig.advance(rig.view["clock"]["game_left"] + 1.0)
    assert rig.table.game.abc_start is None and rig.view["referee_wait"] == "end"
    assert "base_time_expired" not in [r["type"] for r in read_journal(rig.config.journal_path)]
    rig.close()


def test_a_round_started_before_the_tables_pairing_came_runs_from_its_start(tmp_path):
    """The hub's start of round 4 comes while the table still has round 3's pairing; the round-4 pairing comes five
    minutes later: the game time runs from the round's start, on the hub's clock (the table's may be off)."""
    rig = Rig(tmp_path, extra=REFEREE)
    rig.start()
    rig.table.handle(inputs.PairingReceived(paired(3)))
    start = 1_800_000_000.0  # the hub's clock: not the table's (the rig's wall clock is months off)
    rig.table.handle(hub_command("start_round", 4, {"start_round": start}))
    assert rig.view["clock"]["game_phase"] == "not started"  # round 3's game: not its round
    rig.advance(300.0)
    rig.table.handle(inputs.PairingReceived(paired(4)))
    assert rig.table.game.info["round"] == "4" and rig.view["clock"]["game_phase"] == "base"
    assert rig.view["clock"]["game_left"] == pytest.approx(40 * 60.0 - 300.0, abs=1.0)
    rig.close()
