"""``partiar sim``: the board device on a pty, the daemon as a child process, and a web page to play on.

Pieces (each usable alone, so tests can take what they need):

- ``BoardSide``: the virtual board and its device (``hw_sim.virtual_board.VirtualBoard`` read by the real firmware
  logic in ``hw_sim.board_device.BoardDevice``, which writes the real protocol into a pseudo-terminal), plus what a
  person put on it (the page and the scenarios read that back).
- ``DaemonSupervisor``: runs ``python -m hw_sim.daemon --config FILE`` (the daemon on the panel's mock pins),
  learns the panel's port through a pipe (``hw_sim.panel.READY_FD_ENV``), follows the panel's ``/events`` stream
  and restarts the daemon if it dies.
- ``WebServer``: the page (``hw_sim/web``) and its JSON API on 127.0.0.1 (Starlette on uvicorn, ``hw_sim.asgi``):
  ``/api/state``, ``/api/events`` (SSE), ``/api/board``, ``/api/press``, ``/api/turn``, ``/api/advance`` (proxied
  to the panel), ``/api/daemon/kill``, ``/api/daemon/restart``, ``/api/health``.
- ``Sim``: all of it together; ``main(args)`` is the command.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from device.config import TableConfig
from engine.board import SIZE, Square, premium_rows
from engine.ruleset import RulesetError, customised
from engine.tiles import BLANK, tile_set
from eventstream import data_of
from eventstream.changes import Broadcaster, state_route
from eventstream.server import ServerThread
from hw_sim.asgi import Refused, body_int, body_str, get_json, json_app, post_json
from hw_sim.board_device import SIM_LINK_TIMEOUT_S
from hw_sim.lifeline import LIFELINE_FD_ENV, open_lifeline
from hw_sim.panel import READY_FD_ENV
from hw_sim.scenario_texts import problem
from hw_sim.sheet_page import sheet_endpoint
from shared.stop_signal import wait_for_stop

log = logging.getLogger(__name__)

CHECK_SQUARE_ORIGIN = (0, 0)
"""Top-left cell of the 10x10 tile-set check square."""
FAULT_KINDS = ("open", "short", "band")
DAEMON_MODULE = "hw_sim.daemon"
"""``python -m`` module that runs the daemon on the panel's mock pins (see hw_sim/daemon.py)."""
RESTART_BACKOFF = (0.5, 10.0)
"""First and longest wait before restarting a daemon that died (doubles while it keeps dying quickly)."""


class SimError(Exception):
    """The simulator cannot start or do what was asked; the message says what and why (in English, for logs and
    tests); one made with a ``key`` of ``hw_sim.scenario_texts.SIM_TEXTS`` says it in Czech too (``describe``)."""

    def __init__(self, message: str, key: str | None = None, **values: object) -> None:
        super().__init__(message)
        self.key, self.values = key, values

    @classmethod
    def said(cls, key: str, **values: object) -> SimError:
        """The error of a ``SIM_TEXTS`` key with its values (its message the English text)."""
        error = cls("", key, **values)
        error.args = (error.describe("en"),)
        return error

    def describe(self, lang: str) -> str:
        """The error as the organiser reads it, in ``lang`` (an OSError among the values: why, in ``lang``)."""
        from hw_sim.scenario_texts import sim_text
        from shared.gcg_texts import os_reason

        if self.key is None:
            return str(self)
        values = {k: os_reason(v, lang) if isinstance(v, OSError) else v for k, v in self.values.items()}
        return sim_text(self.key, lang, **values)


# ------------------------------------------------------------------------------------------------ the board
class BoardSide:
    """The virtual board a person or a scenario lays tiles on, and the board device that reads it.

    ``board`` needs ``place(row, col, letter)``, ``remove(row, col)``, ``set_fault(row, col, kind)`` (kind None
    clears) and ``flicker(row, col, times)``; ``device`` (optional) ``unplug()``, ``replug()``, ``port_path``.
    Raises SimError (a ValueError) for a letter outside the tile set, a cell off the board, a taken or empty cell.
    """

    def __init__(
        self,
        board: Any,
        device: Any = None,
        tiles: str = "czech",
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.board = board
        self.device = device
        self.tiles = tile_set(tiles)
        self.on_change = on_change
        self.cells: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
        self.faults: dict[tuple[int, int], str] = {}
        self.plugged = True
        self._lock = threading.Lock()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    @staticmethod
    def _check_cell(row: int, col: int) -> None:
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise BoardOpError("board_off", row=row, col=col)

    def place(self, row: int, col: int, letter: str) -> None:
        self._check_cell(row, col)
        if letter != BLANK and letter not in self.tiles.counts:
            raise BoardOpError("board_no_tile", letter=letter, set=self.tiles.name)
        with self._lock:
            if self.cells[row][col] is not None:
                raise BoardOpError("board_taken", cell=_cell(row, col), there=self.cells[row][col])
            self.board.place(row, col, letter)
            self.cells[row][col] = letter
        self._changed()

    def remove(self, row: int, col: int) -> None:
        self._check_cell(row, col)
        with self._lock:
            if self.cells[row][col] is None:
                raise BoardOpError("board_empty", cell=_cell(row, col))
            self.board.remove(row, col)
            self.cells[row][col] = None
        self._changed()

    def fault(self, row: int, col: int, kind: str | None) -> None:
        self._check_cell(row, col)
        if kind is not None and kind not in FAULT_KINDS:
            raise BoardOpError("board_fault_kind", kind=kind, known=", ".join(FAULT_KINDS))
        with self._lock:
            self.board.set_fault(row, col, kind)
            if kind is None:
                self.faults.pop((row, col), None)
            else:
                self.faults[(row, col)] = kind
        self._changed()

    def flicker(self, row: int, col: int, times: int) -> None:
        self._check_cell(row, col)
        if not 1 <= times <= 1000:
            raise BoardOpError("times_range", text=str(times))
        with self._lock:
            if self.cells[row][col] is None:
                raise BoardOpError("board_nothing_to_flicker", cell=_cell(row, col))
            self.board.flicker(row, col, times)
        self._changed()

    def clear(self) -> None:
        with self._lock:
            for row in range(SIZE):
                for col in range(SIZE):
                    if self.cells[row][col] is not None:
                        self.board.remove(row, col)
                        self.cells[row][col] = None
        self._changed()

    def check_square(self) -> None:
        """Empty the board and lay the whole tile set out as the 10x10 check square, in alphabet order."""
        self.clear()
        r0, c0 = CHECK_SQUARE_ORIGIN
        with self._lock:
            for i, letter in enumerate(self.tiles.check_square()):
                row, col = r0 + i // 10, c0 + i % 10
                self.board.place(row, col, letter)
                self.cells[row][col] = letter
        self._changed()

    def unplug(self) -> None:
        if self.device is None:
            raise BoardOpError("board_no_device", action="unplug")
        self.device.unplug()
        self.plugged = False
        self._changed()

    def replug(self) -> None:
        if self.device is None:
            raise BoardOpError("board_no_device", action="replug")
        self.device.replug()
        self.plugged = True
        self._changed()

    def view(self) -> dict[str, Any]:
        with self._lock:
            return {
                "cells": [list(row) for row in self.cells],
                "faults": [[r, c, k] for (r, c), k in sorted(self.faults.items())],
                "plugged": self.plugged,
                "port": getattr(self.device, "port_path", None),
            }

    def apply(self, body: dict[str, Any]) -> None:
        """One operation from the web API: ``{"op": "place", "row": 7, "col": 7, "letter": "A"}`` etc."""
        op = body_str(body, "op")
        if op in ("place", "remove", "fault", "unfault", "flicker"):
            row, col = body_int(body, "row"), body_int(body, "col")
        if op == "place":
            self.place(row, col, body_str(body, "letter"))
        elif op == "remove":
            self.remove(row, col)
        elif op == "fault":
            self.fault(row, col, body_str(body, "kind"))
        elif op == "unfault":
            self.fault(row, col, None)
        elif op == "flicker":
            self.flicker(row, col, body_int(body, "times", 3))
        elif op == "check_square":
            self.check_square()
        elif op == "clear":
            self.clear()
        elif op == "unplug":
            self.unplug()
        elif op == "replug":
            self.replug()
        else:
            raise BoardOpError("board_unknown_op", op=op)


class BoardOpError(SimError, ValueError):
    """A board operation that cannot be done (bad cell, letter, op): a problem code of
    ``hw_sim.scenario_texts.PROBLEMS`` and its values, so a scenario says it in its own language; ``str()`` is the
    English wording (the web API's ``error``, with ``problem`` and ``values`` beside it)."""

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(problem(code, "en", values))
        self.code = code
        self.values = values  # after the base's (its own ``values`` are a SIM_TEXTS key's)


def _cell(row: int, col: int) -> str:
    """A square as the scenarios write it (classic ``H8``)."""
    return Square(row, col).classic()


# ------------------------------------------------------------------------------------------------ the daemon
class DaemonSupervisor:
    """Runs the daemon as a child process, restarts it when it dies, and follows its panel's state.

    ``argv`` is the command (``Sim`` uses ``python -m hw_sim.daemon --config CONFIG`` under this Python);
    ``on_change()`` is called whenever the panel pushes a state or the daemon comes and goes.
    """

    def __init__(self, argv: list[str], on_change: Callable[[], None], log_path: Path | None = None) -> None:
        self.argv = argv
        self.on_change = on_change
        self.log_path = log_path
        self.restarts = 0
        self.panel_port: int | None = None
        self.panel_state: dict[str, Any] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._stop = threading.Event()
        self._requested = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._generation = 0

    @property
    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def view(self) -> dict[str, Any]:
        return {
            "running": self.pid is not None,
            "ready": self.panel_port is not None,
            "pid": self.pid,
            "restarts": self.restarts,
            "log": str(self.log_path) if self.log_path else None,
        }

    def start(self) -> None:
        self._thread = threading.Thread(target=self._supervise, name="daemon-supervisor", daemon=True)
        self._thread.start()

    def _supervise(self) -> None:
        backoff = RESTART_BACKOFF[0]
        while not self._stop.is_set():
            started = time.monotonic()
            rc = self._run_once()
            if self._stop.is_set():
                return
            self.restarts += 1
            ran = time.monotonic() - started
            if self._requested.is_set():  # kill/restart from the API: start the next one at once
                self._requested.clear()
                wait = 0.0
            else:
                backoff = RESTART_BACKOFF[0] if ran > 10 else min(backoff * 2, RESTART_BACKOFF[1])
                wait = backoff
            log.warning("daemon exited with %s after %.1f s; restarting in %.1f s", rc, ran, wait)
            self.on_change()
            self._stop.wait(wait)

    def _run_once(self) -> int:
        read_end, write_end = os.pipe()
        life_read, life_write = open_lifeline()  # the child stops when this end closes (hw_sim/lifeline.py)
        env = dict(os.environ, **{READY_FD_ENV: str(write_end), LIFELINE_FD_ENV: str(life_read)})
        out = open(self.log_path, "ab") if self.log_path else None  # noqa: SIM115 - handed to the child
        try:
            with self._lock:
                if self._stop.is_set():
                    os.close(read_end)
                    os.close(life_write)
                    return 0
                self._proc = subprocess.Popen(
                    self.argv,
                    env=env,
                    pass_fds=(write_end, life_read),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=out,
                )
        except BaseException:
            os.close(read_end)
            os.close(life_write)
            raise
        finally:
            os.close(write_end)
            os.close(life_read)
            if out is not None:
                out.close()
        try:
            return self._follow_child(read_end)
        finally:
            os.close(life_write)

    def _follow_child(self, read_end: int) -> int:
        """Learn the started child's panel port, follow its events, wait for it to end; returns its status."""
        assert self._proc is not None
        log.info("daemon started, pid %d", self._proc.pid)
        with os.fdopen(read_end, "rb") as ready:
            line = ready.readline()  # blocks until the panel serves, or EOF when the child dies first
        self._generation += 1
        if line.strip().isdigit():
            self.panel_port = int(line)
            log.info("daemon panel on port %d", self.panel_port)
            follower = threading.Thread(
                target=self._follow,
                args=(self.panel_port, self._generation),
                name="panel-events",
                daemon=True,
            )
            follower.start()
        rc = self._proc.wait()
        self.panel_port = None
        self.panel_state = None
        return rc

    def _follow(self, port: int, generation: int) -> None:
        """Mirror the panel's state stream until it ends (the daemon stopped or died)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/events", timeout=None) as stream:
                for raw in stream:
                    state = data_of(raw)
                    if state is not None and generation == self._generation:
                        self.panel_state = state
                        self.on_change()
        except (OSError, ValueError) as e:
            log.debug("panel event stream ended: %s", e)
        finally:
            if generation == self._generation:  # not a new daemon's (which may even have the same port)
                self.panel_state = None
                self.on_change()

    def call_panel(self, path: str, body: dict[str, Any]) -> Any:
        """POST to the daemon's panel; raises HTTPException 503 if it is not up, or the panel's own error status."""
        port = self.panel_port
        if port is None:
            raise HTTPException(503, "the daemon is not running (yet)")
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=15) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            try:
                reason = json.loads(e.read()).get("error", e.reason)
            except (ValueError, AttributeError):
                reason = e.reason
            raise HTTPException(e.code, str(reason)) from None
        except OSError as e:
            raise HTTPException(503, f"the daemon's panel does not answer: {e}") from None

    def kill(self) -> dict[str, Any]:
        """SIGKILL the daemon (as a power cut would); the supervisor starts a new one. Returns the old pid."""
        return self._end(signal.SIGKILL)

    def restart(self) -> dict[str, Any]:
        """Stop the daemon cleanly (SIGTERM); the supervisor starts a new one. Returns the old pid."""
        return self._end(signal.SIGTERM)

    def _end(self, signum: int) -> dict[str, Any]:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            raise HTTPException(409, "the daemon is not running")
        self._requested.set()
        proc.send_signal(signum)
        try:
            proc.wait(10.0)
        except subprocess.TimeoutExpired:
            raise HTTPException(
                504, f"the daemon (pid {proc.pid}) did not end within 10 s of signal {signum}"
            ) from None
        self.panel_port = None
        self.panel_state = None
        self.on_change()
        return {"ok": True, "pid": proc.pid}

    def stop(self, timeout: float = 10.0) -> None:
        """Stop supervising and end the daemon (SIGTERM, then SIGKILL after ``timeout``)."""
        with self._lock:
            self._stop.set()
            proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                log.warning("daemon did not stop in %.0f s: killing it", timeout)
                proc.kill()
                proc.wait()
        if self._thread is not None:
            self._thread.join(timeout)


# ------------------------------------------------------------------------------------------------ the web
class PageFiles(StaticFiles):
    """The page's files (``hw_sim/web``), never cached (the page changes with the code it talks to)."""

    async def get_response(self, path: str, scope: Scope) -> Any:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-store"
        if path.endswith(".js"):  # Python 3.11's mimetypes says application/javascript
            response.headers["Content-Type"] = "text/javascript; charset=utf-8"
        return response


class WebServer:
    """The page and its API on 127.0.0.1:``port`` (0: any free port). ``board`` is a BoardSide; ``daemon`` a
    DaemonSupervisor or None (board only). Raises OSError if the port cannot be bound."""

    def __init__(
        self, port: int, board: BoardSide, daemon: DaemonSupervisor | None, time_mode: str = "real",
        journal: Path | None = None,
    ) -> None:
        self.board = board
        self.journal = journal
        self.daemon = daemon
        self.time_mode = time_mode
        tiles = board.tiles
        self.static_info = {
            "tiles": {
                "name": tiles.name,
                "letters": list(tiles.letters),
                "counts": tiles.counts,
                "points": tiles.points,
                "blanks": tiles.blanks,
            },
            "premiums": premium_rows(),
            "time_mode": time_mode,
        }
        self.broadcaster = Broadcaster()
        self.http = ServerThread(self.app(), port, name="sim-http", streams=self.broadcaster).start()

    @property
    def port(self) -> int:
        return self.http.port

    def app(self) -> Any:
        """The page's Starlette app: the JSON API under ``/api``, the page's files at ``/``."""
        post = [
            ("/api/board", self._board),
            ("/api/press", lambda b: self._panel("/press", b)),
            ("/api/turn", lambda b: self._panel("/turn", b)),
            ("/api/advance", lambda b: self._panel("/advance", b)),
            ("/api/daemon/kill", lambda _b: self._daemon("kill")),
            ("/api/daemon/restart", lambda _b: self._daemon("restart")),
        ]
        return json_app(
            [
                Route("/api/state", get_json(self.sim_state)),
                Route("/api/board", get_json(self.board.view), methods=["GET"]),
                Route("/api/health", get_json(lambda: {"ok": True, "pid": os.getpid()})),
                state_route("/api/events", self.sim_state, self.broadcaster),
                *(Route(path, post_json(handler), methods=["POST"]) for path, handler in post),
                *([Route("/sheet", sheet_endpoint(self.journal))] if self.journal is not None else []),
                Mount("/", PageFiles(packages=[("hw_sim", "web")], html=True)),
            ]
        )

    def stop(self) -> None:
        self.http.stop()

    def sim_state(self) -> dict[str, Any]:
        daemon = self.daemon
        return {
            **self.static_info,
            "board": self.board.view(),
            "panel": daemon.panel_state if daemon is not None else None,
            "daemon": daemon.view()
            if daemon is not None
            else {"running": False, "ready": False, "pid": None},
        }

    def _board(self, body: dict[str, Any]) -> Any:
        try:
            self.board.apply(body)
        except BoardOpError as e:
            says = {lang: problem(e.code, lang, e.values) for lang in ("cs", "en")}  # what the page shows
            raise Refused(str(e), problem=e.code, values=e.values, says=says) from None
        return self.board.view()

    def _panel(self, path: str, body: dict[str, Any]) -> Any:
        if self.daemon is None:
            raise HTTPException(503, "this sim runs no daemon")
        return self.daemon.call_panel(path, body)

    def _daemon(self, action: str) -> Any:
        if self.daemon is None:
            raise HTTPException(503, "this sim runs no daemon")
        return getattr(self.daemon, action)()


# ------------------------------------------------------------------------------------------------ the config
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):  # a sub-table such as [table.rules], written inline
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise SimError(f"cannot write {value!r} to the daemon's TOML config")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def daemon_config(base: dict[str, Any], *, state_dir: Path, serial_url: str, time_mode: str,
                  run_dir: Path | None = None) -> str:
    """The daemon's config: ``base`` (a parsed user config) with the sim's own keys forced in. The panel's port
    file goes to ``run_dir`` (the sim's own folder; default ``state_dir``), never needed in the table's folder."""
    data = {section: dict(values) for section, values in base.items()}
    table = data.setdefault("table", {})
    table.update(pin_factory="mock", serial_url=serial_url, state_dir=str(state_dir))
    sim = data.setdefault("sim", {})
    sim.update(panel_port=0, panel_port_file=str((run_dir or state_dir) / "panel.port"), time=time_mode)
    sim.setdefault("link_timeout", SIM_LINK_TIMEOUT_S)
    lines = []
    for section, values in data.items():
        if not isinstance(values, dict):
            raise SimError.said("config_section", section=section)
        lines.append(f"[{section}]")
        lines.extend(f"{key} = {_toml_value(value)}" for key, value in values.items())
        lines.append("")
    return "\n".join(lines)


def board_tiles(base: dict[str, Any]) -> str:
    """The tile set on the simulated board: the config's ruleset's (``[table] ruleset`` and ``[table.rules]``;
    Czech by default). The board's resistor codes cover every set's letters (``firmware.tilecodes``), so an
    English table's board takes Q and W. Raises SimError for a ruleset the config cannot have."""
    table = base.get("table") or {}
    try:
        return customised(str(table.get("ruleset", "cas")), dict(table.get("rules") or {})).tile_set
    except (RulesetError, TypeError, ValueError) as e:
        raise SimError.said("config_ruleset", why=e) from e


# ------------------------------------------------------------------------------------------------ together
class Sim:
    """The whole simulator: board device, daemon, web server. ``start()``, ``url``, ``stop()``.

    ``board``/``device`` replace the virtual board and its pty device (tests); ``daemon_argv`` replaces the
    daemon command (None: ``python -m hw_sim.daemon``; ``[]``: no daemon at all).

    ``state_dir`` is the table's own folder (its journal), as on a Pi: the sim writes nothing there, so a full
    card or a read-only folder shows the table's own behaviour. The sim's files (the daemon's config, its log,
    the panel's port file) go to ``run_dir``: a new temporary folder when not given, removed by ``stop()``.
    """

    def __init__(
        self,
        state_dir: str | Path,
        *,
        port: int = 8080,
        time_mode: str = "real",
        config_file: str | Path | None = None,
        board: Any = None,
        device: Any = None,
        daemon_argv: list[str] | None = None,
        run_dir: str | Path | None = None,
    ) -> None:
        self.state_dir = Path(state_dir)
        self._owns_run_dir = run_dir is None
        self.run_dir = Path(run_dir) if run_dir is not None else Path(tempfile.mkdtemp(prefix="partiar-sim-run-"))
        self.port = port
        self.time_mode = time_mode
        self.config_file = config_file
        self._board = board
        self._device = device
        self._daemon_argv = daemon_argv
        self.server: WebServer | None = None
        self.daemon: DaemonSupervisor | None = None
        self._owns_device = False

    def _notify(self) -> None:
        if self.server is not None:
            self.server.broadcaster.bump()

    def start(self) -> None:
        """Start the board device, the daemon and the web server; raises SimError if one cannot start."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        base: dict[str, Any] = {}
        if self.config_file:
            try:
                base = tomllib.loads(Path(self.config_file).read_text(encoding="utf-8"))
            except OSError as e:
                raise SimError.said("config_unreadable", file=self.config_file, why=e) from e
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
                raise SimError.said("config_not_toml", file=self.config_file, why=e) from e
        tiles = board_tiles(base)
        board, device = self._board, self._device
        if board is None:
            from hw_sim.board_device import BoardDevice
            from hw_sim.virtual_board import VirtualBoard

            board = VirtualBoard()
            device = BoardDevice(board)
            device.start()
            self._owns_device = True
        board_side = BoardSide(board, device, tiles, on_change=self._notify)
        serial_url = getattr(device, "port_path", None) or "loop://"
        config_path = self.run_dir / "daemon.toml"
        config_path.write_text(
            daemon_config(base, state_dir=self.state_dir, serial_url=serial_url, time_mode=self.time_mode,
                          run_dir=self.run_dir),
            encoding="utf-8",
        )
        argv = self._daemon_argv
        if argv is None:
            argv = [sys.executable, "-m", DAEMON_MODULE, "--config", str(config_path)]
        if argv:
            self.daemon = DaemonSupervisor(argv, self._notify, self.log_path)
        journal = TableConfig(state_dir=str(self.state_dir)).journal_path  # the table's game: the page's sheet link
        self.server = WebServer(self.port, board_side, self.daemon, self.time_mode, journal)
        if self.daemon is not None:
            self.daemon.start()

    @property
    def log_path(self) -> Path:
        """The daemon's log (its stdout and stderr), in the sim's own folder."""
        return self.run_dir / "daemon.log"

    @property
    def url(self) -> str:
        if self.server is None:
            raise SimError("the sim is not started")
        return f"http://127.0.0.1:{self.server.port}/"

    def stop(self) -> None:
        """Stop the daemon, the web server and the board device (in that order)."""
        if self.daemon is not None:
            self.daemon.stop()
        if self.server is not None:
            self.server.stop()
        if self._owns_device and self._device is not None:
            self._device.stop()
        if self._owns_run_dir:
            shutil.rmtree(self.run_dir, ignore_errors=True)

    def __enter__(self) -> Sim:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(args: Any) -> int:
    """The ``partiar sim`` command (see hw_sim/cli.py for the options); returns the exit status."""
    state_dir = Path(args.state_dir) if args.state_dir else Path(tempfile.mkdtemp(prefix="partiar-sim-"))
    run_dir = Path(tempfile.mkdtemp(prefix="partiar-sim-run-"))  # kept: its daemon log is read after the sim
    time_mode = args.time or ("manual" if args.scenario else "real")
    lang = getattr(args, "lang", "cs")
    scenario = None
    if args.scenario:
        from hw_sim.scenario import Scenario, ScenarioSyntaxError
        from hw_sim.scenario_texts import sim_text

        try:
            scenario = Scenario.load(args.scenario)
        except ScenarioSyntaxError as e:
            print(sim_text("error", lang, problem=e.describe(lang)), file=sys.stderr)
            return 2
    if args.port is not None:
        port = args.port
    else:
        port = 0 if (scenario is not None and args.headless) else 8080
    config = args.config
    if config is None and args.scenario and Path(args.scenario).with_suffix(".toml").exists():
        config = str(Path(args.scenario).with_suffix(".toml"))  # the scenario's own table (e.g. doubles)
    sim = Sim(state_dir, port=port, time_mode=time_mode, config_file=config, run_dir=run_dir)
    try:
        sim.start()
    except (SimError, OSError, ImportError) as e:
        from hw_sim.scenario_texts import sim_text

        why = e.describe(lang) if isinstance(e, SimError) else e
        print(sim_text("cannot_start", lang, why=why), file=sys.stderr)
        sim.stop()
        return 2
    print(
        f"partiar sim: {sim.url}  (state in {state_dir}, daemon log {sim.log_path})", flush=True
    )
    try:
        if scenario is not None and args.headless:
            return _run_headless(sim, scenario, lang)
        if not args.no_browser:
            import webbrowser

            webbrowser.open(sim.url)
        if scenario is not None:
            status = _run_headless(sim, scenario, lang)
            print("partiar sim: scenario done; Ctrl-C to stop", flush=True)
        else:
            status = 0
        wait_for_stop()
        return status
    finally:
        sim.stop()


def _run_headless(sim: Sim, scenario: Any, lang: str = "cs") -> int:
    from hw_sim.scenario import ScenarioFailed, run_scenario
    from hw_sim.scenario_texts import sim_text
    from hw_sim.sim_client import SimClient

    with SimClient(sim.url) as client:
        if not client.wait_daemon(30.0):
            print("partiar sim: the daemon did not come up in 30 s (see its log)", file=sys.stderr)
            return 1
        try:
            run_scenario(
                client,
                scenario,
                on_step=lambda line: print(f"  {line.line_no}: {line.step.text()}", flush=True),
            )
        except ScenarioFailed as e:
            print(sim_text("failed", lang, problem=e.describe(lang)), file=sys.stderr)
            return 1
    print(sim_text("passed", lang, source=scenario.source, count=len(scenario.lines)), flush=True)
    return 0


