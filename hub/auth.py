"""Referees as users: accounts with argon2 password hashes in the hub's database, login rate limiting,
sessions with a CSRF token, and an audit log of what each referee did.

Logging in gives an opaque session token (256 random bits; cookie ``partiar_session``: HttpOnly, SameSite=Strict,
Path=/, and Secure when the hub is served over TLS) and a CSRF token the page sends back in ``X-CSRF-Token`` with
every state-changing POST. Sessions are kept in the database (table ``sessions``), so a restart of the hub (even
``kill -9``) logs nobody out: the database holds only the SHA-256 of a token (a copy of the file lets nobody in),
the referee, the expiry (``SESSION_SECONDS`` after the login, wall-clock time) and the revocation (logout, or the
referee's account removed). The CSRF token is an HMAC of the session token, so it needs no storing. Logins are
throttled per client address and per account with back-off (``hub.throttle``), counted before the password is
checked; a refused attempt is answered 429 without checking the password, so guessing costs the hub no hashing,
and at most ``MAX_HASHES`` checks run at once with Argon2 sized for a small hub (``ARGON2_MEMORY_KIB``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from hub.db import Database
from hub.errors import AuthError, Refusal
from hub.throttle import LoginLimits, LoginThrottle

log = logging.getLogger(__name__)
T = TypeVar("T")

COOKIE = "partiar_session"
SESSION_SECONDS = 12 * 3600
_CSRF_KEY = b"partiar hub csrf"


def token_hash(session: str) -> str:
    """What the database keeps of a session token (a fast hash suits 256 random bits)."""
    return hashlib.sha256(session.encode()).hexdigest()


def csrf_token(session: str) -> str:
    """The CSRF token of a session: only a holder of the session token can compute it."""
    return hmac.new(session.encode(), _CSRF_KEY, hashlib.sha256).hexdigest()


ARGON2_MEMORY_KIB = 32 * 1024
"""Argon2id memory per password check (32 MiB), with ``ARGON2_TIME`` passes and one lane: about 0.1-0.3 s on a
Raspberry Pi 4 class hub, and ``MAX_HASHES`` (+1) checks at once hold at most 96 MiB (argon2-cffi's default, 64 MiB
and 4 lanes, let 40 logins sent at once take 2.5 GB). A hash made with other parameters still verifies and is
made again with these at the referee's next login."""
ARGON2_TIME = 2
MAX_HASHES = 2
"""Password checks running at once; further logins wait for a turn (holding no hash memory). A login from an
address the referee has logged in from before has one more slot of its own, so a queue of guesses from other
laptops never keeps the referee waiting: at most ``MAX_HASHES + 1`` checks at once."""
MAX_WAITING = 6
"""Logins (from addresses other than a referee's usual ones) waiting for a check at most: a further one is
refused at once (503, ``busy``), so a crowd guessing passwords neither piles up nor holds the hub's threads."""
BUSY_RETRY = 5.0
"""Seconds a login refused as ``busy`` is told to wait."""


class PasswordChecks:
    """Logins on threads of their own, off the web pages' worker pool (issue 35: 100 addresses guessing kept the
    director's page at 21-29 s while their checks queued in the pool the desk's actions use): ``MAX_HASHES``
    threads for logins from other addresses, with at most ``MAX_WAITING`` waiting and further ones refused at
    once; one thread of its own for logins from a referee's usual address."""

    def __init__(self) -> None:
        self._others = ThreadPoolExecutor(MAX_HASHES, thread_name_prefix="hub-login")
        self._usual = ThreadPoolExecutor(1, thread_name_prefix="hub-login-usual")
        self._lock = threading.Lock()
        self._pending = 0
        self.busy = 0
        """Logins refused as ``busy`` (since the hub started)."""

    async def run(self, usual: bool, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the fitting thread; raises AuthError 503 (``busy``) when the others' queue is full."""
        loop = asyncio.get_running_loop()
        if usual:
            return await loop.run_in_executor(self._usual, fn, *args)
        with self._lock:
            if self._pending >= MAX_HASHES + MAX_WAITING:
                self.busy += 1
                raise AuthError(503, f"the hub is checking many passwords: try again in {BUSY_RETRY:.0f} s", "busy",
                                BUSY_RETRY)  # fmt: skip
            self._pending += 1
        future = loop.run_in_executor(self._others, fn, *args)
        try:
            return await asyncio.shield(future)  # a client gone: its check still ends before its place is freed
        finally:
            if not future.done():
                future.add_done_callback(lambda _: self._release())
            else:
                self._release()

    def _release(self) -> None:
        with self._lock:
            self._pending -= 1

    def view(self) -> dict[str, int]:
        with self._lock:
            return {"waiting": self._pending, "busy": self.busy}


DESK_CODE_SECONDS = 15 * 60
"""How long a device code made on the desk is valid (the referee types it on the new device at once)."""
SETUP_CODE_SECONDS = 7 * 24 * 3600
"""How long a device code printed at set-up (``partiar hub referee code NAME``) is valid."""


def _code_key(code: str) -> str:
    """The ``meta`` key of a device code: its hash (12 random digits; a copy of the database holds no code)."""
    return "device_code:" + hashlib.sha256("".join(c for c in code if c.isdigit()).encode()).hexdigest()


def password_hasher() -> PasswordHasher:
    """The hub's Argon2id parameters (``ARGON2_MEMORY_KIB``)."""
    return PasswordHasher(time_cost=ARGON2_TIME, memory_cost=ARGON2_MEMORY_KIB, parallelism=1)


class RefereeAuth:
    """Referee accounts (in ``db``), sessions and the audit log. Thread-safe."""

    def __init__(
        self,
        db: Database,
        now: Callable[[], float] | None = None,
        limits: LoginLimits | None = None,
        wall: Callable[[], float] | None = None,
    ) -> None:
        """``now``: the clock of the login limits (monotonic); ``wall``: the clock of session expiry (wall-clock
        time, as it must mean the same after a restart)."""
        self.db = db
        self.limits = limits = limits or LoginLimits()
        self._hasher = password_hasher()
        self._hashing = threading.BoundedSemaphore(MAX_HASHES)
        self._hashing_usual = threading.BoundedSemaphore(1)
        self._usual: dict[str, set[str]] = {}
        for row in db.query("SELECT DISTINCT referee, client FROM audit WHERE action = 'login'"):
            self._usual.setdefault(row["referee"], set()).add(row["client"])  # known before the first login
        self.throttle = LoginThrottle(limits, now or time.monotonic)
        self._sessions: dict[str, tuple[str, float]] = {}
        """Live sessions already read from the database, by token hash: ``(referee, expires)``."""
        self._wall = wall or time.time
        self._lock = threading.Lock()
        self._dummy = self._hasher.hash(secrets.token_hex(8))
        self.checks = PasswordChecks()

    # -------------------------------------------------------------------------------------------- accounts
    def add_referee(self, name: str, password: str) -> None:
        """Create a referee or set a new password; raises HubError for an empty name or a short password."""
        name = name.strip()
        if not name or len(name) > 64:
            raise Refusal("refused_referee_name", name=name[:80])
        if len(password) < 8:
            raise Refusal("refused_referee_password", name=name)
        self.db.execute("INSERT INTO referees VALUES(?, ?, ?) ON CONFLICT(name) DO UPDATE SET hash = "
                        "excluded.hash", (name, self._hasher.hash(password), time.time()))  # fmt: skip
        self.audit(None, "referee_set", {"name": name})

    def remove_referee(self, name: str) -> bool:
        found = bool(self.db.query("SELECT 1 FROM referees WHERE name = ?", (name,)))
        self.db.execute("DELETE FROM referees WHERE name = ?", (name,))
        with self._lock:
            self.db.execute("UPDATE sessions SET revoked = ? WHERE referee = ? AND revoked IS NULL",
                            (self._wall(), name))  # fmt: skip
            self._sessions = {k: v for k, v in self._sessions.items() if v[0] != name}
        if found:
            self.audit(None, "referee_removed", {"name": name})
        return found

    def referees(self) -> list[str]:
        return [r["name"] for r in self.db.query("SELECT name FROM referees ORDER BY name")]

    @property
    def enabled(self) -> bool:
        """False while no referee account exists: nobody can log in, round control is off."""
        return bool(self.db.query("SELECT 1 FROM referees LIMIT 1"))

    # -------------------------------------------------------------------------------------------- logins
    def usual_addresses(self, user: str) -> set[str]:
        """The addresses ``user`` has logged in from (the audit log, read once per referee and kept up to date
        by each login): the account limit does not apply there."""
        with self._lock:
            known = self._usual.get(user)
        if known is None:
            rows = self.db.query("SELECT DISTINCT client FROM audit WHERE referee = ? AND action = 'login'", (user,))
            with self._lock:
                known = self._usual.setdefault(user, {r["client"] for r in rows})
        return set(known)

    def _verify(self, stored: str, password: str, usual: bool = False) -> bool:
        """One Argon2 check, at most MAX_HASHES at once (``usual``: from a referee's usual address, its own slot)."""
        with self._hashing_usual if usual else self._hashing:
            try:
                return self._hasher.verify(stored, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    # -------------------------------------------------------------------------------------------- device codes
    def issue_code(self, referee: str, by: str | None, seconds: float = DESK_CODE_SECONDS) -> str:
        """A one-time code letting ``referee`` log in from a new device however many guesses the account has drawn
        (the account limit is not applied to that login); valid ``seconds``, used up by the login it lets in.
        Raises Refusal for an unknown referee. The database keeps only its hash."""
        if not self.db.query("SELECT 1 FROM referees WHERE name = ?", (referee,)):
            raise Refusal("refused_no_referee", name=referee)
        code = "-".join(f"{secrets.randbelow(10**4):04d}" for _ in range(3))
        record = {"referee": referee, "expires": self._wall() + seconds, "used": None}
        self.db.set_meta(_code_key(code), json.dumps(record, ensure_ascii=False))
        self.audit(by, "device_code", {"name": referee})
        return code

    def _code_record(self, user: str, code: str) -> dict[str, Any] | None:
        """The unused, unexpired code ``code`` of referee ``user``, else None."""
        code = "".join(c for c in code if c.isdigit())
        if len(code) != 12:
            return None
        raw = self.db.get_meta(_code_key(code))
        record = json.loads(raw) if raw else None
        if record is None or record["referee"] != user or record["used"] or record["expires"] < self._wall():
            return None
        return record

    # -------------------------------------------------------------------------------------------- logins
    def login(self, user: str, password: str, client: str = "", code: str = "") -> tuple[str, str]:
        """``(session id, CSRF token)`` for a referee's right password; raises AuthError 401 otherwise, 429 when
        too many logins failed lately, 403 when no referee account exists. ``code``: a device code of the referee
        (``issue_code``): the account's limit is not applied (the address's is), and the code is used up."""
        if not self.enabled:
            raise AuthError(403, "round control is off: no referee account (partiar hub referee add NAME)", "off")
        rows = self.db.query("SELECT hash FROM referees WHERE name = ?", (user,))
        usual = self.usual_addresses(user) if rows else set()
        record = self._code_record(user, code) if rows and code else None
        attempt = self.throttle.begin(user, client, bool(rows), usual | {client} if record else usual)
        ok = self._verify(rows[0]["hash"] if rows else self._dummy, password, client in usual) and bool(rows)
        if not ok:
            self.audit(None, "login_failed", {"user": user[:64]}, client)
            raise AuthError(401, "wrong referee name or password", "login")
        self.throttle.succeeded(attempt)
        if record is not None:
            self.db.set_meta(_code_key("".join(c for c in code if c.isdigit())),
                             json.dumps({**record, "used": self._wall()}, ensure_ascii=False))  # fmt: skip
        if self._hasher.check_needs_rehash(rows[0]["hash"]):
            self.db.execute("UPDATE referees SET hash = ? WHERE name = ?", (self._hasher.hash(password), user))
        session, now = secrets.token_urlsafe(32), self._wall()
        digest = token_hash(session)
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE expires < ?", (now,))  # expired ones, revoked or not
            conn.execute("INSERT INTO sessions VALUES(?, ?, ?, ?, NULL)", (digest, user, now, now + SESSION_SECONDS))
        with self._lock:
            self._sessions[digest] = (user, now + SESSION_SECONDS)
        self.audit(user, "login", {}, client)
        with self._lock:
            self._usual.setdefault(user, set()).add(client)
        return session, csrf_token(session)

    async def login_off_path(self, user: str, password: str, client: str = "", code: str = "") -> tuple[str, str]:
        """``login`` for the web pages: on the password checks' own threads (``PasswordChecks``), never in the
        worker pool the pages use; a login from the account's usual address on its own thread."""
        with self._lock:
            usual = client in self._usual.get(user, ())
        return await self.checks.run(usual, self.login, user, password, client, code)

    def logout(self, session: str | None, client: str = "") -> None:
        """Revoke the session (in the database: it stays logged out after a restart too)."""
        entry = self.session(session)
        if entry is None or not session:
            return
        digest = token_hash(session)
        with self._lock:
            self.db.execute("UPDATE sessions SET revoked = ? WHERE token_hash = ?", (self._wall(), digest))
            self._sessions.pop(digest, None)
        self.audit(entry[0], "logout", {}, client)

    def session(self, session: str | None) -> tuple[str, str] | None:
        """``(referee, CSRF token)`` of a live session (logged in, not expired, not revoked), else None."""
        if not session or len(session) > 256:
            return None
        digest = token_hash(session)
        with self._lock:  # read under the lock: a revocation cannot slip between the read and the cache
            entry = self._sessions.get(digest)
            if entry is None:
                rows = self.db.query("SELECT referee, expires FROM sessions WHERE token_hash = ? AND revoked IS "
                                     "NULL", (digest,))  # fmt: skip
                if not rows:
                    return None
                entry = self._sessions[digest] = (rows[0]["referee"], rows[0]["expires"])
        if entry[1] < self._wall():
            with self._lock:
                self._sessions.pop(digest, None)
            return None
        return entry[0], csrf_token(session)

    def check(self, session: str | None, token: str | None) -> str:
        """The referee of a POST: raises AuthError 401 without a live session, 403 with a wrong CSRF token."""
        entry = self.session(session)
        if entry is None:
            raise AuthError(401, "a referee must log in first", "session")
        if not token or not hmac.compare_digest(token.encode(), entry[1].encode()):
            raise AuthError(403, "missing or wrong X-CSRF-Token", "csrf")
        return entry[0]

    # -------------------------------------------------------------------------------------------- audit
    def audit(self, referee: str | None, action: str, detail: dict[str, Any], client: str = "") -> None:
        """Record a referee action (login, round command, export, account change)."""
        self.db.execute("INSERT INTO audit(at, referee, action, detail, client) VALUES(?, ?, ?, ?, ?)",
                        (time.time(), referee, action, json.dumps(detail, ensure_ascii=False), client))  # fmt: skip

    def audit_log(self, limit: int = 200) -> list[dict[str, Any]]:
        """The latest referee actions, newest first."""
        rows = self.db.query("SELECT * FROM audit ORDER BY n DESC LIMIT ?", (limit,))
        return [{"at": r["at"], "referee": r["referee"], "action": r["action"], "detail": json.loads(r["detail"]),
                 "client": r["client"]} for r in rows]  # fmt: skip
