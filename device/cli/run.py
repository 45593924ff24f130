"""``partiar run``: the table daemon."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from typing import TYPE_CHECKING

from device.errors import ConfigError
from device.systemd_notify import Notifier
from shared.language import say

if TYPE_CHECKING:
    from device.config import TableConfig
    from device.peripherals import Peripherals

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help=say("spustit démona stolu (tlačítka, hodiny, displeje, spojení s deskou)",
                                       "run the table daemon (buttons, clock, LCDs, board link)"))
    p.add_argument("--config", metavar=say("SOUBOR", "FILE"),
                   help=say("konfigurace TOML (výchozí: vestavěné hodnoty)", "TOML config (default: built-in defaults)"))
    p.add_argument("--lang", choices=("cs", "en"), default=None,
                   help=say("jazyk chyby konfigurace (výchozí: table.language z konfigurace, jinak cs)",
                            "language of a config error (default: the config's table.language, else cs)"))  # fmt: skip
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.config import check_state_dir, load_config

    lang = getattr(args, "lang", None)
    try:
        config = load_config(args.config)
        lang = lang or config.language
        check_state_dir(config, args.config or "")
    except ConfigError as e:
        print(config_error_text(e, lang or "cs"), file=sys.stderr)
        return 2
    return run_table(config, lang=lang)


def config_error_text(error: ConfigError, lang: str) -> str:
    """A config error as ``partiar run`` prints it for the organiser (``shared.texts``: Czech, or English)."""
    from shared.texts import cli

    return cli("run_config_error", lang).format(error=error.describe(lang))


def run_table(config: TableConfig, peripherals: Peripherals | None = None, lang: str | None = None) -> int:
    """Build the table (on ``peripherals`` if a simulator hands them in), run it until SIGTERM/SIGINT, close it.
    Returns the exit status: 2 for a config the hardware cannot provide (told in ``lang``, default the config's
    language)."""
    from device.realtime import DAEMON_PRIORITY, realtime

    # every thread the daemon starts from here on inherits the priority (device.realtime.DAEMON_PRIORITY)
    with realtime(DAEMON_PRIORITY):
        return _run_table(config, peripherals, lang)


def _run_table(config: TableConfig, peripherals: Peripherals | None, lang: str | None) -> int:
    from device.hardware import build_table, close_all
    from device.realtime import settle_heap

    try:
        table, closers = build_table(config, peripherals)
    except ConfigError as e:
        print(config_error_text(e, lang or config.language), file=sys.stderr)
        return 2
    except OSError as e:
        print(f"partiar run: {e}", file=sys.stderr)
        return 2

    def on_signal(signum: int, _frame: object) -> None:
        log.info("signal %d: stopping", signum)
        table.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    notifier = Notifier()
    table.heartbeat, table.heartbeat_period = notifier.watchdog, notifier.watchdog_period
    try:
        table.resume()
        log.info("start-up heap frozen: %d objects the garbage collector no longer walks", settle_heap())
        notifier.ready()
        table.run()
        notifier.stopping()
    finally:
        close_all(closers)
    return 0
