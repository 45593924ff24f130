"""Latency from the button press that ends a move to the new score on the (emulated) LCD, over many moves.

The whole daemon stack in one process on real time: ``device.hardware.build_table`` on the simulator's panel
(gpiozero mock pins, HD44780 emulators behind the real charlcd library, handed in as ``Peripherals``), its buzzer
process, and the real reader; the board device (the real firmware logic over a virtual board, on a
pseudo-terminal) in a process of its own, as the Pico is on a table. Each move: random legal tiles are laid
on the virtual board, the bench waits until the table has read them, then presses the mover's button and
timestamps the first moment the emulated LCD shows the new score. The split: the time inside the LCD writes
(charlcd's ~1.7 ms per character) against everything else (queue, board diff, game, journal fsync, render).

    .venv/bin/python bench/table.py [--moves 200] [--seed 1] [--load N]

The bench runs at the ``Nice=`` of the daemon's systemd unit; ``--load N`` starts N busy processes at nice 0 beside
it (the other work of a busy Pi). Each game is played twice, with the daemon started as before issue 18's fix and
as now (``bench/startup.py``: every daemon thread at real-time priority, the start-up heap frozen), one after the
other: ``--moves`` moves each.

Target (issues 6 and 18): p99 under 100 ms. CPU time per move is the daemon process's from the press to the score
on the LCD.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

from startup import STARTUPS, Startup
from stats import Timing, as_deployed, line, start_load, stop_load

from device.config import parse_config
from device.hardware import close_all
from device.table import DOUBLE_PRESS_S
from engine.game import Game
from engine.game.sample import random_play
from engine.tiles import BLANK
from hw_sim.board_device import BoardDevice
from hw_sim.daemon import table_on_panel
from hw_sim.virtual_board import VirtualBoard


def wait(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while time.monotonic() < deadline:
        if predicate():
            return True
        pause.wait(0.001)
    return False


def board_process(conn: Connection, seed: int) -> None:
    """The board (the Pico's work on a table) in a process of its own, at nice 0: lays the tiles it is sent
    (``(row, col, letter)``; a letter None lifts the tile), answers how many, ends at None."""
    os.nice(-os.nice(0))
    board = VirtualBoard(seed=seed)
    device = BoardDevice(board)
    device.start()
    conn.send(device.port_path)
    try:
        while True:
            cells = conn.recv()
            if cells is None:
                return
            for row, col, letter in cells:
                if letter is None:
                    board.remove(row, col)
                else:
                    board.place(row, col, letter)
            conn.send(len(cells))
    finally:
        device.stop()


def one_game(seed: int, max_moves: int, startup: Startup) -> tuple[list[float], list[float], list[float]]:
    """Play one random game (until it ends, no legal play is found, or ``max_moves``) on a fresh stack started the
    ``startup`` way (``bench/startup.py``); returns the press-to-score latencies, the LCD-write part of each and
    the daemon's CPU time during each, in seconds."""
    rng = random.Random(seed)
    state = Path(tempfile.mkdtemp(prefix="partiar-bench-table-"))
    conn, child_conn = multiprocessing.get_context("fork").Pipe()  # fork: before this game's threads exist
    child = multiprocessing.get_context("fork").Process(target=board_process, args=(child_conn, seed), daemon=True)
    child.start()
    port_path = conn.recv()
    config = parse_config(
        f'[table]\nstate_dir = "{state}"\npin_factory = "mock"\nserial_url = "{port_path}"\n'
        'players = ["Anna", "Bedřich"]\n'
    )
    with startup.threads():
        table, closers, panel = table_on_panel(config)  # the panel is closed last, after the devices on its pins
    panel_lcd = panel.lcds[0]  # its emulated LCD is what a player would read

    # LCD write time: wrap the display's show(); score-on-LCD time: the emulator's per-byte listener
    lcd_time: list[tuple[float, float]] = []  # (start, duration) of each show()
    display = table.displays[0]
    real_show = display.show

    def timed_show(rows):
        t = time.perf_counter()
        try:
            return real_show(rows)
        finally:
            lcd_time.append((t, time.perf_counter() - t))

    display.show = timed_show
    armed: dict[str, object] = {"want": None, "seen": None}
    shown = threading.Event()  # set by the LCD's byte listener: the bench waits on it, never polls (a polling
    # thread would hold the daemon's interpreter lock while the LCD writer wants it)

    def on_byte() -> None:
        want = armed["want"]
        if want is not None and armed["seen"] is None and any(want in row for row in panel_lcd.text_rows()):
            armed["seen"] = time.perf_counter()
            shown.set()

    panel_lcd.listeners.append(on_byte)
    table.resume()
    startup.settled()
    with startup.threads():
        loop = threading.Thread(target=table.run, name="table", daemon=True)
        loop.start()
    try:
        assert wait(lambda: table.latest_view.get("link_up") is True, 10.0), "the board link did not come up"
        panel.press("b")  # B starts A's first move
        last_press = time.perf_counter()
        assert wait(lambda: table.latest_view["clock"]["state"] == "running", 5.0)
        latencies, lcd_parts, cpu_parts, moves = [], [], [], 0
        while moves < max_moves:
            game = table.game
            if game.ended is not None:
                break
            play = None
            for _ in range(50):
                scratch = Game.replay(game.events)  # random_play applies its play: never to the table's game
                candidate = random_play(scratch, rng, 0.0)
                if candidate is not None and all(p.tile.rack_letter != BLANK for p in candidate.placements):
                    play = candidate
                    break
            if play is None or scratch.ended is not None:  # the last move shows the end, not a score
                break
            cells = [(p.square.row, p.square.col, p.tile.letter) for p in play.placements]
            conn.send(cells)
            conn.recv()
            assert wait(lambda c=cells: all(table.latest_view["physical"][r][k] == t for r, k, t in c), 5.0)
            mover = game.player_on_move
            before = len(game.history)
            lcd_time.clear()
            scores = list(game.scores)
            # the new score, as the 16x2 screen writes both: "A:B"
            from engine.placement import validate
            from engine.scoring import score_play

            gained = score_play(validate(game.board, play.placements), game.tiles, game.ruleset.scoring).total
            scores[mover] += gained
            armed["want"], armed["seen"] = ":".join(map(str, scores)), None
            shown.clear()
            # a press sooner than DOUBLE_PRESS_S after the other player's is a double press, not a move; no player
            # lays a word that fast, so the bench waits that long like a player would
            time.sleep(max(0.0, last_press + DOUBLE_PRESS_S + 0.05 - time.perf_counter()))
            t0 = time.perf_counter()
            c0 = time.process_time()
            panel.press("a" if mover == 0 else "b")
            if not shown.wait(5.0) or not wait(lambda b=before: len(table.game.history) > b, 5.0):
                raise RuntimeError(f"move {moves + 1}: the LCD never showed {armed['want']!r}")
            last_press = t0
            latencies.append(float(armed["seen"]) - t0)  # type: ignore[arg-type]
            cpu_parts.append(time.process_time() - c0)
            seen = float(armed["seen"])  # type: ignore[arg-type]
            # the LCD time that stood between the press and the score: writes started before it showed, counted
            # up to the moment it showed
            lcd_parts.append(sum(min(d, seen - t) for t, d in lcd_time if t0 <= t < seen))
            moves += 1
        return latencies, lcd_parts, cpu_parts
    finally:
        table.stop()
        loop.join(10)
        close_all(closers)
        conn.send(None)
        child.join(10)
        startup.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", type=int, default=0, help="busy processes the bench starts beside the daemon")
    args = parser.parse_args()
    nice = as_deployed()
    busy = start_load(args.load, 3600.0)
    try:
        return run(args, nice)
    finally:
        stop_load(busy)


def run(args: argparse.Namespace, nice: int) -> int:
    load0 = os.getloadavg()[0]
    measured = {name: ([], [], []) for name in STARTUPS}  # latencies, LCD parts, CPU per move
    seed, games = args.seed, 0
    while any(len(m[0]) < args.moves for m in measured.values()):
        for name in STARTUPS:  # the same game for both, one after the other: both see the same machine
            latencies, lcd_parts, cpu_parts = measured[name]
            if len(latencies) < args.moves:
                got, lcd, cpu = one_game(seed, args.moves - len(latencies), Startup(name))
                latencies += got
                lcd_parts += lcd
                cpu_parts += cpu
                games += 1
        seed += 1
    print(f"moves measured: {args.moves} per start-up in {games} games, alternated (press -> new score on the "
          f"emulated 16x2 LCD); at nice {nice}, {args.load} busy processes beside it, load average {load0:.1f} -> "
          f"{os.getloadavg()[0]:.1f}")
    for name, (latencies, lcd_parts, cpu_parts) in measured.items():
        other = [a - b for a, b in zip(latencies, lcd_parts, strict=True)]
        total = Timing(latencies, statistics.median(cpu_parts))
        print(line(f"start-up {name} (bench/startup.py): latency", total, "p99 < 100 ms", total.p99 < 0.1))
        print(line("  LCD writes (charlcd)", Timing(lcd_parts, None), None, cpu=""))
        print(line("  the rest (queue, diff, game, fsync, render)", Timing(other, None), None, cpu=""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
