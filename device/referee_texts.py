"""What the referee's terminal tools (``partiar duplicate``, ``partiar qualify``) print, from the ``ref_*`` and
``reason_*`` texts of :data:`device.texts.CLI` (Czech, English as an option)."""

from __future__ import annotations

from device.texts import cli
from engine.board import Notation
from engine.duplicate.slips import SlipCheck


def say(key: str, lang: str = "cs", **values: object) -> str:
    """The ``ref_<key>`` text in ``cs`` or ``en`` with ``values`` filled in; raises KeyError for an unknown key."""
    return cli(f"ref_{key}", lang).format(**values)


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
