"""Mosquitto configuration for a tournament: per-table credentials and an ACL by which a table writes only its own
topics (its broker user name is its table id), and the hub reads every table and writes the round commands.

``write_broker_files(directory, port, tables, hub_password)`` writes ``mosquitto.conf``, ``acl`` and ``passwd``
(hashed with ``mosquitto_passwd -U``); the test fixture uses it, and ``deploy/mosquitto/`` holds the same files
as templates for a tournament's broker.

The plain listener (``mqtt://``) is on loopback only: the hub on the same machine uses it. Tables connect over
TLS (``mqtts://<hub>:8883``, ``tls_bind``), with the certificate ``python -m hub.brokerconf`` signs by the
tournament's own CA (``hub.broker_tls``), so no table password crosses the hall's Wi-Fi in plain text.
"""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
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


def main(argv: list[str] | None = None) -> int:
    """``python -m hub.brokerconf DIR [--tables 50] [--port 1883] [--tls-port 8883] [--bind 0.0.0.0]
    [--name HOST ...]``: a tournament's broker files with a random password per table (``credentials.csv``
    lists them for setting up the tables), the tournament's CA (``ca.crt``: every table's ``[hub] ca_file``)
    and the broker's certificate for the hub machine's names. The plain listener is on 127.0.0.1 only."""
    import argparse
    import csv
    import secrets

    from hub.broker_tls import default_names, make_ca

    parser = argparse.ArgumentParser(prog="python -m hub.brokerconf", description=main.__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--tables", type=int, default=50, help="tables 1..N (ids: 1, 2, ...)")
    parser.add_argument("--port", type=int, default=1883, help="the plain listener, on 127.0.0.1 (the hub)")
    parser.add_argument("--tls-port", type=int, default=TLS_PORT, help="the TLS listener (the tables)")
    parser.add_argument("--bind", default="0.0.0.0", help="the TLS listener's address (default: every interface)")
    parser.add_argument("--name", action="append", default=[], metavar="HOST",
                        help="a host name or IP address the tables reach the hub by (repeatable; the machine's "
                             "name, NAME.local and localhost are always in the certificate)")  # fmt: skip
    args = parser.parse_args(argv)
    tables = {str(i): secrets.token_urlsafe(12) for i in range(1, args.tables + 1)}
    hub = secrets.token_urlsafe(16)
    try:
        args.directory.mkdir(parents=True, exist_ok=True)
        ca, cert, key = make_ca(args.directory, [*args.name, *default_names()])
        conf = write_broker_files(args.directory, args.port, tables, hub, tls_port=args.tls_port,
                                  tls_files=(cert, key), tls_bind=args.bind)  # fmt: skip
    except (HubError, OSError) as exc:
        print(f"brokerconf: {exc}")
        return 2
    with open(args.directory / "credentials.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["user", "password"])
        writer.writerows([*tables.items(), (HUB_USER, hub)])
    (args.directory / "credentials.csv").chmod(0o600)
    print(f"wrote {conf}, acl, passwd, credentials.csv (keep it secret), {ca.name} (copy it to every table as "
          f"[hub] ca_file; tables use mqtts://<this machine>:{args.tls_port}), {cert.name} and {key.name} in "
          f"{args.directory}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
