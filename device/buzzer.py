"""The buzzer driver: switches a gpiozero output for the move clock's ``SignalEdge`` events at their exact instants.

``SignalDriver`` owns one worker thread. Edges are kept in a heap by their absolute time (``SignalEdge.at``, on the
same time source as the clock); the thread waits until the earliest deadline with ``time.wait_until`` (an
``Event`` wait on an absolute deadline, never summed sleeps) and writes the pin. An edge that is already due is
written at once. So it does not matter whether the table hands over edges as they fall due (``advance``) or
ahead of time (``MoveClock.signal_plan`` -> ``plan``): each lands at its scheduled instant.

Works with an active piezo on gpiozero ``Buzzer`` (``on``/``off``) and a passive one on ``TonalBuzzer``
(``play(tone)``/``stop``; the tone per signal kind comes from ``tones``).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from device.clock.events import SignalEdge
from device.realtime import raise_priority
from shared.timesource import MonotonicTime

log = logging.getLogger(__name__)

HISTORY = 4096
"""Applied edges kept in ``SignalDriver.history``."""
HOLD_LIMIT = 3.0
"""Longest time edges wait for the plan after an input (``SignalDriver.hold``), in seconds."""


PRIORITY = 10
"""Real-time (SCHED_FIFO) priority of the driver's thread where the process may set one (root or CAP_SYS_NICE):
it sleeps until a deadline and writes one pin, so it can never hog a core, and it wakes on time on a busy Pi."""


def write_device(device: Any, on: bool, kind: str, tones: Mapping[str, Any]) -> None:
    """Switch ``device`` (gpiozero ``Buzzer``, or ``TonalBuzzer`` with a tone per kind from ``tones``; missing
    kinds use its ``mid_tone``, ``long``/``expired`` its ``max_tone``) on or off; gpiozero's errors pass."""
    if callable(getattr(device, "play", None)):
        if not on:
            device.stop()
        elif kind in tones:
            device.play(tones[kind])
        else:
            device.play(device.max_tone if kind in ("long", "expired") else device.mid_tone)
    elif on:
        device.on()
    else:
        device.off()


Written = tuple[float, float, bool, str]
"""An applied edge: (scheduled at, written at, on, kind)."""


class SignalDriver:
    """Drives ``device`` (gpiozero ``Buzzer`` or ``TonalBuzzer``) from clock signal edges; call it with an edge.

    ``time`` is the clock's time source (``MonotonicTime`` or ``FakeTime``). ``tones`` maps a signal kind
    (``beep``, ``long``, ``warning``, ``expired``, ...) to a gpiozero ``Tone`` (or a value ``play`` accepts) for a
    ``TonalBuzzer``; missing kinds use the device's ``mid_tone`` (``long``/``expired``: ``max_tone``). Use it as a
    context manager or call ``close``; the device itself belongs to the caller.
    """

    def __init__(
        self,
        device: Any,
        time: Any = None,
        *,
        tones: Mapping[str, Any] | None = None,
        on_write: Callable[[float | None, float, bool, str], None] | None = None,
    ) -> None:
        self.device = device
        self.time = time if time is not None else MonotonicTime()
        self.tones = dict(tones or {})
        self.on_write = on_write
        """Called on this driver's thread after each pin write with (scheduled at or None, written at, on, kind)."""
        self.scheduling = ""
        """The thread's scheduling policy once it runs (``scheduling()``), e.g. ``SCHED_FIFO 10``."""
        self.running = threading.Event()
        """Set once the thread runs with its priority raised (``scheduling`` is then known)."""
        self.history: deque[Written] = deque(maxlen=HISTORY)
        """Applied edges: (scheduled at, written at, on, kind)."""
        self._heap: list[tuple[float, int, SignalEdge]] = []
        self._seq = itertools.count()
        self._recent: deque[tuple[float, bool]] = deque(maxlen=64)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._wake = threading.Event()
        self._stop = False
        self._busy = False
        self._state = False  # what the buzzer was last set to
        self._hold: tuple[float, float] | None = None  # (after, until): see hold()
        self._since_hold: set[tuple[float, bool]] = set()  # edges the clock handed over during the hold
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    # ---------------------------------------------------------------------------------------------- public
    def __call__(self, edge: SignalEdge) -> None:
        """Schedule one edge (the ``signal`` callable the table calls for each clock ``SignalEdge``)."""
        self.schedule((edge,))

    edge = __call__

    def schedule(self, edges: Iterable[SignalEdge]) -> None:
        """Add edges to the schedule; an edge already scheduled or written (same time and state) is skipped."""
        with self._lock:
            queued = {(e.at, e.on) for _, _, e in self._heap}
            for e in edges:
                key = (e.at, e.on)
                if self._hold is not None:
                    self._since_hold.add(key)
                if key in queued or key in self._recent:
                    continue
                queued.add(key)
                heapq.heappush(self._heap, (e.at, next(self._seq), e))
        self._wake.set()

    def hold(self, now: float, limit: float = HOLD_LIMIT) -> None:
        """An input that may change the signal arrived at ``now``: write no edge scheduled after ``now`` until the
        next ``plan`` (or, should none come, for at most ``limit`` seconds), so that no beep sounds that the input
        withdraws. Edges the new plan keeps are written as soon as it arrives."""
        with self._lock:
            self._hold = (now, now + limit)
            self._since_hold = set()
        self._wake.set()

    def plan(self, edges: Iterable[SignalEdge], now: float) -> None:
        """Replace every edge scheduled after the input with ``edges`` (the clock's ``signal_plan`` at ``now``).

        The input is the held one (``hold``): the table plans when it is done with it, at a later ``now``. Edges of
        the old plan after the input were withdrawn by it, unless the clock handed them over again since (as due)
        or the new plan holds them. Without a hold the input happened at ``now``. This thread may already have
        written withdrawn edges (the hold or the plan arrives a little after the input): the buzzer then goes
        back at once to the state the edges still standing give it.
        """
        edges = [e for e in edges if e.at > now]
        planned = {(e.at, e.on) for e in edges}
        with self._lock:
            cut = now if self._hold is None else min(now, self._hold[0])
            kept = self._since_hold | planned
            self._hold = None
            self._since_hold = set()
            self._heap = [item for item in self._heap if item[0] <= cut or (item[0] <= now and (item[0], item[2].on) in kept)]
            heapq.heapify(self._heap)
            withdrawn = {(at, on) for at, _, on, _ in self.history if at > cut and (at, on) not in kept}
            state = next((on for at, _, on, _ in reversed(self.history) if (at, on) not in withdrawn), False)
            if withdrawn:
                self._recent = deque((k for k in self._recent if k not in withdrawn), maxlen=self._recent.maxlen)
        if withdrawn and self._state != state:
            log.debug("signal: %d edge(s) after %.3f withdrawn; back to %s", len(withdrawn), cut, state)
            self._write(state, "withdrawn")
        self.schedule(edges)

    def silence(self) -> None:
        """Drop every scheduled edge and switch the buzzer off now."""
        with self._lock:
            self._heap.clear()
        self._write(False, "cut")
        self._wake.set()

    @property
    def pending(self) -> list[SignalEdge]:
        """The scheduled edges, earliest first."""
        with self._lock:
            return [e for _, _, e in sorted(self._heap)]

    def settled(self, timeout: float = 5.0) -> bool:
        """Wait (real time, at most ``timeout`` s) until no scheduled edge is due on the time source; True if so.

        For tests with a ``FakeTime``: advance it, then ``settled()`` before looking at the pin.
        """
        with self._changed:
            return self._changed.wait_for(
                lambda: not self._busy and not (self._heap and self._heap[0][0] <= self._writable(self.time.now())),
                timeout,
            )

    def _writable(self, now: float) -> float:
        """Edges scheduled up to this instant may be written at ``now`` (the lock held)."""
        if self._hold is None:
            return now
        after, until = self._hold
        if now >= until:
            self._hold = None
            log.warning("signal: no plan came within %.2f s of an input; the held edges are written", until - after)
            return now
        return min(now, after)

    def close(self) -> None:
        """Stop the thread and switch the buzzer off (the device stays open: its owner closes it)."""
        with self._lock:
            self._stop = True
            self._heap.clear()
        self._wake.set()
        self._thread.join(timeout=5.0)
        self._write(False, "cut")

    def __enter__(self) -> SignalDriver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------- the thread
    def _run(self) -> None:
        self.scheduling = raise_priority(PRIORITY)
        self.running.set()
        while True:
            self._wake.clear()
            with self._lock:
                if self._stop:
                    return
                deadline = self._heap[0][0] if self._heap else None
                if deadline is not None and self._hold is not None and deadline > self._hold[0]:
                    deadline = max(deadline, self._hold[1])  # held: plan() wakes the thread before that
            self.time.wait_until(deadline, self._wake)
            with self._changed:
                if self._stop:
                    return
                limit = self._writable(self.time.now())
                due = []
                while self._heap and self._heap[0][0] <= limit:
                    due.append(heapq.heappop(self._heap)[2])
                self._busy = bool(due)
            for e in due:
                self._write(e.on, e.kind, e.at)
            with self._changed:
                self._busy = False
                self._changed.notify_all()

    def _write(self, on: bool, kind: str, at: float | None = None) -> None:
        try:
            write_device(self.device, on, kind, self.tones)
        except Exception as e:  # a buzzer fault must never stop the clock
            log.error("buzzer write (%s %s) failed: %s", "on" if on else "off", kind, e)
            return
        self._state = on
        written = self.time.now()
        if at is not None:
            self.history.append((at, written, on, kind))
            with self._lock:
                self._recent.append((at, on))
        if self.on_write is not None:
            self.on_write(at, written, on, kind)
