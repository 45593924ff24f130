"""Issue 28 items 1 and 2: wrong logins sent at once or from many laptops neither take the hub's memory nor lock
the referees out. Real uvicorn on loopback, real Argon2; clients on different loopback addresses (127.0.0.x)
stand for different laptops of the hall."""

from __future__ import annotations

import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from mosquitto_fixture import REFEREE, REFEREE_PASSWORD, login, referee_hub, request
from polling import wait_until

from hub import Database, RefereeAuth
from hub.auth import MAX_HASHES, LoginLimits
from hub.errors import AuthError


class CountingHasher:
    """The real Argon2 hasher, counting the checks running at once (the most seen)."""

    def __init__(self, hasher: Any) -> None:
        self.hasher = hasher
        self.lock = threading.Lock()
        self.running = self.most = self.calls = 0

    def verify(self, stored: str, password: str) -> bool:
        with self.lock:
            self.running += 1
            self.calls += 1
            self.most = max(self.most, self.running)
        try:
            return self.hasher.verify(stored, password)
        finally:
            with self.lock:
                self.running -= 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self.hasher, name)


@pytest.fixture
def hub_with_referee():
    with referee_hub() as hub:
        yield hub


def test_a_burst_of_wrong_logins_is_counted_before_hashing_and_hashes_few_at_once(hub_with_referee) -> None:
    """40 wrong logins sent at once from one laptop: only the address's free failures are checked (401), the
    rest are refused unchecked (429), and no more than MAX_HASHES checks ever run at once."""
    server, auth = hub_with_referee
    counting = auth._hasher = CountingHasher(auth._hasher)
    free = auth.limits.per_client
    start = threading.Barrier(40)

    def wrong(i: int) -> int:
        start.wait()
        return request(server.port, "POST", "/api/login", {"user": REFEREE, "password": f"guess {i:04d}"},
                       source="127.0.0.7")[0]  # fmt: skip

    with ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(wrong, range(40)))
    # 401: checked; 429: refused unchecked; 503: beyond the address's connections (hub.connections.PER_ADDRESS)
    assert answers.count(401) == free and answers.count(429) + answers.count(503) == 40 - free, answers
    assert counting.calls == free and counting.most <= MAX_HASHES  # none of them from a usual address
    status = json.loads(request(server.port, "GET", "/api/status")[2])
    addresses = {row["who"]: row for row in status["logins"]["addresses"]}
    assert addresses["127.0.0.7"]["failures"] == free and addresses["127.0.0.7"]["wait"] > 0
    assert status["logins"]["refused"] == answers.count(429)
    login(server.port, source="127.0.0.8")  # another laptop is not held up


def test_wrong_logins_from_many_laptops_do_not_lock_the_referee_out() -> None:
    """Wrong passwords from 10 addresses exhaust the account's limit: those addresses and new ones wait, the
    referee's usual address (logged in from before) gets in with the right password, and each laptop's waits
    grow with its failures."""
    clock = FakeClock()
    auth = RefereeAuth(Database(), now=clock.now, limits=LoginLimits(per_client=2, per_user=4))
    auth.add_referee(REFEREE, REFEREE_PASSWORD)
    auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.0.50")  # the referee's laptop, earlier in the day
    for n in range(10):
        for i in range(2):
            with pytest.raises(AuthError) as wrong:
                auth.login(REFEREE, f"guess {n} {i}", client=f"10.0.1.{n}")
            assert wrong.value.status in (401, 429)
    with pytest.raises(AuthError) as new_laptop:  # the account waits for addresses it was never used from
        auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.2.1")
    assert new_laptop.value.status == 429
    auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.0.50")  # the referee's own laptop still gets in
    with pytest.raises(AuthError) as waiting:
        auth.login(REFEREE, "guess again", client="10.0.1.0")
    first_wait = waiting.value.retry_after or 0
    assert waiting.value.status == 429 and first_wait > 0
    clock.advance(first_wait + 0.1)  # back-off: the next failure from that laptop waits twice as long
    with pytest.raises(AuthError):
        auth.login(REFEREE, "guess again", client="10.0.1.0")
    with pytest.raises(AuthError) as longer:
        auth.login(REFEREE, "guess again", client="10.0.1.0")
    assert longer.value.status == 429 and (longer.value.retry_after or 0) > first_wait * 1.5
    view = auth.throttle.view()
    assert {r["who"] for r in view["addresses"]} >= {"10.0.1.0", "10.0.1.1"}
    assert view["accounts"][0]["who"] == REFEREE and view["accounts"][0]["failures"] >= 4


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class StuckHasher:
    """The real hasher whose checks wait for ``gate``: a crowd's password checks that have not finished yet."""

    def __init__(self, hasher: Any, gate: threading.Event) -> None:
        self.hasher, self.gate = hasher, gate

    def verify(self, stored: str, password: str) -> bool:
        self.gate.wait(300)
        return self.hasher.verify(stored, password)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.hasher, name)


def test_a_crowd_guessing_passwords_does_not_stall_the_directors_desk() -> None:
    """Issue 35: 100 addresses guessing kept /desk at 21-29 s, as their password checks waited in the worker pool
    the desk's pages use. Now the checks have threads of their own: with every check stuck, the logins beyond
    the few waiting are refused at once (503 ``busy``, in Czech on the desk's login page) and the director's
    page and actions answer."""
    from desk_rig import Director, started_desk_server

    from hub.auth import MAX_WAITING

    server, desk = started_desk_server()
    gate = threading.Event()
    answers: list[tuple[int, str]] = []
    crowd = 60

    def guess(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300, source_address=(f"127.0.6.{i + 1}", 0))
        conn.request("POST", "/api/login", json.dumps({"user": f"nobody{i}", "password": "guess"}),
                     {"Content-Type": "application/json"})  # fmt: skip
        response = conn.getresponse()
        answers.append((response.status, json.loads(response.read()).get("code", "")))
        conn.close()

    threads = [threading.Thread(target=guess, args=(i,), daemon=True) for i in range(crowd)]
    try:
        director = Director(server.port)  # logged in before the crowd came
        server.auth._hasher = StuckHasher(server.auth._hasher, gate)  # type: ignore[assignment]
        for thread in threads:
            thread.start()
        stuck = MAX_HASHES + MAX_WAITING
        assert wait_until(lambda: len(answers) >= crowd - stuck, 120), answers
        assert answers.count((503, "busy")) == crowd - stuck and server.auth.checks.view()["waiting"] == stuck
        assert "Řízení turnaje" in director.page()  # answered while the crowd's checks are stuck
        assert director.ok("info", name="Velká cena", place="Brno", date="dnes") == "Hotovo: uloženo Velká cena Brno dnes"
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120, source_address=("127.0.7.1", 0))
        conn.request("POST", "/desk/login", "user=nobody&password=guess",
                     {"Content-Type": "application/x-www-form-urlencoded"})  # another laptop on the login page
        response = conn.getresponse()
        response.read()
        conn.close()
        anonymous = Director.__new__(Director)
        anonymous.port, anonymous.cookie = server.port, ""
        assert response.status == 303 and "hub právě ověřuje mnoho hesel" in anonymous.page(response.getheader("location"))
    finally:
        gate.set()
        for thread in threads:
            thread.join(120)
        server.stop()
        desk.stop()
    assert len(answers) == crowd and all(status in (401, 503) for status, _ in answers)


def test_a_referee_on_a_new_device_gets_in_with_a_one_time_code(tmp_path, capsys) -> None:
    """Issue 35: anyone guessing a known account name locked its referee out of every new device (the right
    password refused 39 of 39 times). A one-time code, made by a referee logged in on the desk or printed at set-up
    (``partiar hub referee code NAME``), lets that referee in from a new address once; it is used up, an expired
    or another referee's code lets nobody past the account's limit, and the database keeps no code."""
    from device.cli import main

    clock = FakeClock()
    db = Database(tmp_path / "hub.sqlite")
    auth = RefereeAuth(db, now=clock.now, limits=LoginLimits(per_client=2, per_user=4))
    auth.add_referee(REFEREE, REFEREE_PASSWORD)
    auth.add_referee("Zástupce", "heslo zástupce")
    for n in range(10):  # the crowd guesses the known account name from 10 laptops
        for i in range(2):
            with pytest.raises(AuthError):
                auth.login(REFEREE, f"guess {n} {i}", client=f"10.0.1.{n}")
    with pytest.raises(AuthError) as locked:
        auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.2.1")
    assert locked.value.status == 429  # the referee's new tablet, without a code: still locked out
    chiefs = auth.issue_code("Zástupce", "Zástupce")
    with pytest.raises(AuthError) as other:  # another referee's code does not open this account
        auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.2.1", code=chiefs)
    assert other.value.status == 429
    code = auth.issue_code(REFEREE, "Zástupce")  # the chief referee, logged in on the desk, makes one
    assert code not in (tmp_path / "hub.sqlite").read_bytes().decode("latin-1")
    session, _ = auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.2.1", code=code)
    assert auth.session(session) is not None
    with pytest.raises(AuthError) as used:  # used up: from yet another device it does not help
        auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.2.2", code=code)
    assert used.value.status == 429
    late = auth.issue_code(REFEREE, "Zástupce", seconds=60)
    auth._wall = lambda: 10**10  # type: ignore[method-assign]  # long after
    with pytest.raises(AuthError):
        auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.2.3", code=late)
    db.close()
    # printed at set-up, before any referee is logged in anywhere
    assert main(["hub", "--db", str(tmp_path / "hub.sqlite"), "referee", "code", REFEREE]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"kód nového zařízení pro {REFEREE}: ") and "platí 7 dní" in printed
    setup = printed.split(": ", 1)[1].split()[0]
    auth = RefereeAuth(Database(tmp_path / "hub.sqlite"), now=clock.now, limits=LoginLimits(per_client=2, per_user=4))
    for n in range(3):
        with pytest.raises(AuthError):
            auth.login(REFEREE, f"more guesses {n}", client=f"10.0.3.{n}")
    auth.login(REFEREE, REFEREE_PASSWORD, client="10.0.2.4", code=setup)


def test_the_referee_page_logs_in_with_a_device_code_past_the_accounts_limit(hub_with_referee) -> None:
    """The referee page's login (``/api/login``) takes a device code as the desk's login form does: the account
    locked by guesses from other laptops lets its referee in once from a new one with the code, and the code is
    used up."""
    server, auth = hub_with_referee
    for n in range(auth.limits.per_user // auth.limits.per_client + 1):  # guesses from several laptops
        for i in range(auth.limits.per_client):
            status = request(server.port, "POST", "/api/login", {"user": REFEREE, "password": f"guess {n} {i}"},
                             source=f"127.0.1.{n + 1}")[0]  # fmt: skip
            assert status in (401, 429)
    locked = request(server.port, "POST", "/api/login", {"user": REFEREE, "password": REFEREE_PASSWORD},
                     source="127.0.2.1")  # fmt: skip
    assert locked[0] == 429
    code = auth.issue_code(REFEREE, REFEREE)
    status, headers, body = request(server.port, "POST", "/api/login",
                                    {"user": REFEREE, "password": REFEREE_PASSWORD, "code": code},
                                    source="127.0.2.1")  # fmt: skip
    assert status == 200, body
    assert json.loads(body)["referee"] == REFEREE and "set-cookie" in headers
    again = request(server.port, "POST", "/api/login", {"user": REFEREE, "password": REFEREE_PASSWORD, "code": code},
                    source="127.0.2.2")  # fmt: skip
    assert again[0] == 429  # used up: another new laptop is still held to the account's limit
    page = request(server.port, "GET", "/referee")[2].decode()
    assert 'id="device-code"' in page and "Kód nového zařízení" in page
