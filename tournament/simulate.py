"""Simulated tournaments for tests, the pairing bench and demonstrations: a field of random strengths, rounds
paired by ``tournament.pairing``, random results, withdrawals and forfeits, all as deník events. Pure and
reproducible: everything random comes from ``random.Random(seed)``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tournament import SOFTWARE
from tournament.events import (
    Event,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    RoundPublished,
    SettingsChanged,
)
from tournament.pairing import draw
from tournament.players import Player
from tournament.settings import TournamentSettings
from tournament.state import Tournament

AT = "2026-11-28T09:00:00+00:00"


def ev_settings(settings: TournamentSettings | None = None) -> SettingsChanged:
    return SettingsChanged(at=AT, by="director", software=SOFTWARE, version="test",
                           settings=(settings or TournamentSettings()).to_dict())


def field_of(n: int, seed: int = 0, newcomers: int = 0) -> list[Player]:
    """``n`` players P001.. with random ratings 900-2000; the last ``newcomers`` have none."""
    rng = random.Random(seed)
    return [Player(f"P{i:03d}", f"Hráč {i}", "Klub", None if i > n - newcomers else rng.randint(900, 2000))
            for i in range(1, n + 1)]


@dataclass
class Sim:
    """A running simulated tournament: its events and state."""

    tournament: Tournament
    events: list[Event] = field(default_factory=list)

    def add(self, event: Event) -> None:
        self.tournament.apply(event)
        self.events.append(event)


Drawer = Callable[[Tournament, int], RoundPaired]
"""Pairs the next round of a tournament (given a seed for a random draw): ``program`` by default; the pairing
bench passes another engine's."""


def program(tournament: Tournament, seed: int) -> RoundPaired:
    """The next round as this program draws it."""
    return draw(tournament, seed=seed, at=AT, by="director")


def simulate(players: int, rounds: int, seed: int = 0, withdrawals: int = 0,
             settings: TournamentSettings | None = None, forfeits: float = 0.0, draws: float = 0.0,
             drawer: Drawer = program) -> Sim:
    """A whole tournament: ``rounds`` rounds paired by ``drawer``, results random (the stronger player more
    likely to win), ``withdrawals`` players withdrawing at random moments (some after the next round was drawn,
    which makes their game a no-show 100:0), a share ``forfeits`` of games forfeited and a share ``draws`` of the
    games played drawn."""
    rng = random.Random(seed)
    settings = settings or TournamentSettings(rounds=rounds)
    sim = Sim(Tournament())
    sim.add(ev_settings(settings))
    for player in field_of(players, seed):
        sim.add(PlayerRegistered(at=AT, by="director", player=player))
    leaving = {rng.randrange(1, rounds + 1): None for _ in range(withdrawals)}
    no_show: set[str] = set()
    for number in range(1, rounds + 1):
        t = sim.tournament
        if number in leaving and number > 1:
            active = t.active(number)
            if len(active) > 2:
                sim.add(PlayerWithdrawn(at=AT, by="director", player_id=rng.choice(active), reason="sim"))
        sim.add(drawer(t, rng.randrange(2**31)))
        sim.add(RoundPublished(at=AT, by="director", round=number))
        late = [pid for pid in t.active(number) if rng.random() < 0.5] if number in leaving and number > 1 else []
        if late:  # withdrawn after the draw: still owes this round's game (seed 004), and does not come
            sim.add(PlayerWithdrawn(at=AT, by="director", player_id=late[0], reason="after the draw"))
            no_show.add(late[0])
        for p in t.rounds[number].pairing.pairings:
            if p.first in no_show or p.second in no_show:
                fs, ss = (0, 100) if p.first in no_show else (100, 0)
                if p.first in no_show and p.second in no_show:
                    fs, ss = 0, 0
                sim.add(ResultRecorded(at=AT, by="director", round=number, table=p.table, first=p.first,
                                       second=p.second, first_score=fs, second_score=ss, kind="forfeit"))
                continue
            if rng.random() < forfeits:
                sim.add(ResultRecorded(at=AT, by="director", round=number, table=p.table, first=p.first,
                                       second=p.second, first_score=100, second_score=0, kind="forfeit"))
                continue
            edge = (t.strength(p.first) - t.strength(p.second)) // 10
            a, b = rng.randint(250, 550) + edge, rng.randint(250, 550)
            if draws and rng.random() < draws:
                a = b
            sim.add(ResultRecorded(at=AT, by=f"table {p.table}", round=number, table=p.table, first=p.first,
                                   second=p.second, first_score=max(a, 0), second_score=b, kind="played",
                                   source="table"))
        sim.add(RoundClosed(at=AT, by="director", round=number))
        no_show.clear()
    return sim


def before_round(events: list[Event], number: int) -> Tournament:
    """The tournament ``events`` describe, just before round ``number`` was paired (to pair it again)."""
    cut = next(i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round == number)
    return Tournament.from_events(events[:cut])
