"""``partiar tournament``: the tournament desk from a folder, for scripting and checking.

    partiar tournament pair DIR [--seed N] [--json] [--lang cs|en]
    partiar tournament standings DIR [--after N] [--json] [--lang cs|en]
    partiar tournament log DIR [--html | --json] [--lang cs|en]
    partiar tournament ladder DIR [--csv] [--lang cs|en]
    partiar tournament export-tsh DIR
    partiar tournament import-tsh FILE.t DIR

DIR holds ``players.csv`` (``id,name,club,rating``), ``results.csv`` (``round,table,first,second,first_score,
second_score,kind``; may be missing before round 1), ``withdrawals.csv`` (``player,round,kind,reason``; optional)
and optionally ``settings.toml`` (``TournamentSettings``'s keys, ``[standings]`` for the tie-break and A-D), and
the folder's own deník ``denik.jsonl``: every command first appends to it what the files say that it does not yet
(``tournament.folder_denik``), with the time; ``pair`` appends its draw. Instead of DIR, a deník file
``FILE.jsonl`` (one ``encode_event`` dict a line, as ``log --json`` prints it): the tournament rebuilt from the log
alone, nothing written. ``pair`` prints the round after the last (or the last again, if drawn and not yet played).
Without ``--json`` a readable table with Czech headings (``--lang en``: English). Bad input: a message naming the
file, line and field on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import os
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.version import version_text
from tournament import SOFTWARE
from tournament.errors import AllRoundsPlayed, TournamentError
from tournament.events import RoundPublished, decode_event, encode_event
from tournament.folder import (
    LEAVE_COLUMNS,
    MESSAGES,
    RESULT_COLUMNS,
    FolderError,
    csv_text,
    decode_csv,
    players_csv,
    read_games_before,
    read_leaving,
    read_pairs,
    read_players,
    read_results,
    read_settings,
)
from tournament.folder_denik import FolderFiles, entries_to_append
from tournament.games import RoundPairing
from tournament.ladder import games_csv, ladder, ladder_csv
from tournament.pairing import draw
from tournament.report import log_html, log_text, pairing_text, standings_text, table_lines
from tournament.settings import TournamentSettings
from tournament.standings import as_they_stood, complete_rounds, standings, turcas_rounds
from tournament.state import Tournament
from tournament.tsh import export_tsh
from tournament.tsh_import import decode_tsh, import_tsh

EXIT_OK = 0
EXIT_BAD_INPUT = 2



HELP: dict[str, tuple[str, str]] = {
    "tournament": ("turnaj bez hubu: los, pořadí podle TurČAS, žebříček, deník",
                   "tournament desk: pairing, standings by TurČAS, the ladder, the log"),
    "folder": ("složka turnaje (players.csv, results.csv, withdrawals.csv), nebo soubor deníku SOUBOR.jsonl",
               "tournament folder (players.csv, results.csv, withdrawals.csv), or a deník file FILE.jsonl"),
    "lang": ("jazyk (cs nebo en; výchozí podle LANG, jinak cs)", "language (cs or en; default from LANG, else cs)"),
    "pair": ("vylosovat další kolo", "pair the next round"),
    "seed": ("náhodné semínko 1. kola (výchozí: z obsahu players.csv)",
             "round 1's random seed (default: from players.csv's content)"),
    "pair_json": ('[{"table": N, "first": ID, "second": ID}, {"bye": ID}]',
                  '[{"table": N, "first": ID, "second": ID}, {"bye": ID}]'),
    "standings": ("pořadí podle bodů a TurČAS", "standings by points and TurČAS"),
    "after": ("pořadí, jak bylo po N. kole", "the standings as they stood after round N"),
    "standings_json": ("JSON: kola, koeficienty, řádky", "JSON: rounds, coefficients, rows"),
    "log": ("deník složky", "the folder's deník"),
    "html": ("stránka HTML k tisku", "a printable HTML page"),
    "log_json": ("jedna událost JSON na řádek", "one JSON event a line"),
    "ladder": ("nová žebříčková síla každého hráče (PKNSA), nebo partie jako CSV",
               "each player's new ladder strength (PKNSA), or the games as CSV"),
    "csv": ("CSV pro správce žebříčku (řádek na hráče)", "CSV for the ladder keeper (one line a player)"),
    "games": ("CSV všech hodnocených partií z pohledu každého hráče", "CSV of every rated game from each player's side"),
    "export_tsh": ("turnaj jako soubor .t programu TSH", "the tournament as TSH's .t file"),
    "import_tsh": ("soubor .t programu TSH jako složka turnaje", "a TSH .t file made into a tournament folder"),
    "tsh_file": ("soubor divize z TSH", "TSH's division file"),
    "new_folder": ("složka, kam se turnaj zapíše (nová, nebo prázdná)", "the folder to write (new, or empty)"),
    "action": ("AKCE", "ACTION"),
    "dir": ("SLOŽKA", "DIR"),
}
"""The command's help, ``key: (Czech, English)``: in the ``partiar`` command's language (``--lang`` or ``LANG``),
which ``device.cli`` hands over as the subparsers' ``lang`` (this package imports no other)."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``tournament`` to the ``partiar`` command."""
    en = getattr(subparsers, "lang", "cs") == "en"

    def h(key: str) -> str:
        return HELP[key][en]

    p = subparsers.add_parser("tournament", help=h("tournament"))
    actions = p.add_subparsers(dest="tournament_command", metavar=h("action"), required=True)

    def common(a: argparse.ArgumentParser) -> None:
        a.add_argument("folder", type=Path, metavar=h("dir"), help=h("folder"))
        a.add_argument("--lang", choices=("cs", "en"), default="cs", help=h("lang"))

    pair = actions.add_parser("pair", help=h("pair"))
    common(pair)
    pair.add_argument("--seed", type=int, help=h("seed"))
    pair.add_argument("--json", action="store_true", help=h("pair_json"))
    pair.set_defaults(func=run_pair)
    st = actions.add_parser("standings", help=h("standings"))
    common(st)
    st.add_argument("--after", type=int, metavar="N", help=h("after"))
    st.add_argument("--json", action="store_true", help=h("standings_json"))
    st.set_defaults(func=run_standings)
    log = actions.add_parser("log", help=h("log"))
    common(log)
    fmt = log.add_mutually_exclusive_group()
    fmt.add_argument("--html", action="store_true", help=h("html"))
    fmt.add_argument("--json", action="store_true", help=h("log_json"))
    log.set_defaults(func=run_log)
    lad = actions.add_parser("ladder", help=h("ladder"))
    common(lad)
    lad.add_argument("--csv", action="store_true", help=h("csv"))
    lad.add_argument("--games", action="store_true", help=h("games"))
    lad.set_defaults(func=run_ladder)
    tsh = actions.add_parser("export-tsh", help=h("export_tsh"))
    common(tsh)
    tsh.set_defaults(func=run_export_tsh)
    imp = actions.add_parser("import-tsh", help=h("import_tsh"))
    imp.add_argument("file", type=Path, metavar="FILE.t", help=h("tsh_file"))
    imp.add_argument("folder", type=Path, metavar=h("dir"), help=h("new_folder"))
    imp.add_argument("--lang", choices=("cs", "en"), default="cs", help=h("lang"))
    imp.set_defaults(func=run_import_tsh)


DENIK = "denik.jsonl"
"""A folder's own deník: one ``encode_event`` dict a line, appended to, never rewritten."""
LEAVING = "withdrawals.csv"
BY = "cli"
"""Who the folder's deník says made its entries."""


@dataclass(frozen=True)
class Loaded:
    """A folder (or a deník file) read into its deník and the tournament it makes."""

    tournament: Tournament
    events: list[Any]
    players_text: str
    games_before: dict[str, int] = field(default_factory=dict)
    """Each player's rated games before the event (players.csv's ``games`` column; none for a deník file)."""
    denik: Path | None = None
    """The folder's deník file (None: a deník file given instead of a folder, only read)."""


def _read_bytes(path: Path) -> bytes:
    """A file's bytes; raises FolderError ("not_found", "unreadable") naming it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FolderError("not_found", str(path), 0, "", "") from None
    except OSError as e:
        raise FolderError("unreadable", str(path), 0, "", e.strerror or str(e)) from None


def _read(path: Path) -> str:
    """A folder file's text (UTF-8, or Windows-1250 as Czech spreadsheets save it: ``decode_csv``)."""
    return decode_csv(_read_bytes(path), str(path))


def load_log(path: Path) -> Loaded:
    """A deník written as JSON lines (``encode_event``'s dicts, one a line, as the hub keeps it) and the tournament
    it makes; raises FolderError naming the line of an entry that is not JSON, not an event, or does not fit."""
    events = []
    t = Tournament()
    for number, text in enumerate(_read(path).splitlines(), 1):
        if not text.strip():
            continue
        try:
            event = decode_event(json.loads(text))
            t.apply(event)
        except json.JSONDecodeError as e:
            raise FolderError("not_json", str(path), number, "", e.msg) from None
        except TournamentError as e:
            raise FolderError("does_not_fit", str(path), number, "", str(e)) from None
        events.append(event)
    players_text = "\n".join(sorted(t.players))  # the default seed: from the ids registered
    return Loaded(t, events, players_text)


def now() -> str:
    """The time a deník entry records: UTC, to the second."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def append_to_denik(path: Path, events: list[Any]) -> None:
    """Append ``events`` to the deník file, one JSON line each, flushed to the disk; raises FolderError naming the
    file if it cannot be written."""
    if not events:
        return
    text = "".join(json.dumps(encode_event(e), ensure_ascii=False) + "\n" for e in events)
    try:
        with path.open("a", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise FolderError("unwritable", str(path), 0, "", e.strerror or str(e)) from None


def load(folder: Path) -> Loaded:
    """The folder's deník, brought up to date with its files and appended to (``tournament.folder_denik``), and
    the tournament it makes; or a deník file's (``FILE.jsonl``), only read. Raises FolderError (file, line,
    field) for bad input."""
    if folder.suffix == ".jsonl" and not folder.is_dir():
        return load_log(folder)
    players_path = folder / "players.csv"
    players_text = _read(players_path)
    players = read_players(players_text, str(players_path))
    settings = TournamentSettings()
    settings_path = folder / "settings.toml"
    if settings_path.exists():
        try:
            data = tomllib.loads(_read(settings_path))
        except tomllib.TOMLDecodeError as e:
            raise FolderError("bad_setting", str(settings_path), 0, "", str(e)) from None
        settings = read_settings(data, str(settings_path))
    pairs = read_pairs(players_text, str(players_path))  # a pairs tournament's entrants, named by the results
    ids = list(pairs) if settings.doubles else [p.id for p in players]
    results_path = folder / "results.csv"
    rows = read_results(_read(results_path), str(results_path), ids) if results_path.exists() else []
    leaving_path = folder / LEAVING
    leaving = read_leaving(_read(leaving_path), str(leaving_path), ids) if leaving_path.exists() else []
    denik = folder / DENIK
    log = load_log(denik).events if denik.exists() else []
    files = FolderFiles(str(players_path), str(results_path), str(leaving_path), str(settings_path))
    new = entries_to_append(log, players, rows, leaving, settings, software=SOFTWARE, version=version_text(),
                            at=now(), by=BY, files=files, pairs=pairs)
    append_to_denik(denik, new)
    events = log + new
    return Loaded(Tournament.from_events(events), events, players_text,
                  read_games_before(players_text, str(players_path)), denik)


def _fail(error: TournamentError, lang: str) -> int:
    text = error.said(lang) if isinstance(error, FolderError) else f"{MESSAGES[lang]['nothing']}: {error.said(lang)}"
    print(f"partiar tournament: {text}", file=sys.stderr)
    return EXIT_BAD_INPUT


def default_seed(players_text: str) -> int:
    """Round 1's seed when none is given: from players.csv's content, so the same field draws the same round."""
    return int.from_bytes(hashlib.sha256(players_text.encode("utf-8")).digest()[:4], "big")


def on_folder(action: Callable[[argparse.Namespace, Loaded], int]) -> Callable[[argparse.Namespace], int]:
    """A command's ``func``: the folder loaded, then ``action``, with the folder's deník to itself (``denik_lock``);
    a TournamentError (bad input, nothing to pair, the deník in use) is reported and exits with 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            with denik_lock(args.folder):
                return action(args, load(args.folder))
        except TournamentError as e:
            return _fail(e, args.lang)

    return run


@contextlib.contextmanager
def denik_lock(folder: Path) -> Iterator[None]:
    """While a command reads a folder and appends to its deník, no other ``partiar tournament`` command does (an
    exclusive ``flock`` on ``denik.jsonl``, created empty if missing); raises FolderError if another holds it or
    the file cannot be opened. A deník file given instead of a folder is only read: no lock."""
    if not folder.is_dir():
        yield
        return
    path = folder / DENIK
    try:
        f = path.open("a", encoding="utf-8")
    except OSError as e:
        raise FolderError("unwritable", str(path), 0, "", e.strerror or str(e)) from None
    with f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise FolderError("in_use", str(path), 0, "", "") from None
        yield


@on_folder
def run_pair(args: argparse.Namespace, loaded: Loaded) -> int:
    t = loaded.tournament
    last = t.rounds.get(t.last_round)
    if last is not None and not last.closed:  # drawn, not yet played: print it again, or say what is missing
        if last.results or last.bye_result is not None or loaded.denik is None:
            where = args.folder / "results.csv" if loaded.denik is not None else args.folder
            raise FolderError("missing_result", str(where), 0, "", round=last.number, table=last.missing_tables()[0])
        if args.seed is not None and args.seed != last.seed:
            raise FolderError("already_drawn", str(loaded.denik), 0, "", round=last.number, seed=last.seed)
        print(MESSAGES[args.lang]["redrawn"].format(round=last.number, file=loaded.denik), file=sys.stderr)
        number, pairing, seed, method = last.number, last.pairing, last.seed, last.method
    else:
        seed = default_seed(loaded.players_text) if args.seed is None else args.seed
        try:
            paired = draw(t, seed, now(), BY)
        except AllRoundsPlayed:  # the event is over (the rule is pair_round's): say which setting to raise
            raise FolderError("all_rounds", str(Path(args.folder) / "settings.toml"), 0, "rounds",
                              str(t.settings.rounds)) from None
        number, pairing, method = paired.round, RoundPairing(paired.pairings, paired.bye), paired.method
        if loaded.denik is not None:  # the draw goes out to the hall as it is printed: logged first
            append_to_denik(loaded.denik, [paired, RoundPublished(at=paired.at, by=BY, round=number)])
    if args.json:
        out: list[dict[str, Any]] = [{"table": p.table, "first": p.first, "second": p.second}
                                     for p in pairing.pairings]
        if pairing.bye is not None:
            out.append({"bye": pairing.bye})
        print(json.dumps(out, ensure_ascii=False))
    else:
        sys.stdout.write(pairing_text(t, number, pairing, args.lang))
        print(f"({method}, seed {seed})")
    return EXIT_OK


@on_folder
def run_standings(args: argparse.Namespace, loaded: Loaded) -> int:
    t = loaded.tournament
    st = t.settings.standings
    after = args.after
    if after is not None and not 1 <= after <= t.last_round:
        source = str(args.folder if args.folder.suffix == ".jsonl" else args.folder / "results.csv")
        raise FolderError("no_such_round", source, 0, "--after", f"{after}; 1–{t.last_round}")
    if after is not None:
        t = as_they_stood(loaded.events, after)
    rows = standings(t, up_to=after)
    counted = complete_rounds(t, after)
    if args.json:
        print(json.dumps({
            "after": t.last_round if after is None else after,  # the standings after this round
            "rounds": counted,  # the rounds the tie-break counts (a round being played is not)
            "kol": turcas_rounds(t, counted),  # TurČAS's Kol: the tournament's number of rounds
            "coefficients": st.coefficients,
            "tiebreak": st.tiebreak,
            "rows": [{"rank": r.rank, "rank_to": r.rank_to, "shared": r.rank_to > r.rank, "id": r.id, "name": r.name, "points": r.points, "turcas": r.turcas,
                      "buchholz": r.buchholz, "own_score": r.own_score, "score_difference": r.score_difference,
                      "starts_balance": r.starts_balance, "brightwell": r.brightwell, "games": r.games,
                      "byes": r.byes, "status": r.status} for r in rows],
        }, ensure_ascii=False))
    else:
        sys.stdout.write(standings_text(rows, t.last_round if after is None else after, st, args.lang,
                                        kol=turcas_rounds(t, counted)))
    return EXIT_OK


@on_folder
def run_log(args: argparse.Namespace, loaded: Loaded) -> int:
    events = loaded.events
    if args.json:
        for event in events:
            print(json.dumps(encode_event(event), ensure_ascii=False))
    elif args.html:
        sys.stdout.write(log_html(events, args.lang))
    else:
        sys.stdout.write(log_text(events, args.lang))
    return EXIT_OK


LADDER_HEAD = {
    "cs": ("ID", "Jméno", "Síla před", "Partie", "Výhry", "Očekáváno", "Skutečnost", "K", "Síla po"),
    "en": ("ID", "Name", "Before", "Games", "Wins", "Expected", "Actual", "K", "After"),
}


@on_folder
def run_ladder(args: argparse.Namespace, loaded: Loaded) -> int:
    prior = loaded.games_before
    if args.games:
        sys.stdout.write(games_csv(loaded.tournament))
        return EXIT_OK
    rows = ladder(loaded.tournament, prior)
    if args.csv:
        sys.stdout.write(ladder_csv(rows))
        return EXIT_OK
    table = [(r.id, r.name, "—" if r.rating_before is None else str(r.rating_before), str(r.games), str(r.wins),
              f"{r.expected:.2f}", f"{r.actual:.2f}", str(r.coefficient), str(r.rating_after)) for r in rows]
    print("\n".join(table_lines(LADDER_HEAD[args.lang], table, right=(2, 3, 4, 5, 6, 7, 8))))
    return EXIT_OK


@on_folder
def run_export_tsh(args: argparse.Namespace, loaded: Loaded) -> int:
    sys.stdout.write(export_tsh(loaded.tournament))
    return EXIT_OK


def run_import_tsh(args: argparse.Namespace) -> int:
    """``import-tsh FILE.t DIR``: the .t file checked as a whole (the folder's deník replayed) before anything is
    written; DIR new or empty, never overwritten. What the director should know goes to stderr."""
    m = MESSAGES[args.lang]
    try:
        path: Path = args.file
        imported = import_tsh(decode_tsh(_read_bytes(path)), str(path))
        entries_to_append([], imported.players, imported.rows, imported.leaving, TournamentSettings(),
                          software=SOFTWARE, version=version_text(), at="", by=BY,
                          files=FolderFiles(players=str(path), results=str(path), leaving=str(path)))
        folder: Path = args.folder
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise FolderError("folder_not_empty", str(folder), 0, "", "")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "players.csv").write_text(players_csv(imported.players), encoding="utf-8")
        (folder / "results.csv").write_text(csv_text(RESULT_COLUMNS, (
            (r.round, r.table, r.first, r.second, r.first_score, r.second_score, r.kind) for r in imported.rows)),
            encoding="utf-8")
        (folder / LEAVING).write_text(csv_text(LEAVE_COLUMNS, (
            (r.player, r.round, r.kind, r.reason) for r in imported.leaving)), encoding="utf-8")
    except TournamentError as e:
        return _fail(e, args.lang)
    for code, value in imported.notes:
        print(f"partiar tournament: {path}: {m[code].format(value)}", file=sys.stderr)
    print(m["imported"].format(players=len(imported.players), rounds=imported.rounds, folder=folder))
    return EXIT_OK
