"""Benchmark: a restart of the table daemon (after a power cut or a crash) until the LCD says the game is back.

Each run is a fresh Python process, as systemd starts the daemon: the interpreter, the daemon's imports (those of
`partiar run`), the table built on the simulator's panel (gpiozero mock pins, the emulated HD44780 behind the real
charlcd library), the game replayed from a journal of a game in progress (``--events``, 60 drawn: some 25 moves with
challenges and rulings, seeded, cut before the game's end), the clock from its checkpoint, and the LCD saying the
game is back ("Hra obnovena / tah 27"; the scores follow that notice). The child reports its CPU time up to the
moment its emulated LCD showed that, by stage (the interpreter's start, the imports, the table and its devices, the
replay with the first screen, the loop's start), leaving out the simulator's own imports (uvicorn, the panel), which
a Pi does not load; the parent measures the wall time from the process's start to that moment (the simulator's
imports included).

    .venv/bin/python bench/restart.py [--runs 7] [--events 60]

Target: the game back on the LCD within 1 s of CPU here, so within about 10 s on a Raspberry Pi Zero 2 W (about ten
times slower on one core): inside what the Pi's own boot takes after a power cut (20-30 s), and the only wait players
see after a crash of the daemon, which systemd restarts at once. It needs nothing outside the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_CPU_S = 1.0
PI_FACTOR = 10


def child(state: str) -> None:
    """In a fresh process: the daemon's start on the panel, each stage's CPU time, printed as JSON."""
    c0 = time.process_time()
    import threading

    import device.cli.run  # noqa: F401 - the daemon's entry point, as `partiar run` imports it
    from device.config import parse_config
    from device.hardware import close_all
    from device.texts import text

    c1 = time.process_time()
    from hw_sim.daemon import table_on_panel  # the simulator's panel, in place of the Pi's pins: not on a Pi

    c1_sim = time.process_time()
    config = parse_config(
        f'[table]\nstate_dir = "{state}"\npin_factory = "mock"\nserial_url = "loop://"\n'
        'players = ["Anna", "Bedřich"]\n'
    )
    table, closers, panel = table_on_panel(config)
    c2 = time.process_time() - (c1_sim - c1)  # the stages' CPU leaves the simulator's imports out
    lcd = panel.lcds[0]
    back = threading.Event()  # the LCD says the game is back: "Hra obnovena / tah 27", then the scores
    lcd.listeners.append(lambda: back.set() if any(text("resumed", "cs") in row for row in lcd.text_rows()) else None)
    resumed = table.resume()
    c3 = time.process_time() - (c1_sim - c1)
    loop = threading.Thread(target=table.run, name="table", daemon=True)
    loop.start()
    if not back.wait(60.0):
        raise SystemExit(f"the LCD never said the game was back: {lcd.text_rows()}")
    c4 = time.process_time() - (c1_sim - c1)
    print(json.dumps({"resumed": resumed, "events": len(table.game.events), "interpreter": c0, "imports": c1 - c0,
                      "simulator": c1_sim - c1, "build": c2 - c1, "replay": c3 - c2, "screen": c4 - c3,
                      "cpu": c4}), flush=True)  # fmt: skip
    table.stop()
    loop.join(10)
    close_all(closers)


def journal_of_a_game_in_progress(state: Path, events: int, seed: int) -> int:
    """A journal of a seeded random game cut before its end (``engine.game.sample``); returns its length."""
    from device.journal import Journal
    from engine.game.sample import random_events

    log = random_events(random.Random(seed), players=("Anna", "Bedřich"), max_events=events)
    from engine.game import Game

    while log and Game.replay(log).ended is not None:  # a game in progress: its end not yet reached
        log.pop()
    with Journal(state / "journal.jsonl") as journal:
        for event in log:
            journal.append(event.to_json())
    return len(log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh daemon processes (default 7)")
    parser.add_argument("--events", type=int, default=60, help="journal events of the game in progress (default 60)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--child", metavar="STATE_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    print("load average at the start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    walls, stages = [], []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="partiar-bench-restart-") as tmp:
            state = Path(tmp)
            n = journal_of_a_game_in_progress(state, args.events, args.seed + run)
            t0 = time.perf_counter()
            proc = subprocess.Popen([sys.executable, __file__, "--child", str(state)], cwd=ROOT,
                                    stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
            assert proc.stdout is not None
            first = proc.stdout.readline()
            wall = time.perf_counter() - t0
            proc.stdout.read()
            proc.wait()
            if proc.returncode != 0 or not first:
                raise SystemExit(f"run {run + 1}: the daemon's start failed (exit {proc.returncode})")
            report = json.loads(first)
            if not report["resumed"] or report["events"] != n:
                raise SystemExit(f"run {run + 1}: the game was not resumed whole: {report}")
            walls.append(wall)
            stages.append(report)
    cpu = statistics.median(s["cpu"] for s in stages)
    print(f"{args.runs} restarts, a journal of {stages[0]['events']}-{max(s['events'] for s in stages)} events each")
    print(f"daemon start -> the LCD says the game is back: median {statistics.median(walls) * 1e3:.0f} ms wall "
          f"(max {max(walls) * 1e3:.0f} ms; the simulator's own imports included); CPU {cpu * 1e3:.0f} ms (median; "
          f"the daemon's part, the interpreter's start included)"
          f"  | target CPU < {TARGET_CPU_S:.1f} s: {'met' if cpu < TARGET_CPU_S else 'NOT MET'}")  # fmt: skip
    for key, what in (("interpreter", "the interpreter's start"), ("imports", "the daemon's imports"),
                      ("build", "the table and its devices on the panel"),
                      ("replay", "the journal replayed, the clock restored, the first screen"),
                      ("screen", "the loop started, up to the LCD seen"),
                      ("simulator", "(not counted: the simulator's imports)")):  # fmt: skip
        print(f"  {what}: CPU {statistics.median(s[key] for s in stages) * 1e3:.0f} ms (median)")
    print(f"on a Pi Zero 2 W (about {PI_FACTOR}x slower): about {cpu * PI_FACTOR:.1f} s from the daemon's start")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
