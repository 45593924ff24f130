"""Benchmark: how close the qualification beam search comes to the exhaustive optimum on small cases.

Run: ``python bench/qualify.py [--cases N] [--moves M] [--words N]``. Each case: a word list of the N shortest
words of tests/data/movegen_words_en.txt (English tiles; small so that every sequence can be tried), M racks drawn
fresh from a full bag. For several beam settings it prints how many cases the beam solved optimally, the worst and
mean ratio to the optimum, and the CPU time; how often the answer key (``engine.qualify.solve``) is proven and
right; then the CPU time of the default beam on a 10-move Czech task.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.lexicon import default_path  # noqa: E402
from engine.lexicon.alphabet import Alphabet  # noqa: E402
from engine.lexicon.builder import build_index, encode_words  # noqa: E402
from engine.movegen import MoveGenerator, WordGraph  # noqa: E402
from engine.qualify import (  # noqa: E402
    DEFAULT_PER_MOVE,
    DEFAULT_PROOF_LIMIT,
    DEFAULT_WIDTH,
    best_sequence,
    exhaustive,
    solve,
)
from engine.tiles import tile_set  # noqa: E402


def fresh_racks(tiles_name: str, moves: int, rng: random.Random) -> list[str]:
    bag = list(tile_set(tiles_name).bag().elements())
    return ["".join(rng.sample(bag, 7)) for _ in range(moves)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--words", type=int, default=120)
    args = parser.parse_args()
    lines = (ROOT / "tests" / "data" / "movegen_words_en.txt").read_text().splitlines()
    words = sorted((w for w in lines if w and not w.startswith("#")), key=lambda w: (len(w), w))[: args.words]
    alphabet = Alphabet("abcdefghijklmnopqrstuvwxyz")
    data, _ = build_index(encode_words(words, alphabet), alphabet)
    gen = MoveGenerator(WordGraph.from_bytes(data), tile_set("english"))
    rng = random.Random(13)
    cases = [fresh_racks("english", args.moves, rng) for _ in range(args.cases)]
    optimum = []
    start = time.process_time()
    for racks in cases:
        optimum.append(exhaustive(gen, racks).total)
    print(
        f"{args.cases} cases of {args.moves} moves, {len(words)} words: exhaustive "
        f"{(time.process_time() - start) / args.cases:.2f} s CPU per case"
    )
    start = time.process_time()
    keys = [solve(gen, racks) for racks in cases]
    proven = sum(1 for k in keys if k.proven)
    right = sum(1 for k, o in zip(keys, optimum, strict=True) if k.sequence.total == o)
    print(
        f"answer key (exact search within --prove-limit {DEFAULT_PROOF_LIMIT}, else the default beam): proven in "
        f"{proven}/{args.cases}, equal to the optimum in {right}/{args.cases}, "
        f"{(time.process_time() - start) / args.cases:.2f} s CPU per case"
    )
    for width, per_move in ((1, 1), (4, 4), (12, 12), (DEFAULT_WIDTH, DEFAULT_PER_MOVE), (60, 60)):
        start = time.process_time()
        totals = [best_sequence(gen, racks, width, per_move).total for racks in cases]
        cpu = (time.process_time() - start) / args.cases
        ratios = [t / o if o else 1.0 for t, o in zip(totals, optimum, strict=True)]
        exact = sum(1 for t, o in zip(totals, optimum, strict=True) if t == o)
        print(
            f"beam width {width:>2}, {per_move:>2} plays per move: optimal in {exact}/{args.cases}, "
            f"worst {min(ratios):.3f}, mean {statistics.mean(ratios):.4f} of the optimum, {cpu:.3f} s CPU per case"
        )
    index = default_path()
    if index.exists():
        cz = MoveGenerator(WordGraph.load(index), tile_set("czech"))
        racks = fresh_racks("czech", 10, random.Random(7))
        start = time.process_time()
        seq = best_sequence(cz, racks)
        print(f"Czech 10-move task, default beam: total {seq.total}, {time.process_time() - start:.1f} s CPU")
    else:
        print(f"Czech 10-move task: skipped, no lexicon index at {index} (`.venv/bin/partiar lexicon build` makes it)")


if __name__ == "__main__":
    main()
