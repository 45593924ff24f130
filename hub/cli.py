"""``partiar hub``: the tournament hub, and the referee accounts and backups of its database.

    partiar hub [--db FILE] [--broker URL] [--listen HOST:PORT] [--broker-user NAME] [--broker-password-file FILE]
                [--broker-ca FILE] [--tls-cert FILE --tls-key FILE] [--proxy ADDR] [--players CSV]
                [--commit-window SECONDS]
    partiar hub referee add NAME [--password-file FILE]     (else the password is asked for twice)
    partiar hub referee remove NAME | list
    partiar hub backup FILE
    partiar hub brokerconf DIR [--tables N] [--name HOST ...] [--hub-password-file FILE] [--table-ca-file PATH]

Serves the live pages on loopback (``127.0.0.1:8070``) unless ``--listen`` names another address. Runs until
interrupted. Bad arguments or an unreadable file: a message on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import csv
import getpass
import logging
import sqlite3
import sys
from pathlib import Path

from hub.auth import RefereeAuth
from hub.db import COMMIT_WINDOW, Database
from hub.director import open_desk
from hub.errors import HubError
from hub.link import HubLink
from hub.store import HubStore
from hub.web import HubServer
from shared.stop_signal import wait_for_stop
from tablelink.topics import HUB_USER, SchemaError
from tournament.errors import TournamentError

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_BAD_INPUT = 2
DEFAULT_LISTEN = "127.0.0.1:8070"
"""Loopback, and not the simulator's 8080: serving the tournament to the hall takes ``--listen 0.0.0.0:8070``."""
DEFAULT_DB = "partiar-hub.sqlite"


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``hub`` to the ``partiar`` command."""
    p = subparsers.add_parser("hub", help="tournament hub: every table live over MQTT, round control, exports")
    p.add_argument("--db", type=Path, default=Path(DEFAULT_DB), metavar="FILE",
                   help="the tournament's SQLite file (default %(default)s in the current folder)")
    p.add_argument("--broker", default="mqtt://127.0.0.1:1883", metavar="URL",
                   help="the MQTT broker (mqtt://host:port or mqtts://host:port; default %(default)s)")
    p.add_argument("--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT",
                   help="address of the web pages (default %(default)s: this machine only)")
    p.add_argument("--broker-user", default=HUB_USER, metavar="NAME", help="the hub's broker user (default hub)")
    p.add_argument("--broker-password-file", type=Path, metavar="FILE", help="the hub's broker password (first line)")
    p.add_argument("--broker-ca", type=Path, metavar="FILE", help="CA certificate of an mqtts:// broker")
    p.add_argument("--tls-cert", type=Path, metavar="FILE", help="serve HTTPS with this certificate (PEM)")
    p.add_argument("--tls-key", type=Path, metavar="FILE", help="the certificate's private key (PEM)")
    p.add_argument("--proxy", metavar="ADDR",
                   help="a TLS reverse proxy's address whose X-Forwarded-Proto/-For headers are trusted")
    p.add_argument("--players", type=Path, metavar="CSV",
                   help="register players: a CSV with columns id,name[,club,rating] (ČAS ids)")
    p.add_argument("--table-prefix", default="", metavar="PREFIX",
                   help="the tournament's table N is the table unit PREFIX+N on the broker (default: N itself)")
    p.add_argument("--no-show-minutes", type=float, default=10.0, metavar="MINUTES",
                   help="flag a table on the desk whose game has not begun this long after publishing (default 10)")
    p.add_argument("--demo", action="store_true",
                   help="rehearse on this PC: its own Mosquitto, this hub and simulated tables (docs/hub.md)")
    p.add_argument("--demo-tables", type=int, default=4, metavar="N", help="with --demo: simulated tables")
    p.add_argument("--commit-window", type=float, default=COMMIT_WINDOW, metavar="SECONDS",
                   help="let the database writes of this long gather into one commit (default %(default)s); a "
                        "message is acknowledged to the broker after its commit")
    p.set_defaults(func=run)
    sub = p.add_subparsers(dest="hub_command", metavar="{referee,backup,brokerconf}")
    ref = sub.add_parser("referee", help="referee accounts: add NAME, remove NAME, list")
    ref.add_argument("action", choices=("add", "remove", "list"))
    ref.add_argument("name", nargs="?")
    ref.add_argument("--password-file", type=Path, metavar="FILE", help="the password (first line)")
    ref.set_defaults(func=run_referee)
    backup = sub.add_parser("backup", help="a consistent copy of the database, also while the hub runs")
    backup.add_argument("target", type=Path)
    backup.set_defaults(func=run_backup)
    from hub.brokerconf import add_arguments
    from hub.brokerconf import run as run_brokerconf

    conf = sub.add_parser("brokerconf", help="the tournament's broker (Mosquitto): users, ACL, TLS, each table's "
                          "[hub] section", description=run_brokerconf.__doc__)
    add_arguments(conf)
    conf.set_defaults(func=run_brokerconf)  # fmt: skip


def parse_listen(text: str) -> tuple[str, int]:
    """``(host, port)`` from ``HOST:PORT``; raises ValueError naming the text."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen {text!r} must be HOST:PORT, e.g. {DEFAULT_LISTEN}")
    return host.strip("[]") or "127.0.0.1", int(port)


def read_secret(path: Path, what: str) -> str:
    """A password file's first line, stripped; raises HubError naming the file if it is missing or empty."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise HubError(f"{what} file {path}: {exc.strerror or exc}") from None
    secret = text.splitlines()[0].strip() if text.strip() else ""
    if not secret:
        raise HubError(f"{what} file {path} is empty")
    return secret


def read_players(path: Path) -> list[tuple[str, str]]:
    """``(id, name)`` rows of a players CSV (header ``id,name``); raises HubError naming the file and line."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, csv.Error, UnicodeDecodeError) as exc:
        raise HubError(f"players file {path}: {exc}") from None
    out = []
    for line, row in enumerate(rows, 2):
        pid, name = (row.get("id") or "").strip(), (row.get("name") or "").strip()
        if not pid or not name:
            raise HubError(f"players file {path}:{line}: needs an id and a name (columns id,name)")
        out.append((pid, name))
    return out


def run(args: argparse.Namespace) -> int:
    if args.demo:
        from hub.demo import run_demo

        try:
            host, port = parse_listen(args.listen)
        except ValueError as exc:
            print(f"partiar hub: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        return run_demo(host, port, args.demo_tables)
    try:
        host, port = parse_listen(args.listen)
        if (args.tls_cert is None) != (args.tls_key is None):
            raise HubError("--tls-cert and --tls-key go together")
        broker_password = read_secret(args.broker_password_file, "broker password") if args.broker_password_file else None
        if not 0 <= args.commit_window <= 3600:
            raise HubError(f"--commit-window {args.commit_window} must be 0-3600 seconds")
        db = Database(args.db, commit_window=args.commit_window)
        store = HubStore(db)
        if args.players:
            store.set_players(read_players(args.players))
        link = HubLink(store, args.broker, username=args.broker_user, password=broker_password,
                       ca_file=str(args.broker_ca) if args.broker_ca else None)  # fmt: skip
        auth = RefereeAuth(db)
        desk = open_desk(store, link.send_pairing, args.table_prefix, no_show_after=args.no_show_minutes * 60)
        if args.players:
            desk.import_csv(Path(args.players).read_text(encoding="utf-8"), "cli")
        server = HubServer(store, host, port, link=link, auth=auth, proxy=args.proxy, desk=desk,
                           ssl_certfile=str(args.tls_cert) if args.tls_cert else None,
                           ssl_keyfile=str(args.tls_key) if args.tls_key else None)  # fmt: skip
    except (ValueError, HubError, SchemaError, OSError, sqlite3.Error, TournamentError) as exc:
        print(f"partiar hub: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    link.start()
    server.start()
    scheme = "https" if server.tls else "http"
    log.info("hub on %s://%s:%d/ (broker %s, database %s)%s", scheme, host, server.port, args.broker, args.db,
             "" if auth.enabled else "; round control off (no referee: partiar hub referee add NAME)")  # fmt: skip
    print(f"partiar hub: {scheme}://{host}:{server.port}/", flush=True)
    log.info("the tournament desk: %s://%s:%d/desk, live standings: /live", scheme, host, server.port)
    wait_for_stop()
    desk.stop()
    server.stop()
    link.stop()
    db.close()
    return EXIT_OK


def run_referee(args: argparse.Namespace) -> int:
    try:
        auth = RefereeAuth(Database(args.db))
        if args.action == "list":
            for name in auth.referees():
                print(name)
            return EXIT_OK
        if not args.name:
            raise HubError(f"partiar hub referee {args.action} needs a NAME")
        if args.action == "remove":
            if not auth.remove_referee(args.name):
                raise HubError(f"no referee {args.name!r}")
            print(f"referee {args.name} removed")
            return EXIT_OK
        if args.password_file:
            password = read_secret(args.password_file, "referee password")
        else:
            password = getpass.getpass(f"password of {args.name}: ")
            if getpass.getpass("again: ") != password:
                raise HubError("the passwords differ")
        auth.add_referee(args.name, password)
    except (HubError, OSError, sqlite3.Error) as exc:
        print(f"partiar hub referee: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"referee {args.name} can log in")
    return EXIT_OK


def run_backup(args: argparse.Namespace) -> int:
    if not Path(args.db).exists():
        print(f"partiar hub backup: no database {args.db}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        Database(args.db).backup(args.target)
    except (OSError, sqlite3.Error) as exc:
        print(f"partiar hub backup: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"copied {args.db} to {args.target}")
    return EXIT_OK
