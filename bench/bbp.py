"""bbpPairings (FIDE Dutch system, C++, github.com/BieremaBoyzProgramming/bbpPairings) as a drawer for the pairing
bench: each round the tournament so far goes out as a TRF file, ``bbpPairings.exe --dutch FILE -p OUT`` pairs the
next round, and its pairs come back as a ``RoundPaired``. A bench tool only, never a dependency of the program.

The TRF (FIDE's tournament report file, as bbpPairings' README.txt and JaVaFo's manual describe it): a ``001``
line per player with pairing numbers by strength (strongest 1), points, and per round the opponent's number, the
colour (``w``: the player started) and the result (``1``, ``=``, ``0``; a forfeit counts as the game it replaced,
so neither engine pairs its two players again; ``U`` a bye, ``Z`` not paired). A player not to be paired in the
next round gets ``0000 - Z`` in it. ``XXR`` the planned rounds, ``XXC white1`` round 1's colour.
"""

from __future__ import annotations

import resource
import subprocess
import tempfile
from pathlib import Path

from tournament.events import RoundPaired
from tournament.games import Pairing
from tournament.simulate import AT, Drawer
from tournament.state import Tournament

RESULT = {1.0: "1", 0.5: "=", 0.0: "0"}


def _numbers(t: Tournament) -> dict[str, int]:
    order = {pid: i for i, pid in enumerate(t.players)}
    ranked = sorted(t.players, key=lambda p: (-t.strength(p), order[p]))
    return {pid: i + 1 for i, pid in enumerate(ranked)}


def _put(line: list[str], column: int, text: str) -> None:
    """``text`` at 1-based ``column`` (TRF columns)."""
    end = column - 1 + len(text)
    if len(line) < end:
        line.extend(" " * (end - len(line)))
    line[column - 1:end] = list(text)


def trf(t: Tournament, rounds: int) -> str:
    """The tournament so far as a TRF, ready to pair round ``t.last_round + 1``."""
    numbers = _numbers(t)
    nxt = t.last_round + 1
    lines = ["012 partiar pairing bench", f"XXR {rounds}", "XXC white1"]
    for pid, num in sorted(numbers.items(), key=lambda kv: kv[1]):
        line: list[str] = []
        _put(line, 1, "001")
        _put(line, 5, f"{num:4d}")
        _put(line, 15, pid[:33].ljust(33))
        _put(line, 49, f"{t.strength(pid):4d}")
        _put(line, 81, f"{t.points(pid):4.1f}")
        _put(line, 86, f"{num:4d}")
        for number in range(1, nxt + 1):
            col = 92 + 10 * (number - 1)
            if number == nxt:
                if not t.is_active(pid, nxt):
                    _put(line, col, "0000 - Z")
                continue
            rnd = t.rounds[number]
            game = rnd.pairing.table_of(pid)
            if rnd.pairing.bye == pid:
                _put(line, col, "0000 - U")
            elif game is None:
                _put(line, col, "0000 - Z")
            else:
                result = t.result_in(pid, number)
                points = 0.0 if result is None else result.points_of(pid, t.settings.bye_points)
                colour = "w" if game.first == pid else "b"
                _put(line, col, f"{numbers[game.opponent(pid)]:4d} {colour} {RESULT[points]}")
        lines.append("".join(line).rstrip())
    return "\n".join(lines) + "\n"


class Bbp:
    """A drawer (``tournament.simulate.Drawer``) that asks bbpPairings; ``cpu`` adds up the CPU seconds its
    processes took, one figure per round in ``per_round``."""

    def __init__(self, exe: Path, rounds: int) -> None:
        self.exe = exe
        self.rounds = rounds
        self.per_round: list[float] = []

    def __call__(self, t: Tournament, seed: int) -> RoundPaired:
        number = t.last_round + 1
        numbers = _numbers(t)
        by_number = {n: pid for pid, n in numbers.items()}
        with tempfile.TemporaryDirectory() as tmp:
            src, out = Path(tmp) / "in.trf", Path(tmp) / "out.txt"
            src.write_text(trf(t, self.rounds), encoding="utf-8")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            run = subprocess.run([str(self.exe), "--dutch", str(src), "-p", str(out)], capture_output=True,
                                 text=True, timeout=600)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if run.returncode != 0:
                raise RuntimeError(f"bbpPairings failed on round {number} (exit {run.returncode}): "
                                   f"{run.stderr.strip() or run.stdout.strip()}")
            self.per_round.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            rows = out.read_text(encoding="utf-8").split("\n")
        count = int(rows[0])
        games, bye = [], None
        for row in rows[1:count + 1]:
            white, black = (int(x) for x in row.split())
            if black == 0:
                bye = by_number[white]
            else:
                games.append(Pairing(len(games) + 1, by_number[white], by_number[black]))
        if bye is None and len(rows) > count + 1 and rows[count + 1].strip():
            white, black = (int(x) for x in rows[count + 1].split())
            bye = by_number[white] if black == 0 else None
        return RoundPaired(at=AT, by="bbpPairings", round=number, pairings=tuple(games), bye=bye, seed=seed,
                           method="bbp_dutch")


def drawer(exe: Path, rounds: int) -> Drawer:
    return Bbp(exe, rounds)
