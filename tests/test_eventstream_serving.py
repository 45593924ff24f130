"""What every live page is served with (``eventstream.changes``, ``eventstream.server``): the change bookkeeping
(versions, close, waking threads and asyncio streams) and uvicorn on a thread of its own, on a real server on
127.0.0.1 (port 0), started and stopped by each test."""

from __future__ import annotations

import asyncio
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from mosquitto_fixture import SseClient
from polling import wait_until
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from eventstream import data_of
from eventstream.changes import Broadcaster, Changes, state_route
from eventstream.server import ServerThread, listening_socket
from hub.feed import ChangeFeed


class Counter:
    """A state that changes: what a page's stream sends."""

    def __init__(self) -> None:
        self.value = 0
        self.broadcaster = Broadcaster()

    def add(self) -> None:
        self.value += 1
        self.broadcaster.bump()

    def state(self) -> dict[str, int]:
        return {"value": self.value}


@pytest.fixture
def served() -> Iterator[tuple[Counter, ServerThread]]:
    counter = Counter()

    async def hello(_request: object) -> PlainTextResponse:
        return PlainTextResponse("ahoj")

    app = Starlette(routes=[Route("/", hello), state_route("/events", counter.state, counter.broadcaster)])
    server = ServerThread(app, 0, name="test-http", streams=counter.broadcaster).start()
    try:
        yield counter, server
    finally:
        server.stop()


def stream(server: ServerThread) -> SseClient:
    return SseClient(server.port, "/events").start()


def values(client: SseClient, count: int) -> list[object]:
    """The data of the first ``count`` messages (or more) the client has read."""
    assert client.wait_for(lambda got: len(got) >= count, 30), (client.received, client.error)
    with client.changed:
        return [data for _event, data, _at in client.received]


def test_the_server_serves_on_loopback_and_reports_its_port(served) -> None:
    _counter, server = served
    assert server.port > 0 and server.socket.getsockname() == ("127.0.0.1", server.port)
    assert server.url == f"http://127.0.0.1:{server.port}/"
    with urllib.request.urlopen(server.url, timeout=30) as answer:
        assert answer.status == 200 and answer.read() == b"ahoj"


def test_a_stream_sends_the_state_then_the_latest_after_each_change(served) -> None:
    counter, server = served
    client = stream(server)
    try:
        assert values(client, 1) == [{"value": 0}]
        counter.add()
        assert values(client, 2) == [{"value": 0}, {"value": 1}]
        counter.add()
        counter.add()  # two changes before the stream looks: it sends the latest state, never a stale one
        messages = values(client, 3)
        if messages[-1] != {"value": 3}:
            messages = values(client, 4)
        assert messages[-1] == {"value": 3} and messages[2] in ({"value": 2}, {"value": 3})
    finally:
        client.close()


def test_stop_ends_the_open_streams_and_frees_the_port(served) -> None:
    counter, server = served
    clients = [stream(server) for _ in range(3)]
    for client in clients:
        values(client, 1)
    port = server.port
    server.stop()
    for client in clients:
        assert wait_until(lambda c=client: c.error is not None, 30), "a stream outlived its server"
        assert client.error == "the stream ended"
        client.close()
    assert counter.broadcaster.closed
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=30).close()
    again = ServerThread(Starlette(), port, name="test-again").start()  # the port can be taken again at once
    try:
        assert again.port == port
    finally:
        again.stop()


def test_a_taken_port_raises_when_the_server_is_made() -> None:
    taken = listening_socket("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            ServerThread(Starlette(), port, name="test-taken")
    finally:
        taken.close()


def test_a_server_never_started_stops_at_once() -> None:
    streams = Broadcaster()
    server = ServerThread(Starlette(), 0, name="test-idle", streams=streams)
    server.stop()
    assert streams.closed and server.socket.fileno() == -1


def test_options_reach_uvicorn() -> None:
    server = ServerThread(Starlette(), 0, name="test-options", limit_concurrency=7, server_header=False)
    try:
        assert server.server.config.limit_concurrency == 7 and server.server.config.server_header is False
        assert server.server.config.timeout_graceful_shutdown == 3  # a default the caller did not change
    finally:
        server.stop()


def test_broadcaster_coalesces_and_closes() -> None:
    async def scenario() -> tuple[int | None, int | None, int | None]:
        b = Broadcaster()
        seen = b.version
        b.bump()
        b.bump()
        first = await b.wait_change(seen, 5.0)  # both bumps: one change
        woken = asyncio.get_running_loop().run_in_executor(None, b.bump)
        second = await b.wait_change(first or 0, 30.0)
        await woken
        b.close()
        third = await b.wait_change(second or 0, 5.0)
        return first, second, third

    assert asyncio.run(scenario()) == (2, 3, None)


def test_a_wait_without_a_change_returns_the_version_seen() -> None:
    async def scenario() -> int | None:
        b = Broadcaster()
        b.bump()
        return await b.wait_change(1, 0.01)

    assert asyncio.run(scenario()) == 1


def test_streams_of_one_loop_share_one_notifier_and_give_it_back() -> None:
    """Ten streams waiting on one loop: one notifier (one wake-up call per change, not ten); all woken by one
    change from another thread; none kept once they return."""

    async def scenario(b: Broadcaster) -> tuple[list[int | None], int]:
        waiters = [asyncio.create_task(b.wait_change(0, 60.0)) for _ in range(10)]
        while len(b._notifiers) == 0 or next(iter(b._notifiers.values())).users < 10:
            await asyncio.sleep(0)  # let every waiter subscribe (a yield to the loop, not a wait on time)
        shared = len(b._notifiers)
        await asyncio.get_running_loop().run_in_executor(None, b.bump)
        return list(await asyncio.gather(*waiters)), shared

    b = Broadcaster()
    results, shared = asyncio.run(scenario(b))
    assert results == [1] * 10 and shared == 1 and b._notifiers == {}


def test_close_wakes_waiting_threads_and_streams() -> None:
    feed = ChangeFeed()
    answers: list[object] = []
    waiting = threading.Thread(target=lambda: answers.append(feed.wait(0, ["t1"], 60)))
    waiting.start()

    async def stream() -> int | None:
        task = asyncio.create_task(feed.wait_change(0, 60.0))
        while not feed._notifiers:
            await asyncio.sleep(0)  # until the stream waits (a yield to the loop, not a wait on time)
        await asyncio.get_running_loop().run_in_executor(None, feed.close)
        return await task

    assert asyncio.run(stream()) is None
    waiting.join(30)
    assert answers == [None]


def test_the_keyed_feed_keeps_its_keys_on_the_shared_versions() -> None:
    feed = ChangeFeed()
    assert isinstance(feed, Changes) and not isinstance(feed, Broadcaster)
    feed.bump("table:1")
    feed.bump("round")
    feed.bump("table:1")
    assert feed.version == 3 and feed.key_version("table:1") == 3 and feed.key_version("round") == 2
    assert feed.changes(1, None) == (3, ["table:1", "round"]) and feed.changes(2, ["round"]) == (3, [])
    assert feed.wait(0, ["nothing"], 0.0) == (0, [])


def test_a_stream_nobody_changes_sends_keepalives(served, monkeypatch) -> None:
    import eventstream.changes

    monkeypatch.setattr(eventstream.changes, "KEEPALIVE_SECONDS", 0.05)
    _counter, server = served
    with urllib.request.urlopen(server.url + "events", timeout=60) as answer:
        assert answer.headers["Content-Type"] == "text/event-stream; charset=utf-8"
        lines = [answer.readline() for _ in range(6)]  # a message (data line, empty line), then comments
    assert data_of(lines[0]) == {"value": 0} and lines[1] == b"\n"
    assert lines[2:] == [b": keepalive\n", b"\n"] * 2


def test_an_unknown_path_is_not_a_stream(served) -> None:
    _counter, server = served
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(server.url + "nothing", timeout=30)
    assert missing.value.code == 404
    with urllib.request.urlopen(server.url, timeout=30) as answer:
        assert answer.read() == b"ahoj"
