"""The tournament as the deník makes it: ``Tournament.from_events(events)``.

The state is rebuilt from the log alone. Each event is checked against the state before it (a result for a game
that was not paired, a second result without a correction, a withdrawn player paired, a round closed with a game
missing ...) and refused with a TournamentError subclass naming the event. Queries answer what pairing and
standings need: who is active in a round, points, who has met whom, who has had the bye, starts and replies.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from tournament.errors import (
    DuplicatePlayer,
    PairingError,
    PlayerNotActive,
    ResultError,
    RoundIncomplete,
    TournamentError,
    UnknownPlayer,
)
from tournament.events import (
    Event,
    PairingChanged,
    PlayerExcluded,
    PlayerRegistered,
    PlayerUpdated,
    PlayerWithdrawn,
    ProtestRecorded,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    RoundPublished,
    SettingsChanged,
    WarningRecorded,
)
from tournament.games import EXCLUSION_MIN, GameKind, Pairing, RoundPairing, Source
from tournament.pairs import check_entrant, check_kind_change, check_pair_update, updated_member
from tournament.players import Player
from tournament.settings import TournamentSettings

MEETING_KINDS: frozenset[str] = frozenset({"played", "exclusion"})
"""Results of a game that was actually started: they count for starts/replies and as a real opponent (Buchholz)."""


@dataclass(frozen=True)
class Result:
    """A game's result as it stands (after corrections). ``first`` started; a bye has no table and no ``second``."""

    round: int
    table: int | None
    first: str
    second: str | None
    first_score: int
    second_score: int
    kind: GameKind
    source: Source = "manual"

    @property
    def met(self) -> bool:
        """The game was started (played to the end, or ended by an exclusion)."""
        return self.kind in MEETING_KINDS

    @property
    def counts_score(self) -> bool:
        """Its scores enter a player's own score and score difference (all but a void game)."""
        return self.kind != "void"

    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def score_of(self, player: str) -> tuple[int, int]:
        """(this player's score, the opponent's) in this game."""
        if player == self.first:
            return self.first_score, self.second_score
        if player == self.second:
            return self.second_score, self.first_score
        raise TournamentError(f"{player!r} has no result in round {self.round} table {self.table}")

    def points_of(self, player: str, bye_points: float) -> float:
        """Game points (a win 1, a draw ½): a void game and a 0:0 double forfeit give none."""
        if self.kind == "bye":
            return bye_points if player == self.first else 0.0
        if self.kind == "void":
            return 0.0
        own, other = self.score_of(player)
        if own > other:
            return 1.0
        if own == other:
            return 0.5 if self.kind == "played" else 0.0
        return 0.0

    def opponent_of(self, player: str) -> str | None:
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        return None


@dataclass
class RoundState:
    """One round: its pairing, how it was drawn, its results by table, and whether it is published and closed."""

    number: int
    pairing: RoundPairing
    seed: int | None = None
    method: str = "swiss"
    published: bool = False
    closed: bool = False
    results: dict[int, Result] = field(default_factory=dict)
    bye_result: Result | None = None
    changes: list[str] = field(default_factory=list)

    def missing_tables(self) -> list[int]:
        """Tables of this round without a result or ruling yet."""
        return [p.table for p in self.pairing.pairings if p.table not in self.results]

    def all_results(self, settings: TournamentSettings) -> list[Result]:
        """The round's results, the bye's included (implied by the pairing when not recorded)."""
        out = [self.results[t] for t in sorted(self.results)]
        bye = self.bye_result
        if bye is None and self.pairing.bye is not None:
            bye = Result(self.number, None, self.pairing.bye, None, settings.bye_score, settings.bye_against, "bye")
        return out + ([bye] if bye is not None else [])


def _where(event: Event) -> str:
    """How an error names an event: its type, time and who logged it."""
    return f"{type(event).__name__} at {event.at} by {event.by}"


class Tournament:
    """The state of one tournament, built by applying deník events in order (``from_events``)."""

    def __init__(self) -> None:
        self.settings = TournamentSettings()
        self.software: list[tuple[str, str, str]] = []  # (at, software, version) of every SettingsChanged
        self.players: dict[str, Player] = {}  # the entrants: players, or in a pairs tournament the pairs
        self.people: dict[str, Player] = {}  # a pairs tournament's players, each a member of at most one pair
        self.entered: dict[str, int] = {}  # player -> first round they can be paired in
        self.out_from: dict[str, int] = {}  # player -> first round they are no longer paired in
        self.out_reason: dict[str, str] = {}  # player -> "withdrawn" or "excluded"
        self.excluded_by: dict[str, tuple[int, int]] = {}  # player -> (round, table) of the exclusion result
        self.rounds: dict[int, RoundState] = {}
        self.warnings: dict[str, int] = {}
        self.protests: list[ProtestRecorded] = []
        self.events: list[Event] = []
        self._by_player: dict[str, dict[int, Result]] | None = None  # results by player and round, rebuilt lazily
        self._opponents: dict[str, set[str]] | None = None  # everyone each player was paired with, rebuilt lazily

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Tournament:
        """The tournament the log ``events`` describes; raises a TournamentError subclass naming the first event
        that does not fit."""
        t = cls()
        for event in events:
            t.apply(event)
        return t

    # -- applying events --------------------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Check ``event`` against the state and apply it; raises a TournamentError subclass naming it."""
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is None:
            raise TournamentError(f"{_where(event)}: not a deník event")
        try:
            handler(event)
        except TournamentError as e:
            raise type(e)(f"{_where(event)}: {e}", key=e.key, **e.values) from None
        finally:  # the lazy indexes: a handler may have read them before it changed what they index
            self._by_player = None
            self._opponents = None
        self.events.append(event)

    def _on_SettingsChanged(self, e: SettingsChanged) -> None:
        settings = TournamentSettings.from_dict(e.settings)
        check_kind_change(self, settings)
        self.settings = settings
        self.software.append((e.at, e.software, e.version))

    def _on_PlayerRegistered(self, e: PlayerRegistered) -> None:
        if e.player.id in self.players or e.player.id in self.people:
            raise DuplicatePlayer.refuse("already_registered", pid=e.player.id)
        if check_entrant(self, e.player) == "member":  # a pairs tournament's player: paired in a pair only
            self.people[e.player.id] = e.player
            return
        self.players[e.player.id] = e.player
        self.entered[e.player.id] = self.last_round + 1

    def _on_PlayerUpdated(self, e: PlayerUpdated) -> None:
        if e.player_id in self.people:
            self.people[e.player_id] = updated_member(self, e.player_id, e.player)
            return
        old = self._known(e.player_id)
        check_pair_update(self, old, e.player)
        new = e.player.id
        if new != old and new in self.players:
            raise DuplicatePlayer.refuse("id_taken", old=old, new=new)
        if new == old:
            self.players[old] = e.player
            return
        self.players = {(new if k == old else k): (e.player if k == old else v) for k, v in self.players.items()}
        for numbers in (self.entered, self.out_from, self.warnings):
            if old in numbers:
                numbers[new] = numbers.pop(old)
        if old in self.out_reason:
            self.out_reason[new] = self.out_reason.pop(old)
        if old in self.excluded_by:
            self.excluded_by[new] = self.excluded_by.pop(old)
        for rnd in self.rounds.values():
            rnd.pairing = _rename_pairing(rnd.pairing, old, new)
            rnd.results = {k: _rename_result(r, old, new) for k, r in rnd.results.items()}
            if rnd.bye_result is not None:
                rnd.bye_result = _rename_result(rnd.bye_result, old, new)

    def _on_PlayerWithdrawn(self, e: PlayerWithdrawn) -> None:
        self._leave(e.player_id, "withdrawn")

    def _on_PlayerExcluded(self, e: PlayerExcluded) -> None:
        self._leave(e.player_id, "excluded")

    def _leave(self, player_id: str, why: str) -> None:
        pid = self._known(player_id)
        if pid in self.excluded_by:
            return  # already out by an exclusion result: the director's later action (logged) changes nothing
        if pid in self.out_from:
            raise PlayerNotActive.refuse(f"already_{self.out_reason[pid]}", pid=pid, n=self.out_from[pid])
        # Seed 004: a round already drawn must still be played (or it is a no-show); so out from the next one.
        self.out_from[pid] = self.last_round + 1
        self.out_reason[pid] = why

    def _on_RoundPaired(self, e: RoundPaired) -> None:
        if e.round != self.last_round + 1:
            raise PairingError(f"round {e.round} paired, but the next round is {self.last_round + 1}")
        previous = self.rounds.get(e.round - 1)
        if previous is not None and not previous.closed:
            raise RoundIncomplete.refuse("not_closed", n=e.round - 1)
        pairing = RoundPairing(tuple(e.pairings), e.bye)
        self._check_covers(e.round, pairing)
        self.rounds[e.round] = RoundState(e.round, pairing, e.seed, e.method)

    def _on_PairingChanged(self, e: PairingChanged) -> None:
        rnd = self._round(e.round)
        if rnd.published:
            raise PairingError.refuse("published_no_change", n=e.round)
        pairing = RoundPairing(tuple(e.pairings), e.bye)
        self._check_covers(e.round, pairing)
        rnd.pairing = pairing
        rnd.changes.append(e.reason)

    def _on_RoundPublished(self, e: RoundPublished) -> None:
        rnd = self._round(e.round)
        if rnd.published:
            raise PairingError.refuse("already_published", n=e.round)
        rnd.published = True

    def _on_ResultRecorded(self, e: ResultRecorded) -> None:
        rnd = self._round(e.round)
        result = self._result_of(e, rnd)
        if result.kind == "bye":
            if rnd.bye_result is not None:
                raise ResultError.refuse("bye_has_result", n=e.round, pid=e.first)
            rnd.bye_result = result
            return
        assert result.table is not None
        if result.table in rnd.results:
            raise ResultError.refuse("table_has_result", n=e.round, table=result.table)
        rnd.results[result.table] = result
        self._exclusion_follows(None, result)

    def _on_ResultCorrected(self, e: ResultCorrected) -> None:
        rnd = self._round(e.round)
        result = self._result_of(e, rnd)
        if result.kind == "bye":
            rnd.bye_result = result
            return
        assert result.table is not None
        if result.table not in rnd.results:
            raise ResultError.refuse("no_result_to_correct", n=e.round, table=result.table)
        previous = rnd.results[result.table]
        rnd.results[result.table] = result
        self._exclusion_follows(previous, result)

    def _exclusion_follows(self, previous: Result | None, result: Result) -> None:
        """Seed 004: the player excluded after the third warning is "vyloučen z další hry", and "Vyloučení se týká
        celého turnaje nebo utkání": an exclusion result puts its loser out of the rest of the tournament (from
        the next round not yet paired). A correction away from the exclusion lets him back while no round has
        been paired without him."""
        if previous is not None and previous.kind == "exclusion":
            was = excluded_player(previous)
            if self.excluded_by.get(was) == (previous.round, previous.table or 0) and (
                    result.kind != "exclusion" or excluded_player(result) != was):
                del self.excluded_by[was]
                if self.out_from.get(was, 0) > self.last_round:
                    del self.out_from[was]
                    del self.out_reason[was]
        if result.kind == "exclusion":
            pid = excluded_player(result)
            if pid not in self.out_from:
                self.out_from[pid] = self.last_round + 1
                self.out_reason[pid] = "excluded"
            if self.out_reason[pid] == "excluded":
                self.excluded_by.setdefault(pid, (result.round, result.table or 0))

    def _on_ProtestRecorded(self, e: ProtestRecorded) -> None:
        self._known(e.player_id)
        self._round(e.round)
        self.protests.append(e)

    def _on_WarningRecorded(self, e: WarningRecorded) -> None:
        pid = self._known(e.player_id)
        self._round(e.round)
        self.warnings[pid] = self.warnings.get(pid, 0) + 1

    def _on_RoundClosed(self, e: RoundClosed) -> None:
        rnd = self._round(e.round)
        if rnd.closed:
            raise RoundIncomplete.refuse("already_closed", n=e.round)
        missing = rnd.missing_tables()
        if missing:
            raise RoundIncomplete.refuse("missing", n=e.round, tables=", ".join(map(str, missing)))
        rnd.closed = True

    # -- checks -----------------------------------------------------------------------------------------------

    def _known(self, player_id: str) -> str:
        if player_id not in self.players:
            raise UnknownPlayer.refuse("unknown_player", pid=player_id)
        return player_id

    def _round(self, number: int) -> RoundState:
        if number not in self.rounds:
            raise PairingError.refuse("not_paired", n=number)
        return self.rounds[number]

    def _check_covers(self, number: int, pairing: RoundPairing) -> None:
        """Every player in ``pairing`` is registered and active in round ``number``, and every active player is in
        it (so nobody is silently left out, nor a withdrawn player paired)."""
        named = pairing.players()
        for pid in named:
            self._known(pid)
            if not self.is_active(pid, number):
                if pid in self.out_from:
                    raise PlayerNotActive(f"{pid!r} has {self.out_reason[pid]} and cannot be paired in round "
                                          f"{number}")
                raise PlayerNotActive(f"{pid!r} entered for round {self.entered[pid]} and cannot be paired in "
                                      f"round {number}")
        missing = [pid for pid in self.active(number) if pid not in set(named)]
        if missing:
            raise PairingError(f"round {number} leaves out active player(s) {', '.join(map(repr, missing))}")

    def _result_of(self, e: ResultRecorded, rnd: RoundState) -> Result:
        """The Result ``e`` records, checked against round ``rnd``'s pairing and its kind's scores."""
        for pid in (e.first, e.second):
            if pid is not None:
                self._known(pid)
        if e.kind == "bye":
            if e.first != rnd.pairing.bye:
                raise ResultError(f"round {e.round}: {e.first!r} does not have the bye")
            if e.second is not None or e.table is not None:
                raise ResultError(f"round {e.round}: a bye has no table and no second player")
            fs = self.settings.bye_score if e.first_score is None else e.first_score
            ss = self.settings.bye_against if e.second_score is None else e.second_score
            return Result(e.round, None, e.first, None, fs, ss, "bye", e.source)
        if e.table is None or e.second is None:
            raise ResultError(f"round {e.round}: a {e.kind} result needs a table and two players")
        game = rnd.pairing.by_table(e.table)
        if game is None:
            raise ResultError(f"round {e.round} has no table {e.table}")
        if {e.first, e.second} != {game.first, game.second}:
            raise ResultError(f"round {e.round} table {e.table} is {game.first!r} v {game.second!r}, not "
                              f"{e.first!r} v {e.second!r}")
        if e.kind == "void":
            fs, ss = e.first_score or 0, e.second_score or 0
        else:
            if e.first_score is None or e.second_score is None:
                raise ResultError(f"round {e.round} table {e.table}: a {e.kind} result needs both scores")
            fs, ss = e.first_score, e.second_score
        if e.kind in ("forfeit", "exclusion") and min(fs, ss) != 0:
            raise ResultError(f"round {e.round} table {e.table}: a {e.kind} is scored 100:0, 0:0 or 0:margin, "
                              f"not {fs}:{ss}")
        if e.kind == "forfeit" and max(fs, ss) not in (0, 100):
            raise ResultError(f"round {e.round} table {e.table}: a forfeit is 100:0 or 0:0, not {fs}:{ss}")
        if e.kind == "exclusion" and max(fs, ss) < EXCLUSION_MIN:
            raise ResultError(f"round {e.round} table {e.table}: an exclusion is lost 0:{EXCLUSION_MIN}, or 0:the "
                              f"difference when it is over {EXCLUSION_MIN} (seed 004), not {fs}:{ss}")
        return Result(e.round, e.table, e.first, e.second, fs, ss, e.kind, e.source)

    # -- queries ----------------------------------------------------------------------------------------------

    @property
    def last_round(self) -> int:
        """The number of the last round paired (0 before round 1)."""
        return max(self.rounds, default=0)

    @property
    def closed_rounds(self) -> int:
        """How many rounds are closed (rounds close in order)."""
        return sum(1 for r in self.rounds.values() if r.closed)

    def is_active(self, pid: str, number: int) -> bool:
        """Whether ``pid`` is to be paired in round ``number``: entered by then, not withdrawn or excluded."""
        return self.entered.get(pid, 10**9) <= number and self.out_from.get(pid, 10**9) > number

    def active(self, number: int) -> list[str]:
        """The players to pair in round ``number``, in registration order."""
        return [pid for pid in self.players if self.is_active(pid, number)]

    def _index(self) -> dict[str, dict[int, Result]]:
        if self._by_player is None:
            index: dict[str, dict[int, Result]] = {}
            for r in self.all_results():
                for pid in r.players():
                    index.setdefault(pid, {})[r.round] = r
            self._by_player = index
        return self._by_player

    def all_results(self) -> list[Result]:
        """Every result so far, round by round (a bye's included), in table order."""
        return [r for number in sorted(self.rounds) for r in self.rounds[number].all_results(self.settings)]

    def result_in(self, pid: str, number: int) -> Result | None:
        """``pid``'s result in round ``number`` (a bye's included), or None."""
        return self._index().get(pid, {}).get(number)

    def results_of(self, pid: str, up_to: int | None = None) -> list[Result]:
        """``pid``'s results in rounds 1..``up_to`` (default every round), in round order, byes included."""
        mine = self._index().get(pid, {})
        return [mine[k] for k in sorted(mine) if up_to is None or k <= up_to]

    def points(self, pid: str, up_to: int | None = None) -> float:
        return sum(r.points_of(pid, self.settings.bye_points) for r in self.results_of(pid, up_to))

    def paired_with(self, pid: str) -> set[str]:
        """Everyone ``pid`` has been paired against in any round (played or not): never paired again."""
        if self._opponents is None:
            index: dict[str, set[str]] = {}
            for rnd in self.rounds.values():
                for game in rnd.pairing.pairings:
                    index.setdefault(game.first, set()).add(game.second)
                    index.setdefault(game.second, set()).add(game.first)
            self._opponents = index
        return set(self._opponents.get(pid, ()))

    def had_bye(self, pid: str) -> bool:
        return any(rnd.pairing.bye == pid for rnd in self.rounds.values())

    def byes(self, pid: str) -> int:
        return sum(1 for rnd in self.rounds.values() if rnd.pairing.bye == pid)

    def starts(self, pid: str) -> tuple[int, int]:
        """(games started, games replied) among the games ``pid`` actually played (kinds played and exclusion)."""
        started = replied = 0
        for r in self.results_of(pid):
            if r.met:
                if r.first == pid:
                    started += 1
                else:
                    replied += 1
        return started, replied

    def starts_minus_replies(self, pid: str) -> int:
        s, r = self.starts(pid)
        return s - r

    def last_started(self, pid: str) -> bool | None:
        """Whether ``pid`` started their last game actually played (None: no game yet)."""
        for r in reversed(self.results_of(pid)):
            if r.met:
                return r.first == pid
        return None

    def strength(self, pid: str) -> int:
        return self.players[pid].strength(self.settings.newcomer_rating)

    def met_opponents(self, pid: str) -> list[str]:
        """The opponents ``pid`` actually played, in round order."""
        return [o for r in self.results_of(pid) if r.met and (o := r.opponent_of(pid)) is not None]


def excluded_player(result: Result) -> str:
    """The player an exclusion result excludes: the one scored 0 (the opponent has 100 or more)."""
    assert result.kind == "exclusion" and result.second is not None
    return result.first if result.first_score < result.second_score else result.second


def _rename_pairing(pairing: RoundPairing, old: str, new: str) -> RoundPairing:
    def sw(x: str) -> str:
        return new if x == old else x

    return RoundPairing(tuple(Pairing(p.table, sw(p.first), sw(p.second)) for p in pairing.pairings),
                        None if pairing.bye is None else sw(pairing.bye))


def _rename_result(result: Result, old: str, new: str) -> Result:
    return replace(result, first=new if result.first == old else result.first,
                   second=new if result.second == old else result.second)
