"""Answer slips (seed 001, items 7 and 8): a player's position, word and claimed score, checked against the board.

A slip is refused for a wrong position (the word does not lie there, or the position names another word than the
one with the new tiles), tiles the rack does not hold, an unknown word (the lexicon advises; the referee decides)
or, when the referee chose that rule before the first slip, a wrong score. Otherwise it is credited with the
engine's score of the play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from engine.board import Board, Notation, Position
from engine.errors import EngineError
from engine.placement import IllegalPlacement, Play, placements_from_word, validate
from engine.rules import RuleOptions
from engine.scoring import score_play
from engine.tiles import BLANK, TileSet


class Verdict(Enum):
    """What the referee does with a slip."""

    CREDITED = "credited"
    WRONG_POSITION = "wrong_position"
    NOT_ON_RACK = "not_on_rack"
    UNKNOWN_WORD = "unknown_word"
    WRONG_SCORE = "wrong_score"
    NO_SLIP = "no_slip"
    WITHDRAWN = "withdrawn"
    """The referee struck the player's slip out (``smazat``) and no other came: 0, shown as struck out, not missing."""


@dataclass(frozen=True, slots=True)
class Slip:
    """What a player wrote: position (ČAS ``H8V`` with the Czech set, classic otherwise; the seed's own ``8H``
    across / ``H8`` down is read with every set, see :func:`slip_position`), word (blanks in lowercase) and the
    score they claim."""

    player: str
    position: str
    word: str
    claimed: int


@dataclass(frozen=True, slots=True)
class SlipCheck:
    """The engine's view of a slip: ``verdict`` (``UNKNOWN_WORD`` waits for the referee), the play and its score
    where the slip names one, the words the lexicon does not know, the rack tiles missing, the placement rule broken
    (``reason``: an :class:`engine.placement.Reason`, ``"notation"`` for a position that does not parse, ``"main"``
    when the position names another word than the main one) and a message in English for logs."""

    slip: Slip
    verdict: Verdict
    score: int
    play: Play | None
    unknown: tuple[str, ...]
    detail: str = ""
    missing: str = ""
    reason: str = ""


def slip_position(text: str, notation: Notation) -> Position:
    """The position a slip names. Seed 001, item 7 tells players to write the row number first across (``8H``)
    and the column letter first down (``H8``): that classic form is read whatever ``notation`` the game prints,
    and the ČAS form with its direction letter (``H8V``/``H8S``) is read too. Raises NotationError (the ČAS
    message when neither parses)."""
    if notation is not Notation.CAS:
        return Position.from_notation(text, notation)
    try:
        return Position.from_notation(text, Notation.CAS)
    except EngineError as cas_error:
        try:
            return Position.from_notation(text, Notation.CLASSIC)
        except EngineError:
            raise cas_error from None


def check_slip(
    slip: Slip,
    board: Board,
    rack: str,
    tiles: TileSet,
    is_word: Callable[[str], bool],
    notation: Notation,
    strict_scores: bool,
    rules: RuleOptions | None = None,
) -> SlipCheck:
    """Check a slip against the board and the rack of the move. ``is_word`` asks the lexicon (lowercase word)."""
    try:
        position = slip_position(slip.position, notation)
    except EngineError as exc:
        return SlipCheck(slip, Verdict.WRONG_POSITION, 0, None, (), str(exc), reason="notation")
    try:
        placements = placements_from_word(board, position, slip.word)
        play = validate(board, placements, position.direction)
    except IllegalPlacement as exc:
        return SlipCheck(slip, Verdict.WRONG_POSITION, 0, None, (), str(exc), reason=exc.reason.name.lower())
    except EngineError as exc:  # a character that is no tile
        return SlipCheck(slip, Verdict.WRONG_POSITION, 0, None, (), str(exc), reason="notation")
    main = play.main
    if main.position != position or len(main.tiles) != len(slip.word):
        where = main.position.notation(notation)
        return SlipCheck(
            slip,
            Verdict.WRONG_POSITION,
            0,
            play,
            (),
            f"the new tiles make {main.notation()} at {where}",
            reason="main",
        )
    used = Counter(p.tile.rack_letter for p in play.placements)
    missing = used - Counter(rack.replace(BLANK.lower(), BLANK))
    score = score_play(play, tiles, rules).total
    if missing:
        lacking = "".join(missing.elements())
        return SlipCheck(
            slip, Verdict.NOT_ON_RACK, score, play, (), f"rack {rack} lacks {lacking}", missing=lacking
        )
    unknown = tuple(w.notation() for w in play.words if not is_word(w.text.lower()))
    if unknown:
        return SlipCheck(slip, Verdict.UNKNOWN_WORD, score, play, unknown, ", ".join(unknown))
    if strict_scores and slip.claimed != score:
        return SlipCheck(
            slip, Verdict.WRONG_SCORE, score, play, (), f"claimed {slip.claimed}, the play scores {score}"
        )
    return SlipCheck(slip, Verdict.CREDITED, score, play, ())
