"""Benchmark: the referee's lexicon index (build, size, load, memory, lookups) beside hunspell-cs.

Run: ``.venv/bin/python bench/lexicon.py [--index PATH] [--runs N] [--words N] [--verify]``. Without ``--index`` it
first builds the index from Debian's aspell-cs exactly as ``partiar lexicon build`` does and times each phase, and
checks the index against that source list: every word is in it, and for every word a variant (a letter changed,
added or dropped) is in it exactly when the list has it. ``--verify`` with ``--index`` does the same against the
words the index's DAWG lists (another structure than the lookup table). Load time and
added resident memory are measured in fresh child processes (median of ``--runs``). Lookups: the median time
per word over ``--runs`` passes of the same sample (half known words from the index, half the same words with
one letter changed), for every word and for board-length words (2-8 letters), CPU time per word beside the wall
figures. In the same run the hunspell C library (hunspell-cs) answers the same words through its Python binding
(Debian's python3-hunspell, see ``scripts/apt-packages.txt``; the bench says so when it is missing).

Targets (development PC, one core): file under 3 MB, load under 50 ms, added memory under 20 MB, lookup under
5 µs (CPU per word) in the pure-Python reader. The lookup remembers the state after each word's first bytes it
has seen (bounded by the prefixes the index holds); its size after the lookups is printed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from stats import Timing, line, measure

TARGETS = {"file_mb": 3.0, "load_ms": 50.0, "memory_mb": 20.0, "lookup_us": 5.0}
HUNSPELL = "/usr/share/hunspell/cs_CZ"
DEBIAN_PYTHON = "/usr/lib/python3/dist-packages"


def rss_kb() -> int:
    """This process's resident set size in KiB (Linux)."""
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def hunspell_spell() -> tuple[str, Callable[[], Callable[[str], bool]]] | None:
    """The hunspell C library's Python binding (PyPI ``hunspell`` in the environment, else Debian's
    ``python3-hunspell``, in ``scripts/apt-packages.txt``) and a loader returning its spell-check function; None
    when neither is installed."""
    try:
        import hunspell  # type: ignore[import-not-found]
    except ImportError:
        sys.path.append(DEBIAN_PYTHON)
        try:
            import hunspell  # type: ignore[import-not-found]
        except ImportError:
            return None
        finally:
            sys.path.remove(DEBIAN_PYTHON)
    return f"hunspell {Path(hunspell.__file__).name}", lambda: hunspell.HunSpell(HUNSPELL + ".dic", HUNSPELL + ".aff").spell


MISSING = (
    "the hunspell binding is missing: no comparison with the hunspell C library (install Debian's python3-hunspell, "
    "listed in scripts/apt-packages.txt, or PyPI's hunspell built against libhunspell-dev)"
)


def child(kind: str, index: str) -> None:
    """In a fresh process: load one checker, print load seconds (wall and CPU) and resident KiB added as JSON."""
    if kind == "lexicon":
        from engine.lexicon import Lexicon

        before = rss_kb()
        start, cpu = time.perf_counter(), time.process_time()
        lexicon = Lexicon.load(index)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        assert "kočka" in lexicon
    else:
        found = hunspell_spell()
        assert found is not None, MISSING
        _, loader = found
        before = rss_kb()
        start, cpu = time.perf_counter(), time.process_time()
        spell = loader()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        assert spell("kočka")
    print(json.dumps({"seconds": seconds, "cpu": cpu, "kb": rss_kb() - before}))


def measure_child(kind: str, index: Path, runs: int) -> tuple[float, float, float]:
    """Median load milliseconds (wall, CPU) and added MB of ``runs`` fresh processes."""
    seconds, cpus, kbs = [], [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "--child", kind, "--index", str(index)],
            capture_output=True,
            text=True,
            check=True,
        )
        result = json.loads(out.stdout)
        seconds.append(result["seconds"])
        cpus.append(result["cpu"])
        kbs.append(result["kb"])
    return statistics.median(seconds) * 1000, statistics.median(cpus) * 1000, statistics.median(kbs) / 1024


def build(output: Path) -> tuple[dict[str, float], list[bytes]]:
    """Build the index from aspell-cs; seconds per phase and the words (as letter codes)."""
    from device.cli.lexicon import aspell_words, hunspell_abbreviations
    from engine.lexicon import czech_alphabet
    from engine.lexicon.builder import build_index
    from engine.lexicon.compose import compose_words

    alphabet = czech_alphabet()
    times: dict[str, float] = {}
    start = time.perf_counter()
    abbreviations = hunspell_abbreviations()
    times["hunspell abbreviations"] = time.perf_counter() - start
    start = time.perf_counter()
    source = list(aspell_words())
    times["aspell dump | expand"] = time.perf_counter() - start
    start = time.perf_counter()
    composition = compose_words(source, alphabet, (), abbreviations)
    del source
    times["filter + ČAS lists"] = time.perf_counter() - start
    start = time.perf_counter()
    data, nodes = build_index(composition.codes, alphabet)
    times["DAWG + lookup build"] = time.perf_counter() - start
    output.write_bytes(data)
    times["total"] = sum(times.values())
    print(f"built {output}: {len(composition.codes)} words, {nodes} nodes")
    return times, list(composition.codes)


def verify(lexicon: object, words: set[str], letters: str, seed: int) -> tuple[int, list[str]]:
    """Check ``word in lexicon`` against the word set: every word, and one variant of each (a letter changed, added
    or dropped, upper case for one word in ten). Returns the number of checks and the words answered wrongly."""
    rng = random.Random(seed)
    wrong = []
    checks = 0
    for word in words:
        i = rng.randrange(len(word))
        kind = rng.randrange(3)
        if kind == 0:
            variant = word[:i] + rng.choice(letters) + word[i + 1 :]
        elif kind == 1:
            variant = word[:i] + rng.choice(letters) + word[i:]
        else:
            variant = word[:i] + word[i + 1 :]
        if rng.randrange(10) == 0:
            word, variant = word.upper(), variant.upper()
        checks += 2
        if word not in lexicon:  # type: ignore[operator]
            wrong.append(word)
        if (variant in lexicon) != (variant.lower() in words):  # type: ignore[operator]
            wrong.append(variant)
    return checks, wrong


def sample_words(index: Path, count: int, seed: int) -> list[str]:
    """Half known words of the index, half the same words with one letter changed (mostly unknown)."""
    from engine.lexicon import Lexicon

    lexicon = Lexicon.load(index)
    rng = random.Random(seed)
    known = rng.sample(list(lexicon), count // 2)
    letters = lexicon.alphabet.letters
    changed = []
    for word in known:
        i = rng.randrange(len(word))
        changed.append(word[:i] + rng.choice(letters) + word[i + 1 :])
    words = known + changed
    rng.shuffle(words)
    return words


def per_word(check: Callable[[str], object], words: list[str], runs: int) -> Timing:
    """Seconds per word: one wall sample per pass over ``words``, CPU time per word (median pass)."""

    def one_pass() -> int:
        for word in words:
            check(word)
        return len(words)

    return measure(one_pass, runs)


def verdict(value: float, target: float) -> str:
    return "ok" if value < target else "OVER TARGET"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, help="an index to measure (default: build one from aspell-cs)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--verify", action="store_true", help="with --index: check every word the index lists")
    parser.add_argument("--child", choices=("lexicon", "hunspell"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, str(args.index))
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        source: list[bytes] | None = None
        if index is None:
            index = Path(tmp) / "lexicon.dawg"
            times, source = build(index)
            for phase, seconds in times.items():
                print(f"build  {phase:<24} {seconds:8.1f} s")
        size_mb = index.stat().st_size / 1e6
        print(f"file   {size_mb:8.2f} MB                 target < {TARGETS['file_mb']} MB  "
              f"{verdict(size_mb, TARGETS['file_mb'])}")

        from engine.lexicon import Lexicon

        found = hunspell_spell()
        if found is None:
            print(MISSING)
        name = found[0] if found else "hunspell"
        load_ms, load_cpu_ms, memory_mb = measure_child("lexicon", index, args.runs)
        h_load = "n/a"
        if found:
            h_wall, h_cpu, _ = measure_child("hunspell", index, max(1, args.runs // 2))
            h_load = f"{name}: {h_wall:.0f} ms, CPU {h_cpu:.0f} ms"
        print(f"load   {load_ms:8.1f} ms  CPU {load_cpu_ms:.1f} ms  ({h_load})  target < {TARGETS['load_ms']} ms "
              f"(CPU)  {verdict(load_cpu_ms, TARGETS['load_ms'])}")
        print(f"memory {memory_mb:8.1f} MB  target < {TARGETS['memory_mb']} MB  "
              f"{verdict(memory_mb, TARGETS['memory_mb'])}")

        words = sample_words(index, args.words, args.seed)
        short = [w for w in words if len(w) <= 8]
        lexicon = Lexicon.load(index)
        cold = per_word(lexicon.__contains__, words, 1)  # the prefix states are remembered as they are met
        print(f"lookup, all words, first pass of a fresh load: CPU {(cold.cpu or 0.0) * 1e6:.2f} µs/op")
        spell = found[1]() if found else None
        for label, group in (("all words", words), ("2-8 letters", short)):
            mean_len = sum(map(len, group)) / len(group)
            ours = per_word(lexicon.__contains__, group, args.runs)
            print(line(f"lookup, {label} ({len(group)} words of {mean_len:.1f} letters)", ours,
                       f"< {TARGETS['lookup_us']:g} µs (CPU per word)", (ours.cpu or 0.0) * 1e6 < TARGETS["lookup_us"]))
            if spell is not None:
                theirs = per_word(spell, group, max(1, args.runs // 2))
                print(line(f"  {name}, same words", theirs, None)
                      + f"  | ours / hunspell (CPU): {(ours.cpu or 0.0) / (theirs.cpu or 1.0):.2f}")
        cache = lexicon._prefixes  # the remembered prefix states
        cache_bytes = sys.getsizeof(cache) + sum(sys.getsizeof(k) + sys.getsizeof(v) for k, v in cache.items())
        print(f"prefix states remembered after the lookups: {len(cache)}, {cache_bytes / 1e6:.2f} MB")
        if spell is not None:
            agree = sum((w in lexicon) == bool(spell(w)) for w in words)
            print(f"agreement with hunspell-cs on the sample: {agree / len(words):.1%} of {len(words)} words")
        failed = False
        if source is not None or args.verify:
            if source is not None:
                alphabet = lexicon.alphabet
                expected, what = {alphabet.decode(codes) for codes in source}, "the aspell-cs source list"
                del source
            else:
                expected, what = set(lexicon), "the words the DAWG lists"
            start = time.process_time()
            checks, wrong = verify(lexicon, expected, lexicon.alphabet.letters, args.seed)
            print(f"exact against {what}: {checks:,} lookups ({len(expected):,} words and a variant of each), "
                  f"{len(wrong)} wrong {wrong[:10] if wrong else ''}({time.process_time() - start:.1f} s CPU)")
            failed = bool(wrong)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
