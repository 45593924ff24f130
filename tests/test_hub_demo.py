"""``partiar hub --demo`` as an organiser runs it: one command starts its own Mosquitto, the hub and simulated tables
(``partiar sim`` processes with generated configs and ``[hub]`` keys); the referee login it prints works, a round
paired and published on the desk reaches the simulated tables' LCDs, and SIGTERM stops everything and removes its
folder."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import desk_rig
import pytest
from polling import wait_until

from hw_sim.scenario import lcd_screens
from hw_sim.sim_client import SimClient

pytestmark = pytest.mark.skipif(not (Path("/usr/sbin/mosquitto").exists() or os.path.exists("/usr/bin/mosquitto")),
                                reason="needs mosquitto")  # fmt: skip


def start_demo(tables: int) -> tuple[subprocess.Popen[str], list[str], threading.Event]:
    """``partiar hub --demo`` with ``tables`` tables: the process, its output's lines as they come, and an event set
    once it has printed where everything is (or ended)."""
    process = subprocess.Popen([sys.executable, "-m", "device.cli", "hub", "--demo", "--demo-tables", str(tables),
                                "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "LC_ALL": "", "LC_MESSAGES": "", "LANG": "cs_CZ.UTF-8"})  # fmt: skip
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip())
            if line.startswith("Ctrl-C"):
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    return process, lines, ready


def test_the_demo_rehearses_a_round_on_one_pc(monkeypatch) -> None:
    process, lines, ready = start_demo(2)
    try:
        assert ready.wait(300) and process.poll() is None, "\n".join(lines[-30:])
        out = "\n".join(lines)
        port = int(re.search(r"partiar hub: http://127\.0\.0\.1:(\d+)/", out).group(1))
        password = re.search(r"přihlášení rozhodčího: demo / (\S+)", out).group(1)
        tables = dict(re.findall(r"^stůl (\d+): (http://\S+)$", out, re.M))
        folder = Path(re.search(r"soubory ukázky \(na konci se smažou\): (\S+)", out).group(1))
        assert set(tables) == {"1", "2"} and folder.is_dir(), out
        monkeypatch.setattr(desk_rig, "REFEREE", "demo")
        monkeypatch.setattr(desk_rig, "REFEREE_PASSWORD", password)
        director = desk_rig.Director(port)
        assert "Eva Malá" in director.page()  # the demo field is registered
        director.ok("pair")
        director.ok("publish", round="1")
        pairing = {}  # table -> the players in the pairing's order, as the desk shows them (names, ids)
        for table, first, first_id, second, second_id in re.findall(
                r'<tr data-table="(\d+)"><td class="num">\d+</td><td><bdi>([^<]+)</bdi> <small><bdi>([^<]+)</bdi>'
                r'</small></td><td><bdi>([^<]+)</bdi> <small><bdi>([^<]+)</bdi></small></td>', director.page()):  # fmt: skip
            pairing[table] = ([first, second], [first_id, second_id])
        assert set(pairing) == {"1", "2"}
        for table_id, url in tables.items():
            client = SimClient(url)

            def plays_pairing(client=client, table_id=table_id) -> bool:  # the table's own view, not a notice
                view = (client.state().get("panel") or {}).get("table") or {}
                info = (view.get("game") or {}).get("info") or {}
                return view.get("players") == pairing[table_id][0] and info.get("round") == "1" and \
                    info.get("player_ids") == pairing[table_id][1] and info.get("competition") == "Zkušební turnaj partiar"

            assert wait_until(plays_pairing, 120, 0.2), f"table {table_id}: {lcd_screens(client.state())}"
        process.send_signal(signal.SIGTERM)
        assert process.wait(120) == 0
        assert not folder.exists()
        assert "partiar hub --demo: zastaveno" in "\n".join(lines)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)


def _processes_of(folder: Path) -> list[int]:
    """The pids of the processes whose command line names ``folder`` (the demo's broker and tables)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(folder) in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace"):
                    out.append(int(entry.name))
            except OSError:
                continue
    return out


@contextlib.contextmanager
def one_table_demo() -> Iterator[tuple[subprocess.Popen[str], list[str], Path]]:
    """A demo with one table, once it runs: the process, its output's lines, its folder (with the broker and the
    table running). What a failed test leaves is killed: the demo, and the processes naming its folder (only ours)."""
    process, lines, ready = start_demo(1)
    folder = None
    try:
        assert ready.wait(300) and process.poll() is None, "\n".join(lines[-30:])
        folder = Path(re.search(r"soubory ukázky \(na konci se smažou\): (\S+)", "\n".join(lines)).group(1))
        assert len(_processes_of(folder)) >= 2  # the broker and the table (and its daemon)
        yield process, lines, folder
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
        for pid in _processes_of(folder) if folder is not None else []:
            os.kill(pid, signal.SIGKILL)


def test_closing_the_terminal_stops_the_demo_and_everything_it_started() -> None:
    """Closing the terminal window sends SIGHUP: the demo stops its broker and tables and removes its folder, as on
    Ctrl-C (before: the hub died and left its Mosquitto and the tables running, the folder with the passwords kept)."""
    with one_table_demo() as (process, lines, folder):
        process.send_signal(signal.SIGHUP)
        assert process.wait(120) == 0, "\n".join(lines[-30:])
        assert wait_until(lambda: not _processes_of(folder), 60, 0.2), _processes_of(folder)
        assert not folder.exists()

