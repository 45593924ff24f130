"""``partiar hub [--broker URL] [--listen HOST:PORT] [--referee-password-file FILE] [--broker-user NAME]
[--broker-password-file FILE]``: the tournament hub.

Subscribes to every table on the broker and serves the live pages (all tables, one table, standings), the
chief referee's round control (only with ``--referee-password-file``) and the organiser's exports. Runs until
interrupted. Bad arguments or an unreadable password file: a message on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from device.errors import DeviceError
from device.hub.auth import RefereeAuth, read_password_file
from device.hub.link import HubLink
from device.hub.server import HubServer
from device.hub.store import HubStore
from device.publish.topics import HUB_USER, SchemaError

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``hub`` to the ``partiar`` command."""
    p = subparsers.add_parser("hub", help="tournament hub: every table live over MQTT, round control, exports")
    p.add_argument("--broker", default="mqtt://127.0.0.1:1883", metavar="URL",
                   help="the MQTT broker (mqtt://host:port or mqtts://host:port; default %(default)s)")
    p.add_argument("--listen", default="0.0.0.0:8080", metavar="HOST:PORT",
                   help="address of the web pages (default %(default)s)")
    p.add_argument("--referee-password-file", type=Path, metavar="FILE",
                   help="the chief referee's password (first line); without it round control is off")
    p.add_argument("--broker-user", default=HUB_USER, metavar="NAME", help="the hub's broker user (default hub)")
    p.add_argument("--broker-password-file", type=Path, metavar="FILE", help="the hub's broker password (first line)")
    p.set_defaults(func=run)  # fmt: skip


def parse_listen(text: str) -> tuple[str, int]:
    """``(host, port)`` from ``HOST:PORT``; raises ValueError naming the text."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen {text!r} must be HOST:PORT, e.g. 0.0.0.0:8080")
    return host.strip("[]") or "0.0.0.0", int(port)


def run(args: argparse.Namespace) -> int:
    try:
        host, port = parse_listen(args.listen)
        referee = read_password_file(args.referee_password_file) if args.referee_password_file else None
        broker_password = read_password_file(args.broker_password_file) if args.broker_password_file else None
        store = HubStore()
        link = HubLink(store, args.broker, username=args.broker_user, password=broker_password)
        server = HubServer(store, host, port, link=link, auth=RefereeAuth(referee))
    except (ValueError, DeviceError, SchemaError, OSError) as exc:
        print(f"partiar hub: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    link.start()
    server.start()
    log.info("hub on http://%s:%d/ (broker %s)%s", host, server.port, args.broker,
             "" if referee else "; round control off (no --referee-password-file)")  # fmt: skip
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    server.stop()
    link.stop()
    return EXIT_OK
