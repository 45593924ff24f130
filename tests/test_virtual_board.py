"""The virtual board: resistor readings the real firmware classifies, faults and flicker a test can inject."""

from __future__ import annotations

import threading

import pytest

from firmware import tilecodes
from firmware.classify import classify
from firmware.scanner import Scanner
from hw_sim.virtual_board import CELLS, VirtualBoard, to_u16


def codes(board: VirtualBoard) -> list[int]:
    return [classify(board.read_raw(cell)) for cell in range(CELLS)]


def test_an_empty_board_reads_empty_and_letters_are_none() -> None:
    board = VirtualBoard(seed=1)
    assert codes(board) == [tilecodes.EMPTY] * CELLS
    assert board.letters() == [None] * CELLS


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_letter_on_every_cell_reads_right_at_the_noise_budget(seed: int) -> None:
    """Parts drawn within tolerance + 10 LSB12 noise: the classifier still gets every tile on every cell."""
    board = VirtualBoard(noise_lsb=10, seed=seed)
    letters = [letter for _code, letter in tilecodes.LETTERS]
    for shift in range(len(letters)):
        for cell in range(CELLS):
            board.place(cell // 15, cell % 15, letters[(cell + shift) % len(letters)])
        want = [tilecodes.code_of(letters[(cell + shift) % len(letters)]) for cell in range(CELLS)]
        assert codes(board) == want


def test_place_remove_and_letters() -> None:
    board = VirtualBoard(seed=4)
    board.place(7, 7, "Ř")
    board.place(0, 14, "?")
    letters = board.letters()
    assert letters[7 * 15 + 7] == "Ř" and letters[14] == "?"
    assert classify(board.read_raw(112)) == tilecodes.code_of("Ř")
    assert classify(board.read_raw(14)) == tilecodes.BLANK_CODE
    board.remove(7, 7)
    assert board.letters()[112] is None
    assert classify(board.read_raw(112)) == tilecodes.EMPTY
    board.clear()
    assert board.letters() == [None] * CELLS


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda b: b.place(0, 0, "Ö"), "no tile code for letter 'Ö'"),
        (lambda b: b.place(0, 0, "a"), "no tile code for letter 'a'"),
        (lambda b: b.place(15, 0, "A"), "row 15 is off the board"),
        (lambda b: b.remove(0, -1), "col -1 is off the board"),
        (lambda b: b.set_fault(0, 0, "melted"), "unknown fault kind 'melted'"),
        (lambda b: b.flicker(0, 0, -2), "flicker times must be a non-negative int"),
        (lambda b: b.set_noise(-1), "noise lsb must be a non-negative int"),
        (lambda b: b.read_raw(225), "cell 225 is off the board"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call(VirtualBoard(seed=0))


def test_faults_read_as_their_codes_and_clear() -> None:
    board = VirtualBoard(noise_lsb=10, seed=5)
    board.place(1, 1, "A")
    board.set_fault(1, 1, "open")
    board.set_fault(2, 2, "short")
    board.set_fault(3, 3, "band")
    for _ in range(20):
        assert classify(board.read_raw(16)) == tilecodes.FAULT_OPEN
        assert classify(board.read_raw(32)) == tilecodes.FAULT_SHORT
        assert classify(board.read_raw(48)) == tilecodes.FAULT_BAND
    board.set_fault(1, 1, None)
    assert classify(board.read_raw(16)) == tilecodes.code_of("A")


def test_flicker_alternates_empty_and_placed_for_2n_reads() -> None:
    board = VirtualBoard(seed=6)
    board.place(4, 4, "K")
    board.flicker(4, 4, 3)
    k = tilecodes.code_of("K")
    seen = [classify(board.read_raw(64)) for _ in range(8)]
    assert seen == [tilecodes.EMPTY, k] * 3 + [k, k]


def test_the_scanner_never_reports_a_flicker_shorter_than_its_debounce() -> None:
    board = VirtualBoard(noise_lsb=4, seed=7)
    board.place(7, 7, "Ž")
    scanner = Scanner(board.read_raw, stable_scans=3)
    reported = [change for _ in range(3) for change in scanner.scan()]
    assert reported == [(112, tilecodes.code_of("Ž"))]
    board.flicker(7, 7, 5)
    assert [change for _ in range(20) for change in scanner.scan()] == []
    board.remove(7, 7)
    assert [change for _ in range(3) for change in scanner.scan()] == [(112, tilecodes.EMPTY)]


def test_same_seed_same_readings_and_noise_changes_them() -> None:
    first, second = VirtualBoard(noise_lsb=6, seed=9), VirtualBoard(noise_lsb=6, seed=9)
    for board in (first, second):
        board.place(5, 5, "M")
    assert [first.read_raw(80) for _ in range(50)] == [second.read_raw(80) for _ in range(50)]
    quiet = VirtualBoard(seed=9)
    quiet.place(5, 5, "M")
    assert len({quiet.read_raw(80) for _ in range(20)}) == 1
    quiet.set_noise(6)
    assert len({quiet.read_raw(80) for _ in range(50)}) > 1


def test_readings_have_the_12_bit_converters_16_bit_scaling() -> None:
    board = VirtualBoard(noise_lsb=3, seed=10)
    board.place(0, 0, "C")
    for _ in range(50):
        raw = board.read_raw(0)
        assert raw == to_u16(raw >> 4)
    assert to_u16(4095) == 65535 and to_u16(0) == 0


def test_reads_and_edits_from_two_threads_never_see_a_torn_tile() -> None:
    board = VirtualBoard(noise_lsb=5, seed=11)
    allowed = {tilecodes.EMPTY, tilecodes.code_of("X"), tilecodes.code_of("Y")}
    stop = threading.Event()
    errors: list[BaseException] = []

    def edit() -> None:
        try:
            while not stop.is_set():
                board.place(3, 3, "X")
                board.place(3, 3, "Y")
                board.remove(3, 3)
        except BaseException as exc:  # reported below
            errors.append(exc)

    worker = threading.Thread(target=edit)
    worker.start()
    try:
        seen = {classify(board.read_raw(48)) for _ in range(20000)}
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not errors
    assert seen <= allowed
