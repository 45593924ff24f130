"""``partiar hub --demo``: rehearse a tournament on one PC. Starts its own Mosquitto (loopback, a free port, the
tournament's config, users and ACL generated in a temporary folder), this hub with its desk and a referee, and a
few simulated tables (``partiar sim`` processes, each its daemon with a generated config and its own ``[hub]``
keys), registers a demo field and prints the pages' addresses and the referee's login. Ctrl-C or SIGTERM stops
the tables, the hub and the broker, and removes the folder.

The tables are separate processes (the hub never imports the simulator): each prints its own page's address,
where the organiser plays its game with the mouse (docs/simulator.md).
"""

from __future__ import annotations

import contextlib
import getpass
import logging
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from hub.auth import RefereeAuth
from hub.brokerconf import write_broker_files
from hub.db import COMMIT_WINDOW, Database
from hub.director import Desk, TournamentInfo, open_desk
from hub.errors import HubError
from hub.link import HubLink
from hub.store import HubStore
from hub.web import HubServer
from shared.language import language, say
from shared.stop_signal import wait_for_stop
from tournament.players import Player

log = logging.getLogger(__name__)

START_SECONDS = 90.0
"""How long the broker and each simulated table may take to start (a busy PC, a first build of its page)."""
STOP_SECONDS = 20.0
REFEREE = "demo"
FIELD = [
    ("1203", "Eva Malá", "Brno", 1510), ("877", "Jan Novák", "Praha", 1720), ("1500", "Ota Veselý", "Zlín", 1390),
    ("612", "Petr Dlouhý", "Plzeň", 1250), ("1333", "Věra Krátká", "Ostrava", 1120), ("914", "Marie Nováková",
    "Praha", 1630), ("1402", "Zdeněk Žlutý", "Olomouc", 1440), ("1720", "Lucie Bílá", "Brno", None),
    ("455", "Karel Černý", "Liberec", 1580), ("1811", "Jana Zelená", "Pardubice", 1200),
]  # fmt: skip
"""The demo field (invented names; ids in the ČAS style)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    if found is None:
        raise HubError("mosquitto not found (apt-get install mosquitto)")
    return found


class Child:
    """A child process whose output is read by a thread: ``wait_for(text)`` until a line holds it."""

    def __init__(self, name: str, argv: list[str], log_file: Path) -> None:
        self.name = name
        self.lines: list[str] = []
        self._seen = threading.Condition()
        self.log_file = log_file
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        start_new_session=True)  # fmt: skip
        threading.Thread(target=self._drain, name=f"demo-{name}", daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        with open(self.log_file, "a", encoding="utf-8") as out:
            for line in self.process.stdout:
                out.write(line)
                out.flush()
                with self._seen:
                    self.lines.append(line.rstrip())
                    self._seen.notify_all()
        with self._seen:
            self._seen.notify_all()

    def wait_for(self, text: str, timeout: float) -> str:
        """The first line holding ``text``; raises HubError if the process ends or ``timeout`` passes first."""
        with self._seen:
            def found() -> str | None:
                return next((line for line in self.lines if text in line), None)

            self._seen.wait_for(lambda: found() is not None or self.process.poll() is not None, timeout)
            line = found()
        if line is None:
            tail = "\n".join(self.lines[-15:])
            raise HubError(f"{self.name} did not start (see {self.log_file}):\n{tail}")
        return line

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not ended within ``STOP_SECONDS``."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                log.warning("demo: %s did not stop on SIGTERM; killed", self.name)
                self.process.kill()
                self.process.wait(STOP_SECONDS)


@dataclass
class Demo:
    """Everything ``--demo`` started, stopped in reverse order by ``stop``."""

    folder: Path
    children: list[Child] = field(default_factory=list)
    closers: list[object] = field(default_factory=list)
    tables: dict[str, str] = field(default_factory=dict)
    """Table id -> its simulator page's address."""
    url: str = ""
    password: str = ""
    desk: Desk | None = None

    def stop(self) -> None:
        for child in reversed(self.children[1:]):  # the tables first, the broker (the first child) last
            child.stop()
        for closer in reversed(self.closers):
            with contextlib.suppress(Exception):
                closer()  # type: ignore[operator]
        if self.children:
            self.children[0].stop()


def table_config(table_id: str, password: str, broker_url: str, state_dir: Path) -> str:
    """A simulated table's daemon config with its ``[hub]`` keys (the sim adds its own pins and ports)."""
    return (f'[table]\nname = "Stůl {table_id}"\nstate_dir = "{state_dir}"\nplayers = ["Hráč A", "Hráč B"]\n\n'
            f'[hub]\nbroker = "{broker_url}"\ntable_id = "{table_id}"\nusername = "{table_id}"\n'
            f'password = "{password}"\n')  # fmt: skip


def start_demo(host: str, port: int, tables: int, folder: Path | None = None) -> Demo:
    """Start the broker, the hub and ``tables`` simulated tables; returns the running demo (``stop`` ends it).
    Raises HubError (with what failed) after stopping what had started."""
    if not 1 <= tables <= 20:
        raise HubError(f"--demo-tables {tables}: 1-20 tables")
    demo = Demo(folder or Path(tempfile.mkdtemp(prefix="partiar-demo-")))
    try:
        _start(demo, host, port, tables)
    except BaseException:
        demo.stop()
        raise
    return demo


def _start(demo: Demo, host: str, port: int, count: int) -> None:
    folder = demo.folder
    broker_port = free_port()
    table_passwords = {str(n): secrets.token_urlsafe(12) for n in range(1, count + 1)}
    hub_password = secrets.token_urlsafe(16)
    conf = write_broker_files(folder / "broker", broker_port, table_passwords, hub_password,
                              run_as=getpass.getuser())  # fmt: skip
    broker = Child("mosquitto", [mosquitto_binary(), "-c", str(conf)], folder / "mosquitto.log")
    demo.children.append(broker)
    broker.wait_for(" running", START_SECONDS)
    broker_url = f"mqtt://127.0.0.1:{broker_port}"
    db = Database(folder / "hub.sqlite", commit_window=COMMIT_WINDOW)
    demo.closers.append(db.close)
    store = HubStore(db)
    link = HubLink(store, broker_url, password=hub_password, client_id="partiar-hub-demo")
    auth = RefereeAuth(db)
    demo.password = secrets.token_urlsafe(9)
    auth.add_referee(REFEREE, demo.password)
    desk = open_desk(store, link.send_pairing)
    demo.desk = desk
    demo.closers.append(desk.stop)
    desk.set_info(TournamentInfo("Zkušební turnaj partiar", "Tento počítač", "dnes"), REFEREE)
    players = FIELD[: max(2 * count, 4)]
    desk.register([Player(pid, name, club, rating) for pid, name, club, rating in players], REFEREE)
    server = HubServer(store, host, port, link=link, auth=auth, desk=desk)
    link.start()
    demo.closers.append(link.stop)
    server.start()
    demo.closers.append(server.stop)
    demo.url = f"http://{host}:{server.port}/"
    if not link.connected.wait(START_SECONDS):
        raise HubError(f"the hub did not connect to the demo's broker at {broker_url}")
    for table_id, password in table_passwords.items():
        state = folder / f"table-{table_id}"
        state.mkdir()
        config = state / "table.toml"
        config.write_text(table_config(table_id, password, broker_url, state), encoding="utf-8")
        child = Child(f"table {table_id}", [sys.executable, "-m", "device.cli", "sim", "--config", str(config),
                                            "--port", "0", "--no-browser", "--no-lexicon", "--state-dir",
                                            str(state)], state / "sim.log")  # fmt: skip
        demo.children.append(child)
    for child, table_id in zip(demo.children[1:], table_passwords, strict=True):
        line = child.wait_for("partiar sim: http", START_SECONDS)
        demo.tables[table_id] = line.split("partiar sim: ", 1)[1].split()[0]


def run_demo(host: str, port: int, tables: int) -> int:
    """``partiar hub --demo``: start, print where everything is, wait for Ctrl-C or SIGTERM, stop everything."""
    try:
        demo = start_demo(host, port, tables)
    except (HubError, OSError) as exc:
        print(f"partiar hub --demo: {exc.said(language()) if isinstance(exc, HubError) else exc}", file=sys.stderr)
        return 2
    try:
        lines = [say(f"partiar hub: {demo.url} (řízení turnaje: {demo.url}desk, průběžné pořadí: {demo.url}live)",
                     f"partiar hub: {demo.url} (the desk: {demo.url}desk, live standings: {demo.url}live)"),
                 say("přihlášení rozhodčího: ", "referee login: ") + f"{REFEREE} / {demo.password}",
                 *(say("stůl", "table") + f" {t}: {url}" for t, url in demo.tables.items()),
                 say("soubory ukázky (na konci se smažou): ", "demo files (removed at the end): ") + str(demo.folder),
                 say("Ctrl-C vše zastaví.", "Ctrl-C stops everything.")]  # fmt: skip
        # closing the terminal window (SIGHUP) stops it as Ctrl-C does: the broker and the tables run in sessions
        # of their own, so without this they were left running, and the folder with the passwords kept. Both
        # handlers are in place before the lines that say the demo runs: a stop right after them still cleans up
        signal.signal(signal.SIGHUP, signal.default_int_handler)
        previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            print("\n".join(lines), flush=True)
            wait_for_stop()
        except KeyboardInterrupt:  # the stop came before the wait began
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        demo.stop()
        shutil.rmtree(demo.folder, ignore_errors=True)
    print(say("partiar hub --demo: zastaveno", "partiar hub --demo: stopped"), flush=True)
    return 0
