"""The sd_notify client against a real AF_UNIX datagram socket, as systemd provides it."""

from __future__ import annotations

import configparser
import socket
from pathlib import Path

from device.systemd_notify import Notifier


def test_messages_reach_the_notify_socket_and_the_watchdog_period_is_half_the_timeout(tmp_path):
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        server.settimeout(5)
        notifier = Notifier({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "10000000"})
        assert notifier.watchdog_period == 5.0
        assert notifier.ready() and notifier.watchdog()
        assert server.recv(100) == b"READY=1"
        assert server.recv(100) == b"WATCHDOG=1"


def test_outside_systemd_nothing_is_sent():
    notifier = Notifier({})
    assert notifier.watchdog_period is None
    assert notifier.ready() is False


def test_a_vanished_socket_is_reported_not_raised(tmp_path):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert notifier.watchdog() is False


def test_the_shipped_unit_restarts_the_table_for_ever():
    """Issue 26: with systemd's default start limit (5 starts within 10 s) a table whose first starts failed fast
    stayed down with a blank LCD for the rest of the round."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    unit.read(Path(__file__).resolve().parents[1] / "deploy" / "systemd" / "partiar.service", encoding="utf-8")
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"
    assert unit["Service"]["Restart"] == "always"
