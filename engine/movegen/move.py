"""A generated play with its score, and the order plays are ranked in."""

from __future__ import annotations

from engine.board import Direction, Notation, Position
from engine.placement import Placement, Play
from engine.tiles import BLANK, TileSet


class Move:
    """A legal play (validated by the engine) and its score from :func:`engine.scoring.score_play`.

    Equal moves have equal plays and scores. A generator may hand out a move whose Play is built only when it is
    first asked for (:class:`engine.movegen.fast.FoundMove`): the move lists every legal play, and most callers
    look at few of them."""

    __slots__ = ("_play", "score")

    def __init__(self, play: Play, score: int) -> None:
        self._play = play
        self.score = score

    @property
    def play(self) -> Play:
        return self._play

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.score == other.score and self.play == other.play

    def __hash__(self) -> int:
        return hash((self.play, self.score))

    def __repr__(self) -> str:
        return f"Move(play={self.play!r}, score={self.score!r})"

    @property
    def position(self) -> Position:
        """Where the main word starts and which way it reads."""
        return self.play.position

    @property
    def word(self) -> str:
        """The main word written in full, blanks in lowercase (GCG style)."""
        return self.play.main.notation()

    @property
    def placements(self) -> tuple[Placement, ...]:
        return self.play.placements

    def notation(self, style: Notation = Notation.CLASSIC) -> str:
        """The position in a notation (ČAS ``H8V`` for a Czech referee, classic ``8H`` for GCG)."""
        return self.position.notation(style)

    def used(self) -> str:
        """The rack tiles the play uses (``?`` for a blank), in board order."""
        return "".join(p.tile.rack_letter for p in self.placements)

    def leave(self, rack: str) -> str:
        """What stays on ``rack`` after the play (rack order kept); raises ValueError if the rack lacks a tile."""
        left = list(rack.upper().replace(BLANK.upper(), BLANK))
        for letter in self.used():
            try:
                left.remove(letter)
            except ValueError:
                raise ValueError(
                    f"rack {rack!r} has no {letter!r} for {self.word} at {self.notation()}"
                ) from None
        return "".join(left)


def rank_key(move: Move, tiles: TileSet) -> tuple[object, ...]:
    """Sort key of the ČAS duplicate order (seed 001, item 9): higher score first, then the main word earlier in
    the alphabet (Czech alphabetical order for a Czech set, ``ch`` after ``h`` and accents at the second level:
    ``TileSet.sort_key``, :mod:`engine.collation`), then the start nearer the top, then nearer the left, then
    across before down. Plays the seed's order cannot tell apart (the same word on the same squares, a blank on
    different ones) come in the order of their blanks' squares, so that every way of finding the plays ranks them alike."""
    square = move.position.square
    return (
        -move.score,
        tiles.sort_key(move.play.main.text),
        square.row,
        square.col,
        0 if move.position.direction is Direction.ACROSS else 1,
        tuple(p.square.index for p in move.placements if p.tile.blank),
    )
