"""``partiar sim``: the whole table simulated on a PC (board on a pty, daemon on mock pins, a web page to play).

The ``partiar`` command (``device.cli``) knows nothing of the simulator: this module registers the subcommand
through the ``partiar.commands`` entry point (pyproject.toml), so a table unit installed without ``hw_sim`` has no
``sim`` command and nothing of the simulator is imported by ``partiar run``."""

from __future__ import annotations

import argparse
import io
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

from shared.language import say


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help=say("simulovaný stůl na tomto počítači s webovou stránkou ke hře",
                                       "simulate a table on this PC and open a web page to play on"))
    p.add_argument("--config", metavar=say("SOUBOR", "FILE"),
                   help=say("konfigurace démona (TOML), ze které vyjít; piny a port si simulátor nastaví sám",
                            "a daemon config (TOML) to start from; the sim sets its own pins and port"))
    p.add_argument("--port", type=int, default=None,
                   help=say("port stránky na 127.0.0.1 (výchozí 8080; 0 = kterýkoli volný)",
                            "web page port on 127.0.0.1 (default 8080; 0 = any free port)"))
    p.add_argument("--no-browser", action="store_true",
                   help=say("jen vypsat adresu stránky, neotvírat prohlížeč",
                            "print the page's address, do not open a browser"))
    p.add_argument("--time", choices=("real", "manual"), default=None,
                   help=say("skutečný čas, nebo ruční čas posouvaný stránkou či scénářem (výchozí: skutečný; se "
                            "--scenario ruční)",
                            "real time, or manual time moved by the page / scenario (default: real; manual with "
                            "--scenario)"))
    p.add_argument("--state-dir", metavar=say("SLOŽKA", "DIR"),
                   help=say("kam démon ukládá svůj záznam (výchozí: nová dočasná složka)",
                            "where the daemon keeps its journal (default: a new temp dir)"))
    p.add_argument("--scenario", metavar=say("SOUBOR", "FILE"),
                   help=say("přehrát soubor scénáře (viz docs/simulator.md)", "run a scenario file (see docs/simulator.md)"))
    p.add_argument("--headless", action="store_true",
                   help=say("se --scenario: bez stránky; skončí 0, když projde, 1, když ne",
                            "with --scenario: no page; exit 0 if it passes, 1 if not"))
    p.add_argument("--no-lexicon", action="store_true",
                   help=say("nestavět slovník rozhodčího, když chybí", "do not build the referee's lexicon if it is missing"))
    p.add_argument("--lang", choices=("cs", "en"), default="cs",
                   help=say("jazyk zpráv (cs nebo en; výchozí podle LANG, jinak cs)",
                            "language of the messages (cs or en; default from LANG, else cs)"))
    p.set_defaults(func=run)  # fmt: skip


LEXICON_ESTIMATE = {"cs": "1 minutu (déle, když počítač zaměstnává něco jiného)",
                    "en": "1 minute (longer while the computer is busy with something else)"}
"""What a first build of the lexicon from aspell-cs takes: about 45 s of CPU (bench/lexicon.py)."""


def run(args: argparse.Namespace) -> int:
    from hw_sim.sim import main

    if args.headless and not args.scenario:
        print("partiar sim: --headless needs --scenario FILE")
        return 2
    if not args.headless and not args.no_lexicon:
        ensure_lexicon(args.config)
    return main(args)


def ensure_lexicon(config_file: str | None) -> Path | None:
    """Build the referee's lexicon before the first game if there is none or the one there cannot be read (an older
    index version, a damaged file: set aside as ``*.unusable``), as the daemon loads it when it starts:
    says what it does and how long it takes, shows the build's progress; a failure is reported and the sim goes
    on without it. Returns the path built, or None if nothing was built."""
    from device.cli.lexicon import ASPELL_SOURCE, build_lexicon
    from engine.lexicon import Lexicon, LexiconError, default_path
    from shared.texts import cli

    table: dict[str, Any] = {}
    if config_file:
        try:
            table = tomllib.loads(Path(config_file).read_text(encoding="utf-8")).get("table", {})
        except (OSError, tomllib.TOMLDecodeError):
            table = {}  # the sim reports a broken config itself
    lang = "en" if table.get("language") == "en" else "cs"
    path = Path(table["lexicon"]) if table.get("lexicon") else default_path()
    if path.exists():
        try:
            Lexicon.load(path)
            return None
        except LexiconError as e:  # an index of an older version, or damaged: kept aside, then built anew
            aside = path.with_name(path.name + ".unusable")
            path.replace(aside)
            print(cli("sim_lexicon_unusable", lang).format(error=e, aside=aside, estimate=LEXICON_ESTIMATE[lang]),
                  flush=True)
    else:
        print(cli("sim_lexicon_missing", lang).format(path=path, estimate=LEXICON_ESTIMATE[lang]), flush=True)
    started = time.monotonic()
    args = argparse.Namespace(source=ASPELL_SOURCE, add=[], output=path, lang=lang, quiet=False)
    try:
        build_lexicon(args, out=io.StringIO())
    except (OSError, UnicodeDecodeError, LexiconError) as e:
        print(cli("sim_lexicon_failed", lang).format(error=e), file=sys.stderr, flush=True)
        return None
    print(cli("sim_lexicon_built", lang).format(seconds=time.monotonic() - started), flush=True)
    return path
