"""The simulator's HTTP stack (``hw_sim.asgi``: Starlette on uvicorn) refuses what it must, with a reason, and
keeps serving: oversized, malformed and stalled bodies, unknown paths and methods; SSE streams end when it stops."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request
from collections.abc import Iterator

import pytest

from hw_sim import asgi
from hw_sim.panel import Panel

PINMAP = {"button_a": 17, "button_b": 27, "encoder_a": 5, "encoder_b": 6, "encoder_push": 13}


@pytest.fixture
def panel() -> Iterator[Panel]:
    with Panel(PINMAP, []) as p:
        p.register_state_provider(lambda: {"ok": 1})
        yield p


def raw(port: int, request: bytes, timeout: float = 20.0) -> tuple[int, dict]:
    """Send ``request`` as is; the status and the JSON error body (or {}) of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        lengths = [
            int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")
        ]
        length = lengths[0] if lengths else None
        while length is not None and len(rest) < length:
            chunk = s.recv(65536)
            if not chunk:
                break
            rest += chunk
    try:
        return status, json.loads(rest) if rest.strip() else {}
    except ValueError:
        return status, {"raw": rest.decode(errors="replace")}


def post(path: str, body: bytes, headers: str = "") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{headers}"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


def test_oversized_body_is_refused_by_its_length(panel: Panel) -> None:
    body = json.dumps({"button": "a", "pad": "x" * (asgi.MAX_BODY + 10)}).encode()
    status, answer = raw(panel.port, post("/press", body))
    assert status == 413 and str(asgi.MAX_BODY) in answer["error"]


def test_oversized_chunked_body_is_refused_while_reading(panel: Panel) -> None:
    chunk = b"x" * 16384
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(6)) + b"0\r\n\r\n"
    request = (
        b"POST /turn HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + chunks
    )
    status, answer = raw(panel.port, request)
    assert status == 413 and "larger than" in answer["error"]


def test_a_negative_content_length_is_refused_not_hung(panel: Panel) -> None:
    request = b"POST /press HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\nConnection: close\r\n\r\n"
    status, _answer = raw(panel.port, request)
    assert status == 400


@pytest.mark.parametrize(
    ("body", "reason"),
    [(b"{not json", "not JSON"), (b"[1, 2]", "JSON object"), (b'{"button": 3}', "'button' must be a string")],
)
def test_malformed_bodies_get_400_with_the_reason(panel: Panel, body: bytes, reason: str) -> None:
    status, answer = raw(panel.port, post("/press", body))
    assert status == 400 and reason in answer["error"]


def test_a_stalled_body_times_out_and_the_server_keeps_serving(panel: Panel, monkeypatch) -> None:
    monkeypatch.setattr(asgi, "BODY_SECONDS", 0.2)
    request = (
        b'POST /press HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\nConnection: close\r\n\r\n{"but'
    )
    status, answer = raw(panel.port, request)
    assert status == 408 and "did not arrive" in answer["error"]
    with urllib.request.urlopen(f"http://127.0.0.1:{panel.port}/health", timeout=10) as r:
        assert json.loads(r.read())["ok"] is True


def test_unknown_paths_and_methods_answer_json_errors(panel: Panel) -> None:
    assert raw(panel.port, b"GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[0] == 404
    status, answer = raw(panel.port, b"GET /press HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == 405 and answer["error"]


def test_the_panel_listens_on_loopback_only(panel: Panel) -> None:
    assert panel.server is not None
    assert panel.server.socket.getsockname()[0] == "127.0.0.1"


def test_stop_ends_open_event_streams() -> None:
    panel = Panel(PINMAP, [])
    panel.register_state_provider(lambda: {})
    lines: list[bytes] = []
    connected, ended = threading.Event(), threading.Event()

    def follow() -> None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{panel.port}/events", timeout=30) as stream:
                for line in stream:
                    lines.append(line)
                    connected.set()
        except OSError:
            pass
        ended.set()

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    assert connected.wait(20), "no first event"
    panel.notify()
    panel.close()
    assert ended.wait(20), "the event stream outlived the server"
    assert lines and lines[0].startswith(b"data: ")
