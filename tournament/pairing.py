"""Pairing the next round: the ČAS Dubov-style Swiss (round 1 by halves of strength, later rounds a minimum-error
matching), round robin, and King of the Hill for a last round.

Later Swiss rounds are one maximum weight matching (``tournament.matching``) over every pair of active players,
plus a "bye" node with an odd field. Each possible game and bye gets an error in parts (``PairError``: repeats,
hard starts, the bye's place, the point gap, its square, floats, starts, which players float, the Dubov strength
part), compared part by part: no amount of a later part outweighs one unit of an earlier one, so the spec's order
(no rematch, then points, then starts, then equal strength of opponents) holds exactly. The complete pairing of
least error is the round; ``tournament.floats`` says who floated and why. docs/tournament.md explains it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import mul
from typing import NamedTuple

from tournament.errors import AllRoundsPlayed, PairingError, RoundIncomplete
from tournament.events import RoundPaired
from tournament.floats import floats_of
from tournament.games import Pairing, RoundPairing
from tournament.matching import max_weight_matching
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
    rather than one of two points and one of none: a player floats one score group at a time, as a top-down Swiss
    floats them; with floats first, simulated events paired leaders 4 points apart to save two floats)."""
    floats: int = 0
    """Games between players of different points (each floats both: one down, one up): of equal gaps, the fewest
    players out of their score group."""
    starts: int = 0
    """Steps to +-2 of a player's starts minus replies before the last round (the next rounds repair them, but
    every player at +-2 ties the next round's hands: two players at +2 cannot meet)."""
    float_choice: int = 0
    """Which players float: for a game across a gap, how far the higher-placed player (by points) is from being
    the weakest of the field and the other from being the strongest (their places by strength, ``n + place of
    the one below - place of the one above``). The stronger usually wins, so the weaker floats down to meet the
    stronger: both most likely end the round with the same points, as every Swiss system chooses its floaters.
    A choice among pairings equal in points and starts, so it never costs a point or a start."""
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
    end_balance: bool = True
    """Whether the planned last round holds everyone's starts minus replies within -1..+1 (the ČAS rule, a hard
    part of the error). Off only to measure what the rule costs in floats and gaps (``bench/pairing.py --many``)."""


DEFAULT_WEIGHTS = PairingWeights()


def pair_round(tournament: Tournament, seed: int = 0, weights: PairingWeights = DEFAULT_WEIGHTS) -> RoundPairing:
    """The pairing of the next round (the one after the last paired) by the tournament's system. ``seed`` drives
    round 1's random draw (log it: ``draw`` does). Raises AllRoundsPlayed after the planned last round,
    RoundIncomplete if the last round is not closed, and PairingError if there is nobody to pair."""
    return _pair_next(tournament, seed, weights)[0]


def _pair_next(tournament: Tournament, seed: int,
               weights: PairingWeights) -> tuple[RoundPairing, _Round | None]:
    """``pair_round``'s pairing, and the error function it was chosen by (None: round 1, round robin, King of the
    Hill), which the deník's float reasons ask again."""
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
        return round_robin(tournament, number), None
    if method == "king_of_the_hill":
        return king_of_the_hill(tournament, number), None
    if not _later_swiss(tournament, number):
        return swiss_first_round(tournament, number, seed), None
    rnd = _Round.of(tournament, number, weights)
    return _swiss(rnd, tournament, number), rnd


def _later_swiss(tournament: Tournament, number: int) -> bool:
    """Whether a Swiss round ``number`` is paired by the error function (after a round with results), not as
    round 1 (by halves of strength)."""
    return number > 1 and any(r.results or r.bye_result for r in tournament.rounds.values())


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
    method = method_of(tournament, number)
    pairing, rnd = _pair_next(tournament, seed, weights)
    can_meet = None
    if rnd is not None:
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
    strength_rank: int  # place by strength among the active players (0 = the strongest)


def _standing_order(tournament: Tournament, players: Sequence[str]) -> list[str]:
    """Players by points, then strength, then registration: the order ties and the bye are decided in."""
    order = {pid: i for i, pid in enumerate(tournament.players)}
    return sorted(players, key=lambda p: (-tournament.points(p), -tournament.strength(p), order[p]))


def _infos(tournament: Tournament, players: Sequence[str]) -> dict[str, _Info]:
    ranked = _standing_order(tournament, players)
    by_strength = {pid: i for i, pid in enumerate(_by_strength(tournament, players))}
    out = {}
    for rank, pid in enumerate(ranked):
        opps = tournament.met_opponents(pid)
        out[pid] = _Info(pid, round(2 * tournament.points(pid)), tournament.starts_minus_replies(pid),
                         tournament.last_started(pid), tournament.strength(pid),
                         sum(tournament.strength(o) for o in opps), len(opps), rank, by_strength[pid])
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
        final = weights.end_balance and tournament.settings.rounds is not None and number >= tournament.settings.rounds
        # the bye's candidates, weakest first: the fewest points, then the lowest strength, then the lowest placed
        weakest_first = sorted(players, key=lambda p: (infos[p].half_points, infos[p].strength, -infos[p].rank))
        eligible = tuple(p for p in weakest_first if not tournament.had_bye(p))
        paired = {p: tournament.paired_with(p) for p in players}
        return cls(infos, average, final, eligible, weights, paired)

    def game(self, a: str, b: str, given: bool = False) -> PairError:
        """The error of a game between ``a`` and ``b``; who starts as ``starter`` chooses, or ``a`` if ``given``."""
        return PairError(*self.parts(self.infos[a], self.infos[b], given))

    def parts(self, x: _Info, y: _Info, given: bool = False) -> tuple[int, ...]:
        """``game``'s error as a plain tuple (the matching asks it of every pair: no named tuple made)."""
        first, second = (x, y) if given else starter(x, y)
        hard, soft = _starts_error(first, second, self.final)
        d1 = (x.opp_total + y.strength) / (x.opp_count + 1) - self.average
        d2 = (y.opp_total + x.strength) / (y.opp_count + 1) - self.average
        w = self.weights
        strength = min(int((d1 * d1 + d2 * d2) // w.strength_scale), w.strength_cap)
        repeat = 1 if y.pid in self.paired[x.pid] else 0
        gap = x.half_points - y.half_points
        if not gap:
            return (repeat, hard, 0, 0, 0, 0, soft, 0, strength)
        above, below = (x, y) if gap > 0 else (y, x)
        choice = len(self.infos) + below.strength_rank - above.strength_rank
        gap = abs(gap)
        return (repeat, hard, 0, gap, gap * gap, 1, soft, choice, strength)

    def places(self) -> tuple[tuple[int, ...], int]:
        """Each part's place value in one whole number whose order, summed over any matching of this round, is the
        parts' lexicographic order, and a number above every such sum: a mixed radix, each part's base larger than
        its largest possible sum over a round (its bound per game or bye times the games a round has, plus one),
        so the numbers stay as small as the order allows (rustworkx keeps them in 128 bits)."""
        n = len(self.infos)
        points = [i.half_points for i in self.infos.values()]
        spread = max(points) - min(points)
        balance = max(abs(i.balance) for i in self.infos.values())
        bounds = PairError(repeats=1, hard_starts=2 * balance + 2, bye_place=n, gap=spread,
                           gap_squared=spread * spread, floats=1, starts=2, float_choice=2 * n,
                           strength=self.weights.strength_cap)
        edges = n // 2 + 1
        places = [1]
        for bound in reversed(bounds):
            places.append(places[-1] * (edges + 1) * (bound + 1))
        return tuple(reversed(places[:-1])), places[-1]

    def bye(self, p: str) -> PairError:
        """The error of the bye for ``p``: its place among those without a bye yet (a second bye is a repeat),
        and in the last round the starts it leaves beyond -1..+1 for good."""
        stuck = max(0, abs(self.infos[p].balance) - 1) if self.final else 0
        if p in self.eligible:
            return PairError(hard_starts=stuck, bye_place=self.eligible.index(p))
        return PairError(repeats=1, hard_starts=stuck, bye_place=len(self.eligible))


def swiss_later_round(tournament: Tournament, number: int,
                      weights: PairingWeights = DEFAULT_WEIGHTS) -> RoundPairing:
    """A later Swiss round: the complete pairing of least total error (``PairError``, compared part by part).
    Tables are numbered by the better placed player of each game. Raises PairingError if no complete pairing
    exists at all."""
    return _swiss(_Round.of(tournament, number, weights), tournament, number)


def _swiss(rnd: _Round, tournament: Tournament, number: int) -> RoundPairing:
    """The matching over every pair of players (and the bye), first without repeats or second byes, then, if no
    complete pairing avoids them, with them: exact, not a search of the nearest (issue 33: with rustworkx every
    pair costs less than a FIDE Dutch engine's round). An edge weighs ``span`` minus its error as one number
    (``_Round.places``): every complete pairing has as many games, so the heaviest is the one of least error."""
    infos = rnd.infos
    ranked = sorted((infos[p] for p in tournament.active(number)), key=lambda i: i.rank)
    n = len(ranked)
    odd = n % 2 == 1
    places, span = rnd.places()
    for allow_repeats in (False, True):
        edges = []
        for i, x in enumerate(ranked):
            met = () if allow_repeats else rnd.paired[x.pid]
            for j in range(i + 1, n):
                y = ranked[j]
                if y.pid not in met:
                    edges.append((i, j, span - sum(map(mul, rnd.parts(x, y), places))))
        if odd:
            for i, x in enumerate(ranked):
                if allow_repeats or x.pid in rnd.eligible:
                    edges.append((i, n, span - sum(map(mul, rnd.bye(x.pid), places))))
        matched = max_weight_matching(n + odd, edges, span)
        if 2 * len(matched) == n + odd:
            return _as_round([(ranked[i].pid, ranked[j].pid if j < n else BYE) for i, j in matched], infos)
    raise PairingError(f"round {number}: no complete pairing of {n} players exists")


def _as_round(matching: Iterable[tuple[str, str]], infos: dict[str, _Info]) -> RoundPairing:
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
