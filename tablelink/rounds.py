"""The chief referee's round commands, scoped to their round (004 "Hlavní rozhodčí ... vyhlašuje zahájení partií
hraného kola a uplynutí času vymezeného na partie hraného kola").

The hub publishes each command on ``topics.ROUND_COMMAND_TOPIC`` (QoS 1, retained) with the round it belongs to
and ``given``: when (wall clock, seconds since the epoch) each command of that round so far was given, this one
included. The retained message is therefore the round's state: a table that connects late (a wiped card, a spare
table, the next day) learns the round's real start and every later command from it, and a table whose game is not
of that round ignores it (``RoundCommand.applies_to``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tablelink.topics import MAX_ROUND, SchemaError

START, WARNING, END = "start_round", "warning", "end_base_time"
ROUND_COMMANDS = (START, WARNING, END)
"""Round commands the chief referee sends to every table, in the order of a round: the base game time starts on
every clock together, the 10-minute warning, the end of the base time (every table enters the A-B-C playout)."""
STAGES = {START: "running", WARNING: "warning", END: "playout"}
"""The round's stage after each command (the hub's round control shows it)."""


@dataclass(frozen=True)
class RoundCommand:
    """One round command with its round's state (``given``: command -> when it was given)."""

    id: str
    command: str
    round: int
    sent: float
    given: Mapping[str, float] = field(default_factory=dict)

    @property
    def started(self) -> float | None:
        """When the round's base time started (None: not yet)."""
        return self.given.get(START)

    def payload(self) -> dict[str, Any]:
        """The payload (without ``v``; ``topics.encode`` adds it); ``parse_round_command`` reads it back."""
        return {"id": self.id, "command": self.command, "round": self.round, "sent": self.sent,
                "given": dict(self.given)}  # fmt: skip

    def applies_to(self, game_round: int | None, game_started: float) -> bool:
        """Whether this command is for a game: the game of round ``game_round`` (a paired game) takes only its
        round's commands; a game with no round (no pairing) only those of a round started after the game itself
        (``game_started``, wall clock): a command retained from before never acts on it."""
        if game_round is not None:
            return self.round == game_round
        return self.started is not None and self.started >= game_started


def round_command(command: str, round_number: int, command_id: str, previous: RoundCommand | None = None,
                  now: float | None = None) -> RoundCommand:  # fmt: skip
    """The next command: ``command`` of round ``round_number`` given ``now`` (default: the wall clock), carrying
    the times of the round's earlier commands from ``previous`` (the last one sent, if of the same round; a
    command given again keeps its first time). Raises SchemaError for an unknown command or a bad round."""
    if command not in ROUND_COMMANDS:
        raise SchemaError(f"unknown round command {command!r}; known: {', '.join(ROUND_COMMANDS)}")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or not 1 <= round_number <= MAX_ROUND:
        raise SchemaError(f"round must be an integer 1-{MAX_ROUND}, got {round_number!r}")
    at = time.time() if now is None else now
    given = dict(previous.given) if previous is not None and previous.round == round_number else {}
    given.setdefault(command, at)
    return RoundCommand(command_id, command, round_number, at, given)


def parse_round_command(payload: Mapping[str, Any]) -> RoundCommand:
    """The command in a payload; raises SchemaError naming what is wrong. A payload of an earlier hub without
    ``given`` counts as given when it was sent."""
    command, number, command_id = payload.get("command"), payload.get("round"), payload.get("id")
    if command not in ROUND_COMMANDS:
        raise SchemaError(f"round command {command!r:.40} unknown; known: {', '.join(ROUND_COMMANDS)}")
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_ROUND:
        raise SchemaError(f"round command: 'round' must be an integer 1-{MAX_ROUND}, got {number!r:.40}")
    if not isinstance(command_id, str) or not command_id:
        raise SchemaError(f"round command: 'id' must be text, got {command_id!r:.40}")
    sent = payload.get("sent")
    if isinstance(sent, bool) or not isinstance(sent, int | float):
        raise SchemaError(f"round command: 'sent' must be a number, got {sent!r:.40}")
    raw = payload.get("given", {str(command): sent})
    if not isinstance(raw, dict) or any(
        k not in ROUND_COMMANDS or isinstance(v, bool) or not isinstance(v, int | float) for k, v in raw.items()
    ):
        raise SchemaError(f"round command: 'given' must map round commands to times, got {raw!r:.80}")
    given = {str(k): float(v) for k, v in raw.items()}
    given.setdefault(str(command), float(sent))
    return RoundCommand(command_id, str(command), number, float(sent), given)
