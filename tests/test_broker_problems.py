"""Issue 32: a broken broker link is never silent. A table configured for a hub says on its LCD and in its log, in
Czech, why it cannot reach the broker (TLS certificate, wrong password, refused, unknown name) and when it is
connected again; the hub says so about its own link in its log, on ``/status`` and on the desk page. A real
mosquitto with the tournament's TLS listener (``hub.brokerconf``), real tables on the rig."""

from __future__ import annotations

import json
import logging

import pytest
from mosquitto_fixture import HUB_PASSWORD, TABLES, Broker, free_port, login, request
from polling import wait_until
from table_rig import Rig

from device.hardware import _publisher
from hub.auth import RefereeAuth
from hub.broker_tls import make_ca
from hub.db import Database
from hub.director import open_desk
from hub.link import HubLink
from hub.store import HubStore
from hub.web import HubServer

UNIT = "t1"


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory):
    """A tournament broker (plain on loopback, TLS for the tables) and its CA, and a CA of another tournament."""
    folder = tmp_path_factory.mktemp("tls-broker")
    ca, cert, key = make_ca(folder / "ca", ["localhost", "127.0.0.1"])
    stranger, _, _ = make_ca(folder / "other", ["localhost", "127.0.0.1"])
    broker = Broker(folder / "broker", free_port(), tls_port=free_port(), tls_files=(cert, key))
    broker.start()
    yield broker, ca, stranger
    broker.stop()


def table_with(tmp_path, url: str, ca: object = None, password: str = TABLES[UNIT]) -> Rig:
    """A rig whose config has the ``[hub]`` section a tournament table gets."""
    hub = f"[hub]\nbroker = '{url}'\ntable_id = '{UNIT}'\npassword = '{password}'\n"
    return Rig(tmp_path / "table", extra=hub + (f"ca_file = '{ca}'\n" if ca else ""))




CASES = {
    # case: (LCD second line, what the Czech log line says)
    "tls": ("TLS: certifikát", "certifikát brokeru neodpovídá [hub] ca_file"),
    "auth": ("špatné heslo", "broker nepřijal jméno nebo heslo stolku"),
    "refused": ("broker odmítá", "broker spojení odmítá"),
    "name": ("neznámé jméno", "jméno hubu z adresy brokeru nelze přeložit"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_table_says_in_czech_why_it_cannot_reach_the_broker(tls_broker, tmp_path, caplog, case) -> None:
    broker, ca, stranger = tls_broker
    tls_port = broker.tls_url.rsplit(":", 1)[1]
    url, ca_file, password = {
        "tls": (broker.tls_url, stranger, TABLES[UNIT]),
        "auth": (broker.tls_url, ca, "not-the-password"),
        "refused": (f"mqtts://127.0.0.1:{free_port()}", ca, TABLES[UNIT]),
        "name": (f"mqtts://hub.partiar-test.invalid:{tls_port}", ca, TABLES[UNIT]),
    }[case]
    rig = table_with(tmp_path, url, ca_file, password)
    rig.start()
    publisher = _publisher(rig.config, rig.table.inputs.put)
    caplog.set_level(logging.INFO)
    publisher.start()
    try:
        lcd, log_says = CASES[case]
        assert rig.handle_until(lambda: rig.notice == ["Hub nedostupný", lcd]), rig.notice
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert any(log_says in line and url in line for line in lines), lines
    finally:
        publisher.stop()
        rig.close()


def test_a_table_says_when_it_is_connected_again(tmp_path, caplog) -> None:
    ca, cert, key = make_ca(tmp_path / "ca", ["localhost", "127.0.0.1"])
    broker = Broker(tmp_path / "broker", free_port(), tls_port=free_port(), tls_files=(cert, key))
    rig = table_with(tmp_path, broker.tls_url, ca)
    rig.start()
    publisher = _publisher(rig.config, rig.table.inputs.put)
    caplog.set_level(logging.INFO)
    publisher.start()
    try:
        assert rig.handle_until(lambda: rig.notice == ["Hub nedostupný", "broker odmítá"]), rig.notice  # not started yet
        broker.start()
        assert rig.handle_until(lambda: rig.notice == ["Hub připojen", ""]), rig.notice
        assert any(f"připojeno k brokeru hubu {broker.tls_url}" in r.getMessage() for r in caplog.records)
    finally:
        publisher.stop()
        broker.stop()
        rig.close()


HUB_CASES = {
    "tls": "TLS: certifikát brokeru neodpovídá --broker-ca",
    "auth": "broker nepřijal jméno nebo heslo hubu",
    "refused": "broker spojení odmítá",
}


@pytest.mark.parametrize("case", sorted(HUB_CASES))
def test_the_hub_says_when_its_own_broker_link_is_down(tls_broker, caplog, case) -> None:
    broker, ca, stranger = tls_broker
    url, ca_file, password = {
        "tls": (broker.tls_url, str(stranger), HUB_PASSWORD),
        "auth": (broker.url, None, "not-the-password"),
        "refused": (f"mqtt://127.0.0.1:{free_port()}", None, HUB_PASSWORD),
    }[case]
    db = Database()
    store = HubStore(db)
    auth = RefereeAuth(db)
    auth.add_referee("Hlavní", "hlavní rozhodčí")
    link = HubLink(store, url, password=password, client_id=f"hub-broken-{case}", ca_file=ca_file)
    server = HubServer(store, "127.0.0.1", 0, link=link, auth=auth, desk=open_desk(store))
    caplog.set_level(logging.INFO)
    link.start()
    server.start()
    try:
        assert wait_until(lambda: link.broker.problem == case, 60), link.broker.view()
        assert any(r.levelno >= logging.ERROR and "cannot connect to the broker" in r.getMessage()
                   for r in caplog.records)  # fmt: skip
        status, _, body = request(server.port, "GET", "/api/status")
        broker_view = json.loads(body)["broker"]
        assert status == 200 and broker_view["connected"] is False and broker_view["problem"] == case
        assert HUB_CASES[case] in broker_view["says"]["cs"], broker_view
        _, _, page = request(server.port, "GET", "/desk", headers=login(server.port))
        assert HUB_CASES[case] in page.decode(), page.decode()[:2000]
    finally:
        server.stop()
        link.stop()
        db.close()
