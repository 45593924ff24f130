"""``partiar duplicate``: the referee's duplicate Scrabble round in a terminal (seed 001, items 5-11).

``partiar duplicate FOLDER --players "Eva,Jan,..." [--draw program|referee] [--strict-scores|--lenient-scores] [--tiles czech]
[--lexicon PATH] [--minutes 3] [--seed N] [--lang cs|en]`` starts a game whose journal is ``FOLDER/journal.jsonl``;
``partiar duplicate FOLDER`` resumes it after a crash or a break (the options are read from the journal; the
lexicon index must be the same file as at the start, checked by its CRC-32).

Each move: the program draws the rack from the bag (or the referee types the tiles drawn from the real bag), the
rack rule is checked (a failing rack goes back whole), Enter starts the 3-minute clock, then the referee types the
slips (``PLAYER POSITION WORD SCORE``) and ``konec`` to end the move: the top play goes on the board and the results
(``FOLDER/vysledky.html`` and ``.csv``) are rewritten. Every event is written to the journal and fsynced before it
is confirmed on screen, so a crash loses nothing. Exit status 0; 2 for bad options or a damaged journal.

``--show [--show-port 8090]`` also serves a read-only page for the room on 127.0.0.1 (``desk.show``):
the board with the last top play highlighted, the current rack, the standings and the moves, refreshed live.
"""

from __future__ import annotations

import argparse
import logging
import random
import shlex
import sys
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from desk.folder_lock import FolderBusy, FolderLock
from desk.referee_texts import describe, error_text, say, warn_foreign_letters
from engine.board import LETTERS, SIZE, Board, Notation
from engine.duplicate import DuplicateError, DuplicateGame, ScoreRuleUndecided, Verdict
from engine.duplicate.game import NO_PLAY_END, NO_PLAY_REDRAW
from engine.duplicate.results import percent_text, render_csv, render_html, standings
from engine.duplicate.slips import Slip
from engine.errors import EngineError
from engine.lexicon import default_path
from engine.movegen import MoveGenerator, WordGraph
from engine.tiles import available_tile_sets, tile_set
from shared.journal import Journal, read_journal, write_atomic
from shared.language import say as in_language
from shared.texts import LANGUAGES

if TYPE_CHECKING:
    from desk.master_board import Difference, MasterBoard
    from desk.show import ShowServer

log = logging.getLogger(__name__)

JOURNAL = "journal.jsonl"
RESULTS = "vysledky"
EXIT_OK = 0
EXIT_BAD_INPUT = 2
CLOSE_WORDS = {"konec", "close"}
WITHDRAW_WORDS = ("smazat", "delete")
"""``smazat HRÁČ``: strike out the player's slip of this move."""
SLIPS_WORDS = ("lístky", "listky", "slips")
"""The referee's word listing the slips entered for the move."""
LATE_WORDS = ("tah", "move")
"""``tah N HRÁČ POZICE SLOVO BODY``: a slip booked to move N (a closed one: judged on that move's board)."""
SKIP_WORDS = ("dál", "dal", "skip")
"""The referee's answer going on without the master board's check."""
STRICT_WORDS, LENIENT_WORDS = ("přísně", "strict"), ("mírně", "lenient")
"""The referee's answers choosing the wrong-score rule (seed 001, item 8)."""
YES_WORDS, NO_WORDS = ("a", "ano", "y", "yes"), ("n", "ne", "no")
"""The referee's answers admitting or refusing a word the lexicon does not know; anything else asks again."""
END_WORDS, REDRAW_WORDS = ("konec", "end"), ("losovat", "redraw")
"""The referee's answers for a rack with no legal play: end the game, or the whole rack back and a new draw."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``duplicate`` to the ``partiar`` command."""
    p = subparsers.add_parser("duplicate", help=in_language("kolo duplicitního Scrabble pro rozhodčího (stojany, lístky, výsledky)",
                                                    "the referee's duplicate Scrabble round (racks, slips, results)"))
    p.add_argument("folder", type=Path, metavar=in_language("SLOŽKA", "FOLDER"),
                   help=in_language("složka hry (záznam a výsledky); rozehraná hra pokračuje",
                            "the game's folder (journal and results); an existing game resumes"))
    p.add_argument("--players", help=in_language("jména hráčů oddělená čárkou (nová hra)", "comma-separated player names (new game)"))
    p.add_argument("--draw", choices=("program", "referee"),
                   help=in_language("kdo losuje stojany (výchozí program)", "who draws the racks (default program)"))
    rule = p.add_mutually_exclusive_group()
    rule.add_argument("--strict-scores", action="store_true",
                      help=in_language("odmítat lístky se špatným skóre (seed 001, bod 8)",
                               "refuse slips with a wrong score (seed 001, item 8)"))
    rule.add_argument("--lenient-scores", action="store_true",
                      help=in_language("lístku se špatným skóre připsat správné (výjimka)",
                               "credit the right score to a slip with a wrong one (the waiver)"))
    p.add_argument("--tiles", choices=available_tile_sets(), help=in_language("sada kamenů (výchozí czech)", "tile set (default czech)"))
    p.add_argument("--lexicon", type=Path, metavar=in_language("CESTA", "PATH"),
                   help=in_language(f"soubor indexu slov (výchozí {default_path()})", f"index file (default {default_path()})"))
    p.add_argument("--minutes", type=float, help=in_language("čas na tah (výchozí 3)", "time per move (default 3)"))
    p.add_argument("--seed", type=int, help=in_language("semínko losování programu (výchozí: náhodné)",
                                                "seed of the program's draws (default: random)"))
    p.add_argument("--lang", choices=("cs", "en"), default="cs",
                   help=in_language("jazyk (výchozí podle LANG, jinak cs)", "language (default from LANG, else cs)"))
    p.add_argument("--show", action="store_true",
                   help=in_language("stránka jen ke čtení pro sál na 127.0.0.1 (deska, výsledky)",
                            "serve a read-only page for the room on 127.0.0.1 (board, results)"))
    p.add_argument("--show-port", type=int, default=8090,
                   help=in_language("port stránky (výchozí 8090; 0 = kterýkoli volný)", "the page's port (default 8090; 0 = any free)"))
    p.add_argument("--board", metavar="URL",
                   help=in_language("sériový port instrumentované hlavní desky (např. /dev/ttyACM0): každý nejlepší tah se "
                            "před dalším losem zkontroluje, jak je na ní položen",
                            "the instrumented master board's serial port (e.g. /dev/ttyACM0): each top play checked as "
                            "laid on it before the next draw"))
    p.add_argument("--slips", action="store_true",
                   help=in_language("vypsat lístky zadané k otevřenému tahu a skončit (jen čtení: i za běhu kola, např. po "
                            "pádu)",
                            "list the slips already entered for the open move and exit (read only: also while the "
                            "round runs, e.g. after a crash)"))  # fmt: skip
    p.set_defaults(func=run_duplicate)


class Session:
    """One referee at one terminal: reads lines, journals events, prints what happened."""

    def __init__(
        self,
        folder: Path,
        game: DuplicateGame,
        journal: Journal,
        header: dict[str, Any],
        lang: str,
        stdin: TextIO,
        stdout: TextIO,
        now: Callable[[], float] = time.monotonic,
        show: ShowServer | None = None,
    ) -> None:
        self.folder = folder
        self.show = show
        self.master: MasterBoard | None = None
        self.lock: FolderLock | None = None
        self.game = game
        self.journal = journal
        self.header = header
        self.lang = lang
        self.stdin = stdin
        self.stdout = stdout
        self.now = now
        self.system_rng = random.SystemRandom()
        self.clock_started: float | None = None
        self.timer: threading.Timer | None = None

    # --------------------------------------------------------------------------------------------- output
    def say(self, key: str, **values: object) -> None:
        print(say(key, self.lang, **values), file=self.stdout, flush=True)

    def ask(self, key: str, **values: object) -> str | None:
        print(say(key, self.lang, **values), end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        return None if not line else line.strip()

    def event(self, event: dict[str, Any]) -> None:
        """Apply an event, then make it durable before anything is confirmed (and shown to the room)."""
        self.game.apply(event)
        self.journal.append(event)
        self.publish()

    def publish(self) -> None:
        """The room's page shows the game as it is now (``--show``)."""
        if self.show is not None:
            from desk.show import render_show

            self.show.publish({lang: render_show(self.game, lang) for lang in LANGUAGES})

    # ----------------------------------------------------------------------------------------------- loop
    def run(self) -> int:
        game = self.game
        while game.waiting_for != "over":
            if game.waiting_for == "draw":
                if not self.check_master() or not self.draw():
                    return EXIT_OK
            elif not self.slips():
                return EXIT_OK
        if not self.check_master():
            return EXIT_OK
        self.finish()
        return EXIT_OK

    def check_master(self) -> bool:
        """With ``--board``: the master board must read what the game holds (the last top play laid right) before
        the next rack is drawn, and at the end; the referee puts it right and presses Enter, or goes on without the
        check (``dál``). False at the end of the input."""
        if self.master is None:
            return True
        asked = False
        while True:
            found = self.master.differences(self.game.board)
            if found == []:
                if asked:
                    self.say("master_ok")
                return True
            if found is None:
                self.say("master_down", url=self.master.link.url)
            else:
                self.say("master_differs", cells=", ".join(self.difference_text(d) for d in found))
            asked = True
            line = self.ask("master_retry")
            if line is None:
                return False
            if line.casefold() in SKIP_WORDS:
                return True

    def difference_text(self, difference: Difference) -> str:
        row, col, should, reads = difference
        square = square_label(row, col, self.game.notation)
        kind = "master_missing" if reads is None else "master_extra" if should is None else "master_wrong"
        return say(kind, self.lang, square=square, should=should, reads=reads)

    def draw(self) -> bool:
        game = self.game
        need = game.requirement()
        typed = self.header["draw"] == "referee" and game.to_draw() > 0
        if typed:
            line = self.ask("enter_draw", move=game.move, count=game.to_draw(), kept=game.kept)
            if line is None:
                return False
            event: dict[str, Any] = {"type": "draw", "tiles": line.replace(" ", "")}
        else:
            event = game.random_draw(self.draw_rng())
        move = game.move
        try:
            self.event(event)  # journaled before the referee reads the tiles and announces them
        except EngineError as exc:  # tiles the bag does not hold, a letter the set lacks, a wrong count
            self.say("bad_input", error=error_text(exc, self.lang))
            return True
        if not typed:
            self.say("drawn", move=move, tiles=event["tiles"] or "-")
        if game.current is None and game.waiting_for == "draw":
            refused = game.refused[-1] if game.refused else ""
            self.say("refused_rack", rack=refused, need=need)
        return True

    def draw_rng(self) -> random.Random:
        """The program's randomness for the next draw. With ``--seed`` it is a function of the seed and the number of
        draws before it, so a game resumed after a crash draws the racks an uninterrupted one would (two rooms on one
        seed stay on the same racks); without a seed, the system's."""
        seed = self.header.get("seed")
        return self.system_rng if seed is None else random.Random(f"partiar-duplicate:{seed}:{self.game.draws}")

    def slips(self) -> bool:
        game = self.game
        current = game.current
        assert current is not None
        if self.clock_started is None:
            self.say("rack", move=current.number, rack=current.rack)
            if current.top is None:
                return self.no_play()
            line = self.ask("start_clock", minutes=_minutes(self.header["minutes"]))
            if line is None:
                return False
            if game.rounds and self.looks_like_slip(line):  # a slip after konec: the referee says which move it is for
                closed = game.rounds[-1].number
                answer = ""
                while answer not in (str(closed), str(current.number)):
                    reply = self.ask("late_slip_which", closed=closed, open=current.number)
                    if reply is None:
                        return False
                    answer = reply.strip()
                if answer == str(closed):
                    self.slip(line, closed)
                    return True
            self.start_clock()  # a line typed instead of Enter starts the clock too, and is read as typed
        else:
            line = self.ask("slip_prompt")
            if line is None:
                return False
        if not line:
            return True
        word = line.split()[0].lower()
        if line.lower() in CLOSE_WORDS:
            self.close()
        elif word in ("čas", "time"):
            self.say("clock_running", left=self.left())
        elif word in ("deska", "board"):
            print(board_diagram(game.board, game.notation), file=self.stdout, flush=True)
        elif word in SLIPS_WORDS:
            self.list_slips()
        elif word in ("pomoc", "help", "?"):
            self.say("help")
        elif word in WITHDRAW_WORDS:
            self.withdraw(line)
        elif word in LATE_WORDS:
            self.late_slip(line)
        elif word in STRICT_WORDS + LENIENT_WORDS:
            try:
                self.event({"type": "rules", "strict_scores": word in STRICT_WORDS})
                self.say_rule()
            except DuplicateError:
                self.say("rule_locked")
        else:
            self.slip(line)
        return True

    def list_slips(self) -> None:
        """The slips entered for this move so far (``lístky``; shown by itself when a game resumes)."""
        for line in slips_lines(self.game, self.lang):
            print(line, file=self.stdout, flush=True)

    def looks_like_slip(self, line: str) -> bool:
        """Whether a line is a slip (four fields, the first a player's name), not a word of the program's."""
        try:
            parts = shlex.split(line)
        except ValueError:
            return False
        return len(parts) == 4 and self.player_named(parts[0]) is not None

    def late_slip(self, line: str) -> None:
        """``tah N HRÁČ POZICE SLOVO BODY``: the slip booked to move N."""
        game = self.game
        head, _, rest = line.strip().partition(" ")
        number, _, slip_text = rest.strip().partition(" ")
        closed = len(game.rounds)
        if not number.isdigit() or not 1 <= int(number) <= game.move:
            self.say("bad_move_number", move=number, closed=closed, open=game.move)
            return
        self.slip(slip_text.strip(), int(number))

    def slip(self, line: str, move: int | None = None) -> None:
        """A slip for the open move, or (``move``) for a closed one, judged on the board that move was played on;
        the results are rewritten for a closed one."""
        game = self.game
        if move == game.move:
            move = None
        try:
            parts = shlex.split(line)
        except ValueError:  # an unclosed quote
            parts = []
        if len(parts) != 4:
            self.say("bad_slip", text=line, why=say("slip_fields", self.lang))
            return
        named, position, word, claimed = parts
        player = self.player_named(named)
        if player is None:
            self.say("bad_slip", text=line, why=say("slip_player", self.lang, player=named, players=", ".join(game.players)))
            return
        try:
            slip = Slip(player, position, word, int(claimed))
        except ValueError:
            self.say("bad_slip", text=line, why=say("slip_score", self.lang, score=claimed))
            return
        check = game.check(slip, move)
        event: dict[str, Any] = {
            "type": "slip",
            "player": player,
            "position": position,
            "word": word,
            "claimed": slip.claimed,
            "accept_unknown": None,
        }
        if move is not None:
            event["move"] = move
        if check.verdict is Verdict.UNKNOWN_WORD:
            answer = ""
            while answer not in YES_WORDS + NO_WORDS:  # the ruling is final: a typo is no ruling
                reply = self.ask("unknown_word", words=", ".join(check.unknown))
                if reply is None:
                    return
                answer = reply.lower()
            event["accept_unknown"] = answer in YES_WORDS
        target = game.round_of(move)
        before = target.results.get(player)
        replacing = before is not None and before.verdict not in (Verdict.NO_SLIP, Verdict.WITHDRAWN)
        try:
            self.event(event)
        except ScoreRuleUndecided:
            if not self.choose_rule(player, slip.claimed, check.score):
                return
            self.event(event)
        result = target.results[player]
        detail = describe(result.check, self.lang, game.notation) if result.check else result.detail
        corrected = result.verdict is Verdict.CREDITED and result.score != slip.claimed  # the lenient rule
        key = "verdict_credited_corrected" if corrected else f"verdict_{result.verdict.value}"
        self.say(key, player=player, score=result.score, detail=detail, claimed=slip.claimed)
        if replacing:
            self.say("replaced", player=player)
        if move is not None:
            self.say("booked_late", move=move)
            self.write_results()

    def no_play(self) -> bool:
        """A rack with no legal play, which the seed does not rule: the referee ends the game or has the whole rack
        returned and a new one drawn for the same move."""
        self.say("no_top")
        answer = ""
        while answer not in END_WORDS + REDRAW_WORDS:
            line = self.ask("ask_no_play")
            if line is None:
                return False
            answer = line.lower()
        end = answer in END_WORDS
        self.event({"type": "close", "no_play": NO_PLAY_END if end else NO_PLAY_REDRAW})
        if not end:  # the end: the loop prints the standings and writes the results
            self.say("no_play_redraw", move=self.game.move)
        return True

    def withdraw(self, line: str) -> None:
        """``smazat HRÁČ``: the player's slip of this move is struck out (journaled)."""
        try:
            parts = shlex.split(line)
        except ValueError:
            parts = []
        player = self.player_named(parts[1]) if len(parts) == 2 else None
        if player is None:
            self.say("bad_withdraw", text=line, players=", ".join(self.game.players))
            return
        try:
            self.event({"type": "withdraw", "player": player})
        except DuplicateError:
            self.say("no_slip_to_withdraw", player=player)
            return
        self.say("withdrawn", player=player)

    def player_named(self, name: str) -> str | None:
        """The player a slip names, whatever the case the referee typed; None for a name nobody has."""
        if name in self.game.players:
            return name
        same = [p for p in self.game.players if p.casefold() == name.casefold()]
        return same[0] if len(same) == 1 else None

    def choose_rule(self, player: str, claimed: int, score: int) -> bool:
        """The first wrong score: the referee chooses the rule for the whole game now (seed 001, item 8)."""
        while True:
            answer = self.ask("ask_rule", player=player, claimed=claimed, score=score)
            if answer is None:
                return False
            if answer.lower() in STRICT_WORDS + LENIENT_WORDS:
                self.event({"type": "rules", "strict_scores": answer.lower() in STRICT_WORDS})
                self.say_rule()
                return True

    def say_rule(self) -> None:
        strict = self.game.strict_scores
        self.say("rule_undecided" if strict is None else "rule_strict" if strict else "rule_lenient")

    def close(self) -> None:
        game = self.game
        current = game.current
        assert current is not None
        self.event({"type": "close"})
        self.stop_clock()
        if current.top is None:
            self.say("no_top")
        else:
            top = current.top
            self.say("top", position=top.notation(game.notation), word=top.word, score=top.score)
        scores = ", ".join(f"{p} {current.results[p].score}" for p in game.players)
        self.say("move_scores", move=current.number, scores=scores)
        self.write_results()

    def finish(self) -> None:
        game = self.game
        from engine.duplicate.results import LABELS

        self.say("over", reason=LABELS[self.lang]["end_" + (game.over or "all_tiles")])
        for s in standings(game):
            self.say("standing", rank=s.rank, player=s.player, total=s.total, percent=percent_text(s.percent, self.lang))
        self.write_results()

    def write_results(self) -> None:
        html_path = self.folder / f"{RESULTS}.html"
        csv_path = self.folder / f"{RESULTS}.csv"
        write_atomic(html_path, render_html(self.game, self.lang))
        write_atomic(csv_path, render_csv(self.game, self.lang))
        self.say("written", html=html_path, csv=csv_path)

    # ---------------------------------------------------------------------------------------------- clock
    def start_clock(self) -> None:
        self.clock_started = self.now()
        seconds = float(self.header["minutes"]) * 60
        self.timer = threading.Timer(seconds, lambda: self.say("time_up"))
        self.timer.daemon = True
        self.timer.start()

    def stop_clock(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None
        self.clock_started = None

    def left(self) -> str:
        if self.clock_started is None:
            return _clock(float(self.header["minutes"]) * 60)
        return _clock(max(0.0, float(self.header["minutes"]) * 60 - (self.now() - self.clock_started)))


def square_label(row: int, col: int, notation: Notation) -> str:
    """A square's name as the slips and the board diagram give it: in ČAS notation the row letter and the column
    number (``H8``: row H, column 8), in classic notation the column letter and the row number."""
    return f"{LETTERS[row]}{col + 1}" if notation is Notation.CAS else f"{LETTERS[col]}{row + 1}"


def board_diagram(board: Board, notation: Notation) -> str:
    """The board as text with the squares' names the slips use: in ČAS notation rows A-O and columns 1-15, in
    classic notation rows 1-15 and columns A-O (blanks in lowercase, ``.`` for an empty square)."""
    cas = notation is Notation.CAS
    columns = [str(c + 1) if cas else LETTERS[c] for c in range(SIZE)]
    lines = ["   " + "".join(f"{c:>3}" for c in columns)]
    for r, row in enumerate(board.rows()):
        label = LETTERS[r] if cas else str(r + 1)
        lines.append(f"{label:>3}" + "".join(f"{ch:>3}" for ch in row))
    return "\n".join(lines)


def _minutes(value: float) -> str:
    return f"{value:g}"


def _clock(seconds: float) -> str:
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"


def open_session(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> Session:
    """A new game in ``args.folder`` or the one its journal holds, the folder locked for this program (one program
    per folder: :mod:`desk.folder_lock`). Raises OSError, EngineError, ValueError (another program holds the
    folder: ValueError saying so)."""
    folder: Path = args.folder
    try:
        lock = FolderLock(folder)
    except FolderBusy as exc:
        raise ValueError(say("folder_busy", args.lang, folder=folder, holder=exc.holder or "?")) from None
    try:
        session = _open_locked(args, stdin, stdout)
    except BaseException:
        lock.release()
        raise
    session.lock = lock
    return session


def _open_locked(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> Session:
    folder: Path = args.folder
    path = folder / JOURNAL
    lang = args.lang
    header, records, game = load_game(args)
    journal = Journal(path)
    session = Session(folder, game, journal, header, lang, stdin, stdout)
    if not records:
        journal.append(header)
        session.say(
            "new_game", players=", ".join(header["players"]), tiles=header["tiles"], lexicon=header["lexicon"]
        )
        if args.strict_scores or args.lenient_scores:
            session.event({"type": "rules", "strict_scores": bool(args.strict_scores)})
        session.say_rule()
    else:
        session.say("resumed", path=path, move=game.move)
        if args.strict_scores or args.lenient_scores:  # the referee's choice now, if the game can still take it
            try:
                session.event({"type": "rules", "strict_scores": bool(args.strict_scores)})
            except DuplicateError:
                session.say("rule_locked")
        session.say_rule()
        if game.current is not None and game.current.results:  # after a crash: what is already entered
            session.list_slips()
    return session


def load_game(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]], DuplicateGame]:
    """The game header (a new one from the options if the folder has no journal), the journal's records and the
    game they rebuild. Raises OSError, EngineError, ValueError."""
    folder: Path = args.folder
    path = folder / JOURNAL
    lang = args.lang
    records = list(read_journal(path)) if path.exists() else []
    chosen = {
        "players": [p.strip() for p in args.players.split(",") if p.strip()] if args.players is not None else None,
        "tiles": args.tiles,
        "lexicon": str(args.lexicon.resolve()) if args.lexicon is not None else None,
        "draw": args.draw,
        "minutes": args.minutes,
        "seed": args.seed,
    }
    if records:
        header = records[0]
        if header.get("type") != "game":
            raise ValueError(f"{path}: the first record is not a game header: {header!r}")
        # a folder reused by mistake for a new game must not quietly continue the old one under other settings
        differ = [f"--{key}" for key, value in chosen.items() if value is not None and value != header.get(key)]
        if differ:
            raise ValueError(
                say("resume_conflict", lang, folder=folder, players=", ".join(header["players"]), options=", ".join(differ))
            )
    else:
        if not chosen["players"]:
            raise ValueError(say("need_players", lang))
        if len({p.casefold() for p in chosen["players"]}) != len(chosen["players"]):  # slips name them in any case
            raise ValueError(say("players_distinct", lang, players=", ".join(chosen["players"])))
        if chosen["minutes"] is not None and not chosen["minutes"] > 0:
            raise ValueError(say("bad_minutes", lang, minutes=chosen["minutes"]))
        header = {
            "type": "game",
            "players": chosen["players"],
            "tiles": chosen["tiles"] or "czech",
            "lexicon": chosen["lexicon"] or str(default_path().resolve()),
            "draw": chosen["draw"] or "program",
            "minutes": chosen["minutes"] or 3.0,
            "seed": chosen["seed"],
            "score_rule": "referee",
        }
    data = Path(header["lexicon"]).read_bytes()
    checksum = f"{zlib.crc32(data):08x}"
    if records and header.get("lexicon_crc32") not in (None, checksum):
        raise ValueError(
            f"{path}: the lexicon {header['lexicon']} changed since the game started (CRC-32 "
            f"{header['lexicon_crc32']}, now {checksum}); the top plays would differ. Restore that index file."
        )
    header.setdefault("lexicon_crc32", checksum)
    generator = MoveGenerator(WordGraph.from_bytes(data, header["lexicon"]), tile_set(header["tiles"]))
    warn_foreign_letters(generator, lang, "partiar duplicate")
    # a journal of an earlier version credited wrong scores unless told otherwise; now the referee decides
    strict = None if header.get("score_rule") == "referee" else False
    game = DuplicateGame(list(header["players"]), generator, strict_scores=strict)
    for n, record in enumerate(records[1:], 2):
        try:
            game.apply(record)
        except (EngineError, KeyError) as exc:
            raise ValueError(f"{path}:{n}: {error_text(exc, lang)}") from None
    return header, records, game


def slips_lines(game: DuplicateGame, lang: str) -> list[str]:
    """The slips entered so far for the move being played, one line a player in the order they play, and who has
    none yet; a line saying no move is open when none is."""
    current = game.current
    if current is None:
        return [say("slips_none", lang, move=game.move)]
    lines = [say("slips_head", lang, move=current.number, rack=current.rack, count=len(current.results),
                 players=len(game.players))]  # fmt: skip
    for player in game.players:
        result = current.results.get(player)
        if result is None:
            continue
        slip = result.slip
        verdict = say(f"slips_{result.verdict.value}", lang, score=result.score)
        lines.append(say("slips_line", lang, player=player, position=slip.position, word=slip.word,
                         claimed=slip.claimed, verdict=verdict))  # fmt: skip
    missing = [p for p in game.players if p not in current.results]
    if missing:
        lines.append(say("slips_missing", lang, players=", ".join(missing)))
    return lines


def run_list_slips(args: argparse.Namespace, stdout: TextIO) -> int:
    """``partiar duplicate FOLDER --slips``: the slips of the open move, read from the journal (no lock: the program
    running on the folder may go on)."""
    if not (args.folder / JOURNAL).exists():
        print(f"partiar duplicate: {say('slips_no_game', args.lang, folder=args.folder)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        _header, _records, game = load_game(args)
    except (OSError, EngineError, ValueError) as exc:
        print(f"partiar duplicate: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for line in slips_lines(game, args.lang):
        print(line, file=stdout)
    return EXIT_OK


def run_duplicate(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """``partiar duplicate``: exit 0, or 2 for bad options, a damaged journal, a folder another program holds or a
    page port that is taken."""
    if getattr(args, "slips", False):
        return run_list_slips(args, stdout or sys.stdout)
    try:
        session = open_session(args, stdin or sys.stdin, stdout or sys.stdout)
    except (OSError, EngineError, ValueError) as exc:
        print(f"partiar duplicate: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        if getattr(args, "show", False):
            from desk.show import ShowServer

            try:
                session.show = ShowServer(args.show_port, session.lang)
            except OSError as exc:
                print(f"partiar duplicate: --show-port {args.show_port}: {exc}", file=sys.stderr)
                return EXIT_BAD_INPUT
            session.publish()
            session.say("show_url", url=session.show.url)
        if getattr(args, "board", None):
            from desk.master_board import MasterBoard

            session.master = MasterBoard(args.board)
        return session.run()
    finally:
        session.stop_clock()
        session.journal.close()
        if session.lock is not None:
            session.lock.release()
        if session.show is not None:
            session.show.stop()
        if session.master is not None:
            session.master.stop()

