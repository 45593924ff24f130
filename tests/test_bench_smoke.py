"""The benches that reach into the daemon's insides (its wait, its LCD writes, its clock) still run: each in a short
form, as a fresh process from the repository, must print its figure lines and no traceback. Their figures are the
benches' business (README), not checked here: a busy CI machine may miss a target, never crash a bench. (A change
of the table's input queue to ``queue.SimpleQueue`` once broke ``bench/lcd.py --daemon``, whose ``get`` it wraps.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_bench(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-3000:])  # 1: a target missed on a busy machine
    return done.stdout


@pytest.mark.parametrize("startup", ["before 18", "now"])
def test_the_lcd_tick_through_the_daemon(startup: str) -> None:
    out = run_bench("bench/lcd.py", "--daemon-only", "--daemon", "1", "--daemon-seconds", "4", "--startup", startup)
    assert "deadline -> LCD written" in out and "CPU" in out


def test_press_to_lcd_through_the_daemon() -> None:
    out = run_bench("bench/table.py", "--moves", "4")
    assert "latency: median" in out and "LCD writes" in out


def test_a_restart_until_the_lcd_says_so() -> None:
    out = run_bench("bench/restart.py", "--runs", "1")
    assert "CPU" in out and "wall" in out


def test_the_pairing_acknowledgement_bench() -> None:
    out = run_bench("bench/publish_ack.py", "--tables", "5", "--rounds", "2")
    assert "pairing -> acknowledgement at the hub, 5 tables x 2 rounds: median" in out and "p99" in out
