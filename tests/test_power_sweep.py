"""The power cut at every step boundary of a short game (``tests/power_sweep.py``): a play, an upheld challenge and
its tiles taken back, a pass, the base time's end, the A-B-C playout with a time-out, the end-of-game racks. Each
copy of the state folder as a cut leaves it, restarted, must show exactly the table before or after that input
(game, clock, LCDs, tiles to move, menu). ``python bench/sweep.py`` sweeps many random games."""

from __future__ import annotations

from pathlib import Path

import pytest
from power_sweep import RULINGS, play_referee, play_rulings, sweep_game


def test_a_power_cut_at_any_write_of_a_game_comes_back_to_the_table_before_or_after_that_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sweep, problems = sweep_game(tmp_path, monkeypatch)
    kinds = {c.what for c in sweep.copies}
    for step in ("play", "challenge_word", "ruling", "pass", "base_time_expired", "timeout", "rack"):
        assert f"after {step}" in kinds and f"torn {step}" in kinds, step  # the cuts cover every kind of step
    assert {"after clock.json", "after pending.json"} <= kinds
    assert any(c.first < c.inputs for c in sweep.copies), "no cut came while a checkpoint was still to be written"
    assert not problems, f"{len(problems)} of {len(sweep.copies)} cuts:\n" + "\n".join(problems[:10])


def test_a_power_cut_while_the_referee_is_asked_comes_back_to_the_same_question_or_its_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The referee's questions (no-show, warning, the exclusion after the third warning, a 0:0 dispute forfeit: void
    or a draw): a cut at any write around them restarts on the same question, the cursor on the same choice, or on
    what its answer did."""
    sweep, problems = sweep_game(tmp_path, monkeypatch, script=play_referee)
    kinds = {c.what for c in sweep.copies}
    for step in ("warning", "resign", "dispute_forfeit"):
        assert f"after {step}" in kinds and f"torn {step}" in kinds, step
    asked = [s for s in sweep.states if s["menu"] and s["menu"].get("chosen") in ("referee_ok", "dispute_zero")]
    shown = {row for s in asked for lcd in s["lcds"] for row in lcd}
    for question in ("Nenastoupil?", "Napomenutí?", "Vyloučení (HR)?", "Kontumace 0:0", "0:0 remíza?"):
        assert any(question in row for row in shown), (question, shown)
    assert not problems, f"{len(problems)} of {len(sweep.copies)} cuts:\n" + "\n".join(problems[:10])


def test_a_power_cut_in_the_rulings_of_a_tournament_table_comes_back_to_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26 (``play_rulings``): the set check's referee, the referee's start and end of the base time, a timed-out
    move's tiles to take back, an announced exchange: a cut at any write comes back to the table before or after."""
    sweep, problems = sweep_game(tmp_path, monkeypatch, script=play_rulings, extra=RULINGS)
    kinds = {c.what for c in sweep.copies}
    for step in ("set_checked", "timeout", "exchange", "play", "base_time_expired"):
        assert f"after {step}" in kinds and f"torn {step}" in kinds, step
    assert not problems, f"{len(problems)} of {len(sweep.copies)} cuts:\n" + "\n".join(problems[:10])
