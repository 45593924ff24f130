"""``partiar duplicate --board URL``: the referee's instrumented master board (the simulated board device with the
board's own firmware logic, on a pseudo-terminal) is checked against the game before each draw: a top play laid
with a wrong tile, a tile too many or one missing is named square by square until the board is right."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from small_lexicon import CAT_WORDS, write_index

from desk import master_board
from desk.duplicate import run_duplicate
from device.cli import build_parser
from hw_sim.board_device import BoardDevice
from hw_sim.virtual_board import VirtualBoard


class ScriptedInput(io.StringIO):
    """The referee's lines; before a line is read, the action given with it runs (a tile laid on the board)."""

    def __init__(self, steps: list[tuple[Callable[[], None] | None, str]]) -> None:
        super().__init__()
        self.steps = list(steps)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if not self.steps:
            return ""
        action, line = self.steps.pop(0)
        if action is not None:
            action()
        return line + "\n"


@pytest.fixture
def board(monkeypatch):
    """The simulated board on a pty; the program's waits for it made generous for a busy machine (each ends as soon
    as the board has reported)."""
    monkeypatch.setattr(master_board, "CONNECT_S", 120.0)
    monkeypatch.setattr(master_board, "SETTLE_S", 2.0)
    monkeypatch.setattr(master_board, "SETTLE_LIMIT_S", 120.0)
    virtual = VirtualBoard(seed=1)
    device = BoardDevice(virtual)
    device.start()
    yield virtual, device
    device.stop()


def scanned(device: BoardDevice, scans: int = 5, limit: float = 120.0) -> None:
    """Until the board has scanned what was just laid often enough to report it (a change is stable after 3)."""
    start, deadline = device.scans, time.monotonic() + limit
    while device.scans < start + scans:
        assert time.monotonic() < deadline, "the board stopped scanning"
        time.sleep(0.01)


def top_play(folder: Path) -> list[tuple[int, int, str]]:
    """The squares and tiles of the top play of move 1, as the journal's game put it on the board."""
    from desk.duplicate import load_game

    args = build_parser().parse_args(["duplicate", str(folder)])
    _header, _records, game = load_game(args)  # read only: the journal as it is, no lock
    return [(i // 15, i % 15, t.rack_letter) for i, t in enumerate(game.board.cells) if t is not None]


def test_the_master_board_must_hold_the_top_play_before_the_next_draw(tmp_path: Path, board) -> None:
    virtual, device = board
    port = device.port_path
    index = write_index(tmp_path / "en.dawg", CAT_WORDS)
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob", "--draw", "referee", "--tiles", "english", "--lexicon", str(index),
               "--lang", "en", "--board", port]  # fmt: skip
    laid: list[tuple[int, int, str]] = []

    def lay_wrong() -> None:  # the top play, its first tile wrong, and a stray tile
        laid.extend(top_play(folder))
        (r, c, letter), *rest = laid
        virtual.place(r, c, "Z" if letter != "Z" else "Y")
        for row, col, tile in rest:
            virtual.place(row, col, tile)
        virtual.place(0, 0, "Q")
        scanned(device)

    def put_right() -> None:
        r, c, letter = laid[0]
        virtual.place(r, c, letter)
        virtual.remove(0, 0)
        scanned(device)

    steps = [(None, "CATSEAX"), (None, ""), (None, "close"), (lay_wrong, ""), (put_right, ""), (None, "")]
    args = build_parser().parse_args(["duplicate", str(folder), *options])
    out = io.StringIO()
    assert run_duplicate(args, ScriptedInput(steps), out) == 0
    text = out.getvalue()
    r, c, letter = laid[0]
    square = f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}"  # classic notation in English: column letter, row number
    wrong = "Z" if letter != "Z" else "Y"
    assert "The master board does not match the game: A1: Q is not in the game" in text
    assert f"{square} reads {wrong}, should be {letter}" in text
    assert all(f"{'ABCDEFGHIJKLMNO'[col]}{row + 1}: {tile} missing" in text for row, col, tile in laid)  # nothing laid
    assert text.index("missing") < text.index("reads") < text.index("The master board matches the game.")
    assert "Move 2: enter the 3 tiles drawn" in text[text.index("The master board matches the game.") :]
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["type"] for r in journal].count("draw") == 1  # no second rack drawn before the board was right


def test_the_referee_may_go_on_without_the_check(tmp_path: Path, board) -> None:
    port = board[1].port_path
    index = write_index(tmp_path / "en.dawg", CAT_WORDS)
    folder = tmp_path / "game"
    options = ["--players", "Ann", "--draw", "referee", "--tiles", "english", "--lexicon", str(index), "--board", port]
    steps = [(None, "CATSEAX"), (None, ""), (None, "konec"), (None, "dál")]
    args = build_parser().parse_args(["duplicate", str(folder), *options])
    out = io.StringIO()
    assert run_duplicate(args, ScriptedInput(steps), out) == 0
    text = out.getvalue()
    assert "Hlavní deska nesouhlasí s hrou:" in text and " chybí " in text
    assert "Tah 2: zadejte vylosované kameny" in text  # went on to the next draw


def test_a_board_that_is_not_connected_is_said_and_the_check_waits(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(master_board, "CONNECT_S", 0.5)  # no board will answer: the start waits no longer than that
    index = write_index(tmp_path / "en.dawg", CAT_WORDS)
    options = ["--players", "Ann", "--draw", "referee", "--tiles", "english", "--lexicon", str(index), "--lang",
               "en", "--board", str(tmp_path / "no-such-port")]  # fmt: skip
    args = build_parser().parse_args(["duplicate", str(tmp_path / "game"), *options])
    out = io.StringIO()
    assert run_duplicate(args, ScriptedInput([(None, "")]), out) == 0
    assert f"The master board ({tmp_path / 'no-such-port'}) is not connected." in out.getvalue()
    assert "enter the tiles drawn" not in out.getvalue()  # no rack before the board is there or the referee skips
