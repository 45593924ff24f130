"""Benchmark: a GCG record with one long ``#note`` read by ``engine.gcg`` (issue 29, item 6).

Run: ``python bench/gcg_note.py [--lines 52000] [--samples 5]``. The same 5 MB note (52,000 lines of 100
characters) on many lines and on one line: the reader must take about the same time for both (before the fix the
many-line note took 13 s of CPU against 0.1 s on one line, because each line grew the note's string anew).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stats import line, measure  # noqa: E402

from engine.gcg import decode_gcg, read_gcg  # noqa: E402

HEAD = "#character-encoding UTF-8\n#player1 ann Ann\n#player2 bob Bob\n>ann: ABC 8H CAB +14 14\n"
TARGET_S = 1.0


def record(lines: int, one_line: bool) -> bytes:
    parts = [f"{'x' * 94}{i:06d}" for i in range(lines)]
    note = " ".join(parts) if one_line else "\n".join(parts)
    return (HEAD + f"#note {note}\n>bob: - +0 0\n").encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=52_000)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args()
    for one_line in (False, True):
        data = record(args.lines, one_line)

        def run(data: bytes = data) -> int:
            read_gcg(decode_gcg(data, "bench"), "bench")
            return 1

        timing = measure(run, args.samples)
        label = f"{len(data) / 1e6:.1f} MB note on {'one line' if one_line else f'{args.lines:,} lines'}"
        print(line(label, timing, f"< {TARGET_S:g} s CPU", (timing.cpu or 0.0) < TARGET_S))


if __name__ == "__main__":
    main()
