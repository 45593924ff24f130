"""A broken config is refused with the key and the reason; a good one gives the values it says."""

import os

import pytest

from device.config import TableConfig, load_config, parse_config
from device.errors import ConfigError


def test_defaults():
    c = parse_config("")
    assert c == TableConfig()
    assert c.pin_factory == "lgpio" and c.serial_url == "/dev/ttyACM0" and c.ruleset == "cas"


def test_full_config():
    c = parse_config(
        """
[table]
name = "Stůl 7"
language = "en"
pin_factory = "mock"
serial_url = "socket://127.0.0.1:7000"
players = ["Jana", "Petr"]
resume = "full"
[display]
count = 2
columns = 20
lines = 4
mode = "i2c"
[sim]
panel_port = 8123
time = "manual"
"""
    )
    assert c.name == "Stůl 7" and c.players == ("Jana", "Petr") and c.display.count == 2
    assert c.display.columns == 20 and c.sim.time == "manual" and c.sim.panel_port == 8123


@pytest.mark.parametrize(
    "text, key, reason",
    [
        ("[table]\npin_factory = 'gpio'", "table.pin_factory", "must be one of"),
        ("[table]\nlanguage = 'de'", "table.language", "must be one of"),
        ("[table]\nplayers = ['A']", "table.players", "2 to 4"),
        ("[table]\nplayers = 'AB'", "table.players", "must be list"),
        ("[table]\nserial_url = ''", "table.serial_url", "must not be empty"),
        ("[table]\nbogus = 1", "table.bogus", "unknown key"),
        ("[tabel]\nname = 'x'", "tabel", "unknown section"),
        ("[display]\ncount = 3", "display.count", "1 or 2"),
        ("[display]\ncolumns = 40", "display.columns", "not supported"),
        ("[display]\nlines = true", "display.lines", "must be an integer"),
        ("[sim]\npanel_port = 70000", "sim.panel_port", "0-65535"),
        ("[sim]\ntime = 'manual'", "sim.time", "only allowed"),
        ("[table\nname = 'x'", "(file)", "not valid TOML"),
    ],
)
def test_broken_configs_name_key_and_reason(text, key, reason):
    with pytest.raises(ConfigError) as info:
        parse_config(text, "table.toml")
    assert info.value.key == key
    assert reason in info.value.reason
    assert "table.toml" in str(info.value)


def test_unreadable_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "latin1.toml"
    bad.write_bytes("name = 'St\xfal'".encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(bad)


# ------------------------------------------------------------------------------------------- [hub] ca_file
def test_hub_ca_file_is_a_readable_pem_certificate_of_an_mqtts_broker(tmp_path):
    from test_hub_limits import self_signed

    cert, _key = self_signed(tmp_path)
    hub = f"[hub]\nbroker = 'mqtts://hub.local:8883'\ntable_id = 't07'\nca_file = '{cert}'\n"
    assert parse_config(hub).hub.ca_file == str(cert)
    assert parse_config("").hub.ca_file == ""

    def refused(text: str) -> str:
        with pytest.raises(ConfigError) as info:
            parse_config(text, "table.toml")
        assert info.value.key == "hub.ca_file"
        return info.value.reason

    assert "no such file" in refused(hub.replace(str(cert), str(tmp_path / "missing.crt")))
    assert "no such file" in refused(hub.replace(str(cert), str(tmp_path)))  # a folder
    not_pem = tmp_path / "notes.txt"
    not_pem.write_text("not a certificate\n", encoding="utf-8")
    assert "no PEM certificate" in refused(hub.replace(str(cert), str(not_pem)))
    assert "only applies to an mqtts://" in refused(hub.replace("mqtts://", "mqtt://"))
    assert "must be str" in refused(hub.replace(f"'{cert}'", "1"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_hub_ca_file_that_cannot_be_read_is_refused(tmp_path):
    from test_hub_limits import self_signed

    cert, _key = self_signed(tmp_path)
    cert.chmod(0)
    with pytest.raises(ConfigError, match="hub.ca_file.*cannot be read"):
        parse_config(f"[hub]\nbroker = 'mqtts://hub.local:8883'\ntable_id = 't07'\nca_file = '{cert}'\n")


def test_the_tables_publisher_gets_the_hub_ca_file(tmp_path):
    from test_hub_limits import self_signed

    from device.hardware import _publisher

    cert, _key = self_signed(tmp_path)
    config = parse_config(
        f"[table]\nstate_dir = '{tmp_path}'\n"
        f"[hub]\nbroker = 'mqtts://127.0.0.1:8883'\ntable_id = 't07'\nca_file = '{cert}'\n"
    )
    publisher = _publisher(config, lambda _item: None)
    assert publisher.ca_file == str(cert) and publisher.address.tls
    without = _publisher(parse_config(f"[table]\nstate_dir = '{tmp_path}'\n[hub]\nbroker = 'mqtts://127.0.0.1:8883'\n"
                                      "table_id = 't07'\n"), lambda _item: None)  # fmt: skip
    assert without.ca_file is None  # the system's CA store
