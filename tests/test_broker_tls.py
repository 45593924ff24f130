"""Issue 28 item 5: table passwords never travel in plain text. ``python -m hub.brokerconf`` makes the
tournament's CA and a TLS listener, the plain listener is on loopback only (the hub on the same machine), and a
table configured from its ``[hub]`` keys (``mqtts://``, ``ca_file`` = the generated ``ca.crt``) publishes to a real
mosquitto over TLS and its move reaches the hub."""

from __future__ import annotations

import re
import socket

import pytest
from mosquitto_fixture import HUB_PASSWORD, TABLES, Broker, free_port
from polling import wait_until

from device.config import parse_config
from device.hardware import _publisher
from hub import HubStore
from hub.broker_tls import make_ca
from hub.brokerconf import config_text, main
from hub.errors import HubError
from hub.link import HubLink


def listeners(conf: str) -> list[tuple[int, str]]:
    return [(int(p), host) for p, host in re.findall(r"^listener (\d+) (\S+)$", conf, re.M)]


def test_brokerconf_writes_a_tls_listener_for_the_tables_and_plain_text_on_loopback_only(tmp_path) -> None:
    assert main([str(tmp_path / "b"), "--tables", "2", "--name", "hub.turnaj", "--name", "192.168.50.2"]) == 0
    conf = (tmp_path / "b" / "mosquitto.conf").read_text()
    assert listeners(conf) == [(1883, "127.0.0.1"), (8883, "0.0.0.0")]
    assert "certfile" in conf and "keyfile" in conf and "tls_version tlsv1.2" in conf
    for name in ("ca.crt", "ca.key", "server.crt", "server.key", "credentials.csv", "passwd", "acl"):
        assert (tmp_path / "b" / name).exists(), name
    assert (tmp_path / "b" / "ca.key").stat().st_mode & 0o077 == 0
    ca = (tmp_path / "b" / "ca.crt").read_bytes()
    assert main([str(tmp_path / "b"), "--tables", "2"]) == 0  # run again: the tables keep their ca.crt
    assert (tmp_path / "b" / "ca.crt").read_bytes() == ca
    with pytest.raises(HubError, match="127.0.0.1"):
        config_text(1883, tmp_path, bind="0.0.0.0")


def test_a_table_configured_with_the_generated_ca_publishes_to_the_hub_over_tls(tmp_path) -> None:
    ca, cert, key = make_ca(tmp_path / "ca", ["localhost", "127.0.0.1"])
    broker = Broker(tmp_path / "broker", free_port(), tls_port=free_port(), tls_files=(cert, key))
    assert listeners(broker.conf.read_text())[0] == (broker.port, "127.0.0.1")
    broker.start()
    store = HubStore()
    link = HubLink(store, broker.url, password=HUB_PASSWORD, client_id="hub-tls-e2e")  # the hub: plain, loopback
    config = parse_config(
        f"[table]\nstate_dir = '{tmp_path / 'state'}'\n[hub]\nbroker = '{broker.tls_url}'\ntable_id = 't1'\n"
        f"password = '{TABLES['t1']}'\nca_file = '{ca}'\n"
    )
    table = _publisher(config, lambda _item: None)
    link.start()
    table.start()
    try:
        assert link.connected.wait(20)
        table.publish_event(0, {"type": "start", "at": 0.0, "players": ["Jan", "Eva"]})
        assert table.wait_idle(20), "the table did not deliver over TLS"
        assert wait_until(lambda: store.current_game("t1") is not None, 20)  # a generous limit, not a timing check
        other = [a for a in {i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
                 if not a.startswith("127.")]  # fmt: skip
        for address in other:  # the plain listener does not answer on the machine's network address
            with pytest.raises(OSError):
                socket.create_connection((address, broker.port), timeout=5).close()
    finally:
        table.stop()
        link.stop()
        broker.stop()


def test_a_table_with_another_ca_is_refused(tmp_path) -> None:
    _, cert, key = make_ca(tmp_path / "ca", ["127.0.0.1"])
    stranger, _, _ = make_ca(tmp_path / "other", ["127.0.0.1"])
    broker = Broker(tmp_path / "broker", free_port(), tls_port=free_port(), tls_files=(cert, key))
    broker.start()
    config = parse_config(
        f"[table]\nstate_dir = '{tmp_path / 'state'}'\n[hub]\nbroker = '{broker.tls_url}'\ntable_id = 't1'\n"
        f"password = '{TABLES['t1']}'\nca_file = '{stranger}'\n"
    )
    table = _publisher(config, lambda _item: None)
    table.start()
    try:
        table.publish_event(0, {"type": "start", "at": 0.0, "players": ["Jan", "Eva"]})
        assert not table.wait_idle(3)  # never delivered: the broker's certificate is not of its CA
        assert not table._connected.is_set()
    finally:
        table.stop()
        broker.stop()


def test_partiar_hub_brokerconf_writes_each_tables_hub_section_and_keeps_passwords_on_a_rerun(tmp_path, capsys) -> None:
    from device.cli import main as partiar

    folder = tmp_path / "b"
    assert partiar(["hub", "brokerconf", str(folder), "--tables", "2", "--name", "hub.turnaj",
                    "--hub-password-file", str(tmp_path / "hub-broker")]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Broker turnaje je připraven" in out and "mqtts://hub.turnaj:8883" in out
    snippet = (folder / "tables" / "2.toml").read_text(encoding="utf-8")
    assert 'ca_file = "/etc/partiar/tournament-ca.crt"' in snippet  # where the guide has the table keep ca.crt
    here = snippet.replace("/etc/partiar/tournament-ca.crt", str(folder / "ca.crt"))
    config = parse_config(f"[table]\nstate_dir = '{tmp_path / 's'}'\n" + here)
    assert (config.hub.broker, config.hub.table_id) == ("mqtts://hub.turnaj:8883", "2")
    hub_password = (tmp_path / "hub-broker").read_text().strip()
    assert f"hub,{hub_password}" in (folder / "credentials.csv").read_text()
    assert main([str(folder), "--tables", "3", "--name", "hub.turnaj", "--lang", "en"]) == 0  # one more table
    assert "The tournament's broker is ready" in capsys.readouterr().out
    assert (folder / "tables" / "2.toml").read_text(encoding="utf-8") == snippet
    assert f"hub,{hub_password}" in (folder / "credentials.csv").read_text()
    assert main([str(folder), "--tables", "0"]) == 2
    assert "--tables 0: počet stolů musí být 1-999" in capsys.readouterr().err
