"""A tournament day at one table, short (bench/day.py plays 12 games): games back to back through the daemon on the
simulator leave its file descriptors and threads where they were, and keep one journal archive per finished game."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "day.py"


def test_games_back_to_back_leak_no_file_or_thread_and_each_is_archived(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("partiar_day", BENCH)
    assert spec is not None and spec.loader is not None
    day = importlib.util.module_from_spec(spec)
    sys.modules["partiar_day"] = day
    spec.loader.exec_module(day)
    rows = day.play_day(4, tmp_path, report=lambda line: None)
    assert [r["fds"] for r in rows[1:]] == [rows[1]["fds"]] * 3
    assert [r["threads"] for r in rows[1:]] == [rows[1]["threads"]] * 3
    assert [r["journals"] for r in rows] == [2, 3, 4, 5]  # each finished game archived, the next one started
    archives = sorted(p.name for p in tmp_path.rglob("journal-*.jsonl"))
    assert archives == [f"journal-{n:04d}.jsonl" for n in range(1, 5)]
