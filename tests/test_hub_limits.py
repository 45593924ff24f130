"""The hub's limits and TLS, against the real web server (uvicorn on loopback) and a real mosquitto: bad and huge
``Content-Length``, bodies, idle connections (no thread each), HTTPS with a self-signed certificate made by the
test (``Secure`` cookie), a TLS listener of the broker, and a poisonous MQTT message delivered twice."""

from __future__ import annotations

import datetime
import http.client
import ipaddress
import json
import socket
import ssl
import threading
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from mosquitto_fixture import (  # noqa: F401 - broker is the fixture
    HUB_PASSWORD,
    REFEREE,
    REFEREE_PASSWORD,
    TABLES,
    Broker,
    broker,
    free_port,
    referee_hub,
    request,
    start_hub,
)

from device.publish import TablePublisher
from hub import Database, HubServer, HubStore, RefereeAuth
from hub.link import HubLink
from hub.web import MAX_BODY
from tablelink import topics


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost and its key (PEM files)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "partiar test hub")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                    x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    cert_path, key_path = folder / "hub.crt", folder / "hub.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))  # fmt: skip
    return cert_path, key_path


@pytest.fixture
def server():
    with referee_hub() as (server, _):
        yield server


def raw(port: int, data: bytes) -> bytes:
    """Send raw bytes, return the whole answer (the server closes the connection or answers in full)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def test_bad_and_huge_content_lengths_are_refused_at_once(server) -> None:
    head = b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
    for length, status in ((b"-1", b"400"), (b"abc", b"400"), (b"10000000000000", b"413"),
                           (str(MAX_BODY + 1).encode(), b"413")):  # fmt: skip
        answer = raw(server.port, head + b"Content-Length: " + length + b"\r\n\r\n")
        assert answer.split(b" ", 2)[1] == status, (length, answer[:200])
    body = json.dumps({"user": "x" * 100, "password": "y"}).encode()  # a field too long
    status, _, answer = request(server.port, "POST", "/api/login", json.loads(body))
    assert status == 400 and json.loads(answer)["code"] == "bad_request"
    deep = b'{"user": ' + b"[" * 1500 + b"]" * 1500 + b"}"
    answer = raw(server.port, head + b"Content-Length: %d\r\n\r\n" % len(deep) + deep)
    assert b" 400 " in answer.split(b"\r\n")[0] and b"nested" in answer


def test_wrong_passwords_are_answered_429_after_five(server) -> None:
    statuses, retry = [], None
    for i in range(12):
        status, headers, _ = request(server.port, "POST", "/api/login", {"user": REFEREE, "password": f"guess {i}"})
        statuses.append(status)
        retry = headers.get("retry-after", retry)
    assert statuses == [401] * 5 + [429] * 7 and retry is not None and 1 <= int(retry) <= 60
    assert request(server.port, "POST", "/api/login", {"user": REFEREE, "password": REFEREE_PASSWORD})[0] == 429


def test_idle_connections_cost_no_thread_and_the_pages_still_answer(server) -> None:
    threads = threading.active_count()
    sockets = [socket.create_connection(("127.0.0.1", server.port), timeout=20, source_address=(f"127.0.1.{i % 20}", 0))
               for i in range(400)]  # 20 laptops of 20 connections each (hub.connections: a share per address)
    try:
        status, headers, _ = request(server.port, "GET", "/api/overview")
        assert status == 200 and "strict-transport-security" not in headers  # HSTS only over HTTPS
        assert threading.active_count() <= threads + 2  # the old server made one thread per connection
    finally:
        for s in sockets:
            s.close()


def test_https_with_a_self_signed_certificate_and_a_secure_cookie(tmp_path) -> None:
    cert, key = self_signed(tmp_path)
    db = Database()
    auth = RefereeAuth(db)
    auth.add_referee(REFEREE, REFEREE_PASSWORD)
    server = HubServer(HubStore(db), auth=auth, ssl_certfile=str(cert), ssl_keyfile=str(key))
    server.start()
    try:
        context = ssl.create_default_context(cafile=str(cert))
        conn = http.client.HTTPSConnection("127.0.0.1", server.port, context=context, timeout=20)
        body = json.dumps({"user": REFEREE, "password": REFEREE_PASSWORD})
        conn.request("POST", "/api/login", body, {"Content-Type": "application/json"})
        answer = conn.getresponse()
        cookie = answer.getheader("set-cookie") or ""
        assert answer.status == 200, answer.read()
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert answer.getheader("strict-transport-security") == "max-age=15552000"  # issue 35: was missing
        answer.read()
        conn.request("GET", "/")
        page = conn.getresponse()
        assert page.status == 200 and page.getheader("strict-transport-security") == "max-age=15552000"
        page.read()
        conn.close()
        with pytest.raises(ssl.SSLError):  # a client that does not trust the certificate is refused
            strict = http.client.HTTPSConnection("127.0.0.1", server.port, timeout=20,
                                                 context=ssl.create_default_context())  # fmt: skip
            strict.request("GET", "/")
    finally:
        server.stop()


def wait_store(store: HubStore, predicate, timeout: float) -> bool:
    """Wait on the store's change feed until ``predicate()`` holds."""
    seen = store.feed.version
    for _ in range(int(timeout * 2)):
        if predicate():
            return True
        change = store.feed.wait(seen, None, 0.5)
        seen = change[0] if change else seen
    return predicate()


def test_the_broker_tls_listener_carries_the_tables_and_the_hub(tmp_path) -> None:
    cert, key = self_signed(tmp_path)
    b = Broker(tmp_path / "broker", free_port(), tls_port=free_port(), tls_files=(cert, key))
    b.start()
    store = HubStore()
    link = HubLink(store, b.tls_url or "", password=HUB_PASSWORD, client_id="hub-tls", ca_file=str(cert))
    table = TablePublisher("t1", b.tls_url, username="t1", password=TABLES["t1"], queue_dir=tmp_path / "q",
                           ca_file=str(cert))  # fmt: skip
    link.start()
    table.start()
    try:
        assert link.connected.wait(20), "the hub did not connect over TLS"
        table.publish_event(0, {"type": "start", "at": 0.0, "players": ["Jan", "Eva"]})
        assert table.wait_idle(20), "the table did not deliver over TLS"
        assert wait_store(store, lambda: store.current_game("t1") is not None, 20)
        assert "listener" in b.conf.read_text() and f"certfile {cert.resolve()}" in b.conf.read_text()
    finally:
        table.stop()
        link.stop()
        b.stop()


def test_a_poisonous_message_waiting_for_the_hub_does_not_stop_it(broker, tmp_path) -> None:  # noqa: F811
    """The hub is away; a table sends a nested-JSON bomb, an oversized state and then a good event. The broker
    keeps them for the hub's session and delivers them when it comes back (the old hub died on the bomb, and
    again on each redelivery): the bad ones are refused and counted, the event arrives, and so does a later one."""
    client_id = "hub-poison"
    start_hub(broker.url, client_id=client_id, referee_password=None).stop()  # the session exists
    table = TablePublisher("t58", broker.url, username="t58", password=TABLES["t58"], queue_dir=tmp_path / "q")
    table.start()
    hub = None
    try:
        assert table._connected.wait(20)
        assert table._client is not None
        table._client.publish(topics.table_topic("t58", "event"), b"[" * 30_000 + b"]" * 30_000,
                              qos=1).wait_for_publish(20)  # fmt: skip
        table._client.publish(topics.table_topic("t58", "state"), b'{"v":1,"state":"' + b"x" * 400_000 + b'"}',
                              qos=1).wait_for_publish(20)  # fmt: skip
        table.publish_event(0, {"type": "start", "at": 0.0, "players": ["Jan", "Eva"]})
        assert table.wait_idle(20)
        hub = start_hub(broker.url, client_id=client_id, referee_password=None)
        assert hub.wait_for(lambda: hub.store.current_game("t58") is not None and hub.store.rejected >= 2, 20)
        errors = sorted(r.error for r in hub.store.rejected_recent)
        assert "nested 30000 deep" in errors[0] and "400018 bytes" in errors[1] and "bytes, at most" in errors[1]
        table.publish_event(1, {"type": "pass", "at": 5.0})
        assert hub.wait_for(lambda: getattr(hub.store.current_game("t58"), "applied", 0) == 2, 20)
        assert request(hub.port, "GET", "/api/table/t58")[0] == 200
    finally:
        table.stop()
        if hub is not None:
            hub.stop()
