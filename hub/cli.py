"""``partiar hub``: the tournament hub, and the referee accounts and backups of its database.

    partiar hub [--db FILE] [--broker URL] [--listen HOST:PORT] [--broker-user NAME] [--broker-password-file FILE]
                [--broker-ca FILE] [--tls-cert FILE --tls-key FILE] [--proxy ADDR] [--players CSV]
                [--commit-window SECONDS]
    partiar hub referee add NAME [--password-file FILE]     (else the password is asked for twice)
    partiar hub referee remove NAME | list | code NAME  (a one-time code for a new device)
    partiar hub backup FILE
    partiar hub brokerconf DIR [--tables N] [--name HOST ...] [--hub-password-file FILE] [--table-ca-file PATH]

Serves the live pages on loopback (``127.0.0.1:8070``) unless ``--listen`` names another address. Runs until
interrupted. Bad arguments or an unreadable file: a message on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sqlite3
import sys
from pathlib import Path

from hub.auth import SETUP_CODE_SECONDS, RefereeAuth
from hub.db import COMMIT_WINDOW, Database
from hub.director import open_desk
from hub.errors import HubError
from hub.link import HubLink
from hub.store import HubStore
from hub.web import HubServer
from shared.gcg_texts import os_reason
from shared.language import language, say
from shared.stop_signal import wait_for_stop
from tablelink.topics import HUB_USER, SchemaError
from tournament.errors import TournamentError
from tournament.folder import FolderError, decode_csv
from tournament.folder import read_players as tournament_players
from tournament.players import Player

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_BAD_INPUT = 2
DEFAULT_LISTEN = "127.0.0.1:8070"
"""Loopback, and not the simulator's 8080: serving the tournament to the hall takes ``--listen 0.0.0.0:8070``."""
DEFAULT_DB = "partiar-hub.sqlite"


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``hub`` to the ``partiar`` command (its help in the command's language: ``shared.language``)."""
    p = subparsers.add_parser("hub", help=say("turnajový hub: všechny stoly živě přes MQTT, řízení kol, exporty",
                                              "tournament hub: every table live over MQTT, round control, exports"))
    p.add_argument("--db", type=Path, default=Path(DEFAULT_DB), metavar=say("SOUBOR", "FILE"),
                   help=say("SQLite soubor turnaje (výchozí %(default)s v aktuální složce)",
                            "the tournament's SQLite file (default %(default)s in the current folder)"))
    p.add_argument("--broker", default="mqtt://127.0.0.1:1883", metavar="URL",
                   help=say("MQTT broker (mqtt://počítač:port nebo mqtts://počítač:port; výchozí %(default)s)",
                            "the MQTT broker (mqtt://host:port or mqtts://host:port; default %(default)s)"))
    p.add_argument("--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT",
                   help=say("adresa webových stránek (výchozí %(default)s: jen tento počítač)",
                            "address of the web pages (default %(default)s: this machine only)"))
    p.add_argument("--broker-user", default=HUB_USER, metavar=say("JMÉNO", "NAME"),
                   help=say("uživatel hubu u brokera (výchozí hub)", "the hub's broker user (default hub)"))
    p.add_argument("--broker-password-file", type=Path, metavar=say("SOUBOR", "FILE"),
                   help=say("heslo hubu u brokera (první řádek)", "the hub's broker password (first line)"))
    p.add_argument("--broker-ca", type=Path, metavar=say("SOUBOR", "FILE"),
                   help=say("certifikát CA brokera mqtts://", "CA certificate of an mqtts:// broker"))
    p.add_argument("--tls-cert", type=Path, metavar=say("SOUBOR", "FILE"),
                   help=say("stránky přes HTTPS s tímto certifikátem (PEM)", "serve HTTPS with this certificate (PEM)"))
    p.add_argument("--tls-key", type=Path, metavar=say("SOUBOR", "FILE"),
                   help=say("soukromý klíč certifikátu (PEM)", "the certificate's private key (PEM)"))
    p.add_argument("--proxy", metavar=say("ADRESA", "ADDR"),
                   help=say("adresa TLS reverzní proxy, jejímž hlavičkám X-Forwarded-Proto/-For hub věří",
                            "a TLS reverse proxy's address whose X-Forwarded-Proto/-For headers are trusted"))
    p.add_argument("--players", type=Path, metavar="CSV",
                   help=say("přihlásit hráče: CSV se sloupci id,name,club,rating (ČAS id; i středníky a české "
                            "záhlaví id;jméno;klub;síla)",
                            "register players: a CSV with columns id,name,club,rating (ČAS ids; semicolons too)"))
    p.add_argument("--table-prefix", default="", metavar=say("PŘEDPONA", "PREFIX"),
                   help=say("stůl N turnaje je u brokera stolní jednotka PŘEDPONA+N (výchozí: samo N)",
                            "the tournament's table N is the table unit PREFIX+N on the broker (default: N itself)"))
    p.add_argument("--no-show-minutes", type=float, default=10.0, metavar=say("MINUTY", "MINUTES"),
                   help=say("označit na stole ředitele stůl, kde partie nezačala tak dlouho po zveřejnění (výchozí 10)",
                            "flag a table on the desk whose game has not begun this long after publishing (default 10)"))
    p.add_argument("--demo", action="store_true",
                   help=say("zkouška na tomto počítači: vlastní Mosquitto, tento hub a simulované stoly (docs/hub.md)",
                            "rehearse on this PC: its own Mosquitto, this hub and simulated tables (docs/hub.md)"))
    p.add_argument("--demo-tables", type=int, default=4, metavar="N",
                   help=say("s --demo: počet simulovaných stolů", "with --demo: simulated tables"))
    p.add_argument("--commit-window", type=float, default=COMMIT_WINDOW, metavar=say("SEKUNDY", "SECONDS"),
                   help=say("zápisy do databáze za tuto dobu jdou jedním commitem (výchozí %(default)s); zpráva je "
                            "brokeru potvrzena po svém commitu",
                            "let the database writes of this long gather into one commit (default %(default)s); a "
                            "message is acknowledged to the broker after its commit"))
    p.set_defaults(func=run)
    sub = p.add_subparsers(dest="hub_command", metavar="{referee,backup,brokerconf}")
    ref = sub.add_parser("referee", help=say("účty rozhodčích: add JMÉNO, remove JMÉNO, list, code JMÉNO (jednorázový "
                                             "kód pro přihlášení z nového zařízení)",
                                             "referee accounts: add NAME, remove NAME, list, code NAME (a one-time "
                                             "code to log in from a new device)"))
    ref.add_argument("action", choices=("add", "remove", "list", "code"))
    ref.add_argument("name", nargs="?", metavar=say("JMÉNO", "NAME"))
    ref.add_argument("--password-file", type=Path, metavar=say("SOUBOR", "FILE"),
                     help=say("heslo (první řádek)", "the password (first line)"))
    ref.set_defaults(func=run_referee)
    backup = sub.add_parser("backup", help=say("ucelená kopie databáze, i za běhu hubu",
                                               "a consistent copy of the database, also while the hub runs"))
    backup.add_argument("target", type=Path, metavar=say("SOUBOR", "FILE"))
    backup.set_defaults(func=run_backup)
    from hub.brokerconf import add_arguments
    from hub.brokerconf import run as run_brokerconf

    conf = sub.add_parser("brokerconf", help=say("broker turnaje (Mosquitto): uživatelé, ACL, TLS, sekce [hub] "
                                                 "každého stolu", "the tournament's broker (Mosquitto): users, ACL, "
                                                 "TLS, each table's [hub] section"), description=run_brokerconf.__doc__)
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
        why = os_reason(exc, language())
        raise HubError(say(f"soubor {path} ({what}): {why}", f"{what} file {path}: {why}")) from None
    secret = text.splitlines()[0].strip() if text.strip() else ""
    if not secret:
        raise HubError(say(f"soubor {path} ({what}) je prázdný", f"{what} file {path} is empty"))
    return secret


def read_players(path: Path) -> list[Player]:
    """The players of a players CSV (``tournament.folder.read_players``: the one reader); raises TournamentError
    naming the file, line and field (``FolderError.said``), or HubError for a file that cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        why = os_reason(exc, language())
        raise HubError(say(f"soubor hráčů {path}: {why}", f"players file {path}: {why}")) from None
    return tournament_players(decode_csv(data, str(path)), str(path))


def said(exc: BaseException) -> str:
    """An error as the organiser reads it, in the command's language: the hub's and the players list's own words
    (``HubError.said``, ``FolderError.said``), else the error's message."""
    if isinstance(exc, (HubError, FolderError)):
        return exc.said(language())
    return str(exc)


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
            raise HubError(say("--tls-cert a --tls-key patří k sobě", "--tls-cert and --tls-key go together"))
        broker_password = read_secret(args.broker_password_file, say("heslo hubu u brokera", "broker password")) \
            if args.broker_password_file else None  # fmt: skip
        if not 0 <= args.commit_window <= 3600:
            raise HubError(say(f"--commit-window {args.commit_window} musí být 0 až 3600 sekund",
                               f"--commit-window {args.commit_window} must be 0-3600 seconds"))
        db = Database(args.db, commit_window=args.commit_window)
        store = HubStore(db)
        if args.players:
            players = read_players(args.players)
            store.set_players([(p.id, p.name) for p in players])
        link = HubLink(store, args.broker, username=args.broker_user, password=broker_password,
                       ca_file=str(args.broker_ca) if args.broker_ca else None)  # fmt: skip
        auth = RefereeAuth(db)
        desk = open_desk(store, link.send_pairing, args.table_prefix, no_show_after=args.no_show_minutes * 60)
        if args.players:
            desk.register(players, "cli")
        server = HubServer(store, host, port, link=link, auth=auth, proxy=args.proxy, desk=desk,
                           ssl_certfile=str(args.tls_cert) if args.tls_cert else None,
                           ssl_keyfile=str(args.tls_key) if args.tls_key else None)  # fmt: skip
    except (ValueError, HubError, SchemaError, OSError, sqlite3.Error, TournamentError) as exc:
        print(f"partiar hub: {said(exc)}", file=sys.stderr)
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
            raise HubError(say(f"partiar hub referee {args.action} chce JMÉNO rozhodčího",
                               f"partiar hub referee {args.action} needs a NAME"))
        if args.action == "code":
            code = auth.issue_code(args.name, None, SETUP_CODE_SECONDS)
            print(say(f"kód nového zařízení pro {args.name}: {code} (platí 7 dní, jedno přihlášení: zadá se na "
                      "přihlašovací stránce řízení turnaje spolu s heslem, když hub přihlášení odmítá)",
                      f"a new device's code for {args.name}: {code} (valid 7 days, one login: typed in on the desk's "
                      "login page with the password when the hub refuses the login)"))
            return EXIT_OK
        if args.action == "remove":
            if not auth.remove_referee(args.name):
                raise HubError(say(f"rozhodčí {args.name!r} neexistuje", f"no referee {args.name!r}"))
            print(say(f"rozhodčí {args.name} zrušen", f"referee {args.name} removed"))
            return EXIT_OK
        if args.password_file:
            password = read_secret(args.password_file, say("heslo rozhodčího", "referee password"))
        else:
            password = getpass.getpass(say(f"heslo rozhodčího {args.name}: ", f"password of {args.name}: "))
            if getpass.getpass(say("heslo znovu: ", "again: ")) != password:
                raise HubError(say("hesla se liší", "the passwords differ"))
        auth.add_referee(args.name, password)
    except (HubError, OSError, sqlite3.Error) as exc:
        print(f"partiar hub referee: {said(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(say(f"rozhodčí {args.name} se může přihlásit", f"referee {args.name} can log in"))
    return EXIT_OK


def run_backup(args: argparse.Namespace) -> int:
    if not Path(args.db).exists():
        print(say(f"partiar hub backup: databáze {args.db} neexistuje", f"partiar hub backup: no database {args.db}"),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        Database(args.db).backup(args.target)
    except (OSError, sqlite3.Error) as exc:
        print(f"partiar hub backup: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(say(f"{args.db} zkopírováno do {args.target}", f"copied {args.db} to {args.target}"))
    return EXIT_OK
