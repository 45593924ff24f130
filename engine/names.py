"""What a player's name may hold: printable text only. A name is written into the GCG record, the journal, the
LCDs, the hub's pages and exports; a control character (a line break above all) could add lines to a record, so
names are refused where they enter (the game's start event, the table config, the menu, the hub's messages and
forms) and ``engine.gcg`` never writes one whatever it is given."""

from __future__ import annotations

import re

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: what ``str.splitlines`` takes
as line breaks and no name holds."""
MAX_NAME = 64


def name_problem(name: object) -> str | None:
    """Why ``name`` is not a valid player name (English), or None if it is."""
    if not isinstance(name, str):
        return f"a name must be text, got {type(name).__name__}"
    if not name.strip():
        return "a name must not be empty"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, got {len(name)}"
    bad = CONTROL.search(name)
    if bad is not None:
        return f"a name must not hold a control character (U+{ord(bad.group()):04X}, e.g. a line break)"
    return None
