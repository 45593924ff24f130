"""The score sheet's cells (``engine.scoresheet``): a move's cell, a round's row, the whole sheet as strings; shared
by the singles sheet and the doubles one (``engine.scoresheet_doubles``), which both build on them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Notation
from engine.game.records import Move, MoveKind


def format_word(notation: str) -> str:
    """A word as written on the sheet: capitals, a blank's letter in parentheses (``KoČKA`` -> ``K(O)ČKA``)."""
    return "".join(f"({ch.upper()})" if ch.islower() else ch for ch in notation)


@dataclass(frozen=True, slots=True)
class Cell:
    """One move on the sheet: word column, position, score column, running total and marks."""

    word: str
    position: str
    score: str
    total: str
    bingo: bool = False
    best: bool = False
    struck: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    """One round: its number, its playout letter (A/B/C), whether the base time expired in it, the cells."""

    number: int
    abc: str
    expired: bool
    cells: tuple[Cell | None, ...]
    sub: int = 0  # Polish doubles: 1 / 2 = the double move's first / second row


@dataclass(frozen=True, slots=True)
class Sheet:
    """Everything a rendering needs, as strings."""

    lang: str
    players: tuple[str, ...]
    ruleset: str
    rows: tuple[Row, ...]
    crosses: tuple[int, ...]
    adjustments: tuple[str, ...]
    summary: tuple[tuple[str, tuple[str, ...]], ...]
    status: str
    board: tuple[str, ...]
    header: tuple[tuple[str, str], ...] = ()
    """Label and value of the header fields that are known (004 "Do záhlaví partiáře ... pokud je to relevantní")."""
    teams: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """The referee's record: warnings, rack and sheet challenges, letters beyond the set, announced scores."""
    sides: tuple[str, ...] = ()  # doubles: the teams (summary columns); otherwise the summary is per player


def cell_of(move: Move, best: bool, t: dict[str, str], notation: Notation) -> Cell:
    total = str(move.total)
    if move.kind is MoveKind.PLAY:
        words = [format_word(w) for w in move.words]
        word = words[0] + ("*" if move.bingo else "") + "".join(f", {w}" for w in words[1:])
        pos = move.position.notation(notation) if move.position else ""
        return Cell(word, pos, str(move.score), total, move.bingo, best)
    if move.kind is MoveKind.WITHDRAWN:
        word = format_word(move.words[0]) if move.words else str(move.exchanged or "")  # or the exchange's count
        return Cell(f"{word} ({t['withdrawn']})", "", "0", total, struck=True)
    if move.kind is MoveKind.EXCHANGE:
        return Cell(str(move.exchanged), "", "—", total)
    if move.kind is MoveKind.BLANK_SWAP and move.placements:
        pl = move.placements[0]
        return Cell(f"({pl.tile.letter}) → {pl.tile.letter}", pl.square.notation(notation), "0", total)
    if move.kind is MoveKind.STRUCK:  # Polish doubles: "druhý řádek se proškrtne"
        return Cell("—", "", "—", total, struck=True)
    label = {MoveKind.PASS: t["pass"], MoveKind.TIMEOUT: t["time"], MoveKind.PENALTY: t["penalty"]}[move.kind]
    return Cell("", "", label, total)
