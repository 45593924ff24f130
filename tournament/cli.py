"""``partiar tournament``: the tournament desk from a folder, for scripting and checking.

    partiar tournament pair DIR [--seed N] [--json] [--lang cs|en]
    partiar tournament standings DIR [--json] [--lang cs|en]
    partiar tournament log DIR [--html | --json] [--lang cs|en]
    partiar tournament ladder DIR [--csv] [--lang cs|en]
    partiar tournament export-tsh DIR

DIR holds ``players.csv`` (``id,name,club,rating``), ``results.csv`` (``round,table,first,second,first_score,
second_score,kind``; may be missing before round 1) and optionally ``settings.toml`` (``TournamentSettings``'s
keys, ``[standings]`` for the tie-break and A-D). Instead of DIR, a deník file ``FILE.jsonl`` (one
``encode_event`` dict a line, as ``log --json`` prints it): the tournament rebuilt from the log alone.
``pair`` prints the round after the last in results.csv (or the log).
Without ``--json`` a readable table with Czech headings (``--lang en``: English). Bad input: a message naming the
file, line and field on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournament import SOFTWARE
from tournament.errors import AllRoundsPlayed, TournamentError
from tournament.events import decode_event, encode_event
from tournament.folder import (
    MESSAGES,
    FolderError,
    decode_csv,
    folder_events,
    read_games_before,
    read_players,
    read_results,
    read_settings,
)
from tournament.ladder import games_csv, ladder, ladder_csv
from tournament.pairing import method_of, pair_round
from tournament.report import log_html, log_text, pairing_text, standings_text, table_lines
from tournament.settings import TournamentSettings
from tournament.standings import complete_rounds, standings
from tournament.state import Tournament
from tournament.tsh import export_tsh

EXIT_OK = 0
EXIT_BAD_INPUT = 2

HELP: dict[str, tuple[str, str]] = {
    "tournament": ("turnaj bez hubu: los, pořadí podle TurČAS, žebříček, deník",
                   "tournament desk: pairing, standings by TurČAS, the ladder, the log"),
    "folder": ("složka turnaje (players.csv, results.csv), nebo soubor deníku SOUBOR.jsonl",
               "tournament folder (players.csv, results.csv), or a deník file FILE.jsonl"),
    "lang": ("jazyk (cs nebo en; výchozí podle LANG, jinak cs)", "language (cs or en; default from LANG, else cs)"),
    "pair": ("vylosovat další kolo", "pair the next round"),
    "seed": ("náhodné semínko 1. kola (výchozí: z obsahu players.csv)",
             "round 1's random seed (default: from players.csv's content)"),
    "pair_json": ('[{"table": N, "first": ID, "second": ID}, {"bye": ID}]',
                  '[{"table": N, "first": ID, "second": ID}, {"bye": ID}]'),
    "standings": ("pořadí podle bodů a TurČAS", "standings by points and TurČAS"),
    "standings_json": ("JSON: kola, koeficienty, řádky", "JSON: rounds, coefficients, rows"),
    "log": ("deník sestavený ze složky", "the deník rebuilt from the folder"),
    "html": ("stránka HTML k tisku", "a printable HTML page"),
    "log_json": ("jedna událost JSON na řádek", "one JSON event a line"),
    "ladder": ("nová žebříčková síla každého hráče (PKNSA), nebo partie jako CSV",
               "each player's new ladder strength (PKNSA), or the games as CSV"),
    "csv": ("CSV pro správce žebříčku (řádek na hráče)", "CSV for the ladder keeper (one line a player)"),
    "games": ("CSV všech hodnocených partií z pohledu každého hráče", "CSV of every rated game from each player's side"),
    "export_tsh": ("turnaj jako soubor .t programu TSH", "the tournament as TSH's .t file"),
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


@dataclass(frozen=True)
class Loaded:
    """A folder read into its deník and the tournament it makes."""

    tournament: Tournament
    events: list[Any]
    players_text: str


def _version() -> str:
    try:
        import importlib.metadata

        return importlib.metadata.version("partiar")
    except Exception:  # noqa: BLE001 - not installed: a source checkout
        return "0.0.0+unknown"


def _read(path: Path) -> str:
    """A folder file's text (UTF-8, or Windows-1250 as Czech spreadsheets save it: ``decode_csv``)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FolderError("not_found", str(path), 0, "", "") from None
    except OSError as e:
        raise FolderError("unreadable", str(path), 0, "", e.strerror or str(e)) from None
    return decode_csv(data, str(path))


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


def load(folder: Path) -> Loaded:
    """The folder's deník and tournament (or a deník file's, ``FILE.jsonl``); raises FolderError (file, line,
    field) for bad input."""
    if folder.suffix == ".jsonl" and not folder.is_dir():
        return load_log(folder)
    players_path = folder / "players.csv"
    players_text = _read(players_path)
    players = read_players(players_text, str(players_path))
    results_path = folder / "results.csv"
    rows = []
    stamp = ""
    if results_path.exists():
        rows = read_results(_read(results_path), str(results_path), [p.id for p in players])
        stamp = dt.datetime.fromtimestamp(results_path.stat().st_mtime, dt.UTC).isoformat(timespec="seconds")
    settings = TournamentSettings()
    settings_path = folder / "settings.toml"
    if settings_path.exists():
        try:
            data = tomllib.loads(_read(settings_path))
        except tomllib.TOMLDecodeError as e:
            raise FolderError("bad_setting", str(settings_path), 0, "", str(e)) from None
        settings = read_settings(data, str(settings_path))
    events = folder_events(players, rows, settings, SOFTWARE, _version(), at=stamp, by="cli",
                           results_name=str(results_path))
    return Loaded(Tournament.from_events(events), events, players_text)


def _fail(error: TournamentError, lang: str) -> int:
    text = error.said(lang) if isinstance(error, FolderError) else f"{MESSAGES[lang]['nothing']}: {error.said(lang)}"
    print(f"partiar tournament: {text}", file=sys.stderr)
    return EXIT_BAD_INPUT


def default_seed(players_text: str) -> int:
    """Round 1's seed when none is given: from players.csv's content, so the same field draws the same round."""
    return int.from_bytes(hashlib.sha256(players_text.encode("utf-8")).digest()[:4], "big")


def on_folder(action: Callable[[argparse.Namespace, Loaded], int]) -> Callable[[argparse.Namespace], int]:
    """A command's ``func``: the folder loaded, then ``action``; a TournamentError (bad input, or nothing to pair)
    is reported and exits with 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return action(args, load(args.folder))
        except TournamentError as e:
            return _fail(e, args.lang)

    return run


@on_folder
def run_pair(args: argparse.Namespace, loaded: Loaded) -> int:
    t = loaded.tournament
    seed = default_seed(loaded.players_text) if args.seed is None else args.seed
    number = t.last_round + 1
    try:
        pairing = pair_round(t, seed)
    except AllRoundsPlayed:  # the event is over (the rule is pair_round's): say which setting to raise
        raise FolderError("all_rounds", str(Path(args.folder) / "settings.toml"), 0, "rounds",
                          str(t.settings.rounds)) from None
    if args.json:
        out: list[dict[str, Any]] = [{"table": p.table, "first": p.first, "second": p.second}
                                     for p in pairing.pairings]
        if pairing.bye is not None:
            out.append({"bye": pairing.bye})
        print(json.dumps(out, ensure_ascii=False))
    else:
        sys.stdout.write(pairing_text(t, number, pairing, args.lang))
        print(f"({method_of(t, number)}, seed {seed})")
    return EXIT_OK


@on_folder
def run_standings(args: argparse.Namespace, loaded: Loaded) -> int:
    t = loaded.tournament
    st = t.settings.standings
    rows = standings(t)
    if args.json:
        print(json.dumps({
            "rounds": complete_rounds(t),  # the rounds the tie-break counts (a round being played is not)
            "coefficients": st.coefficients,
            "tiebreak": st.tiebreak,
            "rows": [{"rank": r.rank, "id": r.id, "name": r.name, "points": r.points, "turcas": r.turcas,
                      "buchholz": r.buchholz, "own_score": r.own_score, "score_difference": r.score_difference,
                      "starts_balance": r.starts_balance, "brightwell": r.brightwell, "games": r.games,
                      "byes": r.byes, "status": r.status} for r in rows],
        }, ensure_ascii=False))
    else:
        sys.stdout.write(standings_text(rows, t.last_round, st, args.lang))
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
    prior = read_games_before(loaded.players_text, str(args.folder / "players.csv"))
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
