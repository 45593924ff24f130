"""Random valid event logs, for property tests and the benchmark (no dictionary: any letters form "words").

``random_events(rng)`` plays a game with random plays, passes, exchanges, time-outs, announced scores, challenges
(words, score, rack count), rulings, appeals, base time expiry and corrections (Polish doubles: who plays first, the
second play's score), every event checked by a ``Game`` as it goes, then enters the racks
still needed at the end. The result is a log that ``Game.replay`` accepts in full.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.board import CENTRE, SIZE, SQUARES, Direction, Square
from engine.game.errors import GameError
from engine.game.events import (
    Announce,
    AppealRuling,
    BaseTimeExpired,
    ChallengeExchange,
    ChallengeRack,
    ChallengeScore,
    ChallengeWord,
    Correction,
    Event,
    Exchange,
    Pass,
    Play,
    PlaysFirst,
    RackEntry,
    Ruling,
    Start,
    TimeOut,
)
from engine.game.machine import Game
from engine.game.records import MoveKind
from engine.placement import Placement
from engine.ruleset import CAS, Ruleset
from engine.tiles import BLANK, Tile


def _random_tiles(game: Game, rng: random.Random, k: int) -> list[Tile]:
    pool = list(game.unseen().elements())
    rng.shuffle(pool)
    out = []
    for letter in pool[:k]:
        out.append(Tile(rng.choice(game.tiles.letters), blank=True) if letter == BLANK else Tile(letter))
    return out


def random_play(game: Game, rng: random.Random, at: float) -> Play | None:
    """A random legal placement for the player on move, or None if none was found in a few tries."""
    cells = game.board.cells
    limit = game.rack_counts[game.player_on_move]
    if limit == 0:
        return None
    for _ in range(30):
        k = rng.randint(1, min(limit, 7))
        direction = rng.choice((Direction.ACROSS, Direction.DOWN))
        dr, dc = direction.step
        if game.board.is_empty():
            k = max(k, 2)
            back = rng.randint(0, k - 1)
            start = Square(CENTRE.row - dr * back, CENTRE.col - dc * back)
        else:
            empties = [i for i, t in enumerate(cells) if t is None and _touches(cells, i)]
            if not empties:
                return None
            start = SQUARES[rng.choice(empties)]
        squares: list[Square] = []
        r, c = start.row, start.col
        while len(squares) < k and r < SIZE and c < SIZE:
            if cells[r * SIZE + c] is None:
                squares.append(Square(r, c))
            r, c = r + dr, c + dc
        tiles = _random_tiles(game, rng, len(squares))
        if len(tiles) < len(squares) or not squares:
            continue
        event = Play(at, tuple(Placement(s, t) for s, t in zip(squares, tiles, strict=True)),
                     announced=None if rng.random() < 0.3 else rng.randint(0, 80), direction=direction)  # fmt: skip
        try:
            game.apply(event)  # a refused play leaves the game untouched
        except GameError:
            continue
        return event
    return None


def _touches(cells: list[Tile | None], i: int) -> bool:
    r, c = divmod(i, SIZE)
    return (
        (c > 0 and cells[i - 1] is not None)
        or (c < SIZE - 1 and cells[i + 1] is not None)
        or (r > 0 and cells[i - SIZE] is not None)
        or (r < SIZE - 1 and cells[i + SIZE] is not None)
    )


def random_events(
    rng: random.Random, ruleset: Ruleset = CAS, players: tuple[str, ...] = ("A", "B"), max_events: int = 150
) -> list[Event]:
    """A random valid event log (applied to a game as it is built; see the module docstring)."""
    game = Game()
    events: list[Event] = []
    at = 0.0

    def add(event: Event) -> bool:
        try:
            game.apply(event)
        except GameError:
            return False
        events.append(event)
        return True

    add(Start(at, players, ruleset))
    while game.ended is None and len(events) < max_events:
        at += round(rng.uniform(0.5, 120.0), 3)
        r = rng.random()
        if game.pending is not None:
            add(Ruling(at, rng.random() < 0.4))
        elif game.open_move is not None and r < 0.15:
            move = game.history[game.open_move.index]
            words = move.words
            pick = rng.random()
            if move.kind is MoveKind.EXCHANGE:  # made with too few tiles in the bag (000)
                add(ChallengeExchange(at))
            elif pick < 0.15:
                add(Announce(at, max(0, move.engine_score + rng.randint(-5, 5))))
            elif pick < 0.35:
                add(ChallengeScore(at))
            elif rng.random() < 0.5:
                add(ChallengeWord(at, rng.randrange(len(words))))
            else:
                add(ChallengeWord(at, rng.choice(words)))
        elif r < 0.19:
            add(AppealRuling(at, rng.random() < 0.5))
        elif r < 0.195:
            add(BaseTimeExpired(at))
        elif r < 0.20:
            add(ChallengeRack(at, rng.randrange(len(players))))
        elif r < 0.22:
            add(Correction(at, rng.randrange(len(players)), rng.randint(-10, 10), "test"))
        elif r < 0.27:
            add(Pass(at))
        elif r < 0.30:
            add(TimeOut(at))
        elif r < 0.35:
            if not add(Exchange(at, rng.randint(1, 7))):
                add(Pass(at))
        elif r < 0.38 and ruleset.doubles == "polish":  # who plays first (refused mid double move: skipped)
            if not add(PlaysFirst(at, rng.randrange(len(players)))) and game.open_rest:
                add(ChallengeScore(at, second=True))
        else:
            play = random_play(game, rng, at)
            if play is not None:
                events.append(play)
            else:
                add(Pass(at))
    if game.ended is not None and game.pending is None:
        for p in game.racks_needed:
            if p not in game.racks_needed:
                continue  # became known after another entry
            pool = game.unseen()
            for rack in game.racks().values():
                pool.subtract(Counter(rack))
            letters = list((+pool).elements())
            rng.shuffle(letters)
            at += 1.0
            add(RackEntry(at, p, "".join(letters[: game.rack_counts[p]])))
    return events
