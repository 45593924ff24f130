"""The figures every benchmark prints, in one form: wall-clock median and p99 beside the CPU time per operation, and
the target the figure is checked against.

The machine the benchmarks run on is shared and noisy: a wall-clock figure from a busy moment says little, the CPU
time a process spent per operation says what the code costs. So every report line carries both.

The scripts import this module as ``stats`` (a script's own folder is first on its path).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

PI_ZERO_2W_FACTOR = 25
"""How many times slower a Raspberry Pi Zero 2 W runs this project's Python on one core than the development machine
of the last bench run (README). Issue 18 put the Pi at about ten times slower than the machine of 24 Nov 2026; the
one of 27 Nov (AMD EPYC) ran the same code 2.1-2.8 times faster (engine 13.2 -> 4.65 µs CPU per play, journal
replay 3.61 -> 1.30 ms, lexicon lookup 2.17 -> 1.02 µs), so about 25 times. An estimate, not a measurement on a Pi."""


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by nearest rank; raises ValueError for no values."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def cpu_now() -> float:
    """CPU seconds this process has used so far (every thread, user and system)."""
    return time.process_time()


@dataclass(frozen=True)
class Timing:
    """Samples of one operation: ``wall`` seconds per operation (one per sample), and ``cpu`` the CPU seconds per
    operation (the median over samples; None where the CPU time is not this process's, e.g. a latency across
    processes)."""

    wall: Sequence[float]
    cpu: float | None

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def p99(self) -> float:
        return percentile(self.wall, 99)

    @property
    def max(self) -> float:
        return max(self.wall)


def measure(run: Callable[[], int], samples: int) -> Timing:
    """Call ``run`` ``samples`` times; it does some operations and returns how many. Each call gives one sample of
    wall and CPU seconds per operation; raises RuntimeError if a call did nothing."""
    if samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    wall, cpu = [], []
    for _ in range(samples):
        c0 = cpu_now()
        t0 = time.perf_counter()
        n = run()
        t1 = time.perf_counter()
        c1 = cpu_now()
        if n < 1:
            raise RuntimeError("a benchmark run did no operation: nothing to measure")
        wall.append((t1 - t0) / n)
        cpu.append((c1 - c0) / n)
    return Timing(wall, statistics.median(cpu))


def duration(seconds: float) -> str:
    """A duration in the unit that suits it: ``12.3 µs``, ``4.56 ms``, ``1.20 s``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def line(label: str, timing: Timing, target: str | None, met: bool = False, cpu: str | None = None) -> str:
    """One report line: ``label: median …  p99 …  max …  CPU …/op  | target …: met``; without a target (a
    figure that feeds an estimate) no verdict. ``cpu`` replaces the CPU figure's text."""
    if cpu is None:
        cpu = f"CPU {duration(timing.cpu)}/op" if timing.cpu is not None else "CPU n/a (across processes)"
    text = f"{label}: median {duration(timing.median)}  p99 {duration(timing.p99)}  max {duration(timing.max)}  {cpu}"
    return text if target is None else f"{text}  | target {target}: {verdict(met)}"


def rate_line(label: str, timing: Timing, unit: str, target_per_s: float) -> str:
    """A throughput report: operations per wall second (median sample) and per CPU second, against a target that
    the CPU figure must meet (the wall figure too on a quiet machine)."""
    per_wall = 1.0 / timing.median
    per_cpu = 1.0 / timing.cpu if timing.cpu else float("inf")
    return (
        f"{label}: {per_wall:,.0f} {unit}/s wall (median; p99 sample {1.0 / timing.p99:,.0f}/s), "
        f"{per_cpu:,.0f} {unit} per CPU second (CPU {duration(timing.cpu or 0.0)}/op, median run)  "
        f"| target >= {target_per_s:,.0f}/s: {verdict(per_cpu >= target_per_s)}"
    )


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def start_load(n: int, seconds: float) -> list[subprocess.Popen[bytes]]:
    """``n`` busy processes (one Python spinning each, at normal priority), each stopping by itself after
    ``seconds``: the other work of a busy Pi."""
    spin = (f"import os, time\nos.nice(-os.nice(0))\nend = time.monotonic() + {seconds}\n"
            "while time.monotonic() < end:\n    pass\n")  # at nice 0 (the bench itself runs at the unit's Nice)
    return [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(n)]


def stop_load(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        proc.kill()
        proc.wait(10)


SERVICE = Path(__file__).resolve().parent.parent / "deploy" / "systemd" / "partiar.service"


def service_nice() -> int:
    """The ``Nice=`` the table's systemd unit gives the daemon (0 if it sets none)."""
    for row in SERVICE.read_text(encoding="utf-8").splitlines():
        if row.startswith("Nice="):
            return int(row.split("=", 1)[1])
    return 0


def as_deployed() -> int:
    """Give this process the ``Nice=`` of the table's systemd unit (the daemon's priority on a Pi); the busy
    processes of ``start_load`` go back to nice 0. Returns the niceness it runs at (says so if it cannot)."""
    want = service_nice()
    try:
        os.nice(want - os.nice(0))
    except OSError as e:
        print(f"the bench runs at nice {os.nice(0)}, not the unit's {want} ({e})")
    return os.nice(0)


def process_figures(pid: int) -> tuple[float, float, float]:
    """A process's (the hub's) resident memory now and at its peak (MiB), and its CPU time so far (s)."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024, cpu
