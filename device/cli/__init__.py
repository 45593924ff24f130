"""The ``partiar`` command. Each subcommand lives in its own module of this package and registers itself; other
packages add theirs through the ``partiar.commands`` entry point group (the simulator's ``partiar sim``).

``partiar COMMAND ...`` builds the parser of that command alone (``command_of``): only its module is imported, so
``partiar run`` after a power cut does not pay for the hub's, the duplicate room's or the lexicon's imports. With
no command, a top-level ``--help`` or a word that names no command, the parser has every command (its help lists
them; argparse names the unknown one)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from shared.language import LANGUAGES, language, say, set_language

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

SUBCOMMANDS = ("run", "sim", "gcg", "lexicon", "best", "duplicate", "qualify", "wiring", "diag", "hub", "sheet")
"""Subcommands in the order ``--help`` lists them: a module of ``device.cli``, else an installed entry point."""
ENTRY_POINTS = "partiar.commands"
"""Entry point group of subcommands from other packages (the simulator's ``sim``): each names a
``register(subparsers)`` function. This package never names them: a table unit without them has no such command."""


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option. None if it has none, or if an option other
    than ``-v``/``--verbose`` comes first (``-h``: the help lists every command; argparse judges the rest)."""
    for word in argv:
        if not word.startswith("-"):
            return word
        if word != "-v" and not (len(word) > 2 and "--verbose".startswith(word)):
            return None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: with ``command`` that command's alone (only its module is imported), else, or if no
    command has that name, every installed command."""
    parser = argparse.ArgumentParser(prog="partiar", description=say("Turnajový stůl pro český Scrabble.",
                                                                     "Tournament table for Czech Scrabble."))
    parser.add_argument("-v", "--verbose", action="store_true", help=say("vypisovat ladicí zprávy",
                                                                         "log debug messages"))
    parser.add_argument("--version", action=_Version, help=say("vypsat sestavení programu (verzi a commit) a skončit",
                                                               "print the build (version and commit) and exit"))
    sub = parser.add_subparsers(dest="command", metavar=say("PŘÍKAZ", "COMMAND"))
    sub.lang = language()  # type: ignore[attr-defined]  # for a command's package that cannot import this one
    if command is None or not _register(sub, command):
        plugins = _plugins()
        for name in (*SUBCOMMANDS, *sorted(set(plugins) - set(SUBCOMMANDS))):
            _register(sub, name, plugins)
    _with_lang(parser)
    return parser


def _with_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang cs|en`` on ``parser`` and every parser under it, defaulting to the command's language
    (``shared.language``): a command with its own ``--lang`` defaulting to Czech gets that default."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                _with_lang(child)
    own = next((a for a in parser._actions if "--lang" in a.option_strings), None)
    if own is not None:
        if own.default == "cs":  # a fixed Czech default; None: the command decides (``run``: the config's)
            own.default = language()
    else:
        parser.add_argument("--lang", choices=LANGUAGES, default=language(),
                            help=say("jazyk textů (cs nebo en; výchozí podle LANG, jinak cs)",
                                     "language of the texts (cs or en; default from LANG, else cs)"))


class _Version(argparse.Action):
    """``--version``: this build's name (``shared.version``: the package version and the commit, or a hash of the
    sources), worked out only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from shared.version import version_text

        print(f"partiar {version_text()}")
        parser.exit()


def _register(sub: argparse._SubParsersAction, name: str, plugins: Mapping[str, EntryPoint] | None = None) -> bool:
    """Add command ``name`` to ``sub``: the module ``device.cli.<name>`` of a name in ``SUBCOMMANDS``, else the
    entry point of that name (``plugins``, looked up if not given). False if there is neither."""
    if name in SUBCOMMANDS and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        importlib.import_module(f"{__name__}.{name}").register(sub)
        return True
    plugins = _plugins() if plugins is None else plugins
    if name in plugins:
        plugins[name].load()(sub)
        return True
    return False


def _plugins() -> dict[str, EntryPoint]:
    """The installed ``partiar.commands`` entry points by name (importlib.metadata is imported only for them)."""
    import importlib.metadata

    return {entry.name: entry for entry in importlib.metadata.entry_points(group=ENTRY_POINTS)}


def parse_args(argv: Sequence[str] | None = None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """``argv`` (default: the process's) parsed by the parser of the command it names; the parser and the
    arguments. Exits as argparse does (``--help``, an unknown command or option)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    set_language(argv)
    parser = build_parser(command_of(argv))
    return parser, parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser, args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
