"""A tournament folder's own deník: what its files say that the deník does not yet, as new entries to append.

A folder (``tournament.folder``) keeps ``denik.jsonl``, the log of what happened, appended to as it happens and
never rewritten (seed 004). Each ``partiar tournament`` command first brings it up to date with the files:
:func:`entries_to_append` compares the log with ``players.csv``, ``results.csv``, ``withdrawals.csv`` and the
settings, and returns the entries that say what changed since, stamped with the time the caller gives:

- the settings, software and version when they differ from the last ones logged (seed 004: a computer-run
  tournament logs them);
- a player new in players.csv is registered (before the first round they play in, else paired from the next
  round); a changed name, club or rating is a ``PlayerUpdated``;
- a round in results.csv that the deník has not paired (a round paired by hand): its pairing as the rows say
  (method "manual"), published; every active player must be in it (a game, or the bye);
- a new result is a ``ResultRecorded``, a changed one a ``ResultCorrected`` (the old entry stays);
- a round whose every game has a result is closed;
- a withdrawal or exclusion of withdrawals.csv after the round it names.

What the files cannot say is refused with a FolderError naming the file, round, table or player: a paired game
without a result once a later round exists (the silent "withdrawal" of two players a forgotten line made before);
a player missing from a round without a withdrawal; a logged result, player or withdrawal gone from its file; a
withdrawal written after the next round was drawn (seed 004: the player owes that game).

Pure: no file, no clock; the command line reads the files, gives the time and appends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.errors import TournamentError
from tournament.events import (
    Event,
    PlayerExcluded,
    PlayerRegistered,
    PlayerUpdated,
    PlayerWithdrawn,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    RoundPublished,
    SettingsChanged,
)
from tournament.folder import FolderError, LeaveRow, ResultRow
from tournament.games import Pairing
from tournament.pairs import pair_event
from tournament.players import Player
from tournament.settings import TournamentSettings
from tournament.state import Tournament


@dataclass(frozen=True)
class FolderFiles:
    """The names the errors give a folder's files (their paths, as the command line read them)."""

    players: str = "players.csv"
    results: str = "results.csv"
    leaving: str = "withdrawals.csv"
    settings: str = "settings.toml"


def entries_to_append(log: Sequence[Event], players: Sequence[Player], rows: Sequence[ResultRow],
                      leaving: Sequence[LeaveRow], settings: TournamentSettings, *, software: str, version: str,
                      at: str, by: str, files: FolderFiles | None = None,
                      pairs: Mapping[str, Sequence[str]] | None = None) -> list[Event]:
    """The entries that bring the deník ``log`` (valid, as read back) up to date with the folder's rows (module
    docstring); raises FolderError for what the files cannot say. A pairs tournament (``settings.doubles``): every
    player of players.csv is registered first, then each pair of ``pairs`` (``read_pairs``: the pair's id and its
    two players) from its players: the pairs are the entrants the results and withdrawals name."""
    return _Sync(log, files or FolderFiles(), at, by).run(players, rows, leaving, settings, software, version,
                                                          pairs or {})


class _Sync:
    def __init__(self, log: Sequence[Event], files: FolderFiles, at: str, by: str) -> None:
        self.t = Tournament.from_events(log)
        self.files, self.at, self.by = files, at, by
        self.new: list[Event] = []

    def add(self, event: Event, file: str, line: int) -> None:
        try:
            self.t.apply(event)
        except TournamentError as e:
            raise FolderError("does_not_fit", file, line, "", str(e)) from None
        self.new.append(event)

    def run(self, players: Sequence[Player], rows: Sequence[ResultRow], leaving: Sequence[LeaveRow],
            settings: TournamentSettings, software: str, version: str,
            pairs: Mapping[str, Sequence[str]]) -> list[Event]:
        t, f = self.t, self.files
        last_logged = t.software[-1][1:] if t.software else None
        if last_logged != (software, version) or t.settings.to_dict() != settings.to_dict():
            self.add(SettingsChanged(at=self.at, by=self.by, software=software, version=version,
                                     settings=settings.to_dict()), f.settings, 0)
        if settings.doubles:
            players = self._pairs(players, pairs)
        self.listed = {p.id: p for p in players}
        self._players(players)
        by_round: dict[int, list[ResultRow]] = {}
        for row in rows:
            by_round.setdefault(row.round, []).append(row)
        last = max(max(by_round, default=0), t.last_round)
        for number in range(1, last + 1):
            if number not in by_round and number not in t.rounds:
                later = by_round[min(r for r in by_round if r > number)][0]
                raise FolderError("missing_round", f.results, later.line, "round", str(number))
        self.leave = {row.player: row for row in leaving}
        self._check_logged_leaving()
        first_round: dict[str, int] = {}
        for number in sorted(by_round):
            for row in by_round[number]:
                for pid in (row.first, row.second):
                    if pid is not None:
                        first_round.setdefault(pid, number)
        self._leave_after(t.last_round, register=False)  # who is in no round yet: registered in order below
        for number in range(1, last + 1):
            round_rows = by_round.get(number, [])
            if number not in t.rounds:
                for p in players:  # in players.csv order: who plays from this round, who leaves before it
                    leaves = self.leave.get(p.id)
                    now_in = first_round.get(p.id) == number or (
                        p.id not in first_round and leaves is not None and leaves.round == number - 1)
                    if now_in and p.id not in t.players:
                        self.add(PlayerRegistered(at=self.at, by=self.by, player=p), f.results, round_rows[0].line)
                self._leave_after(number - 1)
                self._pair_by_hand(number, round_rows)
            self._results(number, round_rows)
            rnd = t.rounds[number]
            missing = rnd.missing_tables()
            if missing and number < last:
                raise FolderError("missing_result", f.results, 0, "", round=number, table=missing[0])
            if not missing and not rnd.closed:
                self.add(RoundClosed(at=self.at, by=self.by, round=number), f.results,
                         round_rows[-1].line if round_rows else 0)
            self._leave_after(number)
        for p in players:
            if p.id not in t.players:
                self.add(PlayerRegistered(at=self.at, by=self.by, player=p), f.players, 0)
        self._leave_after(t.last_round)
        return self.new

    def _pairs(self, people: Sequence[Player], pairs: Mapping[str, Sequence[str]]) -> list[Player]:
        """A pairs tournament's players registered (as people), then its pairs from them; the pairs, in file order,
        are the entrants."""
        t, name = self.t, self.files.players
        for p in people:
            if p.id not in t.people:
                self.add(PlayerRegistered(at=self.at, by=self.by, player=p), name, 0)
        for pid, members in pairs.items():
            if pid not in t.players:
                try:
                    event = pair_event(t, pid, members, self.at, self.by)
                except TournamentError as e:
                    raise FolderError("does_not_fit", name, 0, "pair", str(e)) from None
                self.add(event, name, 0)
        return [t.players[pid] for pid in pairs]

    def _players(self, players: Sequence[Player]) -> None:
        listed = {p.id: p for p in players}
        for pid in self.t.players:
            if pid not in listed:
                raise FolderError("player_removed", self.files.players, 0, "id", pid)
        for p in players:
            if p.id in self.t.players and self.t.players[p.id] != p:
                self.add(PlayerUpdated(at=self.at, by=self.by, player_id=p.id, player=p,
                                       reason="players.csv"), self.files.players, 0)

    def _check_logged_leaving(self) -> None:
        """Every withdrawal in the deník is still in withdrawals.csv as logged; a new one is not too late."""
        t, name = self.t, self.files.leaving
        for pid, out in t.out_from.items():
            row = self.leave.get(pid)
            if row is None:
                raise FolderError("leave_removed", name, 0, "player", pid, player=pid, round=out - 1)
            if (row.round + 1, row.kind) != (out, t.out_reason[pid]):
                raise FolderError("leave_changed", name, row.line, "round", str(row.round), player=pid,
                                  round=out - 1, kind=t.out_reason[pid])
        for row in self.leave.values():
            if row.player not in t.out_from and row.round < t.last_round:
                raise FolderError("leave_too_late", name, row.line, "round", str(row.round), player=row.player,
                                  round=row.round, drawn=t.last_round)

    def _leave_after(self, number: int, register: bool = True) -> None:
        """Log the withdrawals and exclusions of withdrawals.csv that take effect after round ``number`` (once
        round ``number`` is the last one paired); a player not registered yet is registered first (``register``)
        or left for later."""
        t = self.t
        if t.last_round != number:
            return
        for row in self.leave.values():
            if row.round == number and row.player not in t.out_from:
                if row.player not in t.players and not register:
                    continue
                if row.player not in t.players:  # in no round yet (0: withdrawn before round 1): entered, left
                    self.add(PlayerRegistered(at=self.at, by=self.by, player=self.listed[row.player]),
                             self.files.leaving, row.line)
                cls = PlayerWithdrawn if row.kind == "withdrawn" else PlayerExcluded
                self.add(cls(at=self.at, by=self.by, player_id=row.player, reason=row.reason), self.files.leaving,
                         row.line)

    def _pair_by_hand(self, number: int, round_rows: list[ResultRow]) -> None:
        """Round ``number`` as results.csv pairs it (a round the deník has not paired)."""
        t, name = self.t, self.files.results
        byes = [r for r in round_rows if r.kind == "bye"]
        if len(byes) > 1:
            raise FolderError("two_byes", name, byes[1].line, "first", byes[1].first)
        present = {pid for r in round_rows for pid in (r.first, r.second) if pid is not None}
        for pid in t.active(number):
            if pid not in present:
                raise FolderError("not_in_round", name, round_rows[0].line, "round", str(number), player=pid,
                                  round=number)
        try:
            pairings = sorted((Pairing(r.table, r.first, r.second) for r in round_rows  # type: ignore[arg-type]
                               if r.kind != "bye"), key=lambda p: p.table)
        except TournamentError as e:
            raise FolderError("does_not_fit", name, round_rows[0].line, "", str(e)) from None
        self.add(RoundPaired(at=self.at, by=self.by, round=number, pairings=tuple(pairings),
                             bye=byes[0].first if byes else None, method="manual"), name, round_rows[0].line)
        self.add(RoundPublished(at=self.at, by=self.by, round=number), name, round_rows[0].line)

    def _results(self, number: int, round_rows: list[ResultRow]) -> None:
        """Round ``number``'s rows as new results or corrections; a logged result gone from the file is refused."""
        name = self.files.results
        logged: dict[int | None, ResultRecorded] = {}
        for e in self.t.events:
            if isinstance(e, ResultRecorded) and e.round == number:
                logged[e.table if e.kind != "bye" else None] = e
        in_file = {(r.table if r.kind != "bye" else None) for r in round_rows}
        for key, e in logged.items():
            if key not in in_file:
                if key is None:
                    raise FolderError("bye_removed", name, 0, "", round=number, player=e.first)
                raise FolderError("result_removed", name, 0, "", round=number, table=key)
        for r in round_rows:
            before = logged.get(r.table if r.kind != "bye" else None)
            if before is None:
                self.add(self._result(ResultRecorded, r), name, r.line)
            elif (before.first, before.second, before.first_score, before.second_score, before.kind) != \
                    (r.first, r.second, r.first_score, r.second_score, r.kind):
                self.add(self._result(ResultCorrected, r), name, r.line)

    def _result(self, cls: type[ResultRecorded], r: ResultRow) -> ResultRecorded:
        extra = {"reason": "results.csv"} if cls is ResultCorrected else {}
        return cls(at=self.at, by=self.by, round=r.round, table=r.table, first=r.first, second=r.second,
                   first_score=r.first_score, second_score=r.second_score, kind=r.kind,  # type: ignore[arg-type]
                   source="manual", **extra)
