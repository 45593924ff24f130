"""A tournament folder's files as text: ``players.csv``, ``results.csv`` and ``withdrawals.csv`` read into rows,
and written back.

Pure: the functions take the files' text and name (the command line reads them), so errors can name the file,
the line and the field. Formats (docs/tournament.md):

- ``players.csv``: ``id,name,club,rating``; ``rating`` empty for a newcomer; optional ``games`` and, in a pairs
  tournament, ``pair`` (the id of the player's pair).
- ``results.csv``: ``round,table,first,second,first_score,second_score,kind``; ``first`` started; ``kind`` one of
  played, forfeit, bye, void, exclusion; a bye row names its player in ``first`` and leaves ``table``, ``second``
  and the scores empty; a score is ``MIN_SCORE`` to ``MAX_SCORE``.
- ``withdrawals.csv``: ``player,round,kind,reason``; ``kind`` withdrawn or excluded; ``round`` the last round the
  player is paired in (0: before round 1).

What the folder's deník (``denik.jsonl``) appends from these rows is ``tournament.folder_denik``'s.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournament.errors import TournamentError
from tournament.events import PlayerExcluded, PlayerWithdrawn
from tournament.games import GAME_KINDS, MAX_SCORE, MIN_SCORE
from tournament.players import Player
from tournament.settings import TournamentSettings
from tournament.state import Tournament

PLAYER_COLUMNS = ("id", "name", "club", "rating")
PLAYER_OPTIONAL = ("games", "pair")
"""Optional columns of players.csv: the player's rated games before the event (the ladder's coefficient); in a
pairs tournament (``doubles = true``) the id of the player's pair (two players name each pair)."""
RESULT_COLUMNS = ("round", "table", "first", "second", "first_score", "second_score", "kind")


LEAVE_COLUMNS = ("player", "round", "kind", "reason")
LEAVE_KINDS = ("withdrawn", "excluded")
"""A row of withdrawals.csv: the player withdrew (seed 004: announced at the latest with their last round's
results), or the chief referee excluded them from the whole tournament."""


class FolderError(TournamentError):
    """A bad line of a folder's file. ``code`` names the mistake (the command line words it in Czech or
    English); ``file``, ``line`` (1-based, the header is line 1; 0: the file as a whole) and ``field`` say where;
    ``value`` is what was found; ``values`` fill in the message's ``{round}``, ``{table}``, ``{player}`` ..."""

    def __init__(self, code: str, file: str, line: int, field: str = "", value: str = "", **values: object) -> None:
        self.code, self.file, self.line, self.field, self.value = code, file, line, field, value
        self.values = values
        super().__init__(f"{file}:{line}: {field or '-'}: {code} ({value!r}) {values or ''}".rstrip())


@dataclass(frozen=True)
class LeaveRow:
    """One line of ``withdrawals.csv``: ``player`` is paired up to ``round`` (0: never) and no more."""

    line: int
    player: str
    round: int
    kind: str
    reason: str


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
        out.append(ResultRow(line, rnd, t, first, second, _score(fs, name, line, "first_score"),
                             _score(ss, name, line, "second_score"), kind))
    return out


def _opt_int(value: str, name: str, line: int, field: str) -> int | None:
    return _score(value, name, line, field) if value else None


def _score(value: str, name: str, line: int, field: str) -> int:
    number = _int(value, name, line, field)
    if not MIN_SCORE <= number <= MAX_SCORE:
        raise FolderError("score_range", name, line, field, value, low=MIN_SCORE, high=MAX_SCORE)
    return number


def read_leaving(text: str, name: str = "withdrawals.csv", known: Sequence[str] | None = None) -> list[LeaveRow]:
    """The rows of ``withdrawals.csv``'s text; ``known`` ids (if given) are the only players allowed. Raises
    FolderError for a bad line or a player named twice."""
    ids = set(known) if known is not None else None
    out: list[LeaveRow] = []
    seen: set[str] = set()
    for line, row in _rows(text, name, LEAVE_COLUMNS, ("player", "round", "kind")):
        pid = row.get("player", "")
        if not pid:
            raise FolderError("empty_id", name, line, "player")
        if ids is not None and pid not in ids:
            raise FolderError("unknown_player", name, line, "player", pid)
        if pid in seen:
            raise FolderError("duplicate_id", name, line, "player", pid)
        seen.add(pid)
        kind = row.get("kind", "")
        if kind not in LEAVE_KINDS:
            raise FolderError("bad_leave_kind", name, line, "kind", kind)
        out.append(LeaveRow(line, pid, _int(row.get("round", ""), name, line, "round", 0), kind,
                            row.get("reason", "")))
    return out


def read_settings(data: Mapping[str, Any], name: str = "settings.toml") -> TournamentSettings:
    """Settings from a parsed ``settings.toml`` (its keys are ``TournamentSettings``'s; ``[standings]`` holds
    the tie-break and A-D); raises FolderError naming the key."""
    try:
        return TournamentSettings.from_dict(data)
    except TournamentError as e:
        raise FolderError("bad_setting", name, 0, "", str(e)) from None


WITHDRAWN_AFTER_LAST_GAME = "žádná partie po tomto kole"
"""The reason a folder's deník logged, before withdrawals.csv, for a player withdrawn after the last round they
appeared in (``tournament.report.describe`` says it in English with ``lang="en"`` for a deník of then)."""


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


def withdrawals_csv(tournament: Tournament) -> str:
    """``withdrawals.csv``'s text of every withdrawal and exclusion so far (``read_leaving`` reads it back)."""
    reasons = {e.player_id: e.reason for e in tournament.events if isinstance(e, PlayerWithdrawn | PlayerExcluded)}
    return csv_text(LEAVE_COLUMNS, ((pid, out - 1, tournament.out_reason[pid], reasons.get(pid, ""))
                                    for pid, out in tournament.out_from.items()))


def results_csv(tournament: Tournament) -> str:
    """``results.csv``'s text of every result recorded so far (``read_results`` reads it back)."""
    return csv_text(RESULT_COLUMNS, (
        (r.round, None, r.first, None, None, None, "bye") if r.kind == "bye"
        else (r.round, r.table, r.first, r.second, r.first_score, r.second_score, r.kind)
        for r in tournament.all_results()))
