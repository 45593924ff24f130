"""``partiar sheet LOG.jsonl [--html OUT] [--gcg OUT] [--lang cs|en]``: the score sheet of a game journal.

Reads the daemon's JSON Lines event journal (one event per line, the ``start`` event first), rebuilds the game
with the rules engine and prints the score sheet as text; ``--html`` also writes the printable A4 page,
``--gcg`` the GCG record. A damaged journal (a last line cut off by a power cut, a line of garbage, bytes that
are not UTF-8, an event the game refuses) gives the sheet of its longest valid prefix, the one the table resumes
from, with a warning on stderr naming the file and line (exit status 0). A journal that cannot be read, or has
no valid start: a message naming the file on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from device.cli.language import say
from device.journal import Damage, valid_prefix
from device.texts import cli
from engine.errors import EngineError
from engine.game import Game, GameError, event_from_json
from engine.game.export import game_gcg
from engine.gcg import encode_gcg
from engine.scoresheet import LABELS, render_html, render_text

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``sheet`` to the ``partiar`` command."""
    p = subparsers.add_parser("sheet", help=say("partiář ze záznamu partie: text, HTML, GCG",
                                                "score sheet (partiář) of a game journal: text, HTML, GCG"))
    p.add_argument("journal", type=Path, metavar="LOG.jsonl",
                   help=say("záznam událostí partie (JSON Lines)", "the game's event journal (JSON Lines)"))
    p.add_argument("--html", type=Path, metavar=say("VÝSTUP", "OUT"),
                   help=say("zapsat partiář i jako stránku HTML k tisku na A4",
                            "also write the sheet as a printable A4 HTML page"))
    p.add_argument("--gcg", type=Path, metavar=say("VÝSTUP", "OUT"),
                   help=say("zapsat partii i jako záznam GCG", "also write the game as a GCG record"))
    p.add_argument("--lang", choices=sorted(LABELS), default="cs",
                   help=say("jazyk partiáře (výchozí podle LANG, jinak cs)", "language of the sheet (default from LANG, else cs)"))  # fmt: skip
    p.set_defaults(func=run)


def load_game(path: Path) -> tuple[Game, Damage | None]:
    """Replay a journal's longest valid prefix; the damage that ended it, if any. Raises OSError if the file
    cannot be read, GameError if not even the start event is valid."""
    game = Game()
    records, damage = valid_prefix(path, lambda r: game.apply(event_from_json(r)))
    if not records:
        why = damage.describe(path) if damage is not None else f"{path}: empty journal"
        raise GameError(f"{why}: no game to show")
    return game, damage


def run(args: argparse.Namespace) -> int:
    try:
        game, damage = load_game(args.journal)
    except (OSError, EngineError) as exc:
        print(f"partiar sheet: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if damage is not None:
        where = damage.describe(args.journal)
        log.warning("%s", where)
        print(cli("sheet_damaged", args.lang).format(where=where, n=len(game.events)), file=sys.stderr)
    sys.stdout.write(render_text(game, args.lang))
    try:
        if args.html:
            args.html.write_text(render_html(game, args.lang), encoding="utf-8")
        if args.gcg:
            args.gcg.write_bytes(encode_gcg(game_gcg(game)))
    except OSError as exc:
        print(f"partiar sheet: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK
