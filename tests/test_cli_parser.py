"""The ``partiar`` parser: ``partiar COMMAND`` builds (and imports) that command alone; ``--help`` without a command
and an unknown command see every command."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import SUBCOMMANDS, _plugins, build_parser, command_of, main

ROOT = Path(__file__).resolve().parent.parent
EVERY = [*SUBCOMMANDS, *sorted(set(_plugins()) - set(SUBCOMMANDS))]


def commands_of(parser: argparse.ArgumentParser) -> list[str]:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(sub.choices)


@pytest.mark.parametrize("name", EVERY)
def test_every_command_parses_its_help_on_its_own(name: str, capsys) -> None:
    assert commands_of(build_parser(name)) == [name]
    with pytest.raises(SystemExit) as stop:
        main([name, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(f"použití: partiar {name} ")


def test_every_installed_command_is_known() -> None:
    assert {"run", "sim", "hub", "gcg", "lexicon", "duplicate"} <= set(EVERY)
    assert commands_of(build_parser()) == EVERY


@pytest.mark.parametrize("argv", [["--help"], ["-h", "run"], ["-vh"]])
def test_the_top_level_help_lists_every_command(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out = capsys.readouterr().out
    assert stop.value.code == 0 and out.startswith("použití: partiar [-h] [-v] [--version] [--lang {cs,en}] PŘÍKAZ")
    assert all(f"\n    {name} " in out for name in EVERY), out


def test_no_command_prints_the_help_with_every_command(capsys) -> None:
    assert main(["-v"]) == 2
    out = capsys.readouterr().out
    assert all(f"\n    {name} " in out for name in EVERY), out


def test_an_unknown_command_gets_argparses_error_naming_every_command(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["nosuch", "--help"])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert "argument PŘÍKAZ: neplatná volba: 'nosuch' (vyberte z " in err
    assert all(repr(name) in err for name in EVERY), err


def test_the_command_is_the_first_word_after_the_verbose_flag() -> None:
    assert command_of(["run", "--config", "x.toml"]) == "run"
    assert command_of(["-v", "run"]) == command_of(["--verbose", "run"]) == command_of(["--verb", "run"]) == "run"
    assert command_of(["-v", "sim", "--help"]) == "sim"
    assert command_of([]) is None and command_of(["-v"]) is None
    assert command_of(["-h", "run"]) is None and command_of(["-vh", "run"]) is None  # the help: every command
    assert command_of(["--", "run"]) is None  # argparse reads the rest


def modules_after(argv: list[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with ``prefixes`` that ``partiar ARGV`` imported, in a fresh interpreter."""
    program = (
        "import sys\n"
        "from device.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT)
    return ast.literal_eval(out.stdout.strip().splitlines()[-1])


def test_a_built_in_command_imports_no_other_command() -> None:
    """``partiar run`` through the console script's path: no other command's module, nor the hub, the simulator,
    the score sheet or the entry points' metadata (``partiar.commands`` is looked up only for a plugin); the
    command's language (``shared.language``) is the parser's own."""
    prefixes = ("device.cli.", "hub", "hw_sim", "engine.scoresheet", "importlib.metadata")
    assert modules_after(["-v", "run", "--help"], prefixes) == ["device.cli.run"]


def test_a_plugin_command_loads_only_its_entry_point() -> None:
    assert modules_after(["sim", "--help"], ("device.cli.", "hub.", "hw_sim.")) == ["hw_sim.cli"]


def test_the_tables_start_imports_no_mqtt_client_without_a_hub() -> None:
    """Issue 34: a restart's CPU doubled: the round's pairing (``device.publish.topics``) pulled in the hub
    publisher through its package, and with it paho-mqtt, ssl, sockets, email and urllib (some 60 ms of CPU before
    the game is back on the LCD). The table's modules load the publisher only for a table with a hub."""
    program = (
        "import sys\n"
        "import device.hardware, device.table, device.cli.run\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('paho', 'ssl', 'email', 'http')"
        " or m == 'device.publish.publisher'))\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT)
    assert ast.literal_eval(out.stdout.strip().splitlines()[-1]) == []
    from device.publish import TablePublisher  # still there for a table with a hub

    assert TablePublisher.__name__ == "TablePublisher"


@pytest.mark.parametrize("argv, env, expected", [
    (["hub", "--help"], {}, ["použití: partiar hub", "SQLite soubor turnaje", "zkouška na tomto počítači"]),
    (["hub", "--lang", "en", "--help"], {}, ["usage: partiar hub", "the tournament's SQLite file"]),
    (["hub", "--help"], {"LANG": "en_GB.UTF-8"}, ["usage: partiar hub", "rehearse on this PC"]),
    (["hub", "--lang", "cs", "--help"], {"LANG": "en_GB.UTF-8"}, ["použití: partiar hub", "SQLite soubor"]),
    (["hub", "referee", "--help"], {}, ["heslo (první řádek)"]),
    (["--help"], {}, ["turnajový hub: všechny stoly živě"]),
    (["tournament", "pair", "--help"], {}, ["složka turnaje", "náhodné semínko 1. kola"]),
    (["tournament", "pair", "--help"], {"LANG": "en_US.UTF-8"}, ["round 1's random seed"]),
    (["sim", "--help"], {}, ["konfigurace démona (TOML)"]),
    (["run", "--help"], {}, ["konfigurace TOML (výchozí: vestavěné hodnoty)"]),
    (["sheet", "--help"], {}, ["zapsat partii i jako záznam GCG"]),
    (["duplicate", "--help"], {}, ["kdo losuje stojany"]),
    (["qualify", "check", "--help"], {}, ["slova, která rozhodčí uznává"]),
    (["best", "--help"], {}, ["kolik tahů (výchozí 10)"]),
    (["gcg", "verify", "--help"], {}, ["záznam GCG", "sada kamenů"]),
    (["lexicon", "build", "--help"], {}, ["seznam pořadatele"]),
    (["diag", "--help"], {}, ["zkoušet jen tyto části"]),
    (["wiring", "check", "--help"], {}, ["mapa pinů (výchozí"]),
])  # fmt: skip
def test_the_help_is_czech_unless_english_is_asked_for(argv, env, expected, capsys, monkeypatch) -> None:
    """An organiser's ``partiar hub --help`` was English only: Czech by default, English with ``--lang en`` or an
    English ``LANG``."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out = capsys.readouterr().out
    assert stop.value.code == 0 and all(text in out for text in expected), out
