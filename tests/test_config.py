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
        ("[table]\nplayers = 'AB'", "table.players", "must be a list"),
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
    assert "must be text in quotes" in refused(hub.replace(f"'{cert}'", "1"))


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
@pytest.mark.parametrize(
    ("table", "key", "reason"),
    [
        ('players = ["A", "B", "C"]', "table.players", "ruleset 'cas' is for 2 players, got 3"),
        ('players = ["A", "B", "C", "D"]\nruleset = "english"', "table.players", "'english' is for 2 players"),
    ],
)
def test_the_check_refuses_what_the_game_or_the_clock_would_refuse_at_start(table, key, reason):
    with pytest.raises(ConfigError) as e:
        parse_config(f"[table]\n{table}\n")
    assert e.value.key == key and reason in e.value.reason


@pytest.mark.parametrize("clock", ["cas", "prague", "polish", "home", "home_chess", "free", "duplicate"])
@pytest.mark.parametrize("ruleset", ["cas", "home", "english"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_config_the_check_passes_starts_a_table_and_plays(tmp_path, clock, ruleset, players):
    from table_rig import Rig

    names = tuple(f"P{i}" for i in range(players))
    try:
        rig = Rig(tmp_path, clock=clock, players=names, extra=f'ruleset = "{ruleset}"\n')
    except ConfigError as e:
        assert e.key == "table.players" and ruleset != "home"
        return
    rig.start()
    for _ in range(3):
        rig.press(players - 1)
        rig.press(rig.table.game.player_on_move)
        rig.advance(130.0)
    assert rig.table.game.players == names
    rig.close()


def test_a_byte_order_mark_is_named(tmp_path):
    path = tmp_path / "table.toml"
    path.write_bytes(b"\xef\xbb\xbf[table]\nname = \"St\xc5\xafl 3\"\n")
    with pytest.raises(ConfigError, match="byte-order mark"):
        load_config(path)


def test_an_unusable_state_dir_is_named(tmp_path):
    from device.config import check_state_dir

    a_file = tmp_path / "plain-file"
    a_file.write_text("x")
    with pytest.raises(ConfigError, match="it is a file, not a folder") as e:
        check_state_dir(parse_config(f'[table]\nstate_dir = "{a_file}"\n'))
    assert e.value.key == "table.state_dir"
    (tmp_path / "state" / "journal.jsonl").mkdir(parents=True)
    with pytest.raises(ConfigError, match="journal.jsonl is not a regular file"):
        check_state_dir(parse_config(f'[table]\nstate_dir = "{tmp_path / "state"}"\n'))
    check_state_dir(parse_config(f'[table]\nstate_dir = "{tmp_path / "new" / "dir"}"\n'))  # made on demand


# ------------------------------------------------------------------------------------- what organisers read
@pytest.mark.parametrize(
    "text, line, cs, en",
    [
        ("[table]\nname = 'x'\nlanguage = 'de'\n", 3, "musí být jedno z: cs, en; je 'de'", "must be one of cs, en"),
        ("[table]\nplayers = ['A']\n", 2, "musí uvádět 2 až 4 neprázdná jména", "must list 2 to 4 non-empty names"),
        ("[table]\n\n[display]\ncount = 3\n", 4, "musí být 1 nebo 2, je 3", "must be 1 or 2, got 3"),
        ("[display]\nlines = true\n", 2, "musí být celé číslo, je True", "must be an integer, got True"),
        ("[tabel]\nname = 'x'\n", 1, "neznámý oddíl", "unknown section"),
        ("[table]\nname = 'x'\n[table\n", 3, "není platný TOML", "not valid TOML"),
        ("[table]\nruleset = 'cas'\nplayers = ['A', 'B', 'C']\n", 3, "pravidla 'cas' jsou pro 2 hráče, zadáno 3",
         "ruleset 'cas' is for 2 players, got 3"),
        ("[sim]\ntime = 'manual'\n", 2, "ruční čas je povolen jen s table.pin_factory = 'mock'", "manual time"),
    ],
)
def test_a_config_error_says_file_line_key_what_and_how_to_fix_in_czech_or_english(text, line, cs, en):
    with pytest.raises(ConfigError) as info:
        parse_config(text, "table.toml")
    e = info.value
    czech, english = e.describe("cs"), e.describe("en")
    assert czech.startswith(f"table.toml:{line}: klíč {e.key}: ") and cs in czech, czech
    assert english.startswith(f"table.toml:{line}: config key {e.key!r}: ") and en in english, english
    assert "\n  oprava: " in czech and "\n  fix: " in english
    assert e.fix("cs") and e.fix("en") and e.fix("cs") != e.fix("en")
    assert str(e) == english.replace("\n  fix: ", "; fix: ")  # the log's form: the English, on one line


def test_every_config_error_code_has_both_languages_with_the_same_values():
    import string

    from shared.texts import CONFIG

    for code, (cs, en, fix_cs, fix_en) in CONFIG.items():
        fields = [{f for _, f, _, _ in string.Formatter().parse(t) if f} for t in (cs, en, fix_cs, fix_en)]
        assert fields[0] == fields[1] or code == "rules", code  # the engine's rule message is its own English
        assert fields[2] == fields[3], code
        assert all((cs, en, fix_cs, fix_en)), code


def test_every_config_error_the_daemon_raises_has_a_text():
    """No ConfigError or PinMapError in device/ is raised with a bare English reason: each names a code of
    shared.texts.CONFIG (the Czech and English texts and the fix)."""
    import re
    from pathlib import Path

    from shared.texts import CONFIG

    root = Path(__file__).resolve().parent.parent / "device"
    bare, unknown = [], []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for match in re.finditer(r"(ConfigError|PinMapError)\((?P<args>[^()]*(\([^()]*\)[^()]*)*)\)", source):
            args = match.group("args")
            if "code=" not in args and not args.startswith(("DeviceError", "ConfigError")):
                if "class " not in source[max(0, match.start() - 6) : match.start()]:
                    bare.append(f"{path.name}: {match.group(0)[:80]}")
            for code in re.findall(r'code="(\w+)"', args):
                if code not in CONFIG:
                    unknown.append(f"{path.name}: {code}")
    assert not bare and not unknown, (bare, unknown)


def test_partiar_run_tells_a_broken_config_in_czech_or_english(tmp_path, capsys):
    from device.cli import main

    bad = tmp_path / "table.toml"
    bad.write_text("[table]\nresume = 'later'\n", encoding="utf-8")
    assert main(["run", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"partiar run: chybná konfigurace: {bad}:2: klíč table.resume: musí být jedno z: ")
    assert "\n  oprava: napište jednu z hodnot: remaining, full, paused" in err
    assert main(["run", "--config", str(bad), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"partiar run: {bad}:2: config key 'table.resume': must be one of remaining, full, paused")
    assert "\n  fix: write one of: remaining, full, paused" in err
    # a config that reads well says its own language: an English table's unusable folder is told in English
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    bad.write_text(f"[table]\nlanguage = 'en'\nstate_dir = '{blocker}'\n", encoding="utf-8")
    assert main(["run", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "config key 'table.state_dir': " in err and "it is a file, not a folder" in err and "\n  fix: set state_dir" in err
