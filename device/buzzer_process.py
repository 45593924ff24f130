"""The buzzer in a process of its own: the clock signal's edges written on time however busy the daemon is.

Why: the daemon's ``SignalDriver`` thread gets real-time priority (SCHED_FIFO), but to write the pin it needs
Python's interpreter lock, and another daemon thread (the table loop rendering a screen, the board link decoding a
frame) may hold it while the kernel has that thread waiting for a core behind other work: the edge waits too
(bench/clock.py: p99 25-230 ms on a loaded machine). The signal's pattern for a whole move is known in advance
(``MoveClock.signal_plan``), so the daemon only hands plans over; this small process does nothing but write them.

``python -m device.buzzer_process --factory NAME --pin N [--passive]`` (started by ``SignalProcess``): real-time
priority (SCHED_FIFO ``device.buzzer.PRIORITY``) for the whole process, its memory locked (``mlockall``: no page
of it is paged out and faulted back in from the SD card), the garbage collector's start-up objects frozen, and no
other Python work than a ``SignalDriver`` on the pin, opened with the same gpiozero pin factory the table names (on a
Pi: lgpio, so nothing x86-only; ``mock`` in the simulator and the tests). It reads one JSON command a line on stdin:

    {"op": "edges", "edges": [[at, on, kind], ...]}     schedule edges (SignalDriver.schedule)
    {"op": "hold", "now": t, "limit": s}                 an input arrived (SignalDriver.hold)
    {"op": "plan", "now": t, "edges": [...]}             replace the future (SignalDriver.plan)
    {"op": "silence"}                                    off now, nothing scheduled
    {"op": "close"}                                      off and exit (so does the end of stdin)

and writes one JSON line on stdout per pin write, ``{"w": [at or null, written, on, kind]}`` (both times on
``time.monotonic``, the same clock in every process), after a first ``{"ready": {...}}`` that says which priority
and memory lock it got.

``SignalProcess`` is the daemon's side with the driver's interface (``edge``/``schedule``/``hold``/``plan``/
``silence``/``close``, ``history``): it mirrors each reported write onto ``mirror`` (the simulator's panel pin, so
the panel shows the buzzer as before) and keeps the edges not yet written. If the process dies, never says it is
ready, or its pipe breaks, the daemon logs an error and falls back to an in-process ``SignalDriver`` on
``fallback()`` (the buzzer's pin opened in the daemon), handing it the edges still to come.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from device.buzzer import HISTORY, HOLD_LIMIT, PRIORITY, SignalDriver, Written, write_device
from device.clock.events import SignalEdge
from device.realtime import raise_priority, settle_heap
from shared.timesource import MonotonicTime

log = logging.getLogger(__name__)

READY_TIMEOUT = 60.0
"""Seconds the daemon waits for the process to say it is ready (a fresh Python on a Pi Zero 2 W under load)."""
SWITCH_INTERVAL = 0.0005
"""The process's GIL switch interval: its pipe reader never keeps the driver's thread from the pin."""
THREAD_STACK = 512 * 1024
"""Stack of the process's driver thread (it calls a few functions deep; every page of the process is locked)."""
MCL_CURRENT, MCL_FUTURE = 1, 2  # <sys/mman.h> on Linux (arm, arm64, x86 alike)


def lock_memory() -> str:
    """Lock the process's pages in RAM (``mlockall``); the result, for the log. Future pages too only where no
    limit can make a later allocation fail (root, or ``LimitMEMLOCK=infinity``)."""
    try:
        import resource

        unlimited = resource.getrlimit(resource.RLIMIT_MEMLOCK)[0] == resource.RLIM_INFINITY
        flags = MCL_CURRENT | MCL_FUTURE if unlimited or os.geteuid() == 0 else MCL_CURRENT
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.mlockall(flags) != 0:
            return f"not locked ({os.strerror(ctypes.get_errno())})"
    except (ImportError, OSError, AttributeError) as e:  # not Linux
        return f"not locked ({e})"
    return "locked" if flags & MCL_FUTURE else "locked (current pages)"


# ------------------------------------------------------------------------------------------------ the process
def _edges(raw: Iterable[Any]) -> list[SignalEdge]:
    return [SignalEdge(bool(on), float(at), str(kind)) for at, on, kind in raw]


def _encode(edges: Iterable[SignalEdge]) -> list[list[Any]]:
    return [[e.at, e.on, e.kind] for e in edges]


def serve(driver: SignalDriver, commands: IO[bytes]) -> None:
    """Apply the commands read from ``commands`` to ``driver`` until ``close`` or the end of the input."""
    for line in commands:
        try:
            msg = json.loads(line)
            op = msg["op"]
            if op == "edges":
                driver.schedule(_edges(msg["edges"]))
            elif op == "hold":
                driver.hold(float(msg["now"]), float(msg.get("limit", HOLD_LIMIT)))
            elif op == "plan":
                driver.plan(_edges(msg["edges"]), float(msg["now"]))
            elif op == "silence":
                driver.silence()
            elif op == "close":
                return
            else:
                log.error("signal process: unknown command %r", op)
        except (ValueError, KeyError, TypeError) as e:
            log.error("signal process: bad command %r: %s", line[:200], e)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m device.buzzer_process", description=__doc__.splitlines()[0])
    parser.add_argument("--factory", required=True, help="gpiozero pin factory (lgpio, rpigpio, native, mock)")
    parser.add_argument("--pin", required=True, type=int, help="the buzzer's GPIO (BCM)")
    parser.add_argument("--passive", action="store_true", help="a passive piezo on a PWM pin (TonalBuzzer)")
    args = parser.parse_args(argv)
    # A stop (systemd's SIGTERM to the whole unit, Ctrl-C's SIGINT to the terminal's process group) is the daemon's
    # to make: it closes this process after its own last edge, and stdin's end stops it if the daemon is killed.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(1), "wb", buffering=0)  # the reports; anything else printed goes to stderr
    os.dup2(2, 1)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    raise_priority(PRIORITY)  # the whole process (threads started from here inherit it)
    sys.setswitchinterval(SWITCH_INTERVAL)
    from gpiozero import Buzzer, TonalBuzzer

    from device.pin_factory import make_pin_factory

    factory = make_pin_factory(args.factory)
    device = (TonalBuzzer if args.passive else Buzzer)(args.pin, pin_factory=factory)
    lock = threading.Lock()

    def report(obj: dict[str, Any]) -> None:
        line = json.dumps(obj, separators=(",", ":")).encode() + b"\n"
        with lock:
            try:
                out.write(line)
            except OSError:  # the daemon is gone: stdin ends too, and the loop below stops
                pass

    threading.stack_size(THREAD_STACK)  # its pages are locked: not the default 8 MB
    driver = SignalDriver(device, MonotonicTime(), on_write=lambda at, t, on, kind: report({"w": [at, t, on, kind]}))
    driver.running.wait(10.0)
    settle_heap()  # what start-up made is never scanned again
    memory = lock_memory()
    report({"ready": {"pid": os.getpid(), "scheduling": driver.scheduling, "memory": memory, "pin": args.pin}})
    try:
        serve(driver, sys.stdin.buffer)
    finally:
        driver.close()
        device.close()
        factory.close()
    return 0


# ------------------------------------------------------------------------------------------ the daemon's side
class SignalProcess:
    """The daemon's handle on the signal process for the buzzer on GPIO ``pin`` (gpiozero pin factory ``factory``),
    with ``SignalDriver``'s interface; time is always ``time.monotonic``.

    ``mirror``: a gpiozero device each reported write is copied to (the simulator's panel pin), or None.
    ``fallback()``: opens the buzzer in the daemon if the process fails (called at most once). ``on_fallback``
    (optional) is called with the reason. ``command`` replaces the process's command line (tests)."""

    def __init__(
        self,
        pin: int,
        *,
        factory: str,
        passive: bool = False,
        fallback: Callable[[], Any],
        mirror: Any = None,
        on_fallback: Callable[[str], None] | None = None,
        command: list[str] | None = None,
        ready_timeout: float = READY_TIMEOUT,
    ) -> None:
        self.time = MonotonicTime()
        self.mirror = mirror
        self.history: deque[Written] = deque(maxlen=HISTORY)
        """Written edges as the process reports them: (scheduled at, written at, on, kind)."""
        self.ready_info: dict[str, Any] | None = None
        self.ready = threading.Event()
        self.fell_back = threading.Event()
        """Set once the daemon's own driver has taken over (``reason`` says why)."""
        self.reason = ""
        self.changed = threading.Condition()
        """Notified after each write the process (or the fallback driver) reports."""
        self._fallback_device = fallback
        self._on_fallback = on_fallback
        self._driver: SignalDriver | None = None
        self._pending: dict[tuple[float, bool], SignalEdge] = {}
        self._lock = threading.RLock()
        self._closing = False
        self._failed = False
        cmd = command or [sys.executable, "-m", "device.buzzer_process", "--factory", factory, "--pin", str(pin)]
        if passive and command is None:
            cmd.append("--passive")
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parent.parent)  # the process imports this package from here
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        self._proc: subprocess.Popen[bytes] | None
        try:
            self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        except OSError as e:
            self._proc = None
            self._fail(f"cannot start ({e})")
            return
        self.pid = self._proc.pid
        self._reader = threading.Thread(target=self._read, name="signal-process", daemon=True)
        self._reader.start()
        self._watch = threading.Thread(target=self._watch_ready, args=(ready_timeout,), name="signal-watch",
                                       daemon=True)
        self._watch.start()

    # ---------------------------------------------------------------------------------------------- public
    def __call__(self, edge: SignalEdge) -> None:
        """Schedule one edge (the table's ``signal`` callable)."""
        self.schedule((edge,))

    edge = __call__

    def schedule(self, edges: Iterable[SignalEdge]) -> None:
        edges = list(edges)
        with self._lock:
            for e in edges:
                self._pending[(e.at, e.on)] = e
        self._send({"op": "edges", "edges": _encode(edges)}, lambda d: d.schedule(edges))

    def hold(self, now: float, limit: float = HOLD_LIMIT) -> None:
        self._send({"op": "hold", "now": now, "limit": limit}, lambda d: d.hold(now, limit))

    def plan(self, edges: Iterable[SignalEdge], now: float) -> None:
        edges = [e for e in edges if e.at > now]
        with self._lock:
            self._pending = {k: e for k, e in self._pending.items() if e.at <= now}
            self._pending.update(((e.at, e.on), e) for e in edges)
        self._send({"op": "plan", "now": now, "edges": _encode(edges)}, lambda d: d.plan(edges, now))

    def silence(self) -> None:
        with self._lock:
            self._pending.clear()
        self._send({"op": "silence"}, lambda d: d.silence())

    @property
    def driver(self) -> SignalDriver | None:
        """The daemon's own driver once it has taken over, else None."""
        return self._driver

    def close(self) -> None:
        """Stop the process (the buzzer off) or the fallback driver; the mirror and fallback devices stay open."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            driver = self._driver
        if driver is not None:
            driver.close()
        proc = self._proc
        if proc is None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.write(b'{"op":"close"}\n')
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(10.0)
        except subprocess.TimeoutExpired:
            log.error("signal process %d did not stop: killed", proc.pid)
            proc.kill()
            proc.wait(10.0)
        self._reader.join(10.0)
        if self.mirror is not None and driver is None:
            write_device(self.mirror, False, "cut", {})

    def kill(self) -> None:
        """Kill the process (as a crash would; tests): the daemon falls back."""
        if self._proc is not None:
            self._proc.kill()

    def __enter__(self) -> SignalProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------- internals
    def _send(self, msg: dict[str, Any], local: Callable[[SignalDriver], None]) -> None:
        line = json.dumps(msg, separators=(",", ":")).encode() + b"\n"
        with self._lock:
            if not self._failed and self._proc is not None and not self._closing:
                try:
                    assert self._proc.stdin is not None
                    self._proc.stdin.write(line)
                    self._proc.stdin.flush()
                    return
                except OSError as e:
                    self._fail(f"pipe broken ({e})")
            driver = self._driver
        if driver is not None:
            local(driver)

    def _read(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        for line in proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                log.error("signal process said something unreadable: %r", line[:200])
                continue
            if "w" in msg:
                at, written, on, kind = msg["w"]
                self._written(at, written, bool(on), str(kind), mirror=True)
            elif "ready" in msg:
                self.ready_info = msg["ready"]
                log.info("signal process %s ready: %s", proc.pid, msg["ready"])
                self.ready.set()
        code = proc.wait()
        with self._lock:
            closing = self._closing
        if not closing:
            self._fail(f"exited with code {code}")

    def _written(self, at: float | None, written: float, on: bool, kind: str, *, mirror: bool) -> None:
        if mirror and self.mirror is not None:
            try:
                write_device(self.mirror, on, kind, {})
            except Exception as e:  # the mirror is only a view of the pin
                log.error("buzzer mirror write failed: %s", e)
        if at is not None:
            self.history.append((at, written, on, kind))
            with self._lock:
                self._pending.pop((at, on), None)
        with self.changed:
            self.changed.notify_all()

    def wait_written(self, edges: Iterable[SignalEdge], timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until every one of ``edges`` is reported written; True if they are."""
        keys = {(e.at, e.on) for e in edges}
        with self.changed:
            return self.changed.wait_for(lambda: keys <= {(at, on) for at, _, on, _ in self.history}, timeout)

    def _watch_ready(self, timeout: float) -> None:
        if not self.ready.wait(timeout) and not self._closing and not self._failed:
            log.error("signal process %s not ready after %.0f s: killed", self.pid, timeout)
            self.kill()  # the reader sees it exit and falls back

    def _fail(self, why: str) -> None:
        """The process is gone: the daemon's own driver takes over with the edges still to come."""
        with self._lock:
            if self._failed or self._closing:
                return
            self._failed = True
            self.reason = why
            log.error(
                "signal process %s: the buzzer falls back to the daemon's own thread (its edges may be late on a "
                "busy machine)", why,
            )  # fmt: skip
            try:
                device = self._fallback_device()
            except Exception:
                log.exception("the buzzer cannot be opened in the daemon either: the table goes on without it")
                device = None
            if device is not None:
                self._driver = SignalDriver(
                    device, self.time, on_write=lambda at, t, on, kind: self._written(at, t, on, kind, mirror=False)
                )
                self._driver.schedule(sorted(self._pending.values(), key=lambda e: e.at))
        if self._on_fallback is not None:
            self._on_fallback(why)
        self.fell_back.set()


if __name__ == "__main__":
    sys.exit(main())
