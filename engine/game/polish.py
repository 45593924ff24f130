"""The move order of Polish doubles (seed 003 "Polská čtyřhra") as pure functions of the turn number.

"Začínající dvojice má jeden tah (druhý hráč této dvojice nehraje). Pak má druhá dvojice dva tahy (dvojtah). Pak
má dvojtah začínající dvojice atd. až do konce partie." Turns (the game's history entries) are numbered 0..: turn
0 is the starting team's single move, then each team has a double move of two turns: 1-2 team 1, 3-4 team 0, ...
Each player of the team plays one turn of the double move, in the order the team agrees on ("Pojedu já" /
"Jeď ty"); the team's first-listed player plays first unless the game is told otherwise (``PlaysFirst``).

The end-of-time playout ("Ukončení partie dohrávkou"): the team on move finishes its double move (phase A); the
other team plays its double move and only one of its players draws (B); the first team plays its double move
without drawing, and the player who drew plays the final move (C). Then the game is over.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import SIZE, Board, Square
from engine.game.records import Phase


def team_on(turn: int) -> int:
    """The team of a turn: 0 for the single opening move, then double moves alternating 1, 0, 1, ..."""
    return 0 if turn == 0 else ((turn - 1) // 2 + 1) % 2


def is_second(turn: int) -> bool:
    """True for the second turn of a double move."""
    return turn > 0 and (turn - 1) % 2 == 1


def double_start(turn: int) -> int:
    """The first turn of the double move (or of the opening single move) that ``turn`` belongs to."""
    return turn - 1 if is_second(turn) else turn


def ends_team_turn(turn: int) -> bool:
    """True if the team's turn is over after ``turn``: the opening single move or a double move's second turn."""
    return turn == 0 or is_second(turn)


def round_of(turn: int) -> int:
    """The 1-based round (row block of the sheet): round 1 = the opening move and team 1's double move, then each
    round is one double move of each team."""
    return 1 if turn < 3 else (turn - 3) // 4 + 2


def playout_bounds(abc_start: int) -> tuple[int, int, int, int]:
    """The first turns of phases A, B, C and the turn after the final one, for a base time that expired when
    ``abc_start`` turns had been played."""
    a_end = 1 if abc_start == 0 else double_start(abc_start) + 2
    return abc_start, a_end, a_end + 2, a_end + 5


def phase_of(turn: int, abc_start: int | None) -> Phase:
    """The phase of a turn given the turn at which the base time expired (None: not yet)."""
    if abc_start is None:
        return Phase.NORMAL
    _, b, c, end = playout_bounds(abc_start)
    if turn < b:
        return Phase.A
    if turn < c:
        return Phase.B
    if turn < end:
        return Phase.C
    return Phase.ENDED


def final_turn(abc_start: int | None) -> int | None:
    """The turn of the final single move of the playout (played by the player who drew in phase B)."""
    return None if abc_start is None else playout_bounds(abc_start)[3] - 1


def builds_on(board: Board, first: Iterable[Square], second: Iterable[Square]) -> bool:
    """True if the second play "navazuje" on the first: a word it formed contains a tile of the first play.

    The words a play formed are the runs of occupied squares through its new tiles, so it is enough to walk
    from each new tile of the second play along both axes while the squares are occupied."""
    first_set = {(s.row, s.col) for s in first}
    for sq in second:
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            r, c = sq.row + dr, sq.col + dc
            while 0 <= r < SIZE and 0 <= c < SIZE and board.get(r, c) is not None:
                if (r, c) in first_set:
                    return True
                r, c = r + dr, c + dc
    return False
