"""Polish doubles through the whole simulated stack (daemon on mock pins, board on a pty, the real protocol): the
journal the daemon wrote is the game the scenario played, and gives the score sheet and the GCG record.
(Both doubles scenarios also run with the other bundled scenarios in test_sim_e2e.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.game import Game, MoveKind
from engine.game.events import decode_journal
from engine.game.export import game_gcg
from engine.scoresheet import render_text

SCENARIO = Path(__file__).resolve().parent / "scenarios" / "polish_game.txt"


def test_the_polish_scenario_journal_is_the_game_with_its_sheet_and_gcg(tmp_path):
    """003 Polish: order 1-2-2-2 with the chosen first player; the first play upheld and the second built on it:
    both withdrawn; the team's time-out loses its double move; the resignation is the team's."""
    done = subprocess.run(
        [sys.executable, "-m", "device.cli", "sim", "--scenario", str(SCENARIO), "--headless",
         "--state-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    events, warning = decode_journal((tmp_path / "journal.jsonl").read_text(encoding="utf-8"))
    assert warning is None
    game = Game.replay(events)
    assert game.ruleset.name == "polish" and game.players == ("Jan", "Petr", "Eva", "Ivo")
    assert [(m.player, m.kind) for m in game.history] == [
        (0, MoveKind.PLAY), (1, MoveKind.WITHDRAWN), (3, MoveKind.WITHDRAWN), (2, MoveKind.PLAY),
        (0, MoveKind.PLAY), (1, MoveKind.TIMEOUT), (3, MoveKind.TIMEOUT),
    ]  # fmt: skip
    assert "plays_first" in [e.TYPE for e in events]
    assert game.team_result is not None and game.team_result.final == (0, 100)
    sheet = render_text(game)
    assert sheet.startswith("Partiář: Jan + Eva : Petr + Ivo")
    assert "Eva: MA" in sheet and "Jan: OKO" in sheet
    gcg = game_gcg(game)
    assert "#player4 Ivo Ivo" in gcg and ">Eva:" in gcg
