"""The crash-consistency soak (bench/soak.py), short: a whole tournament game with the power cut at writes spread
over the game, and the journal damaged after some cuts; every trial must end with the uninterrupted game's
journal, score sheet and GCG. ``python bench/soak.py`` runs 1,000 trials."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "soak.py"


@pytest.fixture(scope="module")
def soak():
    spec = importlib.util.spec_from_file_location("partiar_soak", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["partiar_soak"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference(soak, tmp_path_factory):
    steps = soak.sc.Scenario.load(soak.DEFAULT_SCENARIO).steps
    return soak.reference(steps, tmp_path_factory.mktemp("reference"))


def test_power_cuts_spread_over_a_tournament_game_change_nothing(soak):
    summary = soak.soak(8, seed=13, scenario=soak.DEFAULT_SCENARIO, report=lambda _line: None)
    assert summary.different == [] and summary.failed == []
    assert summary.identical == summary.trials == 8 and summary.cuts >= 8


def _ruling_input(soak, ref) -> int:
    """The push that records the upheld challenge of LESI (its tiles must come off the board)."""
    return next(k for k in range(len(ref.inputs)) if ref.states[k + 1]["take_back"] and not ref.states[k]["take_back"])


@pytest.mark.parametrize("how", ["before", "after", "torn"])
def test_a_cut_at_the_ruling_journal_write_resumes_exactly(soak, reference, tmp_path, how):
    k = _ruling_input(soak, reference)
    out = soak.trial(reference, tmp_path / how, reference.marks[k], how, None)
    assert out.identical and out.cuts == 1, out


def test_the_soak_sees_a_table_that_forgets_what_the_journal_says(soak, reference, tmp_path, monkeypatch):
    """The soak can fail: a table that ignored the events journaled after its pending file is caught."""
    from device.table import Table

    real = Table._load_pending
    monkeypatch.setattr(Table, "_load_pending", lambda self, outputs: real(self, []))
    k = _ruling_input(soak, reference)
    out = soak.trial(reference, tmp_path / "broken", reference.marks[k], "after", None)
    assert not out.identical and "take_back" in out.failed_restart


def test_journal_damage_after_a_cut_resumes_from_the_valid_prefix(soak, reference, tmp_path):
    for n, damage in enumerate(soak.JOURNAL_DAMAGE):
        out = soak.trial(reference, tmp_path / damage, reference.marks[40 + 60 * n], "after", damage)
        assert out.identical, (damage, out)
