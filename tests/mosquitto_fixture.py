"""A real Mosquitto on a free loopback port for the hub tests (Debian's ``mosquitto``), started by the test
itself (never the system service), with the tournament config of ``device.hub.brokerconf``: per-table users
and the ACL. ``TcpProxy`` sits between one table and the broker so a test can cut that table's network.

Import the fixtures into a test module: ``from tests.mosquitto_fixture import broker  # noqa: F401``.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.hub.brokerconf import write_broker_files

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
TABLES = {f"t{i}": f"pw-t{i}" for i in range(1, 51)}
HUB_PASSWORD = "pw-hub"
START_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """One mosquitto process; ``stop`` (SIGTERM: it saves its persistence), ``start`` again on the same port."""

    def __init__(self, directory: Path, port: int) -> None:
        self.directory = directory
        self.port = port
        self.url = f"mqtt://127.0.0.1:{port}"
        self.conf = write_broker_files(directory, port, TABLES, HUB_PASSWORD, run_as=getpass.getuser())
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []

    def start(self) -> None:
        """Start mosquitto and return once it says it is running (its log on stderr); raises if it exits."""
        ready = threading.Event()
        process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )

        def drain() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                self.log.append(line.rstrip())
                if " running" in line:
                    ready.set()
            ready.set()

        threading.Thread(target=drain, name="mosquitto-log", daemon=True).start()
        if not ready.wait(START_TIMEOUT) or process.poll() is not None:
            process.kill()
            raise RuntimeError("mosquitto did not start:\n" + "\n".join(self.log[-20:]))
        self.process = process

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


class TcpProxy:
    """A loopback TCP forwarder to ``target_port``; ``cut()`` drops every connection and refuses new ones (the
    table's network is down) until ``restore()``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self._up = threading.Event()
        self._up.set()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, name="proxy-accept", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self._up.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        self._up.clear()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def restore(self) -> None:
        self._up.set()

    def close(self) -> None:
        self.cut()
        self.listener.close()


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    """A running mosquitto with the 50 tables' users (``TABLES``) and the hub (``HUB_PASSWORD``)."""
    if not os.path.exists(MOSQUITTO):
        pytest.skip("needs Debian's mosquitto (apt-get install -y mosquitto)")
    b = Broker(tmp_path_factory.mktemp("mosquitto"), free_port())
    b.start()
    yield b
    b.stop()
