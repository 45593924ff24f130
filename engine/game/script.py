"""A short text form of a game's events, one per line, for tests, docs and the referee's console.

::

    start cas Jan Eva          # ruleset preset, players in playing order
    play H8V OSEL =8           # ČAS position, word GCG style (lowercase = blank, "." = tile on the board),
                               # optional announced score
    pass | timeout | exchange 3 | expire            # expire = base game time over (A-B-C playout)
    challenge OSEL | challenge 1 | challenge score  # a word by text or index, or the announced score
    challenge score second                          # Polish doubles: the second play's score
    first 2                                         # Polish doubles: player 2 plays the double move's first
    ruling upheld | ruling rejected | appeal for | appeal against
    resign 1 | disqualify 1 | forfeit 1 | forfeit 0 1 | rack 1 XA | correction 0 -5 note text
    dispute_forfeit 1 | dispute_forfeit - | dispute_forfeit = # 004 E: the referee's forfeit (- = 0:0 void, = = 0:0 draw)
    set - XX | set AE -                 # tile-set check before the first move: missing, extra ("-" = none)
    play_as_laid H1V OSEL      # a play recorded as laid even if it breaks the placing rules (004)
    swap_blank H8                 # 001: a played blank swapped for its letter's tile (uses the turn)
    challenge placement | announce 30 | warn 1 note text | rack_report 1 8 | challenge rack 1 | challenge sheet 1

Timestamps are 1 s apart from 0. ``run_script`` plays the lines on a ``Game`` (a play needs the board to turn a
word into placements); ``ScriptError`` names the line.
"""

from __future__ import annotations

from engine.board import Notation, Position, Square
from engine.errors import EngineError
from engine.game.errors import GameError
from engine.game.events import (
    Announce,
    AppealRuling,
    BaseTimeExpired,
    ChallengePlacement,
    ChallengeRack,
    ChallengeScore,
    ChallengeSheet,
    ChallengeWord,
    Correction,
    DisputeForfeit,
    Event,
    Exchange,
    Forfeit,
    Pass,
    Play,
    PlaysFirst,
    RackEntry,
    RackReport,
    RefereeWarning,
    Resign,
    Ruling,
    SetChecked,
    Start,
    SwapBlank,
    TimeOut,
)
from engine.game.machine import Game
from engine.placement import placements_from_word
from engine.ruleset import preset


class ScriptError(GameError):
    """A script line that does not parse or is refused; names the line number and text."""


def event_from_line(game: Game, line: str, at: float) -> Event | None:
    """The event one script line describes on the game as it stands (None for a blank or comment line)."""
    text = line.split("#", 1)[0].strip()
    if not text:
        return None
    word, *args = text.split()
    verb = word.lower()
    if verb == "start":
        return Start(at, tuple(args[1:]), preset(args[0]))
    if verb in ("play", "play_as_laid"):
        position = Position.from_notation(args[0], Notation.CAS)
        announced = int(args[2].lstrip("=")) if len(args) > 2 else None
        placements = placements_from_word(game.board, position, args[1])
        return Play(at, placements, announced, position.direction, irregular=verb == "play_as_laid")
    if verb == "pass":
        return Pass(at)
    if verb == "timeout":
        return TimeOut(at)
    if verb == "exchange":
        return Exchange(at, int(args[0]))
    if verb == "expire":
        return BaseTimeExpired(at)
    if verb == "challenge":
        if args[0].lower() == "score":
            return ChallengeScore(at, second=len(args) > 1 and args[1].lower() == "second")
        if args[0].lower() == "placement":
            return ChallengePlacement(at)
        if args[0].lower() in ("rack", "sheet"):
            cls = ChallengeRack if args[0].lower() == "rack" else ChallengeSheet
            return cls(at, int(args[1]))
        return ChallengeWord(at, int(args[0]) if args[0].isdigit() else args[0])
    if verb == "ruling":
        return Ruling(at, {"upheld": True, "rejected": False}[args[0]])
    if verb == "appeal":
        return AppealRuling(at, {"for": True, "against": False}[args[0]])
    if verb in ("resign", "disqualify"):
        return Resign(at, int(args[0]), disqualified=verb == "disqualify")
    if verb == "dispute_forfeit":
        return DisputeForfeit(at, None if args in (["-"], ["="]) else int(args[0]), draw=args == ["="])
    if verb == "forfeit":
        return Forfeit(at, tuple(int(a) for a in args))
    if verb == "first":
        return PlaysFirst(at, int(args[0]))
    if verb == "rack":
        return RackEntry(at, int(args[0]), args[1] if len(args) > 1 else "")
    if verb == "set":
        missing, extra = (a.replace("-", "") for a in args)
        return SetChecked(at, missing, extra)
    if verb == "swap_blank":
        square = Square.from_czech(args[0])
        return SwapBlank(at, square.row, square.col)
    if verb == "announce":
        return Announce(at, int(args[0]))
    if verb == "warn":
        return RefereeWarning(at, int(args[0]), " ".join(args[1:]))
    if verb == "rack_report":
        return RackReport(at, int(args[0]), int(args[1]))
    if verb == "correction":
        return Correction(at, int(args[0]), int(args[1]), " ".join(args[2:]))
    raise KeyError(verb)


def run_script(text: str, game: Game | None = None) -> Game:
    """Apply every line of a script to a new (or the given) game; raises ScriptError naming the line."""
    game = game or Game()
    at = float(len(game.events))
    for number, line in enumerate(text.splitlines(), 1):
        try:
            event = event_from_line(game, line, at)
            if event is None:
                continue
            game.apply(event)
        except (EngineError, KeyError, IndexError, ValueError) as exc:
            raise ScriptError(f"script line {number}: {line.strip()!r}: {exc!r}") from exc
        at += 1.0
    return game
