"""How a GCG record's problems are worded for a referee (``partiar gcg``, ``partiar best``, a scenario file): a file
that cannot be read, a record that cannot be read or replayed, an event whose score differs from the engine's; in
Czech, English as an option (``shared.texts``)."""

from __future__ import annotations

import errno

from engine.errors import EngineError
from engine.gcg import GcgError
from engine.replay import Difference, ReplayError
from shared.texts import cli, gcg_expected, replay_problem


def os_reason(exc: OSError, lang: str) -> str:
    """Why a file cannot be read or written, for a referee: the common causes in ``lang``, else the system's."""
    key = {errno.ENOENT: "gcg_os_enoent", errno.EACCES: "gcg_os_eacces", errno.EPERM: "gcg_os_eacces",
           errno.EISDIR: "gcg_os_eisdir"}.get(exc.errno or 0)  # fmt: skip
    return cli(key, lang) if key else (exc.strerror or str(exc))


def describe_error(exc: EngineError, lang: str) -> str:
    """A record that cannot be read or replayed, in ``lang``: the file, the line and what was wrong there."""
    if isinstance(exc, GcgError):
        expected = gcg_expected(exc.code, lang).format(**exc.values)
        message = cli("gcg_parse_error", lang).format(source=exc.source, line=exc.line, expected=expected)
        return message + (cli("gcg_line_text", lang).format(text=exc.text) if exc.text else "")
    if isinstance(exc, ReplayError):
        values = dict(exc.values)
        if exc.code == "illegal_placement":
            values["reason_text"] = cli(f"reason_{values['reason']}", lang)
            values["at"] = f" (pole {values['squares']})" if values.get("squares") else ""
        problem = replay_problem(exc.code, lang).format(**values)
        return cli("gcg_replay_error", lang).format(source=exc.source, line=exc.line, problem=problem)
    return str(exc)  # another engine error (an unknown tile set name from a pragma): the engine's words


def describe_difference(diff: Difference, source: str, lang: str) -> str:
    """One event whose recorded score, running total or end rack is not the engine's, in ``lang``."""
    what = []
    if diff.score_differs:
        what.append(cli("gcg_what_score", lang))
    if diff.total_differs:
        what.append(cli("gcg_what_total", lang))
    if diff.engine_left is not None:
        left = getattr(diff.event, "left", "")
        what.append(cli("gcg_what_rack", lang).format(left=left, engine=diff.engine_left))
    return cli("gcg_difference", lang).format(
        source=source,
        line=diff.event.line,
        what=", ".join(what),
        recorded_score=diff.recorded_score,
        recorded_total=diff.recorded_total,
        engine_score=diff.engine_score,
        engine_total=diff.engine_total,
    )
