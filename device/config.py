"""The table's configuration (TOML): read, checked key by key, with defaults a table can start from.

A broken config is rejected at start with ConfigError naming the file, the key (its line if it is written), what
is wrong and how to fix it, in Czech or English (``ConfigError.describe``; the texts are ``shared.texts.CONFIG``).
"""

from __future__ import annotations

import errno
import logging
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from device.errors import ConfigError
from engine.names import name_problem

log = logging.getLogger(__name__)

PIN_FACTORIES = ("lgpio", "rpigpio", "native", "mock")
LANGUAGES = ("cs", "en")
RESUME_POLICIES = ("remaining", "full", "paused")
BASE_TIMES = ("table", "referee")
"""``table.base_time`` (``device.table_round``)."""
LCD_MODES = ("gpio4", "i2c")
LCD_SIZES = ((16, 2), (20, 2), (20, 4))
TIME_SOURCES = ("real", "manual")


@dataclass(frozen=True)
class DisplayConfig:
    """One or two HD44780 LCDs, all of one size and one wiring mode (pins come from the pin map)."""

    count: int = 1
    columns: int = 16
    lines: int = 2
    mode: str = "gpio4"


@dataclass(frozen=True)
class SimConfig:
    """Settings that only the simulator uses."""

    panel_port: int = 0
    panel_port_file: str = ""
    time: str = "real"
    link_timeout: float = 0.0
    """Seconds of board silence before the simulated link counts as lost (0: the real table's figure). The sim
    sets it for a busy PC; it applies only with ``table.pin_factory = "mock"``."""


@dataclass(frozen=True)
class HubConfig:
    """Where the table publishes its game for the tournament hub (``partiar hub``); no broker: not published."""

    broker: str = ""
    table_id: str = ""
    username: str = ""
    password: str = ""
    ca_file: str = ""
    """The CA certificate (PEM) of an ``mqtts://`` broker with a tournament's own certificate ("": the system's)."""


@dataclass(frozen=True)
class TableConfig:
    """Everything the daemon needs to own one table."""

    name: str = "Stůl 1"
    language: str = "cs"
    state_dir: str = "/var/lib/partiar"
    pin_factory: str = "lgpio"
    pins_file: str = ""
    serial_url: str = "/dev/ttyACM0"
    ruleset: str = "cas"
    rules: dict[str, Any] = field(default_factory=dict)
    """Options over the ruleset preset (``[table.rules]``, e.g. 001's alternative rules for home play)."""
    clock: str = "cas"
    players: tuple[str, ...] = ("Hráč A", "Hráč B")
    resume: str = "remaining"
    base_time: str = "table"
    """Who starts and ends the round's base game time: ``table`` (its own clock from the first press: club and home
    play) or ``referee`` (a tournament: the chief referee's word, by the hub or the table's menu;
    ``device.table_round``)."""
    lexicon: str = ""
    display: DisplayConfig = field(default_factory=DisplayConfig)
    sim: SimConfig = field(default_factory=SimConfig)
    hub: HubConfig = field(default_factory=HubConfig)

    @property
    def journal_path(self) -> Path:
        return Path(self.state_dir) / "journal.jsonl"


KINDS = {str: "str", int: "int", list: "list", dict: "table", (int, float): "number"}
"""The types a key may need, by their ``shared.texts.CONFIG_KINDS`` code."""


def _check_type(key: str, value: Any, kind: type | tuple[type, ...], source: str) -> None:
    wrong = isinstance(value, bool) and (kind is int or kind == (int, float))
    if wrong or not isinstance(value, kind):
        raise ConfigError(key, source=source, code="type", kind=KINDS[kind], value=value)


def _choice(key: str, value: str, choices: tuple[str, ...], source: str) -> None:
    if value not in choices:
        raise ConfigError(key, source=source, code="choice", choices=", ".join(choices), value=value)


def _section(data: dict[str, Any], cls: type, prefix: str, source: str) -> dict[str, Any]:
    known = {f.name: f for f in fields(cls)}
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise ConfigError(f"{prefix}{key}", source=source, code="unknown_key", known=", ".join(sorted(known)))
        out[key] = value
    return out


def _check_doubles(t: dict[str, Any], source: str) -> None:
    """Prague and Polish doubles (seed 003): four players in the seating order (0 and 2 one team, 1 and 3 the
    other) and the variant's own clock; without a ``clock`` key the clock follows the ruleset."""
    from engine.ruleset import PRESETS

    ruleset = PRESETS.get(t.get("ruleset", "cas"))
    if ruleset is None or not ruleset.doubles:
        return
    players = t.get("players", TableConfig.players)
    if len(players) != 4:
        raise ConfigError("table.players", source=source, code="doubles_players", ruleset=ruleset.name,
                          value=list(players))  # fmt: skip
    clock = t.setdefault("clock", ruleset.name)
    if clock != ruleset.name:
        raise ConfigError("table.clock", source=source, code="doubles_clock", ruleset=ruleset.name, value=clock)


BOM = "\ufeff"
TOML_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")


def parse_config(text: str, source: str = "<config>") -> TableConfig:
    """Parse and check a TOML config; raises ConfigError on the first broken key, with the key's line."""
    try:
        return _parse(text, source)
    except ConfigError as e:
        if e.line is None:
            e.line = key_line(text, e.key)
        raise


def config_line(path: str | Path, key: str) -> int | None:
    """The line of ``key`` in a config file (None if it is not written there or the file cannot be read)."""
    try:
        return key_line(Path(path).read_text(encoding="utf-8"), key)
    except (OSError, UnicodeDecodeError):
        return None


def toml_error(error: tomllib.TOMLDecodeError) -> tuple[int | None, str]:
    """The line a TOML parser stopped at (None if it does not say) and its message without the position."""
    found = TOML_LINE.search(str(error))
    return (int(found.group(1)) if found else None), TOML_LINE.sub("", str(error)).strip()


def key_line(text: str, key: str) -> int | None:
    """The 1-based line of a config key (``table.players``: the ``players =`` line of ``[table]``; a section
    ``table.rules``: its ``[table.rules]`` header or ``rules =`` line in ``[table]``), or None if not written."""
    section, _, name = key.rpartition(".")
    current = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("[") and not line.startswith("[["):
            current = line.strip("[] ").split("]")[0].strip()
            if current == key or (not section and current == name):
                return number
        elif current == section and re.match(rf"{re.escape(name)}\s*=", line):
            return number
    return None


def _parse(text: str, source: str) -> TableConfig:
    if text.startswith(BOM):
        raise ConfigError("(file)", source=source, code="bom", line=1)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line, detail = toml_error(e)
        raise ConfigError("(file)", source=source, code="toml", line=line, detail=detail, at=line or "?") from e
    table = data.pop("table", {})
    display = data.pop("display", {})
    sim = data.pop("sim", {})
    hub = data.pop("hub", {})
    if data:
        raise ConfigError(next(iter(data)), source=source, code="unknown_section")
    for name, section in (("table", table), ("display", display), ("sim", sim), ("hub", hub)):
        _check_type(name, section, dict, source)

    t = _section(table, TableConfig, "table.", source)
    for key in ("name", "language", "state_dir", "pin_factory", "pins_file", "serial_url", "ruleset", "clock", "resume", "lexicon",
                "base_time"):
        if key in t:
            _check_type(f"table.{key}", t[key], str, source)
    _choice("table.language", t.get("language", "cs"), LANGUAGES, source)
    _choice("table.pin_factory", t.get("pin_factory", "lgpio"), PIN_FACTORIES, source)
    _choice("table.resume", t.get("resume", "remaining"), RESUME_POLICIES, source)
    _choice("table.base_time", t.get("base_time", "table"), BASE_TIMES, source)
    if "ruleset" in t:
        from engine.ruleset import PRESETS

        _choice("table.ruleset", t["ruleset"], tuple(PRESETS), source)
    if "rules" in t:
        from engine.ruleset import RulesetError, customised

        _check_type("table.rules", t["rules"], dict, source)
        try:
            customised(t.get("ruleset", "cas"), t["rules"])
        except RulesetError as e:
            raise ConfigError("table.rules", source=source, code="rules", error=str(e)) from e
    if "clock" in t:
        from device.clock.modes import PRESETS as CLOCK_MODES

        _choice("table.clock", t["clock"], tuple(CLOCK_MODES), source)
    if "players" in t:
        _check_type("table.players", t["players"], list, source)
        if not 2 <= len(t["players"]) <= 4 or not all(isinstance(p, str) and p.strip() for p in t["players"]):
            raise ConfigError("table.players", source=source, code="players", value=t["players"])
        for name in t["players"]:
            if name_problem(name) is not None:
                raise ConfigError("table.players", source=source, code="player_name", value=name)
        t["players"] = tuple(t["players"])
    _check_doubles(t, source)
    if t.get("serial_url") == "":
        raise ConfigError("table.serial_url", source=source, code="serial_url")

    d = _section(display, DisplayConfig, "display.", source)
    for key in ("count", "columns", "lines"):
        if key in d:
            _check_type(f"display.{key}", d[key], int, source)
    if "mode" in d:
        _check_type("display.mode", d["mode"], str, source)
        _choice("display.mode", d["mode"], LCD_MODES, source)
    if d.get("count", 1) not in (1, 2):
        raise ConfigError("display.count", source=source, code="display_count", value=d["count"])
    size = (d.get("columns", 16), d.get("lines", 2))
    if size not in LCD_SIZES:
        raise ConfigError("display.columns", source=source, code="lcd_size", columns=size[0], lines=size[1])

    s = _section(sim, SimConfig, "sim.", source)
    if "panel_port" in s:
        _check_type("sim.panel_port", s["panel_port"], int, source)
        if not 0 <= s["panel_port"] <= 65535:
            raise ConfigError("sim.panel_port", source=source, code="port", value=s["panel_port"])
    if "panel_port_file" in s:
        _check_type("sim.panel_port_file", s["panel_port_file"], str, source)
    if "time" in s:
        _check_type("sim.time", s["time"], str, source)
        _choice("sim.time", s["time"], TIME_SOURCES, source)
    if "link_timeout" in s:
        _check_type("sim.link_timeout", s["link_timeout"], (int, float), source)
        if not 0 <= s["link_timeout"] <= 600:
            raise ConfigError("sim.link_timeout", source=source, code="link_timeout", value=s["link_timeout"])
        s["link_timeout"] = float(s["link_timeout"])
    if s.get("time") == "manual" and t.get("pin_factory", "lgpio") != "mock":
        raise ConfigError("sim.time", source=source, code="manual_time")

    h = _section(hub, HubConfig, "hub.", source)
    for key, value in h.items():
        _check_type(f"hub.{key}", value, str, source)
    if h.get("broker"):
        if not h["broker"].startswith(("mqtt://", "mqtts://")):
            raise ConfigError("hub.broker", source=source, code="broker", value=h["broker"])
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", h.get("table_id", "")) or h.get("table_id") == "hub":
            raise ConfigError("hub.table_id", source=source, code="table_id", value=h.get("table_id", ""))
    if h.get("ca_file"):
        _check_ca_file(h["ca_file"], h.get("broker", ""), source)

    config = TableConfig(**t, display=DisplayConfig(**d), sim=SimConfig(**s), hub=HubConfig(**h))
    _check_game(config, source)
    return config


def _check_game(config: TableConfig, source: str) -> None:
    """Ask the game and the clock themselves whether they accept these players: every constraint they enforce
    at start (players per ruleset, the clock mode's sides) is refused here, before the daemon starts."""
    from device.clock.errors import ClockError
    from device.clock.modes import mode
    from engine.errors import EngineError
    from engine.game import Game, Start
    from engine.ruleset import customised

    ruleset = customised(config.ruleset, config.rules)
    n = len(config.players)
    if not ruleset.min_players <= n <= ruleset.max_players:
        allowed = f"{ruleset.min_players}" + (f"-{ruleset.max_players}" if ruleset.max_players != ruleset.min_players else "")
        raise ConfigError("table.players", source=source, code="ruleset_players", ruleset=config.ruleset,
                          allowed=allowed, n=n, players=list(config.players))  # fmt: skip
    try:
        Game().apply(Start(at=0.0, players=config.players, ruleset=ruleset))
    except EngineError as e:
        raise ConfigError("table.players", source=source, code="game_refuses", error=str(e)) from None
    try:
        from device.clock.core import MoveClock
        from device.table_doubles import clock_mode_for

        MoveClock(clock_mode_for(mode(config.clock), ruleset, n), 0.0)
    except ClockError as e:
        raise ConfigError("table.clock", source=source, code="clock_players", clock=config.clock, n=n, error=str(e)) from None


CARD_FULL = (errno.ENOSPC, errno.EDQUOT)
"""A write refused for these is a full card, not a config error: ``partiar run`` starts (``Table`` says so)."""


def check_state_dir(config: TableConfig, source: str = "") -> None:
    """Raise ConfigError naming ``table.state_dir`` unless the game journal can live there: the folder exists
    (or can be made), is a folder, and takes a durable write (or is on a full card: the table starts, shows it,
    and records again once there is space); an existing journal must be a readable file."""
    folder = Path(config.state_dir)

    def refuse(code: str, **values: Any) -> ConfigError:
        return ConfigError("table.state_dir", source=source, code=code, folder=str(folder), **values)

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise refuse("state_dir_file") from None
    except OSError as e:
        raise refuse("state_dir_create", error=e.strerror) from None
    if not folder.is_dir():
        raise refuse("state_dir_not_folder")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-check-") as f:
            f.write(b"x")
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        if e.errno not in CARD_FULL:
            raise refuse("state_dir_write", error=e.strerror) from None
        # a full card is no config error: the table starts, resumes the game and says the card is full
        log.error("%s: the card is full (%s): the table starts and waits for space", folder, e.strerror)
    journal = config.journal_path
    if journal.exists() or journal.is_symlink():
        if not journal.is_file():
            raise refuse("journal_not_file", name=journal.name)
        try:
            with open(journal, "rb+"):
                pass
        except OSError as e:
            raise refuse("journal_open", name=journal.name, error=e.strerror) from None


def _check_ca_file(path: str, broker: str, source: str) -> None:
    """``hub.ca_file``: for an mqtts:// broker, a readable file of PEM certificates (checked now, not at the
    first connection in the middle of a round)."""
    import ssl  # only for a hub over TLS: the daemon's start does not load it

    if not broker.startswith("mqtts://"):
        raise ConfigError("hub.ca_file", source=source, code="ca_only_mqtts", broker=broker)
    if not Path(path).is_file():
        raise ConfigError("hub.ca_file", source=source, code="ca_missing", path=path)
    try:
        ssl.create_default_context(cafile=path)
    except PermissionError as e:
        raise ConfigError("hub.ca_file", source=source, code="ca_unreadable", path=path, error=e.strerror) from e
    except (ssl.SSLError, OSError) as e:
        raise ConfigError("hub.ca_file", source=source, code="ca_not_pem", path=path, error=str(e)) from e


def load_config(path: str | Path | None) -> TableConfig:
    """Read a config file (None: the defaults)."""
    if path is None:
        return TableConfig()
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise ConfigError("(file)", source=str(p), code="cannot_read", error=e.strerror) from e
    if data.startswith(BOM.encode("utf-8")):
        raise ConfigError("(file)", source=str(p), code="bom", line=1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ConfigError("(file)", source=str(p), code="not_utf8", line=line, error=str(e)) from e
    return parse_config(text, str(p))
