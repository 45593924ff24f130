"""A tournament folder's files as text: ``players.csv`` and ``results.csv`` read into deník events, and written back.

Pure: the functions take the files' text and name (the command line reads them), so errors can name the file,
the line and the field. Formats (docs/tournament.md):

- ``players.csv``: ``id,name,club,rating``; ``rating`` empty for a newcomer.
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
from tournament.players import Player
from tournament.settings import TournamentSettings
from tournament.state import Tournament

PLAYER_COLUMNS = ("id", "name", "club", "rating")
PLAYER_OPTIONAL = ("games",)
"""An optional column of players.csv: the player's rated games before the event (the ladder's coefficient)."""
RESULT_COLUMNS = ("round", "table", "first", "second", "first_score", "second_score", "kind")


class FolderError(TournamentError):
    """A bad line of a folder's file. ``code`` names the mistake (the command line words it in Czech or
    English); ``file``, ``line`` (1-based, the header is line 1) and ``field`` say where; ``value`` is what was
    found."""

    def __init__(self, code: str, file: str, line: int, field: str = "", value: str = "") -> None:
        self.code, self.file, self.line, self.field, self.value = code, file, line, field, value
        super().__init__(f"{file}:{line}: {field or '-'}: {code} ({value!r})")

    def said(self, lang: str) -> str:
        """The error in the organiser's words (``MESSAGES``): the file, the line and the field, what is wrong."""
        m = MESSAGES["en" if lang == "en" else "cs"]
        what = m.get(self.code, self.code) + (f" ({self.value})" if self.value else "")
        if not self.line:
            return m["where_noline"].format(file=self.file, what=what)
        return m["where"].format(file=self.file, line=self.line, field=self.field or "-", what=what)


MESSAGES: dict[str, dict[str, str]] = {  # what FolderError.said says, by language and code
    "cs": {
        "empty_file": "soubor je prázdný",
        "unknown_column": "neznámý sloupec",
        "wrong_cell_count": "jiný počet buněk než v záhlaví",
        "not_a_number": "není celé číslo",
        "too_small": "číslo je příliš malé",
        "empty_id": "chybí ID hráče",
        "duplicate_id": "ID hráče je v souboru dvakrát",
        "unknown_player": "neznámé ID hráče (není v players.csv)",
        "bad_kind": "neznámý druh výsledku (played, forfeit, bye, void, exclusion)",
        "bye_with_second": "volný los nemá druhého hráče",
        "same_player": "hráč nemůže hrát sám se sebou",
        "empty_table": "chybí číslo stolu",
        "empty_score": "chybí skóre",
        "missing_round": "chybí kolo",
        "two_byes": "dva volné losy v jednom kole",
        "does_not_fit": "neodpovídá průběhu turnaje",
        "bad_setting": "chybné nastavení",
        "unreadable": "soubor nelze přečíst",
        "not_found": "soubor neexistuje",
        "all_rounds": "všechna kola turnaje jsou odehrána; pro další kolo zvyšte rounds",
        "not_utf8": "text není v kódování UTF-8 ani Windows-1250 (uložte soubor jako UTF-8, např. v tabulkovém editoru „CSV UTF-8“)",
        "bad_csv": "chybný zápis CSV (uvozovky?)",
        "empty_name": "chybí jméno hráče",
        "long_text": "nejvýše 80 znaků textu",
        "too_many": "příliš mnoho hráčů (nejvýše 1000)",
        "no_players": "v seznamu nejsou žádní hráči",
        "missing_column": "chybí sloupec (záhlaví id,name,club,rating nebo id;jméno;klub;síla)",
        "not_json": "řádek není JSON",
        "where": "{file}, řádek {line}, pole {field}: {what}",
        "where_noline": "{file}: {what}",
        "nothing": "nelze losovat",
    },
    "en": {
        "empty_file": "the file is empty",
        "unknown_column": "unknown column",
        "wrong_cell_count": "a different number of cells than the header",
        "not_a_number": "not a whole number",
        "too_small": "the number is too small",
        "empty_id": "the player id is missing",
        "duplicate_id": "the player id appears twice",
        "unknown_player": "unknown player id (not in players.csv)",
        "bad_kind": "unknown kind of result (played, forfeit, bye, void, exclusion)",
        "bye_with_second": "a bye has no second player",
        "same_player": "a player cannot play themself",
        "empty_table": "the table number is missing",
        "empty_score": "the score is missing",
        "missing_round": "a round is missing",
        "two_byes": "two byes in one round",
        "does_not_fit": "does not fit the tournament so far",
        "bad_setting": "bad setting",
        "unreadable": "cannot read the file",
        "not_found": "the file does not exist",
        "all_rounds": "every round of the event has been played; raise rounds for another one",
        "not_utf8": "the text is neither UTF-8 nor Windows-1250 (save the file as UTF-8, e.g. \"CSV UTF-8\" in a spreadsheet)",
        "bad_csv": "not well-formed CSV (quotes?)",
        "empty_name": "the player's name is missing",
        "long_text": "at most 80 characters of text",
        "too_many": "too many players (at most 1000)",
        "no_players": "no players in the list",
        "missing_column": "a column is missing (header id,name,club,rating)",
        "not_json": "the line is not JSON",
        "where": "{file}, line {line}, field {field}: {what}",
        "where_noline": "{file}: {what}",
        "nothing": "cannot pair",
    },
}


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


PLAYER_ALIASES = {"čas id": "id", "cas id": "id", "id čas": "id", "jméno": "name", "jmeno": "name",
                  "klub": "club", "oddíl": "club", "síla": "rating", "sila": "rating", "partie": "games"}
"""The Czech headings a players list may have (what an organiser's spreadsheet calls the columns)."""
MAX_PLAYER_TEXT = 80
"""The longest id, name or club (what a table's pairing message carries)."""
MAX_PLAYERS = 1000
DELIMITERS = (",", ";", "\t")
"""The cells' separators read: a comma, a semicolon (what Czech Excel writes as "CSV"), a tab."""


def decode_csv(data: bytes, name: str) -> str:
    """A CSV file's text: UTF-8 (with or without a byte-order mark), else Windows-1250 (what Czech Excel and
    Windows programs save). Raises FolderError ``not_utf8`` naming the line for bytes that are neither."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        try:
            return data.decode("cp1250")
        except UnicodeDecodeError:
            raise FolderError("not_utf8", name, data[: e.start].count(b"\n") + 1, "-", "") from None


def _delimiter(text: str) -> str:
    """The separator of a CSV's cells: the commonest of ``DELIMITERS`` on its first non-empty line."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return max(DELIMITERS, key=lambda d: (first.count(d), d == ","))


def _rows(text: str, name: str, columns: Sequence[str], required: Sequence[str],
          aliases: Mapping[str, str] | None = None, headerless: Sequence[str] = ()) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV (separated by ``_delimiter``) as dicts by column, each with its line number. The first
    line is the header (its names, or their ``aliases``); with ``headerless`` columns, a first line that names no
    known column is a row of those columns in that order. Every row must have as many cells as the header."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=_delimiter(text))
    try:
        first = next(reader)
        while not any(c.strip() for c in first):
            first = next(reader)
    except StopIteration:
        raise FolderError("empty_file", name, 1) from None
    except csv.Error as e:
        raise FolderError("bad_csv", name, reader.line_num, "", str(e)) from None
    header = [(aliases or {}).get(h.strip().lower(), h.strip().lower()) for h in first]
    out: list[tuple[int, dict[str, str]]] = []
    if headerless and header[0] not in columns:
        if len(first) > len(headerless):
            raise FolderError("wrong_cell_count", name, reader.line_num, "", f"{len(first)}/{len(headerless)}")
        header = list(headerless[: len(first)])
        out.append((reader.line_num, {h: c.strip() for h, c in zip(header, first, strict=True)}))
    for col in required:
        if col not in header:
            raise FolderError("missing_column", name, 1, col)
    for col in header:
        if col not in columns:
            raise FolderError("unknown_column", name, 1, col, col)
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise FolderError("wrong_cell_count", name, line, "", f"{len(cells)}/{len(header)}")
            out.append((line, {h: c.strip() for h, c in zip(header, cells, strict=True)}))
    except csv.Error as e:
        raise FolderError("bad_csv", name, reader.line_num, "", str(e)) from None
    return out


def _int(value: str, name: str, line: int, field: str, minimum: int | None = None) -> int:
    try:
        number = int(value)
    except ValueError:
        raise FolderError("not_a_number", name, line, field, value) from None
    if minimum is not None and number < minimum:
        raise FolderError("too_small", name, line, field, value)
    return number


def _player_rows(text: str, name: str) -> list[tuple[int, dict[str, str]]]:
    return _rows(text, name, PLAYER_COLUMNS + PLAYER_OPTIONAL, ("id", "name"), PLAYER_ALIASES, PLAYER_COLUMNS)


def read_players(text: str, name: str = "players.csv") -> list[Player]:
    """The players of a players list (``players.csv``, the desk's import, ``partiar hub --players``): columns
    ``id,name,club,rating`` and the optional ``games`` in any order under a header (Czech headings too:
    ``PLAYER_ALIASES``), or without a header ``id,name[,club[,rating]]`` in that order; cells separated by commas,
    semicolons or tabs. Every player needs an id and a name; raises FolderError naming the line and field of a
    bad cell, a row with another number of cells than the header, or a duplicate id."""
    players: list[Player] = []
    seen: dict[str, int] = {}
    for line, row in _player_rows(text, name):
        pid, player_name, club = row.get("id", ""), row.get("name", ""), row.get("club", "")
        if not pid:
            raise FolderError("empty_id", name, line, "id")
        if not player_name:
            raise FolderError("empty_name", name, line, "name", pid)
        for field, value in (("id", pid), ("name", player_name), ("club", club)):
            if len(value) > MAX_PLAYER_TEXT or any(ord(c) < 32 for c in value):
                raise FolderError("long_text", name, line, field, value[:40])
        if pid in seen:
            raise FolderError("duplicate_id", name, line, "id", pid)
        seen[pid] = line
        if len(seen) > MAX_PLAYERS:
            raise FolderError("too_many", name, line, "", str(MAX_PLAYERS))
        rating = row.get("rating", "")
        players.append(Player(pid, player_name, club, _int(rating, name, line, "rating", 0) if rating else None))
    if not players:
        raise FolderError("no_players", name, 0)
    return players


def read_games_before(text: str, name: str = "players.csv") -> dict[str, int]:
    """The optional ``games`` column of players.csv: rated games before the event, by id (empty cells left
    out)."""
    out = {}
    for line, row in _player_rows(text, name):
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
                  results_name: str = "results.csv") -> list[Event]:
    """The deník a folder describes (module docstring), checked by replaying it: raises FolderError naming the
    results line of the first row that does not fit (a player twice in a round, a round missing, a withdrawn
    player back ...)."""
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
