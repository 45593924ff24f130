"""A tournament day at one table, short (bench/day.py plays 12 games): real games from GCG records played back to
back through the daemon on the simulator, each equal to its record on the LCDs, in its journal's GCG export and on
its score sheet; the daemon's file descriptors and threads stay where they were; each game's journal is archived,
and a journal that differs from its record is caught."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hw_sim.record_play import check_journal, plan_record, read_record

BENCH = Path(__file__).resolve().parent.parent / "bench" / "day.py"
GCG = Path(__file__).parent / "data" / "gcg"
RECORDS = [
    next(GCG.glob(f"*__{name}.gcg"))
    for name in (
        "josh2",  # challenges: four valid words (+5 each) and a phony taken back; an exchange; blanks
        "guy_vs_bot",  # passes and an exchange on the menu
        "success_six_pass",  # two phonies, exchanges, six scoreless turns: both racks entered on the menu
    )
]


def bench_module():
    spec = importlib.util.spec_from_file_location("partiar_day", BENCH)
    assert spec is not None and spec.loader is not None
    day = importlib.util.module_from_spec(spec)
    sys.modules["partiar_day"] = day
    spec.loader.exec_module(day)
    return day


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    state = tmp_path_factory.mktemp("day")
    module = bench_module()
    rows = module.play_day(3, state, RECORDS, report=lambda line: None)
    return module, state, rows


def test_each_game_shows_and_keeps_its_record(day) -> None:
    _, _, rows = day
    assert [Path(r.record).name for r in rows] == [p.name for p in RECORDS]
    assert [r.problems for r in rows] == [[], [], []]
    assert all(r.latencies for r in rows)  # each play's press was seen on both LCDs


def test_games_back_to_back_leak_no_file_or_thread_and_each_is_archived(day) -> None:
    _, state, rows = day
    assert rows[2].sample["fds"] == rows[1].sample["fds"]
    assert rows[2].sample["threads"] == rows[1].sample["threads"]
    assert [r.sample["journals"] for r in rows] == [2, 3, 4]  # each finished game archived, the next one started
    archives = sorted(p.name for p in state.rglob("journal-*.jsonl"))
    assert archives == [f"journal-{n:04d}.jsonl" for n in range(1, 4)]


def test_an_archived_journal_is_checked_against_its_record_and_a_difference_is_named(day) -> None:
    module, state, _ = day
    planned = plan_record(read_record(RECORDS[0]), first_seat=0)  # game 1: the first mover on seat A
    journal = state / "journal-0001.jsonl"
    assert check_journal(planned, journal, module.SEATS) == []
    i = next(i for i, e in enumerate(planned.expected) if i >= 4 and e[0] == "play")
    kind, seat, where, word, score, total = planned.expected[i]
    wrong = list(planned.expected)
    wrong[i] = (kind, seat, where, word, score + 1, total + 1)
    problems = check_journal(replace(planned, expected=tuple(wrong)), journal, module.SEATS)
    assert problems == [f"event {i + 1}: record {wrong[i]}, table {planned.expected[i]}"]
    other = plan_record(read_record(RECORDS[1]), first_seat=0)
    assert any("result by seat" in p for p in check_journal(other, journal, module.SEATS))


def test_the_closing_play_challenged_at_the_table_as_in_the_record(tmp_path) -> None:
    """vs_frentz: the player who goes out (RIMLAN.S, 83) is challenged, the challenge is rejected (+5): the
    end-of-game menu offers the challenge, the result waits for the ruling and then equals the record's."""
    record = next(GCG.glob("*__vs_frentz.gcg"))
    assert ">frentz:  (challenge) +5 534" in record.read_text(encoding="utf-8")  # right after the closing play
    rows = bench_module().play_day(1, tmp_path, [record], report=lambda line: None)
    assert [r.problems for r in rows] == [[]] and rows[0].latencies

