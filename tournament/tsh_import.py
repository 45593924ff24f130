"""A TSH ``.t`` file read into a tournament folder's players and results (``partiar tournament import-tsh``).

The line form is ``tournament.tsh``'s. Read:

- the text: UTF-8 if it is valid UTF-8, else Latin-1 (TSH's own default for ``.t`` files);
- each player line (blank lines and ``#`` comments skipped): TSH's player number is its line's number among the
  player lines; the ČAS id is the ``id`` field (else ``T`` and the number), the name the ``fullname`` field (else
  the name TSH shows), the rating 0 read as none;
- the rounds every player has a score for (a round paired in TSH but not yet scored is left out, and said);
- a round against a player: a game, once for the pair (each side's line must name the other in that round), its
  table the ``board`` field (else numbered in order), who started ``p12`` (1 or 2 on either line; 0 or 3 on both:
  unknown, the lower-numbered player is written as starting, and said), the kind the ``kind`` field (else
  played);
- a round against opponent 0 with a positive score: the bye, scored that spread against 0 (TSH counts it a win, as
  the folder's bye does with the default ``bye_points`` 1);
- with the ``kind`` field, what ``tournament.tsh`` wrote: a round the player was not in is left out (a
  withdrawal, or an entry after round 1), both absent and void games are rebuilt against the opponent at the same
  board;
- without it, rounds against opponent 0 with a score of 0 or less (TSH's forfeit to nobody, a tie at 0) from
  some round to the end: the player withdrew after their last game (ČAS counts no score for them; said, with the
  spread TSH counted). Anywhere else the folder cannot hold such a round (one bye a round, every player in every
  round between their first and last): refused, naming the line and the round.

Pure: text in, players and ``ResultRow`` s out; errors are ``FolderError`` s naming the file, line and field.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournament.folder import FolderError, LeaveRow, ResultRow
from tournament.games import GameKind
from tournament.players import Player
from tournament.tsh import BOTH_ABSENT, KIND_CODES, NOT_IN_ROUND

_LINE = re.compile(r"^(?P<name>.*?\S)\s+(?P<rating>\d+)\s*(?P<opps>(?:\d+\s*)*);\s*(?P<scores>(?:-?\d+\s*)*)"
                   r"(?P<rest>(?:;.*)?)$")
_KINDS: dict[str, GameKind] = {code: kind for kind, code in KIND_CODES.items()}


@dataclass(frozen=True)
class TshLine:
    """One player line of a ``.t`` file."""

    line: int  # the line's number in the file (1-based)
    number: int  # TSH's player number
    name: str
    rating: int
    opponents: tuple[int, ...]
    scores: tuple[int, ...]
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def extra(self, key: str, k: int) -> str:
        """Round ``k``'s (0-based) value of the extra field ``key``, or "" if the field or the round is missing."""
        values = self.fields.get(key, ())
        return values[k] if k < len(values) else ""


@dataclass(frozen=True)
class TshImport:
    """What a ``.t`` file gives a folder, and what the director should be told (``notes``: code and value)."""

    players: list[Player]
    rows: list[ResultRow]
    rounds: int
    notes: list[tuple[str, str]]
    leaving: list[LeaveRow]
    """The withdrawals the trailing forfeits to nobody say (``withdrawals.csv``: paired up to the round before)."""


def decode_tsh(data: bytes) -> str:
    """The file's text: UTF-8 when it is, else Latin-1 (TSH's default)."""
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_tsh(text: str, name: str) -> list[TshLine]:
    """The player lines of ``.t`` text; raises FolderError naming a line that is not one."""
    out: list[TshLine] = []
    for line_number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if m is None:
            raise FolderError("tsh_line", name, line_number, "", line[:40])
        fields: dict[str, tuple[str, ...]] = {}
        for part in m["rest"].split(";")[1:]:
            words = part.split()
            if words:
                fields[words[0]] = tuple(words[1:])
        out.append(TshLine(line_number, len(out) + 1, unicodedata.normalize("NFC", m["name"]), int(m["rating"]),
                           tuple(int(x) for x in m["opps"].split()), tuple(int(x) for x in m["scores"].split()),
                           fields))
    if not out:
        raise FolderError("empty_file", name, 1)
    return out


def _players(lines: Sequence[TshLine], name: str) -> list[Player]:
    players: list[Player] = []
    seen: dict[str, int] = {}
    for t in lines:
        pid = urllib.parse.unquote(t.fields["id"][0]) if t.fields.get("id") else f"T{t.number}"
        if pid in seen:
            raise FolderError("duplicate_id", name, t.line, "id", pid)
        seen[pid] = t.line
        full = urllib.parse.unquote(" ".join(t.fields["fullname"])) if t.fields.get("fullname") else t.name
        players.append(Player(pid, full, "", t.rating or None))
    return players


def _withdrawn_from(t: TshLine, rounds: int) -> int:
    """The first round (0-based) of ``t``'s trailing rounds against opponent 0 with no positive score, without a
    ``kind`` field or marked not in the round (``rounds`` if there are none): the player withdrew before it."""
    k = rounds
    while k > 0 and t.opponents[k - 1] == 0 and t.scores[k - 1] <= 0 and t.extra("kind", k - 1) in ("", NOT_IN_ROUND):
        k -= 1
    return k


def import_tsh(text: str, name: str = "division.t") -> TshImport:
    """A ``.t`` file's text as a folder's players and results (module docstring); raises FolderError naming the
    file, the line and the round of what a folder cannot hold."""
    lines = read_tsh(text, name)
    players = _players(lines, name)
    ids = [p.id for p in players]
    notes: list[tuple[str, str]] = []
    rounds = min(min(len(t.scores), len(t.opponents)) for t in lines)
    paired = max(len(t.opponents) for t in lines)
    if paired > rounds:
        notes.append(("tsh_unscored", str(paired) if paired == rounds + 1 else f"{rounds + 1}–{paired}"))
    for t in lines:
        for k in range(rounds):
            if t.opponents[k] > len(lines):
                raise FolderError("tsh_opponent", name, t.line, f"{k + 1}", str(t.opponents[k]))
    withdrawn = {t.number: _withdrawn_from(t, rounds) for t in lines}
    for t in lines:
        if withdrawn[t.number] < rounds:
            spread = sum(t.scores[withdrawn[t.number]:rounds])
            notes.append(("tsh_withdrawn", f"{ids[t.number - 1]}: {withdrawn[t.number] + 1}, {spread}"))
    rows: list[ResultRow] = []
    unknown_start = 0
    for k in range(rounds):
        tables: set[int] = set()
        absent: dict[tuple[str, int], TshLine] = {}
        for t in lines:
            if k >= withdrawn[t.number]:
                continue
            code = t.extra("kind", k)
            kind = _KINDS.get(code.lower(), "played")
            opp = t.opponents[k]
            if code == NOT_IN_ROUND:
                continue
            if opp == 0 and code.lower() in (BOTH_ABSENT, KIND_CODES["void"]):
                board = int(t.extra("board", k) or 0)
                other = absent.pop((code.lower(), board), None)
                if other is None:
                    absent[(code.lower(), board)] = t
                    continue
                first, second = (t, other) if code.isupper() else (other, t)
                tables.add(board)
                rows.append(ResultRow(first.line, k + 1, board, ids[first.number - 1], ids[second.number - 1],
                                      0, 0, "void" if code.lower() == KIND_CODES["void"] else "forfeit"))
                continue
            if opp == 0:
                spread = t.scores[k]
                if (kind != "bye" if code else spread <= 0):  # the export's bye may have any spread
                    raise FolderError("tsh_no_opponent", name, t.line, f"{k + 1}", str(spread))
                rows.append(ResultRow(t.line, k + 1, None, ids[t.number - 1], None, max(spread, 0), max(-spread, 0),
                                      "bye"))
                continue
            o = lines[opp - 1]
            if len(o.opponents) <= k or o.opponents[k] != t.number:
                back = o.opponents[k] if len(o.opponents) > k else 0
                raise FolderError("tsh_mismatch", name, t.line, f"{k + 1}", f"{opp} → {back}")
            if opp < t.number:
                continue  # the pair is written once, from the lower-numbered line
            if t.extra("p12", k) == "1" or o.extra("p12", k) == "2":
                first, second = t, o
            elif t.extra("p12", k) == "2" or o.extra("p12", k) == "1":
                first, second = o, t
            else:
                first, second = t, o
                unknown_start += 1
            board = int(t.extra("board", k) or 0)
            if board:
                tables.add(board)
            rows.append(ResultRow(t.line, k + 1, board or None, ids[first.number - 1], ids[second.number - 1],
                                  first.scores[k], second.scores[k], kind))
        for (code, board), t in absent.items():
            raise FolderError("tsh_no_opponent", name, t.line, f"{k + 1}", f"{code} {board}")
        free = (n for n in range(1, 10**6) if n not in tables)
        rows = [r if r.round != k + 1 or r.kind == "bye" or r.table is not None else
                ResultRow(r.line, r.round, next(free), r.first, r.second, r.first_score, r.second_score, r.kind)
                for r in rows]
    if unknown_start:
        notes.append(("tsh_unknown_start", str(unknown_start)))
    leaving = [LeaveRow(t.line, ids[t.number - 1], withdrawn[t.number], "withdrawn", "TSH")
               for t in lines if withdrawn[t.number] < rounds]
    return TshImport(players, rows, rounds, notes, leaving)
