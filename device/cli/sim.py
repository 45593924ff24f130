"""``partiar sim``: the whole table simulated on a PC (board on a pty, daemon on mock pins, a web page to play)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help="simulate a table on this PC and open a web page to play on")
    p.add_argument(
        "--config",
        metavar="FILE",
        help="a daemon config (TOML) to start from; the sim sets its own pins and port",
    )
    p.add_argument(
        "--port", type=int, default=None, help="web page port on 127.0.0.1 (default 8080; 0 = any free port)"
    )
    p.add_argument(
        "--no-browser", action="store_true", help="print the page's address, do not open a browser"
    )
    p.add_argument(
        "--time",
        choices=("real", "manual"),
        default=None,
        help="real time, or manual time moved by the page / scenario (default: real; manual with --scenario)",
    )
    p.add_argument(
        "--state-dir", metavar="DIR", help="where the daemon keeps its journal (default: a new temp dir)"
    )
    p.add_argument("--scenario", metavar="FILE", help="run a scenario file (see docs/simulator.md)")
    p.add_argument(
        "--headless", action="store_true", help="with --scenario: no page; exit 0 if it passes, 1 if not"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hw_sim.sim import main

    if args.headless and not args.scenario:
        print("partiar sim: --headless needs --scenario FILE")
        return 2
    return main(args)
