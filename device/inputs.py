"""What reaches the daemon's loop: every device callback only puts one of these on the table's queue."""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A player's button (0 = A, 1 = B) was pressed."""

    player: int


@dataclass(frozen=True, slots=True)
class EncoderTurned:
    """The menu encoder turned by ``steps`` detents (negative = counter-clockwise)."""

    steps: int


@dataclass(frozen=True, slots=True)
class EncoderPushed:
    """The encoder's push switch was pressed."""


@dataclass(frozen=True, slots=True)
class LinkEvent:
    """An event from the board link (link up/down, board changed, cell fault, snapshot)."""

    event: object


@dataclass(frozen=True, slots=True)
class Tick:
    """Wake the loop: the time source moved (manual time) or a deadline may have passed."""


@dataclass(frozen=True, slots=True)
class RoundCommand:
    """A command from the chief referee: ``start``, ``warning`` or ``end`` of the round's base time; ``state`` is
    the hub's ``tablelink.rounds.RoundCommand`` (its round and the round's times), None for the table's own menu;
    ``live``: given just now (not retained on the broker from before the table connected)."""

    command: str
    state: object = None
    live: bool = True


@dataclass(frozen=True, slots=True)
class HubLink:
    """The broker connection came up, or failed for a new reason (``problem``: ``tablelink.broker.PROBLEMS``)."""

    up: bool
    problem: str | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class PairingReceived:
    """The round's pairing at this table from the hub (a ``tablelink.pairing.TablePairing``)."""

    pairing: object


@dataclass(frozen=True, slots=True)
class Settle:
    """A marker: the loop sets ``done`` when it reaches it, so every input queued before it has been handled."""

    done: threading.Event


@dataclass(frozen=True, slots=True)
class Stop:
    """End the loop (SIGTERM, Ctrl-C, tests)."""


@dataclass(frozen=True, slots=True)
class CheckpointOutcome:
    """The clock checkpoint's writer: its writes started failing (``error``) or succeed again (None)."""

    error: OSError | None
