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
from tournament.players import Player, check_text
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
        super().__init__(f"{file}:{line}: {field or '-'}: {code} ({value!r}) {values or ''}".rstrip())
        self.code, self.file, self.line, self.field, self.value = code, file, line, field, value
        self.values = values  # after the base's: its ``values`` are a rule's refusal's, these the message's

    def said(self, lang: str) -> str:
        """The error in the organiser's words (``MESSAGES``): the file, the line and the field, what is wrong."""
        m = MESSAGES["en" if lang == "en" else "cs"]
        what = m.get(self.code, self.code).format(**self.values)
        if self.value and not self.values:
            what += f" ({self.value})"
        if not self.line:
            return m["where_noline"].format(file=self.file, what=what)
        return m["where"].format(file=self.file, line=self.line, field=self.field or "-", what=what)


@dataclass(frozen=True)
class LeaveRow:
    """One line of ``withdrawals.csv``: ``player`` is paired up to ``round`` (0: never) and no more."""

    line: int
    player: str
    round: int
    kind: str
    reason: str



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
        "pair_size": "dvojice nemá dva hráče (sloupec pair)",
        "bad_leave_kind": "neznámý druh (withdrawn = odstoupil, excluded = vyloučen)",
        "score_range": "skóre mimo rozsah {low} až {high}",
        "missing_result": "kolo {round}, stůl {table}: vylosovaná partie nemá výsledek; doplňte ho do results.csv (odstoupení nebo vyloučení patří do withdrawals.csv a partie se zapíše jako kontumace)",
        "not_in_round": "hráč {player} nemá v kole {round} partii ani volný los: chybí řádek, nebo zapište odstoupení do withdrawals.csv",
        "result_removed": "kolo {round}, stůl {table}: výsledek zapsaný v deníku v souboru chybí (oprava se píše změnou řádku, ne jeho smazáním)",
        "bye_removed": "kolo {round}: volný los hráče {player} zapsaný v deníku v souboru chybí",
        "player_removed": "hráč zapsaný v deníku v souboru chybí (deník se nepřepisuje)",
        "leave_removed": "odstoupení či vyloučení hráče {player} po kole {round} je v deníku, ale v souboru chybí",
        "leave_changed": "hráč {player}: deník už má zapsáno {kind} po kole {round} (deník se nepřepisuje)",
        "leave_too_late": "hráč {player}: kolo {drawn} už je vylosované, partii musí odehrát (hrací řád ČAS); napište kolo {drawn}, a nedostaví-li se, zapište partii jako kontumaci (forfeit)",
        "already_drawn": "kolo {round} už je vylosováno (semínko {seed}); jiné losování by přepsalo deník",
        "unwritable": "deník nelze zapsat",
        "in_use": "deník právě zapisuje jiný příkaz partiar tournament; zkuste to znovu, až doběhne",
        "redrawn": "kolo {round} už je vylosováno a zapsáno v deníku {file}: vypisuji zapsané losování",
        "no_such_round": "takové kolo turnaj nemá (--after N: N od 1 do posledního vylosovaného kola)",
        "tsh_line": "řádek není hráč ve tvaru TSH (jméno síla soupeři; skóre; ...)",
        "tsh_opponent": "číslo soupeře je větší než počet hráčů",
        "tsh_mismatch": "soupeř v tomto kole neuvádí tohoto hráče (číslo soupeře → soupeř soupeře)",
        "tsh_no_opponent": "kolo bez soupeře s nekladným skóre (kontumace „nikomu“ v TSH) uprostřed turnaje; složka turnaje má v kole jen jeden volný los",
        "folder_not_empty": "složka už existuje a není prázdná (turnaj se nepřepisuje)",
        "tsh_unscored": "kolo (kola) {0} je v TSH vylosované, ale bez všech výsledků: nenačteno",
        "tsh_withdrawn": "hráč, od kola, skóre TSH: od tohoto kola bez soupeře a bez výhry, zapsán jako odstoupivší (ČAS mu skóre nepočítá) – {0}",
        "tsh_unknown_start": "partie bez údaje, kdo začínal (p12 0 nebo 3): {0}; zapsán jako začínající hráč s nižším číslem",
        "imported": "načteno: hráčů {players}, kol {rounds} → {folder}",
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
        "not_utf8": 'the text is neither UTF-8 nor Windows-1250 (save the file as UTF-8, e.g. "CSV UTF-8" in a spreadsheet)',
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
        "pair_size": "the pair does not have two players (column pair)",
        "bad_leave_kind": "unknown kind (withdrawn or excluded)",
        "score_range": "score outside {low} to {high}",
        "missing_result": "round {round}, table {table}: a paired game has no result; add it to results.csv (a withdrawal or exclusion goes in withdrawals.csv, the game as a forfeit)",
        "not_in_round": "player {player} has no game and no bye in round {round}: a line is missing, or write the withdrawal in withdrawals.csv",
        "result_removed": "round {round}, table {table}: a result in the deník is missing from the file (a correction changes the line, it does not delete it)",
        "bye_removed": "round {round}: the bye of {player} in the deník is missing from the file",
        "player_removed": "a player in the deník is missing from the file (the deník is never rewritten)",
        "leave_removed": "the withdrawal or exclusion of {player} after round {round} is in the deník but missing from the file",
        "leave_changed": "player {player}: the deník already has {kind} after round {round} (the deník is never rewritten)",
        "leave_too_late": "player {player}: round {drawn} is already drawn, so they must play it (ČAS rules); write round {drawn}, and if they do not come record the game as a forfeit",
        "already_drawn": "round {round} is already drawn (seed {seed}); another draw would rewrite the deník",
        "unwritable": "cannot write the deník",
        "in_use": "another partiar tournament command is writing the deník; try again when it has finished",
        "redrawn": "round {round} is already drawn and in the deník {file}: printing the recorded draw",
        "no_such_round": "the tournament has no such round (--after N: N from 1 to the last round paired)",
        "tsh_line": "the line is not a TSH player line (name rating opponents; scores; ...)",
        "tsh_opponent": "the opponent's number is above the number of players",
        "tsh_mismatch": "the opponent's line does not name this player in this round (opponent → opponent's opponent)",
        "tsh_no_opponent": "a round without an opponent and a score of 0 or less (TSH's forfeit to nobody) mid-event; a tournament folder holds one bye a round",
        "folder_not_empty": "the folder exists and is not empty (a tournament is not overwritten)",
        "tsh_unscored": "round(s) {0} paired in TSH without every score: not imported",
        "tsh_withdrawn": "player, from round, TSH's spread: from that round without an opponent or a win, written as withdrawn (ČAS counts them no score) – {0}",
        "tsh_unknown_start": "games without who started (p12 0 or 3): {0}; the lower-numbered player is written as starting",
        "imported": "imported: {players} players, {rounds} rounds → {folder}",
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
        end = reader.line_num
        for cells in reader:
            line, end = end + 1, reader.line_num  # a row's first line (a quoted cell may hold a line break)
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
    bad cell, a row with another number of cells than the header, or a duplicate id, and BadText
    (``tournament.players.check_text``) for an id or name with a control character, a direction override or over
    80 characters."""
    players: list[Player] = []
    seen: dict[str, int] = {}
    for line, row in _player_rows(text, name):
        pid, player_name, club = row.get("id", ""), row.get("name", ""), row.get("club", "")
        if not pid:
            raise FolderError("empty_id", name, line, "id")
        if not player_name:
            raise FolderError("empty_name", name, line, "name", pid)
        check_text("id", pid, line=line)  # the one check of every way a player comes in: raises BadText
        check_text("name", player_name, pid, line=line)
        if len(club) > MAX_PLAYER_TEXT or any(ord(c) < 32 for c in club):
            raise FolderError("long_text", name, line, "club", club[:40])
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


def read_pairs(text: str, name: str = "players.csv") -> dict[str, tuple[str, ...]]:
    """The optional ``pair`` column of players.csv: each pair's id and its two players' ids, in file order. Raises
    FolderError ("pair_size") on the line of a pair that does not have two players."""
    pairs: dict[str, list[str]] = {}
    lines: dict[str, int] = {}
    for line, row in _player_rows(text, name):
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
