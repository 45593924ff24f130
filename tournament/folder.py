"""A tournament folder's files as text: ``players.csv`` and ``results.csv`` read into deník events, and written back.

Pure: the functions take the files' text and name (the command line reads them), so errors can name the file,
the line and the field. Formats (docs/tournament.md):

- ``players.csv``: ``id,name,club,rating``; ``rating`` empty for a newcomer; optional ``games`` and, in a pairs
  tournament, ``pair`` (the id of the player's pair).
- ``results.csv``: ``round,table,first,second,first_score,second_score,kind``; ``first`` started; ``kind`` one of
  played, forfeit, bye, void, exclusion; a bye row names its player in ``first`` and leaves ``table``, ``second``
  and the scores empty.

The log rebuilt from a folder registers everyone in ``players.csv`` order before the first round they play in (a
player in no round yet is registered at the end: paired from the next round), and withdraws a player after the
last round they appear in (so the next round leaves them out).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournament.errors import TournamentError
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
from tournament.games import GAME_KINDS, Pairing
from tournament.pairs import pair_event
from tournament.players import Player
from tournament.settings import TournamentSettings
from tournament.state import Tournament

PLAYER_COLUMNS = ("id", "name", "club", "rating")
PLAYER_OPTIONAL = ("games", "pair")
"""Optional columns of players.csv: the player's rated games before the event (the ladder's coefficient); in a
pairs tournament (``doubles = true``) the id of the player's pair (two players name each pair)."""
RESULT_COLUMNS = ("round", "table", "first", "second", "first_score", "second_score", "kind")


class FolderError(TournamentError):
    """A bad line of a folder's file. ``code`` names the mistake (the command line words it in Czech or
    English); ``file``, ``line`` (1-based, the header is line 1) and ``field`` say where; ``value`` is what was
    found."""

    def __init__(self, code: str, file: str, line: int, field: str = "", value: str = "") -> None:
        self.code, self.file, self.line, self.field, self.value = code, file, line, field, value
        super().__init__(f"{file}:{line}: {field or '-'}: {code} ({value!r})")


@dataclass(frozen=True)
class ResultRow:
    """One line of ``results.csv``."""

    line: int
    round: int
    table: int | None
    first: str
    second: str | None
    first_score: int | None
    second_score: int | None
    kind: str


def _rows(text: str, name: str, columns: Sequence[str], required: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = next(reader)
    except StopIteration:
        raise FolderError("empty_file", name, 1) from None
    header = [h.strip().lower() for h in header]
    for col in required:
        if col not in header:
            raise FolderError("missing_column", name, 1, col)
    for col in header:
        if col not in columns:
            raise FolderError("unknown_column", name, 1, col, col)
    out = []
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise FolderError("wrong_cell_count", name, line, "", f"{len(cells)}/{len(header)}")
        out.append((line, {h: c.strip() for h, c in zip(header, cells, strict=True)}))
    return out


def _int(value: str, name: str, line: int, field: str, minimum: int | None = None) -> int:
    try:
        number = int(value)
    except ValueError:
        raise FolderError("not_a_number", name, line, field, value) from None
    if minimum is not None and number < minimum:
        raise FolderError("too_small", name, line, field, value)
    return number


def read_players(text: str, name: str = "players.csv") -> list[Player]:
    """The players of ``players.csv``'s text; raises FolderError for a bad line or a duplicate id."""
    players: list[Player] = []
    seen: dict[str, int] = {}
    for line, row in _rows(text, name, PLAYER_COLUMNS + PLAYER_OPTIONAL, ("id",)):
        pid = row.get("id", "")
        if not pid:
            raise FolderError("empty_id", name, line, "id")
        if pid in seen:
            raise FolderError("duplicate_id", name, line, "id", pid)
        seen[pid] = line
        rating = row.get("rating", "")
        players.append(Player(pid, row.get("name", ""), row.get("club", ""),
                              _int(rating, name, line, "rating", 0) if rating else None))
    return players


def read_pairs(text: str, name: str = "players.csv") -> dict[str, tuple[str, ...]]:
    """The optional ``pair`` column of players.csv: each pair's id and its two players' ids, in file order. Raises
    FolderError ("pair_size") on the line of a pair that does not have two players."""
    pairs: dict[str, list[str]] = {}
    lines: dict[str, int] = {}
    for line, row in _rows(text, name, PLAYER_COLUMNS + PLAYER_OPTIONAL, ("id",)):
        if row.get("pair"):
            pairs.setdefault(row["pair"], []).append(row["id"])
            lines[row["pair"]] = line
    for pair, members in pairs.items():
        if len(members) != 2:
            raise FolderError("pair_size", name, lines[pair], "pair", f"{pair}: {', '.join(members)}")
    return {pair: tuple(members) for pair, members in pairs.items()}


def read_games_before(text: str, name: str = "players.csv") -> dict[str, int]:
    """The optional ``games`` column of players.csv: rated games before the event, by id (empty cells left
    out)."""
    out = {}
    for line, row in _rows(text, name, PLAYER_COLUMNS + PLAYER_OPTIONAL, ("id",)):
        if row.get("games"):
            out[row["id"]] = _int(row["games"], name, line, "games", 0)
    return out


def read_results(text: str, name: str = "results.csv", known: Sequence[str] | None = None) -> list[ResultRow]:
    """The rows of ``results.csv``'s text; ``known`` ids (if given) are the only players allowed. Raises
    FolderError for a bad line."""
    ids = set(known) if known is not None else None
    out = []
    for line, row in _rows(text, name, RESULT_COLUMNS, ("round", "first", "kind")):
        kind = row.get("kind", "")
        if kind not in GAME_KINDS:
            raise FolderError("bad_kind", name, line, "kind", kind)
        rnd = _int(row.get("round", ""), name, line, "round", 1)
        first = row.get("first", "")
        second = row.get("second", "") or None
        if not first:
            raise FolderError("empty_id", name, line, "first")
        for field, pid in (("first", first), ("second", second)):
            if pid is not None and ids is not None and pid not in ids:
                raise FolderError("unknown_player", name, line, field, pid)
        fs, ss = row.get("first_score", ""), row.get("second_score", "")
        table = row.get("table", "")
        if kind == "bye":
            if second is not None:
                raise FolderError("bye_with_second", name, line, "second", second)
            out.append(ResultRow(line, rnd, None, first, None, _opt_int(fs, name, line, "first_score"),
                                 _opt_int(ss, name, line, "second_score"), kind))
            continue
        if second is None:
            raise FolderError("empty_id", name, line, "second")
        if first == second:
            raise FolderError("same_player", name, line, "second", second)
        if not table:
            raise FolderError("empty_table", name, line, "table")
        t = _int(table, name, line, "table", 1)
        if kind == "void":
            out.append(ResultRow(line, rnd, t, first, second, _opt_int(fs, name, line, "first_score"),
                                 _opt_int(ss, name, line, "second_score"), kind))
            continue
        if not fs:
            raise FolderError("empty_score", name, line, "first_score")
        if not ss:
            raise FolderError("empty_score", name, line, "second_score")
        out.append(ResultRow(line, rnd, t, first, second, _int(fs, name, line, "first_score"),
                             _int(ss, name, line, "second_score"), kind))
    return out


def _opt_int(value: str, name: str, line: int, field: str) -> int | None:
    return _int(value, name, line, field) if value else None


def read_settings(data: Mapping[str, Any], name: str = "settings.toml") -> TournamentSettings:
    """Settings from a parsed ``settings.toml`` (its keys are ``TournamentSettings``'s; ``[standings]`` holds
    the tie-break and A-D); raises FolderError naming the key."""
    try:
        return TournamentSettings.from_dict(data)
    except TournamentError as e:
        raise FolderError("bad_setting", name, 0, "", str(e)) from None


def folder_events(players: Sequence[Player], rows: Sequence[ResultRow], settings: TournamentSettings,
                  software: str, version: str, at: str = "", by: str = "cli",
                  results_name: str = "results.csv", pairs: Mapping[str, Sequence[str]] | None = None) -> list[Event]:
    """The deník a folder describes (module docstring), checked by replaying it: raises FolderError naming the
    results line of the first row that does not fit (a player twice in a round, a round missing, a withdrawn
    player back ...). A pairs tournament (``settings.doubles``): every player registered first, then ``pairs``
    (``read_pairs``) are the entrants the results name, each registered from its two players."""
    by_round: dict[int, list[ResultRow]] = {}
    for row in rows:
        by_round.setdefault(row.round, []).append(row)
    last = max(by_round, default=0)
    for number in range(1, last + 1):
        if number not in by_round:
            later = by_round[min(r for r in by_round if r > number)][0]
            raise FolderError("missing_round", results_name, later.line, "round", str(number))
    first_round: dict[str, int] = {}
    last_round: dict[str, int] = {}
    for number in sorted(by_round):
        for row in by_round[number]:
            for pid in (row.first, row.second):
                if pid is not None:
                    first_round.setdefault(pid, number)
                    last_round[pid] = number
    events: list[Event] = [SettingsChanged(at=at, by=by, software=software, version=version,
                                           settings=settings.to_dict())]
    t = Tournament()
    t.apply(events[0])
    if settings.doubles:  # the players first; the pairs of them are the entrants
        for p in players:
            events.append(PlayerRegistered(at=at, by=by, player=p))
            t.apply(events[-1])
        players = [pair_event(t, pid, members, at, by).player for pid, members in (pairs or {}).items()]

    def add(event: Event, line: int) -> None:
        try:
            t.apply(event)
        except TournamentError as e:
            raise FolderError("does_not_fit", results_name, line, "", str(e)) from None
        events.append(event)

    order = {p.id: i for i, p in enumerate(players)}
    for number in range(1, last + 1):
        entering = sorted((p for p in players if first_round.get(p.id) == number), key=lambda p: order[p.id])
        for p in entering:
            add(PlayerRegistered(at=at, by=by, player=p), by_round[number][0].line)
        round_rows = by_round[number]
        games = [r for r in round_rows if r.kind != "bye"]
        byes = [r for r in round_rows if r.kind == "bye"]
        if len(byes) > 1:
            raise FolderError("two_byes", results_name, byes[1].line, "first", byes[1].first)
        pairings = []
        for r in games:
            assert r.table is not None and r.second is not None
            pairings.append(Pairing(r.table, r.first, r.second))
        try:
            pairings.sort(key=lambda p: p.table)
            paired = RoundPaired(at=at, by=by, round=number, pairings=tuple(pairings),
                                 bye=byes[0].first if byes else None, method="manual")
        except TournamentError as e:
            raise FolderError("does_not_fit", results_name, round_rows[0].line, "", str(e)) from None
        add(paired, round_rows[0].line)
        add(RoundPublished(at=at, by=by, round=number), round_rows[0].line)
        for r in round_rows:
            add(ResultRecorded(at=at, by=by, round=number, table=r.table, first=r.first, second=r.second,
                               first_score=r.first_score, second_score=r.second_score, kind=r.kind,  # type: ignore[arg-type]
                               source="manual"), r.line)
        add(RoundClosed(at=at, by=by, round=number), round_rows[-1].line)
        for pid, lr in last_round.items():
            if lr == number < last:
                add(PlayerWithdrawn(at=at, by=by, player_id=pid, reason=WITHDRAWN_AFTER_LAST_GAME),
                    round_rows[-1].line)
    for p in players:
        if p.id not in first_round:
            events.append(PlayerRegistered(at=at, by=by, player=p))
            t.apply(events[-1])
    return events


WITHDRAWN_AFTER_LAST_GAME = "žádná partie po tomto kole"
"""The reason logged for a player withdrawn after the last round they appear in: Czech, as the printed deník is
(``tournament.report.describe`` says it in English with ``lang="en"``)."""


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """CSV text: a header of ``columns``, then ``rows`` (None written as an empty cell)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow("" if v is None else v for v in row)
    return out.getvalue()


def players_csv(players: Sequence[Player]) -> str:
    """``players.csv``'s text for ``players`` (``read_players`` reads it back)."""
    return csv_text(PLAYER_COLUMNS, ((p.id, p.name, p.club, p.rating) for p in players))


def results_csv(tournament: Tournament) -> str:
    """``results.csv``'s text of every result recorded so far (``read_results`` reads it back)."""
    return csv_text(RESULT_COLUMNS, (
        (r.round, None, r.first, None, None, None, "bye") if r.kind == "bye"
        else (r.round, r.table, r.first, r.second, r.first_score, r.second_score, r.kind)
        for r in tournament.all_results()))
