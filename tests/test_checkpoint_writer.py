"""The clock checkpoint's writer thread (``device.checkpoint_writer``): the loop hands the checkpoint over and goes
on; the latest wins; the loop waits (bounded) only where it needs the checkpoint on disk."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest
from table_rig import Rig, first_move

import device.checkpoint_writer as writer_mod
import device.table_recovery as table_mod
from device import inputs
from device.checkpoint_writer import CheckpointWriter
from shared.journal import write_atomic

LONG = 60.0
"""Generous real-time limit for waits on events (a busy 2-core machine)."""


class SlowDisk:
    """``write_atomic`` whose clock checkpoint writes block until ``free`` is set (a fsync that hangs)."""

    def __init__(self) -> None:
        self.free = threading.Event()
        self.blocked = threading.Event()
        self.written: list[dict] = []

    def write(self, path: Path, text: str) -> None:
        if Path(path).name == "clock.json":
            self.blocked.set()
            assert self.free.wait(LONG)
            self.written.append(json.loads(text))
        write_atomic(path, text)


def running_loop(rig: Rig) -> threading.Thread:
    loop = threading.Thread(target=rig.table.run, name="table", daemon=True)
    loop.start()
    return loop


def test_the_loop_answers_ticks_and_presses_while_a_checkpoint_write_hangs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = Rig(tmp_path)
    rig.start()
    disk = SlowDisk()
    monkeypatch.setattr(table_mod, "write_atomic", disk.write)
    loop = running_loop(rig)
    table = rig.table
    table.inputs.put(inputs.ButtonPressed(1))  # B starts A's move: the clock runs, a checkpoint is written
    assert disk.blocked.wait(LONG), "no checkpoint write began"
    rig.time.advance(table_mod.CHECKPOINT_PERIOD)
    table.inputs.put(inputs.Tick())  # the periodic checkpoint falls due while the first one still hangs
    rig.time.advance(5.0)
    table.inputs.put(inputs.ButtonPressed(0))  # A passes
    # the old loop wrote on its own thread: it would hang in the first write and never get here
    assert table.settle(LONG), "the loop waited for the checkpoint write"
    assert not disk.free.is_set() and not disk.written
    records = rig.journal.records()
    assert records[-1]["type"] == "pass"
    assert table.latest_view["clock"]["player_on_move"] == 1  # the press was answered: B's move
    disk.free.set()
    table.stop()
    loop.join(LONG)
    assert not loop.is_alive()
    # latest wins: the write that hung, then the shutdown's (the checkpoints in between were replaced)
    assert len(disk.written) == 2
    # the hung one was taken before the pass and written after its journal line: it says it is behind it
    assert disk.written[0][table_mod.JOURNAL_EVENTS] == len(records) - 1
    last = json.loads((tmp_path / "clock.json").read_text())
    assert last == disk.written[-1]
    assert last[table_mod.JOURNAL_EVENTS] == len(table.game.events) and last["on_move"] == 1


def test_a_paused_clock_waits_for_its_checkpoint_bounded_when_the_disk_hangs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    rig = Rig(tmp_path)
    rig.start()
    disk = SlowDisk()
    monkeypatch.setattr(table_mod, "write_atomic", disk.write)
    monkeypatch.setattr(writer_mod, "WAIT_S", 0.2)
    loop = running_loop(rig)
    table = rig.table
    table.inputs.put(inputs.ButtonPressed(1))
    assert disk.blocked.wait(LONG)
    with caplog.at_level(logging.ERROR, logger="device.checkpoint_writer"):
        rig.unplug()  # the link goes: the clock pauses and the loop wants that on disk
        rig.time.advance(1.0)
        table.inputs.put(inputs.Tick())
        table.inputs.put(inputs.Tick())
        assert table.settle(LONG), "the game stopped on a hung checkpoint"
    hung = [r for r in caplog.records if "has not been written" in r.getMessage()]
    assert len(hung) == 1, "one clear line while the disk hangs, not one per input"
    assert table.clock.paused
    disk.free.set()
    table.stop()
    loop.join(LONG)
    assert not loop.is_alive()
    assert json.loads((tmp_path / "clock.json").read_text())["state"] == "paused"


def test_the_writer_writes_the_latest_in_the_order_taken(tmp_path: Path) -> None:
    free, blocked, written = threading.Event(), threading.Event(), []

    def write(path: Path, text: str) -> None:
        blocked.set()
        assert free.wait(LONG)
        written.append(text)
        write_atomic(path, text)

    writer = CheckpointWriter(write)
    target = tmp_path / "clock.json"
    writer.submit(target, "1")
    assert blocked.wait(LONG)
    for n in "234":
        writer.submit(target, n)  # 2 and 3 are replaced while 1 is written: no queue grows
    assert not writer.idle
    free.set()
    assert writer.wait(LONG)
    assert writer.idle and written == ["1", "4"] and target.read_text() == "4"
    assert writer.close(LONG)


def test_a_failed_write_is_logged_and_the_writer_goes_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    writer = CheckpointWriter(write_atomic)
    with caplog.at_level(logging.ERROR):
        (tmp_path / "file").write_text("")
        writer.submit(tmp_path / "file" / "clock.json", "1")  # a folder that is a file
        assert writer.wait(LONG)
    assert "cannot write the clock checkpoint" in caplog.text
    writer.submit(tmp_path / "clock.json", "2")
    assert writer.wait(LONG) and (tmp_path / "clock.json").read_text() == "2"
    assert writer.close(LONG)


def test_a_checkpoint_two_events_behind_a_move_and_its_challenge_restarts_on_the_challenged_move(
    tmp_path: Path,
) -> None:
    """The checkpoint on disk is from before a move ended (its write came late), the journal has the move and the
    challenge after it: the restart shows the next player's move paused, as the table had it."""
    rig = Rig(tmp_path)
    rig.start()
    first_move(rig)
    rig.advance(25.0)
    rig.lay("UHEL", "G8")
    behind = (tmp_path / "clock.json").read_text()  # B on move, 25 s into it
    rig.press(1)
    rig.menu("challenge_word", "UHEL")
    want = {k: v for k, v in rig.view["clock"].items() if k != "signal"}
    assert want["paused"] and want["player_on_move"] == 0
    rig.close()
    (tmp_path / "clock.json").write_text(behind)
    again = rig.restarted()
    got = {k: v for k, v in again.view["clock"].items() if k != "signal"}
    again.close()
    assert got == want
