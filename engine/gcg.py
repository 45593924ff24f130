"""GCG game records: a data model, a reader and a writer (pure text in and out, no file I/O).

The format is the "Generic Crossword Game" record that tournament software writes (see ``docs/gcg.md``)::

    #player1 doug Doug Smith
    >doug: DINNVWY 8D WINDY +32 32
    >emely: DEIILTZ 4B TIL.. +24 79
    >emely: DEIILTZ --  -24 55
    >doug:  (OPEG) +14 345

The model keeps what a record says, not what it should say: scores and running totals are the recorded ones
(``engine.replay`` recomputes them). Each event keeps the line it was read from (``line``, not compared), and the
``#note`` lines that follow it (``notes``). ``write_gcg`` then ``read_gcg`` gives back an equal ``GcgGame``.

Encoding: ``decode_gcg`` turns a file's bytes into text (UTF-8 when the first line is
``#character-encoding UTF-8``, else ISO 8859-1, except an undeclared UTF-8 file and an old Czech record in ISO 8859-2
or Windows-1250, see :func:`undeclared_encoding`) and ``encode_gcg`` does the reverse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from engine.board import Notation, Position
from engine.errors import EngineError, NotationError
from engine.names import CONTROL

ENCODING_PRAGMA = "character-encoding"
UTF8_FIRST_LINE = "#character-encoding UTF-8"


EXPECTED: dict[str, str] = {
    "encoding_pragma": "'#character-encoding UTF-8' (the only encoding pragma GCG defines)",
    "utf8": "UTF-8 text as the encoding pragma declares",
    "note_or_event": "a '#pragma' or a '>nick:' event line (text outside a #note)",
    "pragma_name": "a pragma name after '#'",
    "encoding_first_line": "'#character-encoding' on the first line only",
    "player_line": "'#{pragma} nick Full Name'",
    "one_player_line": "one '#{pragma}' line",
    "nick_colon": "'>nick: ...' (a nick and a colon)",
    "declared_nick": "a nick declared by a #player line ({known})",
    "declared_nick_none": "a nick declared by a #player line (none declared)",
    "event": (
        "an event '>nick: RACK POS WORD +SCORE TOTAL' (or '-', '-TILES', '--', '(challenge)', '(time)', '(RACK)' "
        "in place of POS WORD)"
    ),
    "running_total": "the running total (an integer) as the last field",
    "signed_score": "a signed score like +24 before the running total",
    "position": "a position like 8D (across) or D8 (down) on a 15x15 board",
    "word": "a word of letters, '.' for tiles on the board, lowercase for blanks",
    "players": "'#player1' and '#player2' lines declaring the players",
    "distinct_nicks": "distinct player nicks, got {nicks}",
}
"""What a reader expected where a record went wrong, by code (``GcgError.code``), in English; the ``partiar gcg``
command words them in Czech too (``shared.texts``)."""


class GcgError(EngineError, ValueError):
    """A GCG record that does not parse: names the source, the line number, what was expected (``code`` with its
    ``values``, worded by ``EXPECTED``) and the line."""

    def __init__(self, source: str, line: int, code: str, text: str = "", **values: str) -> None:
        self.source = source
        self.line = line
        self.code = code
        self.values = values
        self.expected = EXPECTED[code].format(**values)
        self.text = text
        shown = f": {text!r}" if text else ""
        super().__init__(f"{source}:{line}: expected {self.expected}{shown}")


@dataclass(frozen=True, slots=True)
class GcgPlayer:
    """A player declared by ``#player1 nick Full Name``; event lines name the player by ``nick``."""

    nick: str
    name: str = ""


# Every event: ``nick`` (who the line is credited to), ``rack`` (the RACK field as written, "" if empty), the
# recorded ``score`` (the signed amount) and ``total`` (that player's running total after the line), the ``#note``
# texts that follow it, and the source ``line`` (not compared).


@dataclass(frozen=True, slots=True)
class GcgPlay:
    """A tile placement: ``word`` written in full, ``.`` or the letter itself for a tile already on the board,
    lowercase for a blank. ``extra`` is an old Quackle free-text column after the total (cross words)."""

    nick: str
    rack: str
    position: Position
    word: str
    score: int
    total: int
    notes: tuple[str, ...] = ()
    extra: str = ""
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class GcgPass:
    """A pass (``-``); also how a lost turn (an unsuccessful double challenge) is written."""

    nick: str
    rack: str
    score: int
    total: int
    notes: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class GcgExchange:
    """An exchange: ``tiles`` the letters exchanged (``?`` a blank), or their number for a blind exchange."""

    nick: str
    rack: str
    tiles: str | int
    score: int
    total: int
    notes: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)

    @property
    def count(self) -> int:
        """How many tiles were exchanged."""
        return self.tiles if isinstance(self.tiles, int) else len(self.tiles)


@dataclass(frozen=True, slots=True)
class GcgPhonyWithdrawn:
    """``--``: the player's previous play was challenged off; its tiles go back and its score is deducted
    (``score`` is the recorded deduction, negative; old Quackle files write ``+0`` and still lower the total)."""

    nick: str
    rack: str
    score: int
    total: int
    notes: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class GcgChallengeBonus:
    """``(challenge) +5``: bonus to the player whose valid play was challenged."""

    nick: str
    rack: str
    score: int
    total: int
    notes: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class GcgEndRack:
    """``>nick:  (OPPRACK) +N``: the player went out and gains the value of ``left`` (the opponents' tiles)."""

    nick: str
    rack: str
    left: str
    score: int
    total: int
    notes: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class GcgRackPenalty:
    """``>nick: RACK (RACK) -N``: the player loses the value of their own tiles ``left`` at the end."""

    nick: str
    rack: str
    left: str
    score: int
    total: int
    notes: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class GcgTimePenalty:
    """``(time) -N``: points lost for overtime."""

    nick: str
    rack: str
    score: int
    total: int
    notes: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)


GcgEvent = (
    GcgPlay
    | GcgPass
    | GcgExchange
    | GcgPhonyWithdrawn
    | GcgChallengeBonus
    | GcgEndRack
    | GcgRackPenalty
    | GcgTimePenalty
)


@dataclass(frozen=True, slots=True)
class GcgGame:
    """A game record: the players, the other pragmas as ``(name, value)`` pairs in file order (``#note`` before
    the first event included, ``#player1``/``#player2`` excluded), and the events in order."""

    players: tuple[GcgPlayer, ...]
    pragmas: tuple[tuple[str, str], ...] = ()
    events: tuple[GcgEvent, ...] = ()
    source: str = field(default="<string>", compare=False)

    def pragma(self, name: str) -> str | None:
        """The value of the first pragma called ``name``, or None."""
        return next((v for k, v in self.pragmas if k == name), None)

    def player(self, nick: str) -> GcgPlayer:
        """The player with this nick; raises KeyError."""
        for p in self.players:
            if p.nick == nick:
                return p
        raise KeyError(nick)


# ----------------------------------------------------------------------------------------------------------------
# reading

_RACK = r"(?P<rack>[^\s()+\-\d.:][^\s()+\-:]*)"
_TAIL = r"\s+(?P<score>[+-]\d+|0)\s+(?P<total>-?\d+)"
_EVENT_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(r"^\s*" + pattern))
    for kind, pattern in (
        (
            "play",
            rf"(?:{_RACK}\s+)?(?P<pos>\d+[A-Za-z]|[A-Za-z]\d+)\s+(?P<word>\S+){_TAIL}(?:\s+(?P<extra>\S.*?))?\s*$",
        ),
        ("phony", rf"(?:{_RACK}\s+)?--{_TAIL}\s*$"),
        ("pass", rf"(?:{_RACK}\s+)?-{_TAIL}\s*$"),
        ("exchange", rf"(?:{_RACK}\s+)?-(?P<tiles>[^\s\-+]+){_TAIL}\s*$"),
        ("challenge", rf"(?:{_RACK}\s+)?\(challenge\){_TAIL}\s*$"),
        ("time", rf"(?:{_RACK}\s+)?\(time\){_TAIL}\s*$"),
        ("rack", rf"(?:{_RACK}\s+)?\((?P<left>[^\s()]*)\){_TAIL}\s*$"),
    )
)
_WORD_RE = re.compile(r"^[^\W\d_]?(?:[^\W\d_]|\.)*$")


def undeclared_utf8(data: bytes) -> bool:
    """True for a GCG file in UTF-8 without the ``#character-encoding UTF-8`` line the format asks for: it has
    letters beyond ASCII, all of them valid UTF-8 (ISO 8859-1 text with accented letters practically never is)."""
    if _declared_encoding(data) is not None or data.isascii():
        return False
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return True


CZECH_LETTERS = frozenset("áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ")
"""The letters beyond ASCII that Czech words and names are written with."""
CZECH_8BIT = ("iso-8859-2", "cp1250")
"""The 8-bit encodings old Czech records were saved in (Unix and Windows), in the order they are tried."""


def undeclared_encoding(data: bytes) -> str | None:
    """The encoding of a GCG file without the ``#character-encoding`` line that is not ISO 8859-1, the format's
    default: ``"utf-8"`` (:func:`undeclared_utf8`), or ``"iso-8859-2"`` / ``"cp1250"`` for an old Czech record whose
    bytes read in ISO 8859-1 give characters no Czech text has (``ø`` for ř, ``¹`` for š, control codes for Windows'
    š and ž) while that encoding gives only Czech letters. None: ISO 8859-1 as the format says."""
    if undeclared_utf8(data):
        return "utf-8"
    if _declared_encoding(data) is not None or data.isascii():
        return None
    western = {c for c in data.decode("latin-1") if ord(c) > 127}
    if western <= CZECH_LETTERS:
        return None
    for encoding in CZECH_8BIT:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if {c for c in text if ord(c) > 127} <= CZECH_LETTERS:
            return encoding
    return None


def _declared_encoding(data: bytes) -> bytes | None:
    """The first line if it is a ``#character-encoding`` pragma (lowercase), else None."""
    head = data.lstrip(b"\xef\xbb\xbf").split(b"\n", 1)[0].strip().lower()
    return head if head.startswith(b"#character-encoding") else None


def decode_gcg(data: bytes, source: str = "<bytes>") -> str:
    """A GCG file's bytes as text: UTF-8 if the first line is ``#character-encoding UTF-8``, else ISO 8859-1 (the
    format's default), except a file without the line whose bytes are valid UTF-8 with letters beyond ASCII
    (:func:`undeclared_utf8`): that is read as UTF-8, as its writer meant (a Czech record saved by a text editor;
    read as ISO 8859-1 its Č would be two letters no tile set has), and an old Czech record in ISO 8859-2 or
    Windows-1250 (:func:`undeclared_encoding`), read in its encoding: the callers warn with the name.

    Line endings are normalised to ``\\n``. Raises GcgError if a file that declares UTF-8 is not valid UTF-8.
    """
    head = _declared_encoding(data)
    if head is not None:
        name = head.split(None, 1)[1].decode("ascii", "replace") if b" " in head else ""
        if name.replace("-", "") != "utf8":
            raise GcgError(source, 1, "encoding_pragma", name)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise GcgError(source, line, "utf8", str(exc)) from None
    else:
        guessed = undeclared_encoding(data)
        text = data.decode("utf-8-sig" if guessed == "utf-8" else guessed or "latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def encode_gcg(text: str) -> bytes:
    """Text from ``write_gcg`` as file bytes: UTF-8 if it starts with the encoding pragma, else ISO 8859-1 when
    every character fits (and the bytes would not be read in another encoding by :func:`decode_gcg`), else
    UTF-8 with the pragma added as the first line."""
    if text.startswith(UTF8_FIRST_LINE):
        return text.encode("utf-8")
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        data = b""
    if data and undeclared_encoding(data) is None:
        return data
    return (UTF8_FIRST_LINE + "\n" + text).encode("utf-8")


class _Reader:
    """State of one ``read_gcg`` call."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.players: dict[int, GcgPlayer] = {}
        self.pragmas: list[tuple[str, str]] = []
        self.events: list[GcgEvent] = []
        self.notes: list[str] = []  # notes of the last event, still open
        self.note_lines: list[str] | None = None  # the lines of the note being read: joined once, when it closes

    @property
    def note_open(self) -> bool:
        """A continuation line extends the last note."""
        return self.note_lines is not None

    def error(self, number: int, code: str, text: str = "", **values: str) -> GcgError:
        return GcgError(self.source, number, code, text, **values)

    def flush_notes(self) -> None:
        self.close_note()
        if self.notes and self.events:
            self.events[-1] = replace(self.events[-1], notes=tuple(self.notes))
        self.notes = []

    def add_note(self, text: str) -> None:
        self.close_note()
        self.note_lines = [text]

    def continue_note(self, number: int, text: str) -> None:
        if self.note_lines is None:
            raise self.error(number, "note_or_event", text)
        self.note_lines.append(text)  # a list, not a string grown line by line: linear in the note's size

    def close_note(self) -> None:
        """The note being read is complete: its lines, joined, go to the last event's notes (or, before the first
        event, to the pragmas)."""
        if self.note_lines is None:
            return
        note = "\n".join(self.note_lines)
        self.note_lines = None
        if self.events:
            self.notes.append(note)
        else:
            self.pragmas.append(("note", note))

    def pragma(self, number: int, text: str) -> None:
        name, _, value = text[1:].partition(" ")
        name = name.strip()
        if not name:
            raise self.error(number, "pragma_name", text)
        if name == "note":
            self.add_note(value)
            return
        self.close_note()
        if name == ENCODING_PRAGMA and number != 1:
            raise self.error(number, "encoding_first_line", text)
        if name in ("player1", "player2", "player3", "player4"):
            parts = value.strip().split(None, 1)
            if not parts:
                raise self.error(number, "player_line", text, pragma=name)
            seat = int(name[-1])
            if seat in self.players:
                raise self.error(number, "one_player_line", text, pragma=name)
            self.players[seat] = GcgPlayer(parts[0], parts[1] if len(parts) > 1 else "")
            return
        self.pragmas.append((name, value.strip()))

    def event(self, number: int, text: str) -> None:
        self.flush_notes()
        nick, colon, rest = text[1:].partition(":")
        nick = nick.strip()
        if not colon or not nick:
            raise self.error(number, "nick_colon", text)
        nicks = [p.nick for _, p in sorted(self.players.items())]
        if nick not in nicks:
            if not nicks:
                raise self.error(number, "declared_nick_none", text)
            raise self.error(number, "declared_nick", text, known=", ".join(nicks))
        for kind, pattern in _EVENT_PATTERNS:
            m = pattern.match(rest)
            if m:
                self.events.append(self.build(kind, m, nick, number, text))
                return
        raise self.error(number, self.diagnose(rest), text)

    @staticmethod
    def diagnose(rest: str) -> str:
        """The code of the most specific expectation for an event line that matched no pattern."""
        fields = rest.split()
        if len(fields) < 2:
            return "event"
        if not re.fullmatch(r"-?\d+", fields[-1]) and not re.fullmatch(
            r"-?\d+", fields[-2] if len(fields) > 2 else ""
        ):
            return "running_total"
        if not any(re.fullmatch(r"[+-]\d+", f) for f in fields):
            return "signed_score"
        return "event"

    def build(self, kind: str, m: re.Match[str], nick: str, number: int, text: str) -> GcgEvent:
        rack = m.group("rack") or ""
        score = int(m.group("score"))
        total = int(m.group("total"))
        if kind == "play":
            try:
                position = Position.from_notation(m.group("pos"), Notation.CLASSIC)
            except NotationError:
                raise self.error(number, "position", text) from None
            word = m.group("word")
            if not _WORD_RE.match(word) or not word:
                raise self.error(number, "word", text)
            return GcgPlay(
                nick, rack, position, word, score, total, extra=m.group("extra") or "", line=number
            )
        if kind == "phony":
            return GcgPhonyWithdrawn(nick, rack, score, total, line=number)
        if kind == "pass":
            return GcgPass(nick, rack, score, total, line=number)
        if kind == "exchange":
            tiles = m.group("tiles")
            if tiles.isdigit():
                count = int(tiles)
                if count == 0:
                    return GcgPass(nick, rack, score, total, line=number)
                return GcgExchange(nick, rack, count, score, total, line=number)
            return GcgExchange(nick, rack, tiles, score, total, line=number)
        if kind == "challenge":
            return GcgChallengeBonus(nick, rack, score, total, line=number)
        if kind == "time":
            return GcgTimePenalty(nick, rack, score, total, line=number)
        left = m.group("left")
        if score < 0:
            return GcgRackPenalty(nick, rack, left, score, total, line=number)
        return GcgEndRack(nick, rack, left, score, total, line=number)


def read_gcg(text: str, source: str = "<string>") -> GcgGame:
    """Parse GCG text (see ``decode_gcg`` for bytes) into a GcgGame.

    Raises GcgError naming ``source``, the line number and what was expected.
    """
    reader = _Reader(source)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if number == 1:
            line = line.lstrip("\ufeff")
        if not line.strip():
            continue
        if line.startswith("#"):
            reader.pragma(number, line)
        elif line.startswith(">"):
            reader.event(number, line)
        else:
            reader.continue_note(number, line)
    reader.flush_notes()
    if len(reader.players) < 2:
        raise GcgError(source, 1, "players")
    nicks = [p.nick for p in reader.players.values()]
    if len(set(nicks)) != len(nicks):
        raise GcgError(source, 1, "distinct_nicks", nicks=", ".join(nicks))
    players = tuple(p for _, p in sorted(reader.players.items()))
    return GcgGame(players, tuple(reader.pragmas), tuple(reader.events), source)


# ----------------------------------------------------------------------------------------------------------------
# writing


def _signed(n: int) -> str:
    return f"{n:+d}"


def format_event(event: GcgEvent) -> str:
    """One event as a GCG line (without its notes)."""
    head = f">{event.nick}: {event.rack}"
    tail = f"{_signed(event.score)} {event.total}"
    match event:
        case GcgPlay():
            line = f"{head} {event.position.notation(Notation.CLASSIC)} {event.word} {tail}"
            return f"{line} {event.extra}" if event.extra else line
        case GcgPass():
            return f"{head} - {tail}"
        case GcgExchange():
            return f"{head} -{event.tiles} {tail}"
        case GcgPhonyWithdrawn():
            return f"{head} -- {tail}"
        case GcgChallengeBonus():
            return f"{head} (challenge) {tail}"
        case GcgTimePenalty():
            return f"{head} (time) {tail}"
        case GcgEndRack() | GcgRackPenalty():
            return f"{head} ({event.left}) {tail}"
    raise TypeError(f"not a GCG event: {event!r}")


def _one_line(text: str) -> str:
    """``text`` with every control character replaced by a space: it stays one line of the record."""
    return CONTROL.sub(" ", text)


def _note_lines(text: str) -> str:
    """A note (or pragma value) that may span lines: a line break is kept only where the line after it reads
    back as the same note's continuation (not blank, not starting with ``#`` or ``>``); any other break and every
    control character become a space, so no text given to the writer can add a pragma or an event."""
    parts = [_one_line(part).rstrip() for part in text.replace("\r\n", "\n").split("\n")]
    out = parts[0]
    for part in parts[1:]:
        safe = part.strip() and not part.startswith(("#", ">"))
        out += ("\n" if safe else " ") + part
    return out


def write_gcg(game: GcgGame) -> str:
    """The game as GCG text: the encoding pragma first if the game has it, then the players, the other pragmas
    in order, and the events each followed by its notes. ``read_gcg(write_gcg(g)) == g`` for a game read from a
    file. Whatever text the game holds (a player's name, a note), the record never gets a control character:
    each is written as a space, so a name cannot add lines (an event) to the record."""
    lines: list[str] = []
    pragmas = list(game.pragmas)
    for name, value in pragmas:
        if name == ENCODING_PRAGMA:
            lines.append(_one_line(f"#{name} {value}"))
    for seat, player in enumerate(game.players, start=1):
        lines.append(_one_line(f"#player{seat} {player.nick} {player.name}").rstrip())
    for name, value in pragmas:
        if name != ENCODING_PRAGMA:
            text = _note_lines(value) if name == "note" else _one_line(value)  # only a note continues on lines
            lines.append(f"#{_one_line(name)} {text}".rstrip())
    for event in game.events:
        lines.append(_one_line(format_event(event)))
        for note in event.notes:
            lines.append(f"#note {_note_lines(note)}".rstrip())
    return "\n".join(lines) + "\n"
