"""The simulated board holds the tile set of the table's ruleset: an English table's board takes Q and W, a Czech
table's (the default) refuses them."""

from __future__ import annotations

from pathlib import Path

import pytest

from hw_sim.sim import Sim, SimError, board_tiles
from hw_sim.sim_client import SimClient, SimClientError


class Board:
    """A virtual board that only records what is laid on it."""

    def __init__(self) -> None:
        self.placed: list[tuple[int, int, str]] = []

    def place(self, row: int, col: int, letter: str) -> None:
        self.placed.append((row, col, letter))

    def remove(self, row: int, col: int) -> None:
        pass


class Device:
    port_path = "/dev/pts/fake"


def board_sim(tmp_path: Path, config: str | None) -> tuple[Sim, Board]:
    config_file = None
    if config is not None:
        config_file = tmp_path / "table.toml"
        config_file.write_text(config, encoding="utf-8")
    board = Board()
    sim = Sim(tmp_path / "state", port=0, config_file=config_file, board=board, device=Device(), daemon_argv=[])
    sim.start()
    return sim, board


def test_an_english_table_board_takes_q_and_w(tmp_path: Path) -> None:
    sim, board = board_sim(tmp_path, '[table]\nruleset = "english"\nplayers = ["Ann", "Bob"]\n')
    try:
        with SimClient(sim.url) as client:
            assert client.state()["tiles"]["name"] == "english"
            client.board("place", row=7, col=7, letter="Q")
            client.board("place", row=7, col=8, letter="W")
    finally:
        sim.stop()
    assert board.placed == [(7, 7, "Q"), (7, 8, "W")]


def test_a_czech_table_board_refuses_q(tmp_path: Path) -> None:
    sim, board = board_sim(tmp_path, None)
    try:
        with SimClient(sim.url) as client:
            assert client.state()["tiles"]["name"] == "czech"
            client.board("place", row=7, col=7, letter="Ř")
            with pytest.raises(SimClientError, match="no tile 'Q' in the czech set"):
                client.board("place", row=7, col=8, letter="Q")
    finally:
        sim.stop()
    assert board.placed == [(7, 7, "Ř")]


def test_the_board_tile_set_follows_the_ruleset_and_its_options() -> None:
    assert board_tiles({}) == "czech"
    assert board_tiles({"table": {"ruleset": "english"}}) == "english"
    assert board_tiles({"table": {"ruleset": "home", "rules": {"tile_set": "polish"}}}) == "polish"
    with pytest.raises(SimError, match="ruleset"):
        board_tiles({"table": {"ruleset": "nonesuch"}})
