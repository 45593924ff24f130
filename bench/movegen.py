"""Benchmark: the move generator on the Czech index (all plays, top play only, graph load and memory), the compiled
search loop beside the pure-Python one and beside Scrabble Solver 2's GADDAG generator.

Run: ``python bench/movegen.py [--index PATH] [--boards N] [--racks N] [--repeat N] [--pure] [--peer TARBALL]
[--bounds]``. Mid-game boards come from seeded games in which the top play is always laid (as in duplicate
Scrabble), 8-12 plays in. On each board, racks are drawn from the tiles not on the board: without blanks, with one
blank and with two. For each rack it times every play (``plays``: the ranked list), every play made into a move
object (the list looked at whole) and the top play only (``best``), in CPU time of this process (one core), each
cold on the position (nothing is kept from call to call but the graph's unpacked nodes; which call goes first
alternates), the fastest of ``--repeat`` runs of each. ``--pure`` times the pure-Python generator too (what a machine
without a C compiler runs). ``--peer`` runs Scrabble Solver 2 (the npm tarball of ``scrabble-solver`` 2.18.x, from
``npm pack scrabble-solver``: its sub-packages ship prebuilt inside it) under node on the same racks, with a GADDAG
built from this index's own words (cached under ``~/.cache/partiar/peer``), checks that its plays are ours, every
one, and prints the time ratios. Load time and memory are measured in fresh child processes.

Targets (development PC, one core, medians): all plays of a 7-tile rack < 100 ms without blanks, < 500 ms with one
blank, < 2 s with two; against the peer (issue 36): all plays no slower than its all plays, the top play at least
3x faster than its all plays; graph load < 1 s and < 100 MB. For each generator it also says what the medians mean
on a Raspberry Pi Zero 2 W (``stats.PI_ZERO_2W_FACTOR`` times slower than the development PC).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from stats import PI_ZERO_2W_FACTOR as PI
from stats import percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.board import SQUARES, Board  # noqa: E402
from engine.lexicon import Lexicon, default_path  # noqa: E402
from engine.movegen import Move, MoveGenerator, WordGraph  # noqa: E402
from engine.movegen.shadow import start_bounds  # noqa: E402
from engine.placement import apply  # noqa: E402
from engine.tiles import BLANK, tile_set  # noqa: E402

TARGETS_MS = {0: 100.0, 1: 500.0, 2: 2000.0}
ROUND_S = 180.0
"""A duplicate round: 3 minutes (seed 001) in which the referee's program finds the top play to lay."""


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def child(index: str) -> None:
    """In a fresh process: load the graph, generate on a board, print load CPU seconds and resident KiB added."""
    before = rss_kb()
    start = time.process_time()
    graph = WordGraph.load(index)
    load = time.process_time() - start
    loaded = rss_kb()
    gen = MoveGenerator(graph, tile_set("czech"))
    board = midgame_boards(gen, 1)[0]
    for rack in ("KOČKA?E", "ŘEPA?OS", "ÚŽASNÝ?"):
        gen.plays(board, rack)
    print(json.dumps({"load_s": load, "load_kb": loaded - before, "after_kb": rss_kb() - before}))


def midgame_boards(gen: MoveGenerator, count: int, seed: int = 2026) -> list[Board]:
    """Boards 8-12 top plays into seeded games."""
    boards = []
    for n in range(count):
        rng = random.Random(seed + n)
        bag = list(gen.tiles.bag().elements())
        rng.shuffle(bag)
        board = Board()
        rack = ""
        for _ in range(8 + n % 5):
            rack += "".join(bag.pop() for _ in range(min(7 - len(rack), len(bag))))
            best = gen.best(board, rack)
            if not best:
                bag.extend(rack)
                rng.shuffle(bag)
                rack = ""
                continue
            apply(board, best[0].play)
            rack = best[0].leave(rack)
        boards.append(board)
    return boards


def draw_rack(board: Board, rng: random.Random, blanks: int, tiles_name: str = "czech") -> str:
    """Seven tiles from those not on the board, with exactly ``blanks`` blanks."""
    unseen = tile_set(tiles_name).bag()
    for tile in board.cells:
        if tile is not None:
            unseen[BLANK if tile.blank else tile.letter] -= 1
    letters = [t for t in (+unseen).elements() if t != BLANK]
    return BLANK * blanks + "".join(rng.sample(letters, 7 - blanks))


def rack_index(racks: dict[int, list[tuple[int, str]]], blanks: int, i: int) -> int:
    """Where rack ``i`` of ``blanks`` blanks is in the peer's answer (the racks in blank order, then as drawn)."""
    return sum(len(racks[b]) for b in racks if b < blanks) + i


def run_peer(
    args: argparse.Namespace, graph: WordGraph, boards: list[Board], racks: dict[int, list[tuple[int, str]]]
) -> dict[str, Any]:
    """Scrabble Solver 2's generator (bench/scrabble_solver_peer.js under node) on the same boards and racks, with
    a GADDAG of the index's own words (built once and cached under ~/.cache/partiar/peer, keyed by the index's
    CRC-32): its CPU ms per run and its plays."""
    package = Path(args.peer)
    cache = Path.home() / ".cache" / "partiar" / "peer"
    cache.mkdir(parents=True, exist_ok=True)
    if package.is_file():  # the tarball: unpacked once beside the cache
        unpacked = cache / package.name.removesuffix(".tgz")
        if not (unpacked / "package").is_dir():
            unpacked.mkdir(parents=True, exist_ok=True)
            with tarfile.open(package) as tar:
                tar.extractall(unpacked, filter="data")
        package = unpacked / "package"
    elif (package / "package").is_dir():
        package = package / "package"
    crc = zlib.crc32(Path(args.index).read_bytes())
    words = cache / f"words-{crc:08x}.txt"
    if not words.exists():
        lexicon = Lexicon.load(args.index)
        words.write_text("".join(w + "\n" for w in lexicon), encoding="utf-8")
    tiles = tile_set("czech")
    positions = []
    for board in boards:
        cells = [
            [sq.col, sq.row, tile.letter.lower(), tile.blank]
            for sq, tile in zip(SQUARES, board.cells, strict=True)
            if tile is not None
        ]
        positions.append({"cells": cells, "racks": []})
    order = [(b, rack) for blanks in sorted(racks) for b, rack in racks[blanks]]
    # one position per rack, in order, so the answer's racks come back in the order asked
    request = {
        "words": str(words),
        "gaddag": str(cache / f"czech-{crc:08x}.gaddag"),
        "tiles": [[letter.lower(), tiles.counts[letter], tiles.points[letter]] for letter in tiles.letters],
        "repeat": args.repeat,
        "plays": True,
        "positions": [{"cells": positions[b]["cells"], "racks": [rack.lower()]} for b, rack in order],
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as f:
        json.dump(request, f)
    try:
        done = subprocess.run(
            [args.node, "--max-old-space-size=8000", str(ROOT / "bench" / "scrabble_solver_peer.js"), str(package), f.name],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    finally:
        os.unlink(f.name)
    answer: dict[str, Any] = json.loads(done.stdout)
    built = f"built in {answer['build_s']:.1f} s CPU" if answer["build_s"] else "read from the cache"
    print(
        f"scrabble-solver {package.parent.name}: GADDAG of {sum(1 for _ in words.open(encoding='utf-8'))} words "
        f"({built}; {answer['load_s']:.2f} s CPU in all)"
    )
    return answer


def check_peer(peer: dict[str, Any], plays: list[Move], board: Board, rack: str) -> None:
    """The peer's plays are ours: the same tiles on the same squares for the same score, every one (a tile laid
    alone counts once, whichever way the peer reads it)."""

    def ours(move: Move) -> tuple[int, frozenset[tuple[int, int, str, bool]]]:
        return move.score, frozenset((p.square.col, p.square.row, p.tile.letter, p.tile.blank) for p in move.placements)

    def theirs(x: int, y: int, across: bool, points: int, letters: str, blanks: list[int]) -> tuple[int, frozenset[tuple[int, int, str, bool]]]:
        placed = []
        k = 0
        while k < len(letters):  # the letters go on the empty squares from the word's start on
            if board.cells[y * 15 + x] is None:
                placed.append((x, y, letters[k].upper(), k in blanks))
                k += 1
            x, y = (x + 1, y) if across else (x, y + 1)
        return points, frozenset(placed)

    mine = {ours(m) for m in plays}
    peer_plays = {theirs(*p) for p in peer["plays"]}
    if mine != peer_plays:
        raise SystemExit(
            f"the peer's plays differ on rack {rack}: {len(mine - peer_plays)} only ours "
            f"{sorted(mine - peer_plays)[:3]}, {len(peer_plays - mine)} only the peer's {sorted(peer_plays - mine)[:3]}"
        )


def bound_study(gen: MoveGenerator, boards: list[Board], racks: int) -> None:
    """How far each tier of shadow bounds prunes, on the bench's racks (``--bounds``): of the (line, anchor, length
    of left part) entries of a rack, how many keep a bound at or above the rack's best score, under a bound from
    position data alone (every empty square may take the rack's highest value: no cross-check, no lexicon), one
    with the cross-checks but no lexicon walk, the cheap bound and the tight one that :meth:`MoveGenerator.best`
    uses; and the CPU time of working out the first three for every anchor of the position. An entry at or above
    the best must be searched whatever its bounds, so a tier only saves the work of those it puts below."""
    rng = random.Random(19)
    for blanks in (0, 1, 2):
        rows: list[list[float]] = []
        for board in boards:
            for _ in range(racks):
                rack = draw_rack(board, rng, blanks)
                top = gen.best(board, rack)
                best = top[0].score if top else 0
                parsed = gen.rack(rack)
                shadow = gen.shadow(board, parsed, [-1], True)
                tiers: dict[str, list[int]] = {"position": [], "cross-checks": [], "cheap": [], "tight": []}
                took = {"position": 0.0, "cross-checks": 0.0, "cheap": 0.0}
                for k, line in enumerate(shadow.lines):
                    if not line.anchors:
                        continue
                    table = shadow.table(k)
                    high = parsed.values[0] if parsed.values else -1
                    anywhere = [-1 if code else high for code in line.codes]
                    for anchor in line.anchors:
                        start = time.process_time()
                        position = start_bounds(
                            line, anchor, parsed.values, anywhere, shadow.bonus, shadow.rack_size,
                            shadow.bingo_possible, table=table,
                        )  # fmt: skip
                        took["position"] += time.process_time() - start
                        start = time.process_time()
                        crossed = start_bounds(
                            line, anchor, parsed.values, shadow.caps[k], shadow.bonus, shadow.rack_size,
                            shadow.bingo_possible, table=table,
                        )  # fmt: skip
                        took["cross-checks"] += time.process_time() - start
                        start = time.process_time()
                        cheap = shadow.cheap(k, anchor)
                        took["cheap"] += time.process_time() - start
                        tiers["position"] += position.values()
                        tiers["cross-checks"] += crossed.values()
                        tiers["cheap"] += cheap.values()
                        tiers["tight"] += [shadow.tight(k, anchor, length) for length in cheap]
                rows.append(
                    [len(tiers["position"])]
                    + [sum(bound >= best for bound in bounds) for bounds in tiers.values()]
                    + [took[name] * 1000 for name in took]
                )
        med = [statistics.median(column) for column in zip(*rows, strict=True)]
        print(
            f"{blanks} blank(s), medians per rack: {med[0]:.0f} entries; at or above the best score: position "
            f"{med[1]:.0f}, cross-checks {med[2]:.0f}, cheap {med[3]:.0f}, tight {med[4]:.0f}; CPU ms for every "
            f"anchor: position {med[5]:.2f}, cross-checks {med[6]:.2f}, cheap {med[7]:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", default=str(default_path()), help="lexicon index (default: the table's)")
    parser.add_argument("--boards", type=int, default=4, help="mid-game boards (default 4)")
    parser.add_argument("--racks", type=int, default=3, help="racks per board and blank count (default 3)")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes for load and memory (default 5)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each call per rack, fastest kept (default 3)"
    )
    parser.add_argument(
        "--bounds", action="store_true", help="only how far each tier of bounds prunes (see bound_study)"
    )
    parser.add_argument(
        "--pure", action="store_true", help="also time the pure-Python generator (PARTIAR_PURE_MOVEGEN's)"
    )
    parser.add_argument(
        "--peer", metavar="PATH", help="Scrabble Solver 2's npm tarball (scrabble-solver-2.18.x.tgz, from `npm pack "
        "scrabble-solver`) or its unpacked folder: its GADDAG generator timed on the same racks, every play compared",
    )  # fmt: skip
    parser.add_argument("--node", default="node", help="the node executable for --peer (default: node)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not Path(args.index).is_file():
        sys.exit(f"no lexicon index at {args.index}: build it with `.venv/bin/partiar lexicon build` (from Debian's "
                 "aspell-cs, which scripts/setup installs; about a minute), or give --index PATH")  # fmt: skip
    if args.child:
        child(args.index)
        return
    if args.bounds:
        gen = MoveGenerator(WordGraph.load(args.index), tile_set("czech"))
        bound_study(gen, midgame_boards(gen, args.boards), args.racks)
        return
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, __file__, "--child", "--index", args.index],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for _ in range(args.runs)
    ]
    load_ms = statistics.median(r["load_s"] for r in runs) * 1000
    load_mb = statistics.median(r["load_kb"] for r in runs) / 1024
    after_mb = statistics.median(r["after_kb"] for r in runs) / 1024
    print(
        f"graph {args.index}: load {load_ms:.1f} ms CPU (target < 1000), resident +{load_mb:.1f} MB after load, "
        f"+{after_mb:.1f} MB after generating on a board (target < 100)"
    )
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    graph = WordGraph.load(args.index)
    tiles = tile_set("czech")
    gen = MoveGenerator(graph, tiles)
    kinds = {"compiled": gen} if gen.fast is not None else {}
    if args.pure or not kinds:
        kinds["pure"] = MoveGenerator(graph, tiles, compiled=False)
    print(f"generators: {', '.join(kinds)}" + ("" if gen.fast is not None else " (the compiled loop is not built)"))
    boards = midgame_boards(kinds["pure" if "pure" in kinds else "compiled"], args.boards)
    rng = random.Random(19)
    racks = {
        blanks: [(b, draw_rack(board, rng, blanks)) for b, board in enumerate(boards) for _ in range(args.racks)]
        for blanks in (0, 1, 2)
    }
    print(
        f"{args.boards} mid-game boards ({', '.join(str(b.tile_count()) for b in boards)} tiles), "
        f"{args.racks} racks each per blank count; CPU ms per rack, the fastest of {args.repeat} runs"
    )
    peer = run_peer(args, graph, boards, racks) if args.peer else None
    for blanks in (0, 1, 2):
        rows: dict[str, dict[str, list[float]]] = {}
        counts: list[int] = []
        for kind, generator in kinds.items():
            took_all: list[float] = []
            took_made: list[float] = []
            took_best: list[float] = []
            for i, (b, rack) in enumerate(racks[blanks]):
                board = boards[b]
                # each call starts cold on the position (nothing is kept across calls but the graph's unpacked
                # nodes, so which one goes first alternates from rack to rack); each is run --repeat times and
                # its fastest run kept (the machine is shared: the others are its noise)
                took = {"plays": float("inf"), "made": float("inf"), "best": float("inf")}
                for _ in range(args.repeat):
                    for name in ("best", "plays", "made") if i % 2 else ("plays", "made", "best"):
                        start = time.process_time()
                        if name == "best":
                            best = generator.best(board, rack)
                        elif name == "plays":
                            plays = generator.plays(board, rack)
                        else:  # every play made into a move object (the plays() list looked at whole)
                            made = list(generator.plays(board, rack))
                        took[name] = min(took[name], (time.process_time() - start) * 1000)
                took_all.append(took["plays"])
                took_made.append(took["made"])
                took_best.append(took["best"])
                assert best == plays[:1] == made[:1], (rack, board.rows())
                if kind == next(iter(kinds)):
                    counts.append(len(plays))
                if peer is not None and kind == next(iter(kinds)):
                    check_peer(peer["racks"][rack_index(racks, blanks, i)], made, board, rack)
            rows[kind] = {"plays": took_all, "made": took_made, "best": took_best}
        print(f"{blanks} blank(s): plays per rack median {statistics.median(counts):.0f}")
        for kind, row in rows.items():
            med_all, med_made, med_best = (statistics.median(row[k]) for k in ("plays", "made", "best"))
            verdict = "ok" if med_all < TARGETS_MS[blanks] else "OVER"
            print(
                f"  {kind:>8}: all plays median {med_all:.2f} ms p99 {percentile(row['plays'], 99):.2f} "
                f"(target < {TARGETS_MS[blanks]:.0f}: {verdict}); every move object made {med_made:.2f} ms; "
                f"top play median {med_best:.2f} ms p99 {percentile(row['best'], 99):.2f}; "
                f"all / top {med_all / med_best:.1f}x"
            )
            print(
                f"            on a Pi Zero 2 W (about {PI}x slower): top play {med_best * PI / 1e3:.3f} s = "
                f"{med_best * PI / 1e3 / ROUND_S * 100:.2f} % of a {ROUND_S:.0f} s duplicate round; all plays "
                f"{med_all * PI / 1e3:.3f} s"
            )
        if peer is not None:
            peer_ms = [min(r["ms"]) for r in peer["racks"][rack_index(racks, blanks, 0):][: len(racks[blanks])]]
            med_peer = statistics.median(peer_ms)
            first = rows[next(iter(kinds))]
            med_all, med_best = statistics.median(first["plays"]), statistics.median(first["best"])
            print(
                f"  scrabble-solver GADDAG, all plays: median {med_peer:.2f} ms p99 {percentile(peer_ms, 99):.2f} "
                f"(Pi Zero 2 W about {med_peer * PI / 1e3:.3f} s); every play equal; partiar all plays / peer "
                f"{med_all / med_peer:.2f} (target <= 1), peer / partiar top play {med_peer / med_best:.1f}x "
                f"(target >= 3)"
            )
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
