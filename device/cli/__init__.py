"""The ``partiar`` command. Each subcommand lives in its own module of this package and registers itself; other
packages add theirs through the ``partiar.commands`` entry point group (the simulator's ``partiar sim``)."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import logging
import sys

SUBCOMMANDS = ("run", "sim", "gcg", "lexicon", "best", "duplicate", "qualify", "wiring", "diag", "hub", "sheet")
"""Subcommands in the order ``--help`` lists them: a module of ``device.cli``, else an installed entry point."""
ENTRY_POINTS = "partiar.commands"
"""Entry point group of subcommands from other packages (the simulator's ``sim``): each names a
``register(subparsers)`` function. This package never names them: a table unit without them has no such command."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every installed subcommand."""
    parser = argparse.ArgumentParser(prog="partiar", description="Tournament table for Czech Scrabble.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    plugins = {entry.name: entry for entry in importlib.metadata.entry_points(group=ENTRY_POINTS)}
    for name in (*SUBCOMMANDS, *sorted(set(plugins) - set(SUBCOMMANDS))):
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            importlib.import_module(f"{__name__}.{name}").register(sub)
        elif name in plugins:
            plugins[name].load()(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
