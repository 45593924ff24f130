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

from device.journal_turn import replay_record
from engine.game import Game, GameError
from engine.game.export import game_gcg
from engine.gcg import encode_gcg
from engine.scoresheet import LABELS, render_html, render_text
from shared.journal import Damage, valid_prefix
from shared.language import say
from shared.texts import cli

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


class NoGame(GameError):
    """A journal without a valid start: ``where`` names the file (and the line that is not one)."""

    def __init__(self, where: str) -> None:
        super().__init__(f"{where}: no game to show")
        self.where = where


def load_game(path: Path) -> tuple[Game, Damage | None]:
    """Replay a journal's longest valid prefix; the damage that ended it, if any. Raises OSError if the file
    cannot be read, ``NoGame`` if not even the start event is valid."""
    game = Game()
    records, damage = valid_prefix(path, lambda r: replay_record(game, r))
    if not records:
        raise NoGame(damage.describe(path) if damage is not None else f"{path}: empty journal")
    return game, damage


def run(args: argparse.Namespace) -> int:
    path: Path = args.journal
    if not path.exists():  # named as missing, not as an empty journal (a mistyped path is the usual cause)
        print(cli("sheet_missing", args.lang).format(path=path), file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        game, damage = load_game(path)
    except OSError as exc:
        print(cli("sheet_unreadable", args.lang).format(path=path, error=exc.strerror or exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except NoGame as exc:
        print(cli("sheet_no_game", args.lang).format(where=exc.where), file=sys.stderr)
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
        print(cli("sheet_write_failed", args.lang).format(path=exc.filename, error=exc.strerror or exc),
              file=sys.stderr)  # fmt: skip
        return EXIT_BAD_INPUT
    return EXIT_OK
