"""Mosquitto configuration for a tournament: per-table credentials and an ACL by which a table writes only its own
topics (its broker user name is its table id), and the hub reads every table and writes the round commands.

``write_broker_files(directory, port, tables, hub_password)`` writes ``mosquitto.conf``, ``acl`` and ``passwd``
(hashed with ``mosquitto_passwd -U``); the test fixture uses it, and ``deploy/mosquitto/`` holds the same files
as templates for a tournament's broker.

The plain listener (``mqtt://``) is on loopback only: the hub on the same machine uses it. Tables connect over
TLS (``mqtts://<hub>:8883``, ``tls_bind``), with the certificate ``partiar hub brokerconf`` signs by the
tournament's own CA (``hub.broker_tls``), so no table password crosses the hall's Wi-Fi in plain text; it also
writes each table's ``[hub]`` section (``tables/N.toml``) and, if asked, the hub's password file.
"""

from __future__ import annotations

import argparse
import ipaddress
import shutil
import subprocess
import sys
from pathlib import Path

from hub.errors import HubError
from tablelink.topics import HUB_USER, ROOT, ROUND_COMMAND_TOPIC, TABLE_READS, TABLE_WRITES, check_table_id


def acl_text() -> str:
    """The ACL: patterns for every table (``%u`` = the user name = the table id), then the hub's rights."""
    return "\n".join([
        "# partiar broker ACL (topic schema v1, docs/hub.md). A table's user name is its table id.",
        "# Every table: write its own event/state/status/ack, read its own command and pairing topics and the round commands.",
        *(f"pattern write {ROOT}/table/%u/{kind}" for kind in TABLE_WRITES),
        *(f"pattern read {ROOT}/table/%u/{kind}" for kind in TABLE_READS),
        f"pattern read {ROUND_COMMAND_TOPIC}",
        "",
        "# The hub: read every table, ask a table to resend, send each table its pairing and the round commands.",
        f"user {HUB_USER}",
        f"topic read {ROOT}/table/#",
        *(f"topic write {ROOT}/table/+/{kind}" for kind in TABLE_READS),
        f"topic readwrite {ROUND_COMMAND_TOPIC}",
        "",
    ])  # fmt: skip


TLS_PORT = 8883


def is_loopback(host: str) -> bool:
    """True for an address of this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


MAX_PACKET = 512 * 1024
"""Largest MQTT packet the broker takes (a table's state is at most 256 KiB, ``hub.schema``)."""


def config_text(
    port: int,
    directory: Path,
    bind: str = "127.0.0.1",
    log_dest: str = "stderr",
    run_as: str | None = None,
    tls_port: int | None = None,
    tls_files: tuple[Path, Path] | None = None,
    tls_bind: str = "0.0.0.0",
) -> str:
    """``mosquitto.conf`` for a plain listener on ``bind:port`` (loopback only: raises HubError for another
    address) using the ``passwd`` and ``acl`` files in ``directory``, persistence there too (queued messages for
    the hub survive a restart of the broker). ``run_as``: the user mosquitto switches to when started as root
    (default: its own ``mosquitto`` user). ``tls_port`` with ``tls_files`` (certificate, key; PEM) adds the TLS
    listener (``mqtts://``) on ``tls_bind``, the one the tables use."""
    if not is_loopback(bind):
        raise HubError(f"the plain MQTT listener is for the hub on this machine: bind it to 127.0.0.1, not {bind} "
                       f"(tables connect over TLS)")  # fmt: skip
    d = Path(directory).resolve()
    tls = []
    if tls_port is not None and tls_files is not None:
        cert, key = (Path(f).resolve() for f in tls_files)
        tls = [f"listener {tls_port} {tls_bind}", f"certfile {cert}", f"keyfile {key}", "tls_version tlsv1.2"]
    return "\n".join([
        "# partiar tournament broker (mosquitto 2.x)",
        *([f"user {run_as}"] if run_as else []),
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {d / 'passwd'}",
        f"acl_file {d / 'acl'}",
        f"listener {port} {bind}",
        *tls,
        f"max_packet_size {MAX_PACKET}",
        "persistence true",
        f"persistence_location {d}/",
        "autosave_interval 5",
        "max_queued_messages 100000",
        "max_inflight_messages 100",
        f"log_dest {log_dest}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "",
    ])  # fmt: skip


def write_password_file(path: Path, users: dict[str, str]) -> None:
    """A mosquitto password file for ``users`` (name -> password), hashed by ``mosquitto_passwd -U``; raises
    HubError if the tool is missing or fails."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise HubError("mosquitto_passwd not found (apt-get install mosquitto)")
    for name, password in users.items():
        if ":" in name or "\n" in name or "\n" in password:
            raise HubError(f"broker user {name!r}: no ':' or newline allowed in a name or password")
    path.write_text("".join(f"{n}:{p}\n" for n, p in users.items()), encoding="utf-8")
    path.chmod(0o600)
    done = subprocess.run([tool, "-U", str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise HubError(f"mosquitto_passwd -U {path} failed: {done.stderr.strip() or done.stdout.strip()}")


def write_broker_files(
    directory: Path,
    port: int,
    tables: dict[str, str],
    hub_password: str,
    bind: str = "127.0.0.1",
    run_as: str | None = None,
    tls_port: int | None = None,
    tls_files: tuple[Path, Path] | None = None,
    tls_bind: str = "0.0.0.0",
) -> Path:
    """Write ``mosquitto.conf``, ``acl`` and ``passwd`` for the tables (id -> password) and the hub into
    ``directory``; returns the config path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    users = {check_table_id(t): p for t, p in tables.items()} | {HUB_USER: hub_password}
    write_password_file(directory / "passwd", users)
    (directory / "acl").write_text(acl_text(), encoding="utf-8")
    conf = directory / "mosquitto.conf"
    conf.write_text(config_text(port, directory, bind, run_as=run_as, tls_port=tls_port, tls_files=tls_files,
                                tls_bind=tls_bind), encoding="utf-8")  # fmt: skip
    return conf


DEFAULT_TABLE_CA = "/etc/partiar/tournament-ca.crt"
"""Where a table keeps the tournament's ``ca.crt`` (its ``[hub] ca_file`` in ``tables/N.toml``)."""


BROKERCONF_HELP = ("Broker turnaje (Mosquitto): uživatel a heslo pro každý stůl, ACL, TLS s certifikační autoritou "
                   "turnaje a oddíl [hub] konfigurace každého stolu (tables/N.toml). Hub na tomto počítači se "
                   "připojuje nešifrovaně jen přes 127.0.0.1, stoly přes TLS (docs/cs/poradatel.md).")
"""``partiar hub brokerconf``'s description: the organiser reads it (Czech, as every option's help)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``partiar hub brokerconf`` (and ``python -m hub.brokerconf``); help in Czech."""
    parser.add_argument("directory", type=Path, help="složka brokeru (např. /etc/mosquitto/partiar)")
    parser.add_argument("--tables", type=int, default=50, help="stoly 1..N, jejich uživatelé na brokeru 1, 2, ... "
                        "(výchozí %(default)s)")  # fmt: skip
    parser.add_argument("--port", type=int, default=1883, help="nešifrovaný port jen na 127.0.0.1 pro hub "
                        "(výchozí %(default)s)")  # fmt: skip
    parser.add_argument("--tls-port", type=int, default=TLS_PORT, help="port TLS pro stoly (výchozí %(default)s)")
    parser.add_argument("--bind", default="0.0.0.0", help="adresa portu TLS (výchozí: všechna rozhraní)")
    parser.add_argument("--name", action="append", default=[], metavar="JMÉNO",
                        help="jméno nebo IP adresa, na které stoly hub najdou (lze opakovat; první jde do adresy "
                             "brokeru ve stolech; jméno počítače, JMÉNO.local a localhost jsou v certifikátu vždy)")  # fmt: skip
    parser.add_argument("--hub-password-file", type=Path, metavar="SOUBOR",
                        help="zapsat heslo hubu k brokeru i do SOUBORU (pro partiar hub --broker-password-file)")
    parser.add_argument("--table-ca-file", default=DEFAULT_TABLE_CA, metavar="CESTA",
                        help="kde mají stoly ca.crt: jejich [hub] ca_file (výchozí %(default)s)")
    parser.add_argument("--run-as", metavar="UŽIVATEL",
                        help="uživatel, pod kterého mosquitto přejde, když běží jako root (výchozí: mosquitto)")
    parser.add_argument("--lang", choices=("cs", "en"), default="cs", help="jazyk hlášení (výchozí cs)")


def _credentials(path: Path, tables: int) -> dict[str, str]:
    """Every user's password: those already in ``credentials.csv`` kept (a run again does not change the tables'
    passwords), a random one for each new user."""
    import csv
    import secrets

    known: dict[str, str] = {}
    if path.exists():
        with open(path, encoding="utf-8", newline="") as f:
            known = {row["user"]: row["password"] for row in csv.DictReader(f) if row.get("user") and row.get("password")}
    users = [str(i) for i in range(1, tables + 1)] + [HUB_USER]
    return {u: known.get(u) or secrets.token_urlsafe(16 if u == HUB_USER else 12) for u in users}


def table_snippet(table: str, password: str, broker_url: str, ca_file: str) -> str:
    """The ``[hub]`` section of table ``table``'s config (``tables/<table>.toml``)."""
    return (f"# stůl {table}: přidejte na konec /etc/partiar/table.toml stolu (docs/cs/poradatel.md)\n[hub]\n"
            f'broker = "{broker_url}"\ntable_id = "{table}"\npassword = "{password}"\nca_file = "{ca_file}"\n')


def run(args: argparse.Namespace) -> int:
    """``partiar hub brokerconf DIR``: a tournament's broker files with a password per table (``credentials.csv``),
    the tournament's CA (``ca.crt``: every table's ``[hub] ca_file``), the broker's certificate for the hub
    machine's names, and each table's ``[hub]`` section (``tables/N.toml``). The plain listener is on 127.0.0.1
    only; the tables connect over TLS."""
    import csv

    from hub.broker_tls import default_names, make_ca
    from shared.texts import cli

    lang = getattr(args, "lang", "cs")
    if not 1 <= args.tables <= 999:
        print(cli("brokerconf_tables", lang).format(n=args.tables), file=sys.stderr)
        return 2
    directory: Path = args.directory
    names = [*args.name, *default_names()]
    broker_url = f"mqtts://{names[0] if args.name else default_names()[1]}:{args.tls_port}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        users = _credentials(directory / "credentials.csv", args.tables)
        ca, cert, key = make_ca(directory, names)
        tables = {u: p for u, p in users.items() if u != HUB_USER}
        conf = write_broker_files(directory, args.port, tables, users[HUB_USER], run_as=args.run_as,
                                  tls_port=args.tls_port, tls_files=(cert, key), tls_bind=args.bind)  # fmt: skip
        with open(directory / "credentials.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["user", "password"])
            writer.writerows(users.items())
        (directory / "credentials.csv").chmod(0o600)
        snippets = directory / "tables"
        snippets.mkdir(exist_ok=True)
        for table, password in tables.items():
            path = snippets / f"{table}.toml"
            path.write_text(table_snippet(table, password, broker_url, args.table_ca_file), encoding="utf-8")
            path.chmod(0o600)
        if args.hub_password_file is not None:
            args.hub_password_file.parent.mkdir(parents=True, exist_ok=True)
            args.hub_password_file.write_text(users[HUB_USER] + "\n", encoding="utf-8")
            args.hub_password_file.chmod(0o600)
    except (HubError, OSError, ValueError, KeyError, csv.Error) as exc:
        print(cli("brokerconf_failed", lang).format(error=exc), file=sys.stderr)
        return 2
    print(cli("brokerconf_wrote", lang).format(conf=conf, dir=directory, n=len(tables), url=broker_url,
                                               ca=ca, tls_port=args.tls_port, port=args.port))  # fmt: skip
    if args.hub_password_file is not None:
        print(cli("brokerconf_hub_password", lang).format(file=args.hub_password_file))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m hub.brokerconf``: the same as ``partiar hub brokerconf``."""
    parser = argparse.ArgumentParser(prog="python -m hub.brokerconf", description=BROKERCONF_HELP)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
