"""The ``partiar`` command. Each subcommand lives in its own module of this package and registers itself."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import sys

SUBCOMMANDS = ("run", "sim", "gcg", "lexicon", "wiring", "diag", "hub", "sheet")
"""Subcommands in the order ``--help`` lists them: modules of ``device.cli``, or of another package (``ELSEWHERE``)."""
ELSEWHERE = {"hub": "hub.cli"}
"""The tournament hub is its own package (not part of the table unit); its command is still ``partiar hub``."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every installed subcommand."""
    parser = argparse.ArgumentParser(prog="partiar", description="Tournament table for Czech Scrabble.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = ELSEWHERE.get(name, f"{__name__}.{name}")
        try:
            if importlib.util.find_spec(module) is None:
                continue
        except ModuleNotFoundError:  # its package is not installed
            continue
        importlib.import_module(module).register(sub)
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
