"""Pairing the next round: the ČAS Dubov-style Swiss (round 1 by halves of strength, later rounds a minimum-error
matching), round robin, and King of the Hill for a last round.

Later Swiss rounds are one maximum weight matching (networkx) over every pair of active players who have not been
paired before, plus a "bye" node with an odd field. Each possible game gets an error (``pair_cost``); the matching
with the most games and, among those, the least total error is the round. The error function and its weights are
``PairingWeights``; docs/tournament.md explains them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from tournament.errors import AllRoundsPlayed, PairingError, RoundIncomplete
from tournament.events import RoundPaired
from tournament.games import Pairing, RoundPairing
from tournament.standings import standings
from tournament.state import Tournament

__all__ = ["Pairing", "RoundPairing", "PairingWeights", "pair_round", "round_robin", "king_of_the_hill",
           "swiss_first_round", "swiss_later_round", "draw", "method_of"]

BYE = "\x00bye"
"""The bye's node in the matching graph (no player id can be it: ids have no control characters)."""


@dataclass(frozen=True)
class PairingWeights:
    """The error function's weights, all whole numbers (networkx's matching is exact with integer weights).

    A game's error is the sum of:
    - ``score * g**2`` for a gap of ``g`` half-points between the two players' points (equal points: 0);
    - ``starts`` for each step by which a player's starts-minus-replies would go beyond -1..+1 after the game
      (with the starter chosen as the one who has started less); ``starts_final`` instead in the planned last
      round and for any step beyond -2..+2, where nothing can repair it later;
    - ``(d1**2 + d2**2) // strength_scale`` where ``d`` is how far each player's average opponent strength would be
      from the field's average: the Dubov idea that players of a score group get equally good draws;
    - for the bye: ``bye_rank`` for each player weaker than the one who gets it, among those without a bye yet
      (less than ``starts_final``: the end's balanced starts come first, then the weakest gets the bye).
    A pair already paired in an earlier round is no edge at all; only when no complete pairing avoids every repeat
    (a tiny field late in an event) do repeats come back, at ``repeat`` each, as does a second bye.
    """

    score: int = 1_600
    starts: int = 10_000
    starts_final: int = 3_000_000
    strength_scale: int = 2_500
    bye_rank: int = 1_000_000
    repeat: int = 100_000_000
    window: int = 12
    """Speed: first each player's candidates are only the next ``window`` players below them in the current order,
    and the next ``window`` of those whose starts fit with theirs (one can start and the other reply without either
    leaving -1..+1); if that leaves no complete pairing, every pair is tried. The bench and a property test compare
    the result with the full search."""


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
    """The deník entry of the next round's pairing (``pair_round``), its seed and method included."""
    number = tournament.last_round + 1
    pairing = pair_round(tournament, seed, weights)
    return RoundPaired(at=at, by=by, round=number, pairings=pairing.pairings, bye=pairing.bye, seed=seed,
                       method=method_of(tournament, number))


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


def pair_cost(a: _Info, b: _Info, average: float, final: bool, weights: PairingWeights,
              given: bool = False) -> int:
    """The error of a game between ``a`` and ``b`` (PairingWeights says how it is made up); who starts as
    ``starter`` chooses, or ``a`` if ``given``."""
    gap = abs(a.half_points - b.half_points)
    cost = weights.score * gap * gap
    first, second = (a, b) if given else starter(a, b)
    for balance in (first.balance + 1, second.balance - 1):
        over = abs(balance) - 1
        if over > 0:
            cost += weights.starts_final * over if (final or abs(balance) > 2) else weights.starts * over
    d1 = (a.opp_total + b.strength) / (a.opp_count + 1) - average
    d2 = (b.opp_total + a.strength) / (b.opp_count + 1) - average
    cost += int((d1 * d1 + d2 * d2) // weights.strength_scale)
    return cost


def swiss_later_round(tournament: Tournament, number: int,
                      weights: PairingWeights = DEFAULT_WEIGHTS) -> RoundPairing:
    """A later Swiss round: the complete pairing of least total error (see PairingWeights). Tables are numbered
    by the better placed player of each game. Raises PairingError if no complete pairing exists at all."""
    players = tournament.active(number)
    infos = _infos(tournament, players)
    average = sum(i.strength for i in infos.values()) / len(infos)
    final = tournament.settings.rounds is not None and number >= tournament.settings.rounds
    paired = {p: tournament.paired_with(p) for p in players}
    odd = len(players) % 2 == 1
    # the bye's candidates, weakest first: the fewest points, then the lowest strength
    weakest_first = sorted(players, key=lambda p: (infos[p].half_points, infos[p].strength, -infos[p].rank))
    ranked = sorted(players, key=lambda p: infos[p].rank)
    full = len(ranked)
    passes = [(weights.window, False)] if weights.window < full else []
    for window, allow_repeats in (*passes, (full, False), (full, True)):
        costs: dict[tuple[str, str], int] = {}
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
                if key not in costs:
                    cost = pair_cost(infos[p], infos[q], average, final, weights)
                    costs[key] = cost + (weights.repeat if q in paired[p] else 0)
        if odd:
            eligible = [p for p in weakest_first if not tournament.had_bye(p)]
            for place, p in enumerate(eligible):
                # a bye in the last round leaves a player at +-2 for good
                stuck = max(0, abs(infos[p].balance) - 1) if final else 0
                costs[(p, BYE)] = weights.bye_rank * place + weights.starts_final * stuck
            if allow_repeats:
                for p in weakest_first:
                    if tournament.had_bye(p):
                        costs[(p, BYE)] = weights.repeat + weights.bye_rank * len(eligible)
        top = max(costs.values(), default=0) + 1
        graph: nx.Graph[str] = nx.Graph()
        for (p, q), c in costs.items():
            graph.add_edge(p, q, weight=top - c)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(players) + (1 if odd else 0):
            continue
        if window < full and max(costs[(p, q) if (p, q) in costs else (q, p)] for p, q in matching) >= \
                weights.starts_final:
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
                  weights: PairingWeights = DEFAULT_WEIGHTS, starts_as_given: bool = False) -> int:
    """The total error of ``pairing`` as round ``number`` (the sum ``swiss_later_round`` minimises, repeats and
    the bye's place included): to compare pairings, e.g. a director's change with the program's. Who starts is
    taken from ``pairing`` if ``starts_as_given``, else as the program would choose."""
    players = tournament.active(number)
    infos = _infos(tournament, players)
    average = sum(i.strength for i in infos.values()) / len(infos)
    final = tournament.settings.rounds is not None and number >= tournament.settings.rounds
    total = 0
    for p in pairing.pairings:
        total += pair_cost(infos[p.first], infos[p.second], average, final, weights, starts_as_given)
        if p.second in tournament.paired_with(p.first):
            total += weights.repeat
    if pairing.bye is not None:
        weakest_first = sorted(players, key=lambda p: (infos[p].half_points, infos[p].strength, -infos[p].rank))
        eligible = [p for p in weakest_first if not tournament.had_bye(p)]
        total += (weights.bye_rank * eligible.index(pairing.bye) if pairing.bye in eligible
                  else weights.repeat + weights.bye_rank * len(eligible))
        if final:
            total += weights.starts_final * max(0, abs(infos[pairing.bye].balance) - 1)
    return total
