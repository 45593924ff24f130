"""The whole stack through the simulator: the real daemon (``partiar run``'s code, started by ``python -m
hw_sim.daemon`` on the panel's pins) as a child process on mock pins,
emulated LCDs behind the charlcd library, the real firmware logic reading a virtual board into a pseudo-terminal,
the real protocol and reader. Driven by the bundled scenario files and by kill -9 of the daemon mid-game."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from polling import wait_until

from engine.game import Game
from engine.game.events import decode_journal
from hw_sim.scenario import Scenario, run_step
from hw_sim.sim import Sim
from hw_sim.sim_client import SimClient

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def _run_headless(scenario: Path, state_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "device.cli", "sim", "--scenario", str(scenario), "--headless",
         "--state-dir", str(state_dir)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.mark.parametrize("name", sorted(p.stem for p in SCENARIOS.glob("*.txt")))
def test_bundled_scenario_passes_through_the_whole_stack(name, tmp_path):
    done = _run_headless(SCENARIOS / f"{name}.txt", tmp_path)
    named = re.search(r"daemon log (\S+)\)", done.stdout)
    log = Path(named.group(1)).read_text(encoding="utf-8", errors="replace") if named and Path(named.group(1)).exists() else ""
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}\ndaemon log:\n{log[-3000:]}"
    assert "kroků prošlo" in done.stdout
    assert "Traceback" not in log


def test_the_tournament_game_journal_gives_the_score_sheet(tmp_path):
    """The daemon's journal is the game: the sheet command rebuilds the result the table showed."""
    assert _run_headless(SCENARIOS / "tournament_game.txt", tmp_path).returncode == 0
    events, warning = decode_journal((tmp_path / "journal.jsonl").read_text(encoding="utf-8"))
    assert warning is None
    game = Game.replay(events)
    assert game.result is not None and list(game.result.final) == [162, 178]
    kinds = {m.kind.value for m in game.history}
    assert {"play", "exchange", "pass", "timeout", "withdrawn"} <= kinds
    assert any(m.bingo for m in game.history) and game.crosses == [1, 0]
    sheet = subprocess.run(
        [sys.executable, "-m", "device.cli", "sheet", str(tmp_path / "journal.jsonl")],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert "DOM(O)VINA*" in sheet and "162" in sheet and "178" in sheet


GAME = """
press B
place ROZUM at 8D
advance 20
press A
place DOMoVINA at E7
advance 30
press B
choose "O"
choose "hotovo"
press B
choose "Námitka slovo"
choose "DOMoVINA"
choose "Rozhodnutí"
choose "neoprávněná"
place KOZA at F6
advance 40
press A
choose "Výměna"
choose "3"
choose "ano"
advance 15
press A
advance 25
press B
place UHEL at G8
advance 30
press A
advance 50
"""


def _panel_table(sim: Sim) -> dict:
    """The table's view straight from the daemon's panel (the page's stream may lag a step behind)."""
    port = sim.daemon.panel_port
    if port is None:
        return {}
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/state", timeout=5) as r:
            return json.loads(r.read()).get("table") or {}
    except OSError:
        return {}


def _essence(table: dict) -> dict:
    """What must survive a power cut: the whole game, whose move it is, and the menu (a confirmation comes back
    on "ne"; the move time left is compared with the tolerance of the 2 s checkpoint period)."""
    clock = table.get("clock") or {}
    menu = table.get("menu")
    if menu and menu[0].endswith("?"):
        menu = [menu[0], "> ne"]
    return {"game": table.get("game"), "clock_player": clock.get("player_on_move"), "clock_state": clock.get("state"),
            "menu": menu, "blanks": table.get("blanks"), "take_back": table.get("take_back")}


def _move_left(table: dict) -> float | None:
    return (table.get("clock") or {}).get("move_left")


def _mirrors(state: dict, table: dict, pid: int | None) -> bool:
    """The page's state shows the new daemon's table as read from its panel (board, menu, resumed)."""
    mirrored = (state.get("panel") or {}).get("table") or {}
    return (
        (state.get("daemon") or {}).get("pid") == pid
        and mirrored.get("resumed") is True
        and mirrored.get("physical") == table.get("physical")
        and mirrored.get("menu") == table.get("menu")
    )


def test_kill_9_at_random_points_of_a_game_loses_nothing(tmp_path):
    rng = random.Random(20261122)
    steps = Scenario.parse(GAME, "<kill-9 game>").steps
    # Any point, inside menu entries too (a blank's letter picked but not yet confirmed with "hotovo", an
    # exchange count waiting for "ano"): the menu comes back where it was (a confirmation on "ne").
    kill_after = sorted(rng.sample(range(len(steps)), 12))
    kills = 0
    with Sim(tmp_path, port=0, time_mode="manual") as sim, SimClient(sim.url) as client:
        assert client.wait_daemon(120.0), "the daemon did not come up"
        for i, step in enumerate(steps):
            run_step(client, step)
            if i not in kill_after:
                continue
            before = _panel_table(sim)
            expected, left = _essence(before), _move_left(before)
            assert expected["game"] is not None
            old_pid = sim.daemon.pid
            sim.daemon.kill()

            def back(old_pid: int | None = old_pid) -> bool:
                table = _panel_table(sim)  # resumed, and the board link's snapshot is in
                return (
                    sim.daemon.pid not in (None, old_pid)
                    and bool(table.get("game"))
                    and table.get("resumed") is True
                    and table.get("link_up") is True
                    and table.get("physical") == sim.server.board.view()["cells"]
                )

            assert wait_until(back, 120.0), f"the daemon did not come back after kill {kills + 1} (step {i})"
            after = _panel_table(sim)
            assert _essence(after) == expected, f"kill {kills + 1} after step {i}: the game changed"
            if left is not None:
                assert _move_left(after) == pytest.approx(left, abs=2.5)
            # the page's mirror of the state has caught up with the new daemon before the next step reads it
            mirror = client.wait_for(lambda st, now=after: _mirrors(st, now, sim.daemon.pid), 60.0)
            assert mirror is not None
            kills += 1
        assert kills == 12
        assert _panel_table(sim)["game"]["scores"] == [45, 66]
