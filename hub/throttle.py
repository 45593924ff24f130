"""Throttling of referee logins: per client address and per referee account, with back-off, counted before the
password is checked, so a burst of attempts sent at once cannot slip past the limit while the hashes run.

Every attempt counts as a failure the moment it is let through (``LoginThrottle.begin``, one step under one
lock); a right password takes its count back (``succeeded``). A key (an address, an account) gets ``free``
failures; after that each attempt waits ``base`` seconds after the key's last failure, doubling with every
further failure up to ``longest``. A key forgets its failures ``forget`` seconds after the last one.

The account limit never locks a referee out of their own account: it is not applied to the addresses the referee
has logged in from before (``usual``, read from the audit log by ``hub.auth``), so 50 wrong passwords a minute
from 10 laptops slow those laptops down while the referee's own laptop gets in with the right password. There
is no limit over all logins: a lockout for everyone is what an attacker would want. What bounds the hub's work
is the per-address back-off and the number of password hashes running at once (``hub.auth.MAX_HASHES``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from hub.errors import AuthError

MAX_KEYS = 4096
"""Addresses and accounts tracked at most (the idlest are forgotten first beyond this)."""


@dataclass(frozen=True)
class LoginLimits:
    """``per_client`` free failures per address, ``per_user`` per referee account (from addresses the referee has
    not logged in from before); then a wait of ``base`` seconds doubling per further failure up to ``longest``;
    failures are forgotten ``forget`` seconds after a key's last one."""

    per_client: int = 5
    per_user: int = 10
    base: float = 15.0
    longest: float = 900.0
    forget: float = 3600.0


@dataclass
class _Key:
    failures: int = 0
    last: float = 0.0

    def wait(self, free: int, limits: LoginLimits, now: float) -> float:
        """Seconds until this key may try again (0: now)."""
        if self.failures < free:
            return 0.0
        backoff = min(limits.base * 2 ** min(self.failures - free, 30), limits.longest)
        return max(0.0, self.last + backoff - now)


@dataclass(frozen=True)
class Attempt:
    """A login let through: the keys its provisional failure was counted under."""

    client: str
    account: str | None


class LoginThrottle:
    """Failed-login counts per address and per account (thread-safe)."""

    def __init__(self, limits: LoginLimits, now: Callable[[], float]) -> None:
        self.limits = limits
        self._now = now
        self._lock = threading.Lock()
        self._keys: dict[str, _Key] = {}
        self.refused = 0
        """Attempts answered 429 without a password check (since the hub started)."""

    def _key(self, name: str, now: float) -> _Key:
        key = self._keys.get(name)
        if key is None:
            if len(self._keys) >= MAX_KEYS:
                self._prune(now)
            key = self._keys[name] = _Key()
        return key

    def _prune(self, now: float) -> None:
        stale = [k for k, v in self._keys.items() if v.last <= now - self.limits.forget]
        for k in stale:
            del self._keys[k]
        if len(self._keys) >= MAX_KEYS:  # all recent: forget the idlest half
            for k, _ in sorted(self._keys.items(), key=lambda kv: kv[1].last)[: MAX_KEYS // 2]:
                del self._keys[k]

    def _fresh(self, name: str, now: float) -> _Key | None:
        key = self._keys.get(name)
        if key is not None and key.last <= now - self.limits.forget:
            del self._keys[name]
            return None
        return key

    def begin(self, user: str, client: str, account: bool, usual: Collection[str]) -> Attempt:
        """Let a login through, counting it as failed until ``succeeded``; raises AuthError 429 (with the wait)
        while the address, or the account from an address it was not used from before, must wait. ``account``:
        whether ``user`` is a referee (only real accounts are counted)."""
        now = self._now()
        names = [(f"client:{client}", self.limits.per_client)]
        if account and client not in usual:
            names.append((f"user:{user}", self.limits.per_user))
        with self._lock:
            for name, free in names:
                key = self._fresh(name, now)
                wait = key.wait(free, self.limits, now) if key is not None else 0.0
                if wait > 0:
                    self.refused += 1
                    raise AuthError(429, f"too many failed logins: try again in {wait:.0f} s", "rate", wait)
            for name, _ in names:
                key = self._key(name, now)
                key.failures += 1
                key.last = now
        return Attempt(client, user if len(names) > 1 else None)

    def succeeded(self, attempt: Attempt) -> None:
        """The password was right: the address starts afresh, the account's provisional failure is taken back."""
        with self._lock:
            self._keys.pop(f"client:{attempt.client}", None)
            if attempt.account is not None:
                key = self._keys.get(f"user:{attempt.account}")
                if key is not None:
                    key.failures = max(0, key.failures - 1)

    def view(self) -> dict[str, Any]:
        """For the status page: per address and per account the failures and the wait left, most failures
        first, and the attempts refused without a check."""
        now = self._now()
        out: dict[str, list[dict[str, Any]]] = {"client": [], "user": []}
        with self._lock:
            for name, key in self._keys.items():
                if key.failures and key.last > now - self.limits.forget:
                    kind, _, who = name.partition(":")
                    free = self.limits.per_client if kind == "client" else self.limits.per_user
                    out[kind].append({"who": who, "failures": key.failures,
                                      "wait": round(key.wait(free, self.limits, now), 1)})  # fmt: skip
            refused = self.refused
        for rows in out.values():
            rows.sort(key=lambda r: -r["failures"])
        return {"addresses": out["client"][:50], "accounts": out["user"][:50], "refused": refused}
