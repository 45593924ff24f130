"""Benchmark: a restart of the table daemon (after a power cut or a crash) until the LCD says the game is back.

Each run is a fresh Python process, as systemd starts the daemon: the interpreter, the daemon's imports through
``partiar run``'s own path (``device.cli`` parses ``run --config FILE``, which imports that command's module alone;
then the config, the hardware and the table modules ``run`` loads), the config read and the state folder checked,
the table built on the simulator's panel (gpiozero mock pins, the emulated HD44780 behind the real charlcd library),
the game replayed from a journal of a game in progress (``--events``, 60 drawn: some 25 moves with challenges and
rulings, seeded, cut before the game's end), the clock from its checkpoint, and the LCD saying the game is back
("Obnoveno, tah 27" on row 1, the scores on row 2). The child reports its CPU time up to the moment its emulated
LCD showed that, by stage (the interpreter's start, the imports, the table and its devices, the replay with the
first screen, the loop's start), leaving out the simulator's own imports (uvicorn, the panel), which a Pi does not
load; the parent measures the wall time from the process's start to that moment (the simulator's imports included).

    .venv/bin/python bench/restart.py [--runs 7] [--events 60 | --journal FILE] [--compare TREE] [--source]

``--journal FILE``: a journal of one's own in place of the drawn one (e.g. the finished 43-event game of
``tests/scenarios/tournament_game.txt``, which ``partiar sim --scenario ... --headless --state-dir DIR`` leaves in
``DIR/journal.jsonl``): the table is configured with its players, and its clock starts afresh.

The modules' bytecode: by default a first start (not counted) writes it to a temporary cache that the counted
starts read, as a daemon installed by pip (which compiles it) does on the Pi; ``--source`` compiles every module
from its source at each start instead (a checkout run with ``PYTHONDONTWRITEBYTECODE``, as this development
machine's environment sets it: the project's own modules then cost some 80 ms more to compile than to import).

``--compare TREE``: another checkout (``/work/main``) measured in the same run: each run starts this tree's child
and the other's one after the other (which goes first alternates), the child with ``PYTHONPATH=TREE`` and the
other's own LCD notice ("Hra obnovena / tah 27" before the one-line notice); both trees' medians and their ratio.

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
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_CPU_S = 1.0


CONFIG = "table.toml"
"""The daemon's config in the state folder (``partiar run --config``): mock pins, a loopback board link."""
STAGES = (("interpreter", "the interpreter's start"), ("imports", "the daemon's imports (`partiar run`'s path)"),
          ("build", "the config, the state folder, the table and its devices on the panel"),
          ("replay", "the journal replayed, the clock restored, the first screen"),
          ("screen", "the loop started, up to the LCD seen"),
          ("simulator", "(not counted: the simulator's imports)"))  # fmt: skip


def parse_run(argv: list[str]) -> argparse.Namespace:
    """``argv`` parsed as the ``partiar`` console script does (``device.cli.parse_args``: the command's parser
    alone); a tree from before it (``--compare``) builds every command's parser, as its console script did."""
    import device.cli

    parse = getattr(device.cli, "parse_args", None)
    return parse(argv)[1] if parse is not None else device.cli.build_parser().parse_args(argv)


def resumed_marker() -> str:
    """Text the LCD shows once the game is back, from the tree's own texts: ``Obnoveno`` of the one-line notice
    (``Obnoveno, tah 27``), or the two-line notice's ``Hra obnovena`` of a tree from before it."""
    from shared.texts import TEXTS

    return TEXTS["resumed_at"][0].split(",")[0] if "resumed_at" in TEXTS else TEXTS["resumed"][0]


def child(state: str) -> None:
    """In a fresh process: the daemon's start on the panel, each stage's CPU time, printed as JSON."""
    c0 = time.process_time()
    import threading

    args = parse_run(["run", "--config", str(Path(state) / CONFIG)])
    from device.config import check_state_dir, load_config
    from device.hardware import close_all
    from device.realtime import settle_heap  # noqa: F401 - `partiar run` imports it before the table's build

    c1 = time.process_time()
    from hw_sim.daemon import table_on_panel  # the simulator's panel, in place of the Pi's pins: not on a Pi

    c1_sim = time.process_time()
    config = load_config(args.config)
    check_state_dir(config, args.config)
    table, closers, panel = table_on_panel(config)
    c2 = time.process_time() - (c1_sim - c1)  # the stages' CPU leaves the simulator's imports out
    lcd = panel.lcds[0]
    marker = resumed_marker()
    back = threading.Event()  # the LCD says the game is back: "Obnoveno, tah 27" (the scores on row 2)
    lcd.listeners.append(lambda: back.set() if any(marker in row for row in lcd.text_rows()) else None)
    resumed = table.resume()
    c3 = time.process_time() - (c1_sim - c1)
    loop = threading.Thread(target=table.run, name="table", daemon=True)
    loop.start()
    if not back.wait(60.0):
        raise SystemExit(f"the LCD never said the game was back: {lcd.text_rows()}")
    c4 = time.process_time() - (c1_sim - c1)
    import device

    print(json.dumps({"resumed": resumed, "events": len(table.game.events), "interpreter": c0, "imports": c1 - c0,
                      "simulator": c1_sim - c1, "build": c2 - c1, "replay": c3 - c2, "screen": c4 - c3,
                      "cpu": c4, "tree": str(Path(device.__file__).resolve().parent.parent),
                      "rows": lcd.text_rows()}), flush=True)  # fmt: skip
    table.stop()
    loop.join(10)
    close_all(closers)


def journal_of_a_game_in_progress(state: Path, events: int, seed: int) -> int:
    """A journal of a seeded random game cut before its end (``engine.game.sample``); returns its length."""
    from engine.game.sample import random_events
    from shared.journal import Journal

    log = random_events(random.Random(seed), players=("Anna", "Bedřich"), max_events=events)
    from engine.game import Game

    while log and Game.replay(log).ended is not None:  # a game in progress: its end not yet reached
        log.pop()
    with Journal(state / "journal.jsonl") as journal:
        for event in log:
            journal.append(event.to_json())
    return len(log)


def journal_given(state: Path, journal: Path) -> tuple[int, list[str]]:
    """``journal`` copied into ``state``; returns its length and its players (the config's, so the game is
    resumed, not asked about)."""
    text = journal.read_text(encoding="utf-8")
    (state / "journal.jsonl").write_text(text, encoding="utf-8")
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    return len(records), list(records[0]["players"])


def child_env(tree: Path, pycache: Path | None) -> dict[str, str]:
    """The child's environment: the daemon imported from ``tree``; with ``pycache`` the modules' bytecode is read
    from (and on a first start written to) that folder, as an installed daemon reads what pip compiled, else every
    module is compiled from its source (``PYTHONDONTWRITEBYTECODE``, as in a checkout that may not write caches)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def restart(tree: Path, state: Path, events: int, pycache: Path | None,
            players: Sequence[str] = ("Anna", "Bedřich")) -> tuple[float, dict]:  # fmt: skip
    """One daemon start of ``tree`` on ``state``: the wall seconds to the LCD's notice and the child's report."""
    names = ", ".join(json.dumps(p, ensure_ascii=False) for p in players)
    (state / CONFIG).write_text(
        f'[table]\nstate_dir = "{state}"\npin_factory = "mock"\nserial_url = "loop://"\n'
        f'players = [{names}]\n', encoding="utf-8")  # fmt: skip
    t0 = time.perf_counter()
    # -P: not this script's folder first on the path (bench/hub.py would be the hub package of `partiar hub`)
    proc = subprocess.Popen([sys.executable, "-P", __file__, "--child", str(state)], cwd=tree, stdout=subprocess.PIPE,
                            text=True, env=child_env(tree, pycache))  # fmt: skip
    assert proc.stdout is not None
    first = proc.stdout.readline()
    wall = time.perf_counter() - t0
    proc.stdout.read()
    proc.wait()
    if proc.returncode != 0 or not first:
        raise SystemExit(f"{tree}: the daemon's start failed (exit {proc.returncode})")
    report = json.loads(first)
    if not report["resumed"] or report["events"] != events:
        raise SystemExit(f"{tree}: the game was not resumed whole: {report}")
    if Path(report["tree"]) != tree.resolve():
        raise SystemExit(f"{tree}: the child imported the daemon from {report['tree']}")
    return wall, report


def summary(tree: Path, walls: list[float], stages: list[dict]) -> dict[str, float]:
    """Print one tree's medians; returns them (ms)."""
    medians = {"cpu": statistics.median(s["cpu"] for s in stages) * 1e3, "wall": statistics.median(walls) * 1e3}
    medians.update({key: statistics.median(s[key] for s in stages) * 1e3 for key, _ in STAGES})
    cpu = medians["cpu"] / 1e3
    print(f"{tree}: {len(walls)} restarts, a journal of {min(s['events'] for s in stages)}-"
          f"{max(s['events'] for s in stages)} events each; the LCD then: {stages[-1]['rows']}")
    print(f"  daemon start -> the LCD says the game is back: median {medians['wall']:.0f} ms wall "
          f"(max {max(walls) * 1e3:.0f} ms; the simulator's own imports included); CPU {medians['cpu']:.0f} ms "
          f"(median; the daemon's part, the interpreter's start included)"
          f"  | target CPU < {TARGET_CPU_S:.1f} s: {'met' if cpu < TARGET_CPU_S else 'NOT MET'}")  # fmt: skip
    for key, what in STAGES:
        print(f"    {what}: CPU {medians[key]:.0f} ms (median)")
    from stats import PI_ZERO_2W_FACTOR  # the parent's (the child runs with -P: no bench/ on its path)

    print(f"  on a Pi Zero 2 W (about {PI_ZERO_2W_FACTOR}x slower): about {cpu * PI_ZERO_2W_FACTOR:.1f} s from the "
          f"daemon's start")
    return medians


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh daemon processes (default 7; per tree)")
    parser.add_argument("--events", type=int, default=60, help="journal events of the game in progress (default 60)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--journal", metavar="FILE", type=Path,
                        help="restart on this journal (e.g. a finished tournament game) instead of a drawn one")
    parser.add_argument("--compare", metavar="TREE", type=Path,
                        help="another checkout to measure alternately with this one (e.g. /work/main)")  # fmt: skip
    parser.add_argument("--source", action="store_true",
                        help="compile every module from source at each start (no bytecode cache); default: the "
                             "bytecode of a first, uncounted start, as pip compiles an installed daemon's")  # fmt: skip
    parser.add_argument("--child", metavar="STATE_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    trees = [ROOT] + ([args.compare.resolve()] if args.compare else [])
    print("load average at the start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    print("modules compiled from source at each start" if args.source else "bytecode cached by a first start")
    results: dict[Path, tuple[list[float], list[dict]]] = {tree: ([], []) for tree in trees}
    with tempfile.TemporaryDirectory(prefix="partiar-bench-restart-pycache-") as cache:
        pycache = None if args.source else Path(cache)
        for run in range(-1 if pycache else 0, args.runs):  # run -1: the bytecode written, not counted
            for tree in trees if run % 2 == 0 else trees[::-1]:  # which goes first alternates
                with tempfile.TemporaryDirectory(prefix="partiar-bench-restart-") as tmp:
                    state = Path(tmp)
                    if args.journal is not None:
                        n, players = journal_given(state, args.journal)
                        wall, report = restart(tree, state, n, pycache, players)
                    else:
                        n = journal_of_a_game_in_progress(state, args.events, args.seed + run)
                        wall, report = restart(tree, state, n, pycache)
                if run >= 0:
                    results[tree][0].append(wall)
                    results[tree][1].append(report)
    medians = [summary(tree, *results[tree]) for tree in trees]
    if args.compare:
        this, other = medians
        print(f"this tree / {trees[1]}: " + ", ".join(
            f"{what} {this[key]:.0f} / {other[key]:.0f} ms = {this[key] / other[key]:.2f}"
            for key, what in (("cpu", "CPU"), ("imports", "imports"), ("wall", "wall"))))  # fmt: skip
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
