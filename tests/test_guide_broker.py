"""Issue 32: the organiser's guide works literally on one PC. The commands of ``docs/cs/poradatel.md``, "Zkouška
na jednom počítači", run as written (``~`` is a fresh home folder, the two ports free ones, ``scripts/partiar``
this checkout's ``python -m device.cli``): ``partiar hub brokerconf`` makes the broker, a real mosquitto runs on its
config, ``partiar hub`` (a real process) connects on loopback, and the table config the guide assembles from
``tables/1.toml`` connects over TLS with the tournament's CA and its game reaches the hub."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from guide_commands import GuideShell, guide_block
from mosquitto_fixture import MOSQUITTO, HubProcess, free_port, request, start_mosquitto
from polling import wait_until

from device.config import parse_config
from device.hardware import _publisher


@pytest.mark.skipif(not os.path.exists(MOSQUITTO), reason="needs Debian's mosquitto")
def test_the_guides_one_pc_setup_connects_a_table_over_tls(tmp_path) -> None:
    lines = guide_block()
    plain, tls = free_port(), free_port()
    home = tmp_path / "home"
    home.mkdir()
    shell = GuideShell(home, {1884: plain, 8884: tls})
    (brokerconf,) = [line for line in lines if " hub brokerconf " in line]
    made = shell.run(brokerconf)
    assert "Broker turnaje je připraven" in made.stdout  # the organiser reads Czech
    (configs,) = [line for line in lines if line.startswith("for n in ") and "printf " in line]
    shell.run(configs)
    (mosquitto,) = [line for line in lines if line.startswith("mosquitto -c ")]
    conf = Path(mosquitto.split()[2].replace("~", str(home)))
    log: list[str] = []
    broker = start_mosquitto(conf, log)
    hub = None
    publisher = None
    try:
        (hub_line,) = [line for line in lines if " hub --db " in line and " --broker " in line]
        assert "--broker mqtt://127.0.0.1:1884 --broker-password-file ~/turnaj/hub-broker" in hub_line
        hub = HubProcess(tmp_path / "hub.sqlite", f"mqtt://127.0.0.1:{plain}", home / "turnaj" / "hub-broker")

        def broker_view() -> dict:
            return json.loads(request(hub.port, "GET", "/api/status")[2])["broker"]

        assert wait_until(lambda: broker_view()["connected"], 60), (broker_view(), log, broker.poll())
        sim = next(line for line in lines if " sim --config " in line)
        config_path = shell.path(sim.split("--config ")[1].split()[0])
        text = config_path.read_text(encoding="utf-8")
        assert 'base_time = "referee"' in text and f'broker = "mqtts://localhost:{tls}"' in text
        # the simulator sets its own state folder; here the table's queue goes to the test's
        config = parse_config(text.replace("[table]\n", f"[table]\nstate_dir = '{tmp_path / 'state'}'\n", 1))
        assert config.hub.ca_file == str(home / "turnaj" / "broker" / "ca.crt")
        publisher = _publisher(config, lambda _item: None)
        publisher.start()
        assert wait_until(lambda: publisher.connected, 60), publisher.link.view()
        publisher.publish_event(0, {"type": "start", "at": 1.0, "players": ["Jan", "Eva"]})
        assert publisher.wait_idle(60), "the table did not deliver over TLS"
        status = lambda: json.loads(request(hub.port, "GET", "/api/overview")[2])  # noqa: E731
        assert wait_until(lambda: any(t.get("table") == "1" for t in status().get("tables", [])), 60), status()
    finally:
        if publisher is not None:
            publisher.stop()
        if hub is not None:
            hub.stop()
        broker.terminate()
        broker.wait(30)
