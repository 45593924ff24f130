"""``partiar best``: the best plays of a rack on a position, for a referee or a club player.

``partiar best [GCG] RACK [--tiles czech|english|...] [--lexicon PATH] [-n N] [--json]``: the position is the
board at the end of the GCG record (no file: the empty board), ``?`` in the rack is a blank. Prints the N best
plays (default 10), best first in the ČAS duplicate order (score, then Czech alphabetical order of the word, then
nearer the top, then nearer the left, then across): position (ČAS notation ``H8V``/``H8S`` with Czech tiles,
classic ``8H``/``H8`` otherwise), the main word (blank letters in lowercase) and the score. ``--json``: one JSON
object per play with the keys ``position``, ``word``, ``score``, ``direction``, ``tiles`` (the rack tiles used),
``leave`` and ``words`` (every word formed).

The rack must be one the bag can still give: a letter of the set, at most 7 tiles, no more of a letter (or of
blanks) than the set has off the board. A record in UTF-8 without its ``#character-encoding UTF-8`` line is read
as UTF-8, with a warning; an event of the record whose score or running total is not the engine's is named in a
warning with both scores (the position is the same: the plays are laid as recorded).

Exit status 0; 1 if the rack has no legal play on the position (said on stderr); 2 for bad input (a rack the bag
cannot give, a missing or malformed file: the file and line, and what was wrong there). Everything on stderr is
in Czech, ``--lang en`` in English.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from desk.referee_texts import error_text, warn_foreign_letters
from engine.board import Board, Notation
from engine.errors import EngineError
from engine.gcg import GcgGame, GcgPhonyWithdrawn, GcgPlay, decode_gcg, read_gcg, undeclared_encoding
from engine.lexicon import default_path
from engine.movegen import Move, MoveGenerator, WordGraph
from engine.placement import Play, apply
from engine.replay import differences, infer_going_out, replay
from engine.rules import RuleOptions
from engine.tiles import TileSet, available_tile_sets, tile_set
from shared.gcg_texts import describe_difference
from shared.language import say
from shared.texts import cli

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_NO_PLAY = 1
EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``best`` to the ``partiar`` command."""
    p = subparsers.add_parser("best", help=say("nejlepší tahy stojanu na pozici (soubor GCG nebo prázdná deska)",
                                               "the best plays of a rack on a position (GCG file or empty board)"))
    p.add_argument("args", nargs="+", metavar=say("[GCG] STOJAN", "[GCG] RACK"),
                   help=say("záznam GCG (nepovinný) a stojan; ? = žolík", "a GCG record (optional) and the rack; ? = blank"))
    p.add_argument("--tiles", choices=available_tile_sets(), default="czech",
                   help=say("sada kamenů (výchozí czech)", "tile set (default czech)"))
    p.add_argument("--lexicon", type=Path, metavar=say("CESTA", "PATH"),
                   help=say(f"soubor indexu slov (výchozí {default_path()})", f"index file (default {default_path()})"))
    p.add_argument("-n", type=int, default=10, metavar="N", help=say("kolik tahů (výchozí 10)", "how many plays (default 10)"))
    p.add_argument("--json", action="store_true", help=say("jeden objekt JSON na tah", "one JSON object per play"))
    p.add_argument("--lang", choices=("cs", "en"), default="cs",
                   help=say("jazyk zpráv (výchozí podle LANG, jinak cs)", "language of the messages (default from LANG, else cs)"))  # fmt: skip
    p.set_defaults(func=run_best)


def board_of_record(game: GcgGame, tiles: TileSet) -> Board:
    """The board at the end of a GCG record, replayed by the engine (a withdrawn phony is taken back)."""
    board = Board()
    plays: dict[str, Play] = {}
    for step in replay(game, tiles):
        if isinstance(step.event, GcgPlay) and step.play is not None:
            apply(board, step.play)
            plays[step.event.nick] = step.play
        elif isinstance(step.event, GcgPhonyWithdrawn):
            for placement in plays.pop(step.event.nick).placements:
                board.clear(placement.square)
    return board


def move_record(move: Move, rack: str, notation: Notation) -> dict[str, object]:
    """A play as the JSON object ``partiar best --json`` prints."""
    return {
        "position": move.notation(notation),
        "word": move.word,
        "score": move.score,
        "direction": move.position.direction.value,
        "tiles": move.used(),
        "leave": move.leave(rack),
        "words": [w.notation() for w in move.play.words],
    }


def read_record(record: Path, tiles: TileSet, lang: str) -> Board:
    """The board at the end of the GCG record ``record``, with warnings on stderr (in ``lang``) for a file in UTF-8
    without its ``#character-encoding UTF-8`` line (read as UTF-8), for an old Czech 8-bit record (read in its
    encoding) and for every event whose recorded score or
    total is not the engine's (the board is the same: the plays are laid as recorded). Raises OSError, GcgError,
    ReplayError."""
    data = record.read_bytes()
    encoding = undeclared_encoding(data)
    if encoding == "utf-8":
        warn(cli("best_undeclared_utf8", lang).format(path=record))
    elif encoding is not None:
        warn(cli("gcg_undeclared_8bit", lang).format(path=record, encoding=encoding.upper()))
    game = read_gcg(decode_gcg(data, str(record)), str(record))
    board = board_of_record(game, tiles)
    rules = RuleOptions(going_out=infer_going_out(game, tiles) or RuleOptions().going_out)
    for diff in differences(game, tiles, rules):
        warn(cli("best_score_differs", lang).format(difference=describe_difference(diff, str(record), lang)))
    return board


def warn(text: str) -> None:
    print(f"partiar best: {text}", file=sys.stderr)


def run_best(args: argparse.Namespace) -> int:
    """``partiar best``: exit 0, 1 if no legal play (a message on stderr), 2 on bad input."""

    def bad(text: str) -> int:
        print(f"partiar best: {text}", file=sys.stderr)
        return EXIT_BAD_INPUT

    if len(args.args) > 2:
        return bad(cli("err_best_args", args.lang).format(args=" ".join(args.args)))
    if args.n < 1:
        return bad(cli("err_best_n", args.lang).format(n=args.n))
    record = Path(args.args[0]) if len(args.args) == 2 else None
    tiles = tile_set(args.tiles)
    index = args.lexicon or default_path()
    try:
        rack = tiles.check_rack(args.args[-1].strip(), RuleOptions().rack_size)
        if not rack:
            return bad(cli("err_empty_rack", args.lang))
        board = Board() if record is None else read_record(record, tiles, args.lang)
        rack = tiles.check_rack(rack, RuleOptions().rack_size, (t for t in board.cells if t is not None))
        try:
            graph = WordGraph.load(index)
        except FileNotFoundError:
            return bad(cli("err_no_lexicon", args.lang).format(path=index))
        generator = MoveGenerator(graph, tiles)
        warn_foreign_letters(generator, args.lang, "partiar best")
        moves = generator.best(board, rack, args.n)
    except (OSError, EngineError, ValueError) as exc:
        return bad(error_text(exc, args.lang))
    notation = Notation.for_language(tiles.language)
    for move in moves:
        if args.json:
            print(json.dumps(move_record(move, rack, notation), ensure_ascii=False))
        else:
            print(f"{move.notation(notation):<5} {move.word:<15} {move.score:>4}")
    if not moves:
        warn(cli("best_no_play", args.lang).format(rack=rack))
        return EXIT_NO_PLAY
    return EXIT_OK
