"""``partiar sheet LOG.jsonl [--html OUT] [--gcg OUT] [--lang cs|en]``: the score sheet of a game journal.

Reads the daemon's JSON Lines event journal (one event per line, the ``start`` event first), rebuilds the game
with the rules engine and prints the score sheet as text; ``--html`` also writes the printable A4 page,
``--gcg`` the GCG record. A journal whose last line was cut off (power cut) is read up to that line, with a
warning. A journal that cannot be read or replayed: a message naming the file and line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from engine.errors import EngineError
from engine.game import Game, GameError
from engine.game.events import decode_journal
from engine.game.export import game_gcg
from engine.gcg import encode_gcg
from engine.scoresheet import LABELS, render_html, render_text

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``sheet`` to the ``partiar`` command."""
    p = subparsers.add_parser("sheet", help="score sheet (partiář) of a game journal: text, HTML, GCG")
    p.add_argument("journal", type=Path, metavar="LOG.jsonl", help="the game's event journal (JSON Lines)")
    p.add_argument(
        "--html", type=Path, metavar="OUT", help="also write the sheet as a printable A4 HTML page"
    )
    p.add_argument("--gcg", type=Path, metavar="OUT", help="also write the game as a GCG record")
    p.add_argument("--lang", choices=sorted(LABELS), default="cs", help="language of the sheet (default cs)")
    p.set_defaults(func=run)


def load_game(path: Path) -> Game:
    """Replay a journal file; raises OSError, UnicodeDecodeError or EngineError (naming the line)."""
    text = path.read_text(encoding="utf-8")
    events, warning = decode_journal(text, str(path))
    if warning:
        log.warning("%s", warning)
    game = Game()
    for number, event in enumerate(events, 1):
        try:
            game.apply(event)
        except EngineError as exc:
            raise GameError(f"{path}: event {number} ({event.TYPE}): {exc}") from exc
    return game


def run(args: argparse.Namespace) -> int:
    try:
        game = load_game(args.journal)
    except (OSError, UnicodeDecodeError, EngineError) as exc:
        print(f"partiar sheet: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
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
