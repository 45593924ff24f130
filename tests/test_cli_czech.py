"""What an organiser reads from the command line is Czech (English with ``--lang en``): the referee account's
prompts, the hub's refusal of a players file, the simulator's refusal of its config."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.cli import main


@pytest.mark.parametrize("lang, prompts, done", [
    ("cs", ["heslo rozhodčího eva: ", "heslo znovu: "], "rozhodčí eva se může přihlásit"),
    ("en", ["password of eva: ", "again: "], "referee eva can log in"),
])  # fmt: skip
def test_referee_add_asks_in_the_organisers_language(lang, prompts, done, tmp_path, capsys, monkeypatch) -> None:
    """``partiar hub referee add`` said "password of …:", "again:", "… can log in" in English only."""
    asked: list[str] = []
    monkeypatch.setattr("getpass.getpass", lambda prompt: asked.append(prompt) or "heslo-rozhodciho")
    assert main(["hub", "--db", str(tmp_path / "hub.sqlite"), "referee", "add", "eva", "--lang", lang]) == 0
    assert asked == prompts and capsys.readouterr().out.strip() == done


def test_a_short_referee_password_is_refused_in_czech(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("getpass.getpass", lambda prompt: "krátké")
    assert main(["hub", "--db", str(tmp_path / "hub.sqlite"), "referee", "add", "eva"]) == 2
    assert capsys.readouterr().err.strip() == "partiar hub referee: heslo rozhodčího 'eva' musí mít aspoň 8 znaků"


def test_the_hub_refuses_a_short_players_row_as_the_tournament_command_does(tmp_path, capsys) -> None:
    """``partiar hub --players`` read the CSV with a reader of its own (columns id,name only); now the one reader,
    which refuses a row with fewer cells than the header (the desk registered it as a newcomer at 1000)."""
    players = tmp_path / "players.csv"
    players.write_text("id,name,club,rating\n1203,Eva Malá,1500\n", encoding="utf-8")
    assert main(["hub", "--db", str(tmp_path / "hub.sqlite"), "--players", str(players), "--listen", "127.0.0.1:0",
                 "--broker", "mqtt://127.0.0.1:9"]) == 2  # fmt: skip
    assert capsys.readouterr().err.strip() == \
        f"partiar hub: {players}, řádek 2, pole -: jiný počet buněk než v záhlaví (3/4)"  # fmt: skip


@pytest.mark.parametrize("lang, expected", [
    ("cs", "partiar sim: nelze spustit: nelze přečíst konfiguraci {file}: soubor ani složka neexistuje"),
    ("en", "partiar sim: cannot start: cannot read the config {file}: "),
])  # fmt: skip
def test_the_simulator_refuses_a_missing_config_in_the_organisers_language(lang, expected, tmp_path: Path,
                                                                            capsys) -> None:  # fmt: skip
    """``partiar sim --config`` said "cannot start: cannot read the config …" in English only."""
    config = tmp_path / "nothere.toml"
    assert main(["sim", "--config", str(config), "--no-browser", "--port", "0", "--no-lexicon", "--state-dir",
                 str(tmp_path / "state"), "--lang", lang]) == 2  # fmt: skip
    assert capsys.readouterr().err.strip().startswith(expected.format(file=config))
