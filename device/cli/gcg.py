"""``partiar gcg verify|rescore``: check a GCG record's scores against the engine, or rewrite them.

- ``partiar gcg verify FILE [--tiles czech|english|polish] [--going-out 2x|1x]``: prints every event whose
  recorded score or running total differs from the engine's; exit status 1 if any differ, 0 if none.
- ``partiar gcg rescore FILE [--tiles ...] [--going-out ...] [-o OUT]``: writes the record with every score
  and running total computed by the engine (challenge bonuses and time penalties keep their amounts).

The tile set is ``--tiles``, else the record's ``#tile-distribution`` / ``#tile-set`` pragma, else Czech. The
going-out convention is inferred from the record's end lines where they show it, else ``--going-out``
(default 1x, the Czech rule). A record that cannot be read or replayed: a message
naming the file and line, and what was wrong there, on stderr, exit status 2.

Everything printed is in Czech, ``--lang en`` for English (``shared.texts``; the engine's own English wording of a
parse expectation or a replay problem is the English text, so each wording has one home).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from engine.errors import EngineError
from engine.gcg import GcgGame, decode_gcg, encode_gcg, read_gcg, undeclared_encoding, write_gcg
from engine.replay import differences, infer_going_out, rescore, tile_set_name
from engine.rules import RuleOptions
from engine.tiles import TileSet, available_tile_sets, tile_set
from shared.gcg_texts import describe_difference, describe_error, os_reason
from shared.language import say
from shared.texts import cli

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_DIFFERENT = 1
EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``gcg verify`` and ``gcg rescore`` to the ``partiar`` command."""
    gcg = subparsers.add_parser("gcg", help=say("kontrola nebo přepočet záznamů GCG podle pravidel",
                                                "check or rescore GCG game records with the rules engine"))
    actions = gcg.add_subparsers(dest="gcg_command", metavar=say("AKCE", "ACTION"), required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("file", type=Path, metavar=say("SOUBOR", "FILE"), help=say("záznam GCG", "the GCG record"))
        p.add_argument("--tiles", choices=available_tile_sets(),
                       help=say("sada kamenů (výchozí: podle souboru, jinak czech)",
                                "tile set (default: from the file, else czech)"))
        p.add_argument("--going-out", choices=("2x", "1x"), default="1x",
                       help=say("počítání zbylých kamenů, když ho soubor neukazuje (výchozí 1x, české pravidlo)",
                                "going-out convention when the file does not show it (default 1x, the Czech rule)"))
        p.add_argument("--lang", choices=("cs", "en"), default="cs",
                       help=say("jazyk zprávy a chyb (výchozí podle LANG, jinak cs)",
                                "language of the report and errors (default from LANG, else cs)"))

    verify = actions.add_parser("verify", help=say("vypsat každou událost, jejíž skóre nebo součet nesedí s pravidly",
                                                   "print every event whose score or total differs from the engine's"))
    common(verify)
    verify.set_defaults(func=run_verify)
    resc = actions.add_parser("rescore", help=say("zapsat záznam se skóre a součty podle pravidel",
                                                  "write the record with the engine's scores and totals"))
    common(resc)
    resc.add_argument("-o", "--output", type=Path, metavar=say("VÝSTUP", "OUT"),
                      help=say("výstupní soubor (výchozí: standardní výstup)", "output file (default: standard output)"))  # fmt: skip
    resc.set_defaults(func=run_rescore)


def _load(args: argparse.Namespace) -> tuple[GcgGame, TileSet, RuleOptions]:
    path: Path = args.file
    data = path.read_bytes()
    encoding = undeclared_encoding(data)
    if encoding not in (None, "utf-8"):
        warning = cli("gcg_undeclared_8bit", args.lang).format(path=path, encoding=encoding.upper())
        print(f"partiar gcg: {warning}", file=sys.stderr)
    game = read_gcg(decode_gcg(data, str(path)), str(path))
    name = args.tiles or tile_set_name(game) or "czech"
    inferred = infer_going_out(game, tile_set(name))
    going_out = inferred or args.going_out
    log.debug(
        "%s: tile set %s, going out %s (%s)", path, name, going_out, "inferred" if inferred else "option"
    )
    return game, tile_set(name), RuleOptions(going_out=going_out)


def _bad_input(command: str, path: Path, exc: OSError | EngineError, lang: str) -> int:
    """Say on stderr why the record cannot be read or replayed; the exit status for bad input."""
    if isinstance(exc, OSError):
        message = cli("gcg_cannot_read", lang).format(path=path, reason=os_reason(exc, lang))
    else:
        message = describe_error(exc, lang)
    print(f"partiar gcg {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run_verify(args: argparse.Namespace) -> int:
    """``partiar gcg verify``: exit 0 if every score and total matches, 1 if any differ, 2 on bad input."""
    lang = args.lang
    try:
        game, tiles, rules = _load(args)
        diffs = differences(game, tiles, rules)
    except (OSError, EngineError) as exc:
        return _bad_input("verify", args.file, exc, lang)
    for diff in diffs:
        print(describe_difference(diff, str(args.file), lang))
    status = cli("gcg_differences", lang).format(n=len(diffs)) if diffs else cli("gcg_no_differences", lang)
    print(
        cli("gcg_summary", lang).format(
            path=args.file, events=len(game.events), status=status, tiles=tiles.name, going_out=rules.going_out
        ),
        file=sys.stderr,
    )
    return EXIT_DIFFERENT if diffs else EXIT_OK


def run_rescore(args: argparse.Namespace) -> int:
    """``partiar gcg rescore``: exit 0 when written, 2 on bad input."""
    lang = args.lang
    try:
        game, tiles, rules = _load(args)
        text = write_gcg(rescore(game, tiles, rules))
    except (OSError, EngineError) as exc:
        return _bad_input("rescore", args.file, exc, lang)
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        args.output.write_bytes(encode_gcg(text))
    except OSError as exc:
        reason = os_reason(exc, lang)
        print(f"partiar gcg rescore: {cli('gcg_cannot_write', lang).format(path=args.output, reason=reason)}",
              file=sys.stderr)  # fmt: skip
        return EXIT_BAD_INPUT
    return EXIT_OK
