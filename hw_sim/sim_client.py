"""A client of a running ``partiar sim`` web server: the scenario runner and the tests drive the sim through it.

It follows the sim's ``/api/events`` stream on a thread and keeps the latest state, so waits (``wait_for``) block
on a condition until a pushed state satisfies them instead of polling.
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from eventstream import data_of

log = logging.getLogger(__name__)


class SimClientError(OSError):
    """The sim answered with an error (the message is its ``error`` text) or could not be reached. ``problem`` and
    ``values``: what the sim refused as a problem code of ``hw_sim.scenario_texts.PROBLEMS`` (None if it sent
    none), for the caller to word in its own language."""

    def __init__(self, message: str, problem: str | None = None, values: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.values = values or {}


class SimClient:
    """Talks to the sim at ``base_url`` (``http://127.0.0.1:8080``); ``close()`` ends the event stream."""

    def __init__(self, base_url: str, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._cond = threading.Condition()
        self._latest: dict[str, Any] | None = None
        self._seq = 0
        self._closed = False
        self._stream: Any = None
        self._thread = threading.Thread(target=self._follow, name="sim-client-events", daemon=True)
        self._thread.start()

    # ---------------------------------------------------------------------------------------------- calls
    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One JSON request; raises SimClientError with the server's reason on an error status."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                answer = json.loads(e.read())
                reason = answer.get("error", e.reason)
            except (ValueError, AttributeError):
                answer, reason = {}, e.reason
            code, values = answer.get("problem"), answer.get("values")
            raise SimClientError(f"{method} {path}: {e.code} {reason}", code if isinstance(code, str) else None,
                                 values if isinstance(values, dict) else None) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            raise SimClientError(f"{method} {path}: cannot reach the sim at {self.base_url}: {e}") from None

    def state(self) -> dict[str, Any]:
        return self.request("GET", "/api/state")

    def board(self, op: str, **fields: Any) -> Any:
        """A board operation (``place``, ``remove``, ``fault``, ``unfault``, ``flicker``, ``unplug``, ``replug``,
        ``check_square``, ``clear``)."""
        return self.request("POST", "/api/board", {"op": op, **fields})

    def press(self, button: str, hold: float = 0.0) -> Any:
        return self._input("/api/press", {"button": button, "hold": hold})

    def turn(self, steps: int) -> Any:
        return self._input("/api/turn", {"steps": steps})

    def advance(self, seconds: float) -> Any:
        return self._input("/api/advance", {"seconds": seconds})

    def _input(self, path: str, body: dict[str, Any]) -> Any:
        """An input for the daemon; returns its answer once this client's pushed state shows what the table did
        with it: the panel answers after the table's loop handled the input, with the panel's change counter
        (``seq``), and the wait is for a pushed state at least that new. (Without it, a state pushed just before
        the input could pass for the one after it.) Gives up after ``timeout`` (the next step's own wait then
        reports what it sees)."""
        answer = self.request("POST", path, body)
        seq = answer.get("seq") if isinstance(answer, dict) else None
        if isinstance(seq, int) and self.wait_for(lambda s: _panel_seq(s) >= seq, self.timeout) is None:
            log.warning(
                "%s: the daemon's state after change %d was not pushed within %g s", path, seq, self.timeout
            )
        return answer

    def daemon(self, action: str, timeout: float = 10.0) -> Any:
        """``kill`` (SIGKILL; the supervisor restarts it) or ``restart`` (SIGTERM); returns once the sim has
        reported the old daemon gone, so a following ``wait_daemon`` waits for the new one. Raises
        SimClientError if that is not seen within ``timeout``."""
        answer = self.request("POST", f"/api/daemon/{action}", {})
        old = answer.get("pid") if isinstance(answer, dict) else None
        if (
            old is not None
            and self.wait_for(lambda s: (s.get("daemon") or {}).get("pid") != old, timeout) is None
        ):
            raise SimClientError(f"daemon {action}: pid {old} still reported after {timeout:g} s")
        return answer

    # ---------------------------------------------------------------------------------------------- waits
    def latest(self) -> dict[str, Any] | None:
        """The last state the event stream brought (None before the first)."""
        with self._cond:
            return self._latest

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any] | None:
        """Block until a pushed state satisfies ``predicate`` (returns it) or ``timeout`` passes (returns None)."""

        def ok() -> bool:
            return self._latest is not None and bool(predicate(self._latest))

        with self._cond:
            if self._cond.wait_for(lambda: self._closed or ok(), timeout) and ok():
                return self._latest
            return None

    def wait_daemon(self, timeout: float) -> bool:
        """Wait until the daemon's panel answers and its state reached the sim."""
        return (
            self.wait_for(
                lambda s: bool((s.get("daemon") or {}).get("ready")) and s.get("panel") is not None, timeout
            )
            is not None
        )

    def wait_next(self, timeout: float) -> dict[str, Any] | None:
        """Wait for the next pushed state after now."""
        with self._cond:
            seq = self._seq
            if self._cond.wait_for(lambda: self._closed or self._seq != seq, timeout) and self._seq != seq:
                return self._latest
            return None

    # ---------------------------------------------------------------------------------------------- stream
    def _follow(self) -> None:
        try:
            stream = urllib.request.urlopen(self.base_url + "/api/events", timeout=None)
            with self._cond:
                if self._closed:
                    stream.close()
                    return
                self._stream = stream
            for raw in stream:
                state = data_of(raw)
                if state is None:
                    continue
                with self._cond:
                    self._latest = state
                    self._seq += 1
                    self._cond.notify_all()
        except (OSError, ValueError, AttributeError) as e:
            if not self._closed:
                log.warning("sim event stream ended: %s", e)
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            stream = self._stream
        if stream is not None:
            try:
                stream.fp.raw._sock.shutdown(2)  # unblock the reader thread's readline
            except (AttributeError, OSError):
                pass
            try:
                stream.close()
            except OSError:
                pass
        self._thread.join(2.0)

    def __enter__(self) -> SimClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _panel_seq(state: dict[str, Any]) -> int:
    """The daemon panel's change counter in a pushed sim state (-1 without a panel)."""
    panel = state.get("panel")
    seq = panel.get("seq") if isinstance(panel, dict) else None
    return seq if isinstance(seq, int) else -1
