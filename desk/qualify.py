"""``partiar qualify``: qualification tasks (seed 001, items 12-13) for a referee or a club.

- ``partiar qualify generate [-n 10] [--seed S] [--tiles czech] [-o TASK]``: N racks, each drawn fresh from a full
  bag (at least two vowels and two consonants, a blank counting as both), one a line.
- ``partiar qualify solve TASK [--width W] [--per-move K] [--json]``: the best sequence the beam search finds.
- ``partiar qualify check TASK ANSWER [--accept WORD ...]``: a player's sequence (one ``POSITION WORD`` line per
  move, ``-`` for no play) scored move by move, with the program's best total for comparison (``--no-solve``
  skips it).

TASK and ANSWER are UTF-8 text files (``#`` starts a comment; ``-`` for TASK reads standard input); the referee may
write a TASK by hand from racks drawn from a real bag. Positions are ČAS notation (``H8V``) with the Czech set,
classic (``8H``) otherwise; blanks are lowercase letters. Exit status 0; 2 for bad input (message on stderr).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from desk.best import move_record
from desk.referee_texts import describe, error_text, say, warn_foreign_letters
from engine.board import Notation
from engine.duplicate.racks import Mix, required
from engine.duplicate.results import LABELS
from engine.errors import BadRack, EngineError
from engine.lexicon import default_path
from engine.movegen import MoveGenerator, WordGraph
from engine.qualify import (
    DEFAULT_PER_MOVE,
    DEFAULT_PROOF_LIMIT,
    DEFAULT_WIDTH,
    Solution,
    score_sequence,
    solve,
)
from engine.rules import RuleOptions
from engine.tiles import TileSet, available_tile_sets, tile_set
from shared.journal import write_atomic
from shared.language import say as in_language

EXIT_OK = 0
EXIT_BAD_INPUT = 2
RACK_SIZE = RuleOptions().rack_size


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``qualify`` to the ``partiar`` command (its help in the command's language)."""
    h = in_language
    q = subparsers.add_parser("qualify", help=h("kvalifikační úlohy: stojany, nejlepší sled, odpověď hráče",
                                                "qualification tasks: racks, the best sequence, a player's answer"))
    actions = q.add_subparsers(dest="qualify_command", metavar=h("AKCE", "ACTION"), required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--tiles", choices=available_tile_sets(), default="czech",
                       help=h("sada kamenů (výchozí czech)", "tile set (default czech)"))
        p.add_argument("--lang", choices=("cs", "en"), default="cs",
                       help=h("jazyk (výchozí podle LANG, jinak cs)", "language (default from LANG, else cs)"))

    def solver(p: argparse.ArgumentParser) -> None:
        common(p)
        p.add_argument("--lexicon", type=Path, metavar=h("CESTA", "PATH"),
                       help=h(f"soubor indexu slov (výchozí {default_path()})", f"index file (default {default_path()})"))
        p.add_argument("--width", type=int, default=DEFAULT_WIDTH,
                       help=h(f"šířka paprsku (výchozí {DEFAULT_WIDTH})", f"beam width (default {DEFAULT_WIDTH})"))
        p.add_argument("--per-move", type=int, default=DEFAULT_PER_MOVE,
                       help=h(f"zkoušených tahů na tah (výchozí {DEFAULT_PER_MOVE})",
                              f"plays tried per move (default {DEFAULT_PER_MOVE})"))
        p.add_argument("--prove-limit", type=int, default=DEFAULT_PROOF_LIMIT, metavar="N",
                       help=h(f"pozic, které smí přesné hledání zkusit k důkazu optima (výchozí {DEFAULT_PROOF_LIMIT}; "
                              "0: jen paprsek); za ní je klíč z paprsku, označený jako nedokázaný",
                              f"positions the exact search may try to prove the optimum (default {DEFAULT_PROOF_LIMIT}; "
                              "0: beam only); beyond it the key is the beam's, marked not proven"))

    g = actions.add_parser("generate", help=h("vylosovat N nových stojanů", "draw N fresh racks"))
    common(g)
    g.add_argument("-n", type=int, default=10, help=h("počet tahů (výchozí 10)", "number of moves (default 10)"))
    g.add_argument("--seed", type=int, help=h("náhodné semínko (výchozí: náhodné)", "random seed (default: random)"))
    g.add_argument("-o", "--output", type=Path,
                   help=h("soubor úlohy (výchozí: standardní výstup)", "task file (default: standard output)"))
    g.set_defaults(func=run_generate)
    s = actions.add_parser("solve", help=h("nejlepší sled, který program najde", "the best sequence the program finds"))
    s.add_argument("task", help=h("soubor úlohy (stojany, jeden na řádek; - = standardní vstup)",
                                  "task file (racks, one a line; - = standard input)"))
    solver(s)
    s.add_argument("--json", action="store_true", help=h("jeden objekt JSON na tah", "one JSON object per move"))
    s.add_argument("-o", "--key", type=Path, metavar=h("KLÍČ", "KEY"),
                   help=h("zapsat i klíč odpovědí (soubor odpovědi)", "also write the answer key (an answer file)"))
    s.set_defaults(func=run_solve)
    c = actions.add_parser("check", help=h("obodovat sled hráče tah po tahu", "score a player's sequence move by move"))
    c.add_argument("task", help=h("soubor úlohy", "task file"))
    c.add_argument("answer", type=Path, help=h("tahy hráče: 'POZICE SLOVO' na řádek, '-' bez tahu",
                                               "the player's moves: 'POSITION WORD' a line, '-' for no play"))
    solver(c)
    c.add_argument("--accept", nargs="*", default=[], metavar=h("SLOVO", "WORD"),
                   help=h("slova, která rozhodčí uznává", "words the referee admits"))
    c.add_argument("--no-solve", action="store_true",
                   help=h("nehledat nejlepší sled pro srovnání", "do not search the best sequence for comparison"))
    c.add_argument("--key", type=Path, metavar=h("KLÍČ", "KEY"),
                   help=h("klíč odpovědí (ze solve -o) místo hledání; lepší odpověď se označí a stane se klíčem "
                          "(soubor se přepíše)",
                          "the answer key (from solve -o) instead of solving; an answer above it is flagged and "
                          "becomes the key (the file is rewritten)"))
    c.set_defaults(func=run_check)  # fmt: skip


def _lines(text: str) -> list[str]:
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]


def _read_text(path: Path, lang: str) -> str:
    """A task, answer or key file's text (UTF-8, a BOM allowed); raises ValueError naming the file and the line
    of a byte that is not UTF-8, in the referee's words (not Python's "'utf-8' codec can't decode ...")."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(say("q_not_utf8", lang, source=str(path), n=data[:exc.start].count(b"\n") + 1)) from None


def read_task(source: str, tiles: TileSet, lang: str = "cs") -> list[str]:
    """The racks of a task file (``-``: standard input), uppercase with ``?`` for blanks. Each rack is drawn fresh
    (seed 001, item 13): seven tiles a full bag can give; raises ValueError naming the line, or BadRack."""
    text = sys.stdin.read() if source == "-" else _read_text(Path(source), lang)
    racks = []
    for n, line in enumerate(_lines(text), 1):
        try:
            rack = tiles.check_rack(line.replace(" ", ""), RACK_SIZE)
        except BadRack as exc:
            raise ValueError(f"{source}: {n}: {error_text(exc, lang)}") from None
        if len(rack) != RACK_SIZE:
            raise ValueError(say("q_short_rack", lang, source=source, n=n, rack=rack, count=len(rack)))
        racks.append(rack)
    if not racks:
        raise ValueError(say("q_no_racks", lang, source=source))
    return racks


def read_answer(path: Path, lang: str = "cs") -> list[tuple[str, str] | None]:
    """A player's moves: ``POSITION WORD`` a line, ``-`` for no play; raises ValueError naming the line."""
    out: list[tuple[str, str] | None] = []
    for n, line in enumerate(_lines(_read_text(path, lang)), 1):
        parts = line.split()
        if parts == ["-"]:
            out.append(None)
        elif len(parts) == 2:
            out.append((parts[0], parts[1]))
        else:
            raise ValueError(say("q_bad_answer", lang, path=path, n=n, line=line))
    return out


def draw_racks(tiles_name: str, n: int, rng: random.Random) -> list[str]:
    """N racks, each drawn from a full bag, redrawn until it has two vowels and two consonants."""
    tiles = tile_set(tiles_name)
    bag = list(tiles.bag().elements())
    racks: list[str] = []
    while len(racks) < n:
        rack = "".join(rng.sample(bag, 7))
        if Mix.of(rack, tiles).meets(required(1)):
            racks.append("".join(sorted(rack, key=tiles.order)))
    return racks


def _too_small(args: argparse.Namespace, *names: str) -> bool:
    """True (the message printed) when an option among ``names`` (``n``, ``width``, ``per_move``) is below 1."""
    for name in names:
        if getattr(args, name) < 1:
            option = "-n" if name == "n" else "--" + name.replace("_", "-")
            print(f"partiar qualify: {say('q_at_least_1', args.lang, option=option, value=getattr(args, name))}", file=sys.stderr)
            return True
    return False


def run_generate(args: argparse.Namespace) -> int:
    if _too_small(args, "n"):
        return EXIT_BAD_INPUT
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    text = "\n".join(draw_racks(args.tiles, args.n, rng)) + "\n"
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _generator(args: argparse.Namespace) -> MoveGenerator:
    generator = MoveGenerator(WordGraph.load(args.lexicon or default_path()), tile_set(args.tiles))
    warn_foreign_letters(generator, args.lang, "partiar qualify")
    return generator


def run_solve(args: argparse.Namespace) -> int:
    if _too_small(args, "width", "per_move"):
        return EXIT_BAD_INPUT
    try:
        racks = read_task(args.task, tile_set(args.tiles), args.lang)
        gen = _generator(args)
        solution = solve(gen, racks, args.width, args.per_move, max(args.prove_limit, 0))
    except (OSError, EngineError, ValueError) as exc:
        print(f"partiar qualify: {error_text(exc, args.lang)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    seq = solution.sequence
    notation = Notation.for_language(gen.tiles.language)
    total = 0
    for n, (rack, move) in enumerate(zip(racks, seq.moves, strict=True), 1):
        total += move.score if move else 0
        if args.json:
            record = (
                move_record(move, rack, notation) if move else {"position": None, "word": None, "score": 0}
            )
            print(json.dumps({"move": n, "rack": rack, **record, "total": total, "proven": solution.proven},
                             ensure_ascii=False))  # fmt: skip
        elif move is None:
            print(say("q_pass", args.lang, n=n, rack=rack))
        else:
            print(say("q_move", args.lang, n=n, rack=rack, position=move.notation(notation), word=move.word,
                      score=move.score, total=total))  # fmt: skip
    if not args.json:
        print(say("q_total", args.lang, total=seq.total))
        print(proof_text(solution, args.lang))
    if args.key is not None:
        lines = [f"{m.notation(notation)} {m.word}" if m else "-" for m in seq.moves]
        comment = say("q_key_comment", args.lang, total=seq.total, proof=proof_text(solution, args.lang))
        try:
            write_atomic(args.key, f"# {comment}\n" + "\n".join(lines) + "\n")
        except OSError as exc:
            print(f"partiar qualify: {error_text(exc, args.lang)}", file=sys.stderr)
            return EXIT_BAD_INPUT
    return EXIT_OK


def percent_text(total: int, best: int, lang: str) -> str:
    """``total`` as a percentage of ``best`` to one decimal, as the language writes it: "33,6" in Czech (a
    decimal comma), "33.6" in English; 100 when ``best`` is 0."""
    text = f"{100.0 * total / best if best else 100.0:.1f}"
    return text if lang == "en" else text.replace(".", ",")


def proof_text(solution: Solution, lang: str) -> str:
    """Whether the key is the proven optimum or the beam's best (with its size)."""
    if solution.proven:
        return say("q_proven", lang)
    return say("q_not_proven", lang, width=solution.width, per_move=solution.per_move)


def run_check(args: argparse.Namespace) -> int:
    if _too_small(args, "width", "per_move"):
        return EXIT_BAD_INPUT
    try:
        racks = read_task(args.task, tile_set(args.tiles), args.lang)
        answers = read_answer(args.answer, args.lang)
        if len(answers) != len(racks):
            raise ValueError(say("q_count", args.lang, racks=len(racks), answers=len(answers)))
        gen = _generator(args)
        accepted = {w.lower() for w in args.accept}
        checks = score_sequence(
            gen, racks, answers, Notation.for_language(gen.tiles.language), accepted.__contains__
        )
    except (OSError, EngineError, ValueError) as exc:
        print(f"partiar qualify: {error_text(exc, args.lang)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    total = 0
    for rack, answer, mc in zip(racks, answers, checks, strict=True):
        total += mc.score
        if answer is None or mc.check is None:
            print(say("q_pass", args.lang, n=mc.number, rack=rack))
        elif mc.score or mc.check.verdict.value == "credited":
            print(say("q_move", args.lang, n=mc.number, rack=rack, position=answer[0], word=answer[1],
                      score=mc.score, total=total))  # fmt: skip
        else:
            label = LABELS[args.lang][mc.check.verdict.value]
            why = f"{label} ({describe(mc.check, args.lang, Notation.for_language(gen.tiles.language))})"
            print(say("q_refused", args.lang, n=mc.number, rack=rack, position=answer[0], word=answer[1], why=why))
    print(say("q_total", args.lang, total=total))
    if args.key is not None:
        return _against_key(args, racks, answers, total, gen)
    if not args.no_solve:
        solution = solve(gen, racks, args.width, args.per_move, max(args.prove_limit, 0))
        best = solution.sequence.total
        if total > best:  # nothing is kept without a key file: said plainly, with the way to keep it
            print(say("q_above_solution", args.lang, total=total, before=best, task=args.task, answer=args.answer))
            best = total
        print(say("q_percent", args.lang, best=best, percent=percent_text(total, best, args.lang)))
        print(proof_text(solution, args.lang))
    return EXIT_OK


def _against_key(
    args: argparse.Namespace, racks: list[str], answers: list[tuple[str, str] | None], total: int, gen: MoveGenerator
) -> int:
    """The player's total against the answer key file; an answer above the key is flagged for the referee and
    becomes the key (the file rewritten with the player's moves, the old key kept in a comment)."""
    notation = Notation.for_language(gen.tiles.language)
    try:
        key_moves = read_answer(args.key, args.lang)
        if len(key_moves) != len(racks):
            raise ValueError(say("q_count", args.lang, racks=len(racks), answers=len(key_moves)))
        key = sum(mc.score for mc in score_sequence(gen, racks, key_moves, notation))
        old_text = args.key.read_text(encoding="utf-8-sig")
    except (OSError, EngineError, ValueError) as exc:
        print(f"partiar qualify: {error_text(exc, args.lang)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if total > key:
        print(say("q_above_key", args.lang, total=total, before=key))
        lines = ["-" if a is None else f"{a[0]} {a[1]}" for a in answers]
        comment = say("q_key_replaced", args.lang, total=total, answer=args.answer, before=key)
        old = "".join(f"# {line}\n" for line in old_text.splitlines())
        try:
            write_atomic(args.key, f"# {comment}\n" + "\n".join(lines) + "\n" + old)
        except OSError as exc:
            print(f"partiar qualify: {error_text(exc, args.lang)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(say("q_key_written", args.lang, path=args.key))
        key = total
    print(say("q_percent", args.lang, best=key, percent=percent_text(total, key, args.lang)))
    return EXIT_OK
