"""Pairing the next round: the ČAS Dubov-style Swiss (round 1 by halves of strength, later rounds a minimum-error
matching), round robin, and King of the Hill for a last round.

Later Swiss rounds are one maximum weight matching (networkx) over the pairs of active players (each first with
its nearest in the standings, every pair if that fails), plus a "bye" node with an odd field. Each possible game
and bye gets an error in parts (``PairError``: repeats, hard starts, the bye's place, the point gap, its square,
floats, starts, the Dubov strength part), compared part by part: no amount of a later part outweighs one unit of
an earlier one, so the spec's order (no rematch, then points, then starts, then equal strength of opponents) holds
exactly. The complete pairing of least error is the round; ``tournament.floats`` says who floated and why.
docs/tournament.md explains it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import networkx as nx

from tournament.errors import AllRoundsPlayed, PairingError, RoundIncomplete
from tournament.events import RoundPaired
from tournament.floats import floats_of
from tournament.games import Pairing, RoundPairing
from tournament.standings import standings
from tournament.state import Tournament

__all__ = ["Pairing", "RoundPairing", "PairingWeights", "PairError", "pair_round", "round_robin", "king_of_the_hill",
           "swiss_first_round", "swiss_later_round", "draw", "method_of", "pairing_error"]

BYE = "\x00bye"
"""The bye's node in the matching graph (no player id can be it: ids have no control characters)."""


class PairError(NamedTuple):
    """The error of a game (or of the bye, or of a whole round: the parts add up), in the spec's order of weight
    (docs/tournament.md, "Pairing"). Errors compare part by part, the first part first: no amount of a later part
    outweighs one unit of an earlier one (a lexicographic order), so a point gap always outweighs any starts step.
    """

    repeats: int = 0
    """Games of two players already paired, and second byes (only when no complete pairing avoids them)."""
    hard_starts: int = 0
    """Steps beyond -1..+1 of a player's starts minus replies in the planned last round (nothing can repair them
    later, and a bye there leaves its player where they are), and steps beyond -2..+2 in any round."""
    bye_place: int = 0
    """For the bye: how many players without a bye yet are weaker than its player (0: the weakest gets it)."""
    gap: int = 0
    """The point gap in half-points (over a round: the sum of point gaps)."""
    gap_squared: int = 0
    """Its square: of two pairings with the same sum of gaps, the one with smaller gaps (two gaps of one point
    rather than one of two points)."""
    floats: int = 0
    """Games between players of different points (each floats both: one down, one up)."""
    starts: int = 0
    """Steps to +-2 of a player's starts minus replies before the last round (the next rounds repair them)."""
    strength: int = 0
    """The Dubov part: how far both players' average opponent strength would be from the field's average,
    ``(d1**2 + d2**2) // strength_scale``, capped at ``strength_cap``."""

    def hard(self) -> bool:
        """Whether it breaks a rule the Swiss keeps whenever any complete pairing can: a repeat, a second bye, a
        player's starts leaving -1..+1 in the last round or -2..+2 in any."""
        return bool(self.repeats or self.hard_starts)



def total(errors: Iterable[PairError]) -> PairError:
    """The parts of ``errors`` added up (a round's error from its games' and bye's)."""
    sums = [0] * len(PairError._fields)
    for e in errors:
        for i, part in enumerate(e):
            sums[i] += part
    return PairError(*sums)


@dataclass(frozen=True)
class PairingWeights:
    """The knobs of the error function (the order of its parts is fixed: ``PairError``)."""

    strength_scale: int = 2_500
    strength_cap: int = 999
    window: int = 6
    """Speed: first each player's candidates are only the next ``window`` players below them in the current order,
    and the next ``window`` of those whose starts fit with theirs (one can start and the other reply without either
    leaving -1..+1); if that leaves no complete pairing, or only one with a hard error (``PairError.hard``), every
    pair is tried. The bench and a property test compare the result with the full search."""


DEFAULT_WEIGHTS = PairingWeights()


def pair_round(tournament: Tournament, seed: int = 0, weights: PairingWeights = DEFAULT_WEIGHTS) -> RoundPairing:
    """The pairing of the next round (the one after the last paired) by the tournament's system. ``seed`` drives
    round 1's random draw (log it: ``draw`` does). Raises AllRoundsPlayed after the planned last round,
    RoundIncomplete if the last round is not closed, and PairingError if there is nobody to pair."""
    number = tournament.last_round + 1
    planned = tournament.settings.rounds
    if planned is not None and number > planned:  # the event is over: no round N+1 by mistake (CLI and desk)
        raise AllRoundsPlayed.refuse("all_rounds", n=number, planned=planned)
    if tournament.last_round and not tournament.rounds[tournament.last_round].closed:
        raise RoundIncomplete.refuse("not_closed", n=tournament.last_round)
    players = tournament.active(number)
    if len(players) < 2:
        raise PairingError.refuse("nothing_to_pair", n=number, count=len(players))
    method = method_of(tournament, number)
    if method == "round_robin":
        return round_robin(tournament, number)
    if method == "king_of_the_hill":
        return king_of_the_hill(tournament, number)
    if number == 1 or not any(r.results or r.bye_result for r in tournament.rounds.values()):
        return swiss_first_round(tournament, number, seed)
    return swiss_later_round(tournament, number, weights)


def method_of(tournament: Tournament, number: int) -> str:
    """How round ``number`` is paired: "round_robin", "king_of_the_hill" (the planned last round, if set) or
    "swiss"."""
    s = tournament.settings
    if s.system == "round_robin":
        return "round_robin"
    if s.king_of_the_hill and s.rounds is not None and number == s.rounds and number > 1:
        return "king_of_the_hill"
    return "swiss"


def draw(tournament: Tournament, seed: int, at: str, by: str,
         weights: PairingWeights = DEFAULT_WEIGHTS) -> RoundPaired:
    """The deník entry of the next round's pairing (``pair_round``), its seed, method and floats included."""
    number = tournament.last_round + 1
    pairing = pair_round(tournament, seed, weights)
    method = method_of(tournament, number)
    can_meet = None
    if method == "swiss" and number > 1:
        rnd = _Round.of(tournament, number, weights)
        can_meet = lambda a, b: not rnd.game(a, b).hard_starts  # noqa: E731
    floats = tuple(f.as_data() for f in floats_of(tournament, pairing, can_meet))
    return RoundPaired(at=at, by=by, round=number, pairings=pairing.pairings, bye=pairing.bye, seed=seed,
                       method=method, floats=floats)


def _by_strength(tournament: Tournament, players: Sequence[str]) -> list[str]:
    """Strongest first; equal strength in registration order."""
    order = {pid: i for i, pid in enumerate(tournament.players)}
    return sorted(players, key=lambda p: (-tournament.strength(p), order[p]))


def swiss_first_round(tournament: Tournament, number: int, seed: int) -> RoundPairing:
    """Round 1: with an odd field the weakest player gets the bye; the rest split by strength into halves, each
    top-half player meets a random bottom-half player (``random.Random(seed)``), and the top half alternates
    starting (table 1's top player starts, table 2's replies, ...)."""
    ranked = _by_strength(tournament, tournament.active(number))
    bye = None
    if len(ranked) % 2:
        bye = ranked.pop()
    half = len(ranked) // 2
    top, bottom = ranked[:half], ranked[half:]
    random.Random(seed).shuffle(bottom)
    games = []
    for i, (a, b) in enumerate(zip(top, bottom, strict=True)):
        games.append(Pairing(i + 1, a, b) if i % 2 == 0 else Pairing(i + 1, b, a))
    return RoundPairing(tuple(games), bye)


@dataclass(frozen=True)
class _Info:
    """What the error function needs to know of one player."""

    pid: str
    half_points: int
    balance: int  # starts minus replies
    last_started: bool | None
    strength: int
    opp_total: int  # sum of the strengths of the opponents actually played
    opp_count: int
    rank: int  # place in the current order (0 = leader)


def _standing_order(tournament: Tournament, players: Sequence[str]) -> list[str]:
    """Players by points, then strength, then registration: the order ties and the bye are decided in."""
    order = {pid: i for i, pid in enumerate(tournament.players)}
    return sorted(players, key=lambda p: (-tournament.points(p), -tournament.strength(p), order[p]))


def _infos(tournament: Tournament, players: Sequence[str]) -> dict[str, _Info]:
    ranked = _standing_order(tournament, players)
    out = {}
    for rank, pid in enumerate(ranked):
        opps = tournament.met_opponents(pid)
        out[pid] = _Info(pid, round(2 * tournament.points(pid)), tournament.starts_minus_replies(pid),
                         tournament.last_started(pid), tournament.strength(pid),
                         sum(tournament.strength(o) for o in opps), len(opps), rank)
    return out


def starter(a: _Info, b: _Info) -> tuple[_Info, _Info]:
    """(who starts, who replies): the one who has started less (starts minus replies); if equal, the one who did
    not start their last game; if still equal, the higher placed."""
    if a.balance != b.balance:
        return (a, b) if a.balance < b.balance else (b, a)
    if a.last_started != b.last_started:
        if a.last_started is False or (a.last_started is None and b.last_started is True):
            return a, b
        return b, a
    return (a, b) if a.rank < b.rank else (b, a)


def _outward(ranked: Sequence[str], i: int) -> list[str]:
    """The players of ``ranked`` other than the ``i``-th, nearest to it first (below before above)."""
    out = []
    for d in range(1, len(ranked)):
        if i + d < len(ranked):
            out.append(ranked[i + d])
        if i - d >= 0:
            out.append(ranked[i - d])
    return out


def _starts_fit(a: _Info, b: _Info) -> bool:
    """Whether one of ``a``, ``b`` can start and the other reply with both staying within -1..+1."""
    first, second = starter(a, b)
    return abs(first.balance + 1) <= 1 and abs(second.balance - 1) <= 1


def _starts_error(first: _Info, second: _Info, final: bool) -> tuple[int, int]:
    """(hard, soft) steps beyond -1..+1 of both players' starts minus replies if ``first`` starts."""
    hard = soft = 0
    for balance in (first.balance + 1, second.balance - 1):
        over = abs(balance) - 1
        if over > 0:
            if final or abs(balance) > 2:
                hard += over
            else:
                soft += over
    return hard, soft


@dataclass(frozen=True)
class _Round:
    """What the error of a game or bye in a round depends on (``of``: the round about to be paired): the one home
    of the error function, used by the matching (``swiss_later_round``) and by ``pairing_error`` alike."""

    infos: dict[str, _Info]
    average: float
    final: bool
    eligible: tuple[str, ...]  # the bye's candidates without a bye yet, weakest first
    weights: PairingWeights
    paired: dict[str, set[str]]  # everyone each player has been paired with

    @classmethod
    def of(cls, tournament: Tournament, number: int, weights: PairingWeights) -> _Round:
        players = tournament.active(number)
        infos = _infos(tournament, players)
        average = sum(i.strength for i in infos.values()) / len(infos)
        final = tournament.settings.rounds is not None and number >= tournament.settings.rounds
        # the bye's candidates, weakest first: the fewest points, then the lowest strength, then the lowest placed
        weakest_first = sorted(players, key=lambda p: (infos[p].half_points, infos[p].strength, -infos[p].rank))
        eligible = tuple(p for p in weakest_first if not tournament.had_bye(p))
        paired = {p: tournament.paired_with(p) for p in players}
        return cls(infos, average, final, eligible, weights, paired)

    def game(self, a: str, b: str, given: bool = False) -> PairError:
        """The error of a game between ``a`` and ``b``; who starts as ``starter`` chooses, or ``a`` if ``given``."""
        x, y = self.infos[a], self.infos[b]
        gap = abs(x.half_points - y.half_points)
        first, second = (x, y) if given else starter(x, y)
        hard, soft = _starts_error(first, second, self.final)
        d1 = (x.opp_total + y.strength) / (x.opp_count + 1) - self.average
        d2 = (y.opp_total + x.strength) / (y.opp_count + 1) - self.average
        w = self.weights
        strength = min(int((d1 * d1 + d2 * d2) // w.strength_scale), w.strength_cap)
        repeat = 1 if b in self.paired[a] else 0
        return PairError(repeats=repeat, hard_starts=hard, gap=gap, gap_squared=gap * gap, floats=1 if gap else 0,
                         starts=soft, strength=strength)

    def bye(self, p: str) -> PairError:
        """The error of the bye for ``p``: its place among those without a bye yet (a second bye is a repeat),
        and in the last round the starts it leaves beyond -1..+1 for good."""
        stuck = max(0, abs(self.infos[p].balance) - 1) if self.final else 0
        if p in self.eligible:
            return PairError(hard_starts=stuck, bye_place=self.eligible.index(p))
        return PairError(repeats=1, hard_starts=stuck, bye_place=len(self.eligible))


def _weighed(errors: dict[tuple[str, str], PairError], pairs: int) -> dict[tuple[str, str], int]:
    """Each error as one whole number whose order over any ``pairs`` edges is the parts' lexicographic order:
    the parts are digits, each in a base larger than its largest sum over a round (a mixed radix, so the numbers
    stay as small as the order allows: networkx's matching is exact with integer weights, and quicker on small
    ones)."""
    parts = range(len(PairError._fields))
    bases = [(pairs + 1) * (max((e[i] for e in errors.values()), default=0) + 1) for i in parts]
    out = {}
    for key, e in errors.items():
        n = 0
        for part, base in zip(e, bases, strict=True):
            n = n * base + part
        out[key] = n
    return out


def swiss_later_round(tournament: Tournament, number: int,
                      weights: PairingWeights = DEFAULT_WEIGHTS) -> RoundPairing:
    """A later Swiss round: the complete pairing of least total error (``PairError``, compared part by part).
    Tables are numbered by the better placed player of each game. Raises PairingError if no complete pairing
    exists at all."""
    players = tournament.active(number)
    rnd = _Round.of(tournament, number, weights)
    infos = rnd.infos
    paired = rnd.paired
    odd = len(players) % 2 == 1
    ranked = sorted(players, key=lambda p: infos[p].rank)
    full = len(ranked)
    passes = [(weights.window, False)] if weights.window < full else []
    for window, allow_repeats in (*passes, (full, False), (full, True)):
        errors: dict[tuple[str, str], PairError] = {}
        for i, p in enumerate(ranked):
            near = fitting = 0  # candidates taken nearest p in the order: any, and those whose starts fit
            for q in _outward(ranked, i):
                if near >= window and fitting >= window:
                    break
                if q in paired[p] and not allow_repeats:
                    continue
                fits = _starts_fit(infos[p], infos[q])
                if near >= window and not fits:
                    continue
                near += 1
                fitting += fits
                key = (p, q) if infos[p].rank < infos[q].rank else (q, p)
                if key not in errors:
                    errors[key] = rnd.game(*key)
        if odd:
            for p in (players if allow_repeats else rnd.eligible):
                errors[(p, BYE)] = rnd.bye(p)
        costs = _weighed(errors, len(players) // 2 + 1)
        top = max(costs.values(), default=0) + 1
        graph: nx.Graph[str] = nx.Graph()
        for (p, q), c in costs.items():
            graph.add_edge(p, q, weight=top - c)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(players) + (1 if odd else 0):
            continue
        if window < full and total(errors[(p, q) if (p, q) in errors else (q, p)] for p, q in matching).hard():
            continue  # the narrow search had to take a hard error: make sure the full one cannot avoid it
        return _as_round(matching, infos)
    raise PairingError(f"round {number}: no complete pairing of {len(players)} players exists")


def _as_round(matching: set[tuple[str, str]], infos: dict[str, _Info]) -> RoundPairing:
    bye = None
    games = []
    for p, q in matching:
        if BYE in (p, q):
            bye = q if p == BYE else p
            continue
        first, second = starter(infos[p], infos[q])
        games.append((min(first.rank, second.rank), first.pid, second.pid))
    games.sort()
    return RoundPairing(tuple(Pairing(i + 1, f, s) for i, (_, f, s) in enumerate(games)), bye)


def king_of_the_hill(tournament: Tournament, number: int) -> RoundPairing:
    """A last round by standings: 1st v 2nd, 3rd v 4th, ... (repeats allowed, as King of the Hill means); with an
    odd field the last placed gets the bye. Who starts: as in the Swiss (the one who has started less)."""
    active = set(tournament.active(number))
    order = [row.id for row in standings(tournament) if row.id in active]
    infos = _infos(tournament, order)
    bye = order.pop() if len(order) % 2 else None
    games = []
    for i in range(0, len(order), 2):
        first, second = starter(infos[order[i]], infos[order[i + 1]])
        games.append(Pairing(i // 2 + 1, first.pid, second.pid))
    return RoundPairing(tuple(games), bye)


def round_robin(tournament: Tournament, number: int) -> RoundPairing:
    """Round ``number`` of a round robin over the players registered for round 1 (strongest first as 0, 1, ...).

    With an odd count ``m``, round ``r`` (0-based) pairs ``i`` with ``j`` where ``i + j = r (mod m)``; the one
    with ``2i = r`` sits out. ``i`` starts against ``j`` when ``(j - i) mod m`` is odd: over the event each player
    starts exactly as often as they reply. With an even count the last player takes the sitting-out one's place,
    starting in even rounds, so everyone ends within -1..+1. A player who has withdrawn leaves their opponent the
    bye. Raises PairingError past the last round, for a late entry, or when a round would need two byes."""
    field = _by_strength(tournament, [p for p in tournament.players if tournament.entered[p] == 1])
    late = [p for p in tournament.active(number) if tournament.entered[p] > 1]
    if late:
        raise PairingError(f"round robin: late entry {late[0]!r} cannot join; pair by hand")
    m = len(field) if len(field) % 2 else len(field) - 1
    rounds = m
    if number > rounds:
        raise PairingError(f"round robin of {len(field)} players has {rounds} rounds, not {number}")
    r = number - 1
    pairs: list[tuple[str | None, str | None]] = []
    for i in range(m):
        j = (r - i) % m
        if i < j:
            pairs.append((field[i], field[j]) if (j - i) % m % 2 == 1 else (field[j], field[i]))
        elif i == j:
            extra = field[m] if len(field) > m else None
            pairs.append((extra, field[i]) if r % 2 == 0 else (field[i], extra))
    active = set(tournament.active(number))
    games: list[Pairing] = []
    byes: list[str] = []
    for a, b in pairs:
        a = a if a in active else None
        b = b if b in active else None
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
            continue
        games.append(Pairing(len(games) + 1, a, b))
    if len(byes) > 1:
        raise PairingError(f"round robin round {number}: {len(byes)} players without an opponent; pair by hand")
    return RoundPairing(tuple(games), byes[0] if byes else None)


def pairing_error(tournament: Tournament, number: int, pairing: RoundPairing,
                  weights: PairingWeights = DEFAULT_WEIGHTS, starts_as_given: bool = False) -> PairError:
    """The total error of ``pairing`` as round ``number`` (what ``swiss_later_round`` minimises, part by part):
    to compare pairings, e.g. a director's change with the program's. Who starts is taken from ``pairing`` if
    ``starts_as_given``, else as the program would choose."""
    rnd = _Round.of(tournament, number, weights)
    errors = [rnd.game(p.first, p.second, starts_as_given) for p in pairing.pairings]
    if pairing.bye is not None:
        errors.append(rnd.bye(pairing.bye))
    return total(errors)
