"""What the referee's desk tools (``partiar duplicate``, ``partiar qualify``, ``partiar best``) print, from the ``ref_*`` and
``reason_*`` texts of :data:`shared.texts.CLI` (Czech, English as an option)."""

from __future__ import annotations

import sys

from engine.board import Notation
from engine.duplicate.game import DrawError
from engine.duplicate.slips import SlipCheck
from engine.errors import BadRack
from engine.gcg import GcgError
from engine.lexicon.errors import LexiconError
from engine.movegen import MoveGenerator
from engine.replay import ReplayError
from shared.gcg_texts import describe_error
from shared.texts import cli, counted


def say(key: str, lang: str = "cs", **values: object) -> str:
    """The ``ref_<key>`` text in ``cs`` or ``en`` with ``values`` filled in (whole numbers as :class:`Count`);
    raises KeyError for an unknown key."""
    return counted(f"ref_{key}", lang, **values)


def describe(check: SlipCheck, lang: str, notation: Notation) -> str:
    """Why a slip was refused, for the referee: the rule broken, the tiles missing, the unknown words or the
    right score."""
    verdict = check.verdict.value
    if verdict == "not_on_rack":
        return check.missing
    if verdict == "unknown_word":
        return ", ".join(check.unknown)
    if verdict == "wrong_score":
        return cli("ref_claimed", lang).format(claimed=check.slip.claimed, score=check.score)
    if verdict == "wrong_position" and check.reason:
        main = check.play.main if check.play else None
        try:
            reason = cli(f"reason_{check.reason}", lang)
        except KeyError:  # a placing rule without a text yet: the engine's own message
            return check.detail
        return reason.format(
            word=main.notation() if main else "", position=main.position.notation(notation) if main else ""
        )
    return check.detail


def error_text(exc: BaseException, lang: str = "cs") -> str:
    """Bad input of ``partiar best``, ``duplicate`` or ``qualify`` for the referee: a rack no bag can give, a file
    that is missing or unreadable, a GCG record that cannot be read or replayed (its file and line, in ``lang``), a
    malformed lexicon index (the engine's detail after a lead-in in
    the referee's language); anything else as the exception says it."""
    if isinstance(exc, BadRack):
        return cli(f"err_rack_{exc.kind}", lang).format(
            rack=exc.rack, letter=exc.letter, tiles=exc.tile_set, count=exc.count, limit=exc.limit
        )
    if isinstance(exc, DrawError):
        kind = "none" if exc.kind == "count" and not exc.tiles else exc.kind  # Enter alone: no tiles to name
        return cli(f"err_draw_{kind}", lang).format(
            tiles=exc.tiles, missing=exc.missing, need=exc.need, count=len(exc.tiles)
        )
    if isinstance(exc, FileNotFoundError):
        return cli("err_no_file", lang).format(path=exc.filename)
    if isinstance(exc, OSError) and exc.filename is not None:
        return cli("err_unreadable", lang).format(path=exc.filename, error=exc.strerror)
    if isinstance(exc, GcgError | ReplayError):  # the file, the line and what was wrong there, as partiar gcg says
        return describe_error(exc, lang)
    if isinstance(exc, LexiconError):
        return cli("err_lexicon", lang).format(error=exc)
    return str(exc)


def warn_foreign_letters(generator: MoveGenerator, lang: str, program: str) -> None:
    """Warn on stderr when the lexicon has letters the tile set lacks (``MoveGenerator.foreign_letters``): the
    usual sign of a lexicon of another language, which finds almost no plays. A warning, not a refusal: a referee
    may mean it."""
    letters = generator.foreign_letters
    if letters:
        text = say("foreign_letters", lang, tiles=generator.tiles.name, letters=", ".join(letters))
        print(f"{program}: {text}", file=sys.stderr)
