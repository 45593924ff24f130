"""Duplicate Scrabble (seed 001, items 5-11) and qualification tasks (items 12-13): rules, no I/O.

See docs/duplicate.md.
"""

from __future__ import annotations

from .game import DrawError, DuplicateError, DuplicateGame, Round, ScoreRuleUndecided, SlipResult
from .racks import VOWELS, Mix, required, requirement
from .slips import Slip, SlipCheck, Verdict, check_slip

__all__ = [
    "VOWELS",
    "DrawError",
    "DuplicateError",
    "DuplicateGame",
    "Mix",
    "Round",
    "ScoreRuleUndecided",
    "Slip",
    "SlipCheck",
    "SlipResult",
    "Verdict",
    "check_slip",
    "required",
    "requirement",
]
