"""What the table asks the referee about its journal at start: lines a damaged journal's repair set aside, and a
journal whose game is not the config's.

- A damaged journal keeps every record that still applies (``shared.journal.salvage``); what it sets aside is
  reported in ``set-aside-<copy>.json`` next to the copy of the journal as it was (``journal.jsonl.damaged-N``),
  and the LCD says "Vadný záznam" with the first line and what it was until the referee acknowledges it on the
  menu ("Vadný záznam OK").
- A journal whose game has other players or another rule set than the config is not resumed silently: the clock
  waits, the LCD says "Deník: jiná hra", and the menu asks "Hra z deníku?": go on with the journal's game, or
  archive it (``journal-NNNN.jsonl``) and start the config's game.

The referee's answers are appended to ``referee.jsonl`` (a journal of its own: fsynced, torn-tail safe, nothing
deleted), so a restart never asks again what was answered and never forgets a report that was not.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.table_pairing import is_paired
from engine import game as g
from engine.errors import EngineError
from engine.ruleset import Ruleset, customised
from shared.journal import Journal, SetAside, read_journal, write_atomic
from shared.texts import text

log = logging.getLogger(__name__)

ANSWERS = "referee.jsonl"
"""The referee's answers to the table's questions about its journal, next to the journal."""

REPORT_PREFIX = "set-aside-"

DOUBLES_CLOCKS = ("prague", "polish")

RECORD_WORDS = {
    "play": "record_play",
    "pass": "record_pass",
    "exchange": "record_exchange",
    "challenge_word": "record_challenge",
    "challenge_score": "record_challenge",
    "challenge_placement": "record_challenge",
    "ruling": "record_ruling",
    "appeal": "record_ruling",
}
"""A set-aside record's ``type`` -> the word the LCD names it with (``shared.texts``)."""


def answers_path(journal_path: Path) -> Path:
    return journal_path.with_name(ANSWERS)


def answers(journal_path: Path) -> list[dict[str, Any]]:
    """The referee's answers so far (a torn last one, cut by a power cut, was never acted on)."""
    return list(read_journal(answers_path(journal_path)))


def record_answer(journal_path: Path, answer: dict[str, Any]) -> None:
    """Append one answer durably (raises JournalWriteError if the card refuses it)."""
    with Journal(answers_path(journal_path)) as log_:
        log_.append(answer)


# ---------------------------------------------------------------------------------------- set-aside lines
@dataclass(frozen=True)
class Report:
    """What one repair set aside: the copy of the journal as it was (its name) and the lines left out."""

    aside: str
    lines: tuple[SetAside, ...]


def report_path(aside: Path) -> Path:
    return aside.with_name(f"{REPORT_PREFIX}{aside.name}.json")


def write_report(aside: Path, lines: Sequence[SetAside]) -> None:
    """The report of a repair, written before the repaired journal replaces the damaged one."""
    data = {
        "aside": aside.name,
        "lines": [{"line": s.line, "kind": s.kind, "reason": s.reason} for s in lines],
    }
    write_atomic(report_path(aside), json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def open_reports(journal_path: Path) -> list[Report]:
    """The reports the referee has not acknowledged, oldest first."""
    acknowledged = {a.get("report") for a in answers(journal_path) if a.get("type") == "set_aside_seen"}
    out = []
    for path in sorted(journal_path.parent.glob(f"{REPORT_PREFIX}*.json"), key=_copy_number):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            lines = tuple(SetAside(int(x["line"]), x.get("kind"), str(x.get("reason", ""))) for x in data["lines"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            log.error("%s unreadable (%s): shown as one unreadable line", path, e)
            lines = (SetAside(0, None, str(e)),)
        if path.name not in acknowledged and lines:
            out.append(Report(path.name, lines))
    return out


def _copy_number(path: Path) -> tuple[int, str]:
    tail = path.name.removesuffix(".json").rpartition("-")[2]
    return (int(tail) if tail.isdigit() else 0, path.name)


def acknowledge(journal_path: Path, reports: Sequence[Report], at: float) -> None:
    """The referee has seen these reports (raises JournalWriteError if the card refuses the answer)."""
    for report in reports:
        record_answer(journal_path, {"type": "set_aside_seen", "at": at, "report": report.aside})


def report_lines(reports: Sequence[Report], lang: str) -> tuple[str, str]:
    """The LCD's two lines: "Vadný záznam" and the first line set aside (what it was: "tah ř.12"; "řádek 12": not
    a record at all), or the first and how many more ("ř.12 +3"). The second fits beside a running move time."""
    lines = [s for r in reports for s in r.lines]
    first = lines[0]
    if len(lines) > 1:
        second = text("bad_record_lines", lang).format(n=first.line, more=len(lines) - 1)
    elif first.kind is None:
        second = text("bad_record_unreadable", lang).format(n=first.line)
    else:
        what = text(RECORD_WORDS.get(first.kind, "record_other"), lang)
        second = text("bad_record_line", lang).format(n=first.line, what=what)
    return text("bad_record", lang), second


# ------------------------------------------------------------------------------------ the journal's game
def config_ruleset(config: Any) -> Ruleset:
    return customised(config.ruleset, config.rules)


def differs(game: g.Game, config: Any) -> bool:
    """Whether the journal's game is not the one the config sets: other players (in any order: who starts
    changes within a match) or another rule set. A game the hub's pairing started names the pairing's players,
    not the config's (``device.table_pairing``): only its rule set is compared."""
    start = game.events[0] if game.events else None
    if not isinstance(start, g.Start):
        return False
    others = not is_paired(game) and sorted(start.players) != sorted(config.players)
    return others or start.ruleset != config_ruleset(config)


def continued(journal_path: Path, game: g.Game, config: Any) -> bool:
    """Whether the referee has already said to go on with this journal's game under this config."""
    key = _question_key(game, config)
    return any(a.get("type") == "journal_game" and a.get("answer") == "continue" and a.get("key") == key
               for a in answers(journal_path))  # fmt: skip


def record_journal_game(journal_path: Path, game: g.Game, config: Any, answer: str, at: float) -> None:
    """The referee's answer to "Hra z deníku?" (``continue`` or ``new``), with both games named."""
    start = game.events[0]
    assert isinstance(start, g.Start)
    record_answer(journal_path, {
        "type": "journal_game", "at": at, "answer": answer, "key": _question_key(game, config),
        "journal": {"players": list(start.players), "ruleset": start.ruleset.name},
        "config": {"players": list(config.players), "ruleset": config.ruleset},
    })  # fmt: skip


def _question_key(game: g.Game, config: Any) -> list[Any]:
    """Which question an answer is for: the journal's game (its start) under which config."""
    return [game.events[0].at, sorted(config.players), config_ruleset(config).to_dict()]


def journal_config(game: g.Game, config: Any) -> Any:
    """The config the journal's game is played under: its players (seated as the config seats them if the names
    are the same, else in its start's order), its rule set (the preset of its name with the options that differ)
    and, for doubles, the variant's own clock."""
    from dataclasses import replace

    from device.clock.modes import PRESETS as CLOCK_MODES
    from engine.ruleset import preset

    start = game.events[0]
    assert isinstance(start, g.Start)
    rules = start.ruleset
    try:
        base = preset(rules.name).to_dict()
    except EngineError:
        base = {}
    options = {k: v for k, v in rules.to_dict().items() if base.get(k) != v}
    clock = config.clock
    if rules.doubles or config.clock in DOUBLES_CLOCKS:  # a doubles game has its variant's clock, no other game has
        clock = rules.name if rules.doubles or rules.name in CLOCK_MODES else "cas"
    same_names = sorted(start.players) == sorted(config.players)  # the config's seats hold; else the start's order
    seats = tuple(config.players) if same_names else tuple(start.players)
    return replace(config, players=seats, ruleset=rules.name if base else config.ruleset, rules=options, clock=clock)
