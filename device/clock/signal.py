"""The audible signal as data: tone patterns and their absolute schedules.

A pattern is a tuple of tones, each an offset from an anchor and a length. A move pattern is anchored at the end of
the move time (offsets are negative: the tone that ends at 0 ends exactly when the move time is over); a chime (the
game-time warning, the expiry) is anchored at its event (offsets >= 0). Schedules are absolute times computed from
the anchor, never summed steps, so they cannot drift.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from device.clock.errors import ClockError
from device.clock.events import SignalEdge

Interval = tuple[float, float, str]
"""One tone as absolute times: (on, off, kind)."""


@dataclass(frozen=True)
class Tone:
    """One tone: starts ``offset`` seconds after the anchor (negative: before it) and lasts ``length`` seconds."""

    offset: float
    length: float
    kind: str = "beep"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], where: str = "tone") -> Tone:
        """Read ``{"offset": -10, "length": 0.1, "kind": "beep"}``; raises ClockError naming ``where``."""
        try:
            tone = cls(float(d["offset"]), float(d["length"]), str(d.get("kind", "beep")))
        except (KeyError, TypeError, ValueError) as e:
            raise ClockError(f"{where}: bad tone {dict(d)!r} ({e})") from None
        if not tone.length > 0:
            raise ClockError(f"{where}: tone length must be > 0, got {d!r}")
        return tone

    def to_dict(self) -> dict[str, Any]:
        return {"offset": self.offset, "length": self.length, "kind": self.kind}


@dataclass(frozen=True)
class SignalPattern:
    """A set of tones around an anchor (a move pattern: the move's end; a chime: its event)."""

    tones: tuple[Tone, ...]

    @classmethod
    def move_signal(
        cls, beeps_from: float = 10.0, period: float = 1.0, beep: float = 0.1, long: float = 1.5
    ) -> SignalPattern:
        """Short beeps every ``period`` s from ``beeps_from`` s before the end, then a long tone ending at the end.

        A short beep is kept only if it ends before the long tone starts. Defaults: beeps at -10, -9, ... -2 s
        (0.1 s each) and a 1.5 s long tone from -1.5 s to 0 (ČAS: the move is over when the long tone has sounded
        out). Raises ClockError for a non-positive length or period.
        """
        if period <= 0 or beep <= 0 or long < 0 or beeps_from < 0:
            raise ClockError(f"bad move signal: beeps_from={beeps_from} period={period} beep={beep} long={long}")
        tones = []
        k = 0
        while (start := beeps_from - k * period) > 0:
            if start - beep >= long:
                tones.append(Tone(-start, beep, "beep"))
            k += 1
        if long > 0:
            tones.append(Tone(-long, long, "long"))
        return cls(tuple(tones))

    @classmethod
    def chime(cls, count: int, length: float, gap: float, kind: str) -> SignalPattern:
        """``count`` tones of ``length`` s with ``gap`` s between them, from the event on."""
        return cls(tuple(Tone(i * (length + gap), length, kind) for i in range(count)))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], where: str = "pattern") -> SignalPattern:
        """Read ``{"tones": [...]}``; raises ClockError for a broken tone or overlapping tones."""
        raw = d.get("tones") if isinstance(d, Mapping) else None
        if not isinstance(raw, list | tuple):
            raise ClockError(f"{where}: expected a table with a list 'tones', got {d!r}")
        pattern = cls(tuple(Tone.from_dict(t, f"{where}.tones[{i}]") for i, t in enumerate(raw)))
        ordered = sorted(pattern.tones, key=lambda t: t.offset)
        for a, b in zip(ordered, ordered[1:], strict=False):
            if a.offset + a.length > b.offset:
                raise ClockError(f"{where}: tones {a.to_dict()} and {b.to_dict()} overlap")
        return pattern

    def to_dict(self) -> dict[str, Any]:
        return {"tones": [t.to_dict() for t in self.tones]}

    def intervals(self, anchor: float, not_before: float | None = None) -> list[Interval]:
        """The tones as absolute (on, off, kind), sorted; tones are clipped to start no earlier than ``not_before``."""
        out = []
        for t in self.tones:
            on, off = anchor + t.offset, anchor + (t.offset + t.length)
            if not_before is not None:
                if off <= not_before:
                    continue
                on = max(on, not_before)
            out.append((on, off, t.kind))
        out.sort()
        return out


NO_SIGNAL = SignalPattern(())
MOVE_SIGNAL = SignalPattern.move_signal()
WARNING_CHIME = SignalPattern.chime(3, 0.2, 0.2, "warning")
EXPIRED_CHIME = SignalPattern.chime(1, 2.0, 0.0, "expired")


def union_edges(intervals: Iterable[Interval]) -> list[SignalEdge]:
    """The buzzer's edges for a set of possibly overlapping tones: on at each merged start, off at its end."""
    edges: list[SignalEdge] = []
    cur: list[Any] | None = None
    for on, off, kind in sorted(intervals):
        if cur is not None and on <= cur[1]:
            cur[1] = max(cur[1], off)
            continue
        if cur is not None:
            edges += [SignalEdge(True, cur[0], cur[2]), SignalEdge(False, cur[1], cur[2])]
        cur = [on, off, kind]
    if cur is not None:
        edges += [SignalEdge(True, cur[0], cur[2]), SignalEdge(False, cur[1], cur[2])]
    return edges


def signal_schedule(
    move_start: float, pattern: SignalPattern = MOVE_SIGNAL, move_time: float = 120.0
) -> list[tuple[float, bool]]:
    """The absolute (time, on) edges of a move started at ``move_start`` lasting ``move_time`` seconds.

    Tones that would start before the move are clipped to its start.
    """
    ivs = pattern.intervals(move_start + move_time, not_before=move_start)
    return [(e.at, e.on) for e in union_edges(ivs)]
