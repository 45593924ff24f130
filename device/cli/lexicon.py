"""``partiar lexicon``: build the referee's word index and look words up in it.

``partiar lexicon build [--source aspell|FILE] [--add FILE...] [-o OUT]`` builds the index (a minimal DAWG)
from Debian's aspell-cs dictionary (default) or a plain word list, cleans it (docs/lexicon.md), merges the ČAS
taxative lists and the organiser's list files (``word``/``+word`` adds, ``-word`` removes) and writes it to OUT
(default: :func:`engine.lexicon.default_path`). Exit status 0, or 2 with a message on stderr.

``partiar lexicon check WORD... [--lexicon PATH] [--lang cs|en]`` prints each word and its status in words
(``ve slovníku`` / ``není ve slovníku``). Exit status 0 if every word is known, 1 if any is unknown, 2 if the index
cannot be read. Every line printed comes from ``shared.texts`` (Czech, ``--lang en`` for English); ``build``
shows its progress with tqdm on stderr.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from engine.lexicon import Lexicon, LexiconError, czech_alphabet, default_path
from engine.lexicon.alphabet import Alphabet
from engine.lexicon.builder import build_index
from engine.lexicon.compose import Composition, compose_words
from engine.lexicon.overrides import Override, parse_overrides, without_comment
from engine.lexicon.wordfilter import RULES, abbreviations_from_hunspell
from shared.language import say
from shared.texts import cli, counted, text

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_UNKNOWN = 1
EXIT_ERROR = 2

ASPELL_SOURCE = "aspell"
HUNSPELL_DIC = Path("/usr/share/hunspell/cs_CZ")
"""Debian's hunspell-cs dictionary (``.dic`` and ``.aff``), used to recognise abbreviations."""


class SourceError(LexiconError, OSError):
    """A word source that cannot be read (a missing program, package or file)."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``lexicon`` to the ``partiar`` command."""
    p = subparsers.add_parser("lexicon", help=say("český index slov rozhodčího: postavit, ověřit slova",
                                                  "the referee's Czech word index: build it, check words"))
    sub = p.add_subparsers(dest="lexicon_command", metavar=say("AKCE", "ACTION"), required=True)
    b = sub.add_parser("build", help=say("postavit index z aspell-cs nebo seznamu slov, se seznamy ČAS",
                                         "build the index from aspell-cs or a word list, with the ČAS lists"))
    b.add_argument("--source", default=ASPELL_SOURCE, metavar=say("aspell|SOUBOR", "aspell|FILE"),
                   help=say("'aspell' (aspell-cs z Debianu, pročištěný; výchozí) nebo seznam slov v UTF-8, slovo na "
                            "řádek", "'aspell' (Debian's aspell-cs, cleaned; default) or a UTF-8 word list, one word a line"))
    b.add_argument("--add", type=Path, action="append", default=[], metavar=say("SOUBOR", "FILE"),
                   help=say("seznam pořadatele: 'slovo' nebo '+slovo' přidá, '-slovo' odebere (lze opakovat, platí "
                            "v pořadí)", "an organiser's list: 'word' or '+word' adds, '-word' removes (repeatable, "
                            "applied in order)"))
    b.add_argument("-o", "--output", type=Path, metavar=say("VÝSTUP", "OUT"),
                   help=say(f"soubor indexu (výchozí {default_path()})", f"index file (default {default_path()})"))
    b.add_argument("--lang", choices=("cs", "en"), default="cs",
                   help=say("jazyk zprávy (výchozí podle LANG, jinak cs)", "language of the report (default from LANG, else cs)"))
    b.add_argument("--quiet", action="store_true",
                   help=say("bez ukazatelů průběhu (zpráva se vypíše i tak)", "no progress bars (the report is still printed)"))
    b.set_defaults(func=run_build)
    c = sub.add_parser("check", help=say("vypsat, zda je každé slovo v indexu", "print whether each word is in the index"))
    c.add_argument("words", nargs="+", metavar=say("SLOVO", "WORD"))
    c.add_argument("--lexicon", type=Path, metavar=say("CESTA", "PATH"),
                   help=say(f"soubor indexu (výchozí {default_path()})", f"index file (default {default_path()})"))
    c.add_argument("--lang", choices=("cs", "en"), default="cs",
                   help=say("jazyk textů (výchozí podle LANG, jinak cs)", "language of the texts (default from LANG, else cs)"))  # fmt: skip
    c.set_defaults(func=run_check)


def aspell_words() -> Iterator[str]:
    """Every word form of Debian's aspell-cs: ``aspell -d cs dump master | aspell -l cs expand``, streamed.

    Raises SourceError if aspell or its Czech dictionary is missing or fails.
    """
    aspell = shutil.which("aspell")
    if aspell is None:
        raise SourceError("the aspell program is missing: install the Debian packages aspell and aspell-cs")
    with tempfile.TemporaryFile() as errors:
        dump = subprocess.Popen([aspell, "-d", "cs", "dump", "master"], stdout=subprocess.PIPE, stderr=errors)
        expand = subprocess.Popen(
            [aspell, "-l", "cs", "expand"], stdin=dump.stdout, stdout=subprocess.PIPE, stderr=errors
        )
        assert dump.stdout is not None and expand.stdout is not None
        dump.stdout.close()  # expand owns the pipe now; dump gets SIGPIPE if expand stops
        finished = False
        try:
            with io.TextIOWrapper(expand.stdout, encoding="utf-8") as lines:
                for line in lines:
                    # 'expand' writes a root's forms on one line separated by spaces (aspell-cs: one a line).
                    yield from line.split()
            finished = True
        finally:  # also when the reader stops early or fails: end both processes, leave no zombies
            if not finished:
                expand.kill()
                dump.kill()
            codes = (dump.wait(), expand.wait())
        if any(codes):
            errors.seek(0)
            detail = errors.read().decode("utf-8", "replace").strip()
            raise SourceError(
                f"aspell failed (exit {codes}): {detail or 'no message'}; is the Debian package aspell-cs installed?"
            )


def hunspell_checker() -> Callable[[str], bool] | None:
    """A spell check with Debian's hunspell-cs, or None with a warning if it is unavailable.

    Uses the ``hunspell`` binding (Debian's python3-hunspell, C++) when this Python can import it, else spylls
    (pure Python, pip; loads in a few seconds). Both read the same ``.dic``/``.aff`` files.
    """
    dic, aff = HUNSPELL_DIC.with_suffix(".dic"), HUNSPELL_DIC.with_suffix(".aff")
    if not dic.is_file():
        log.warning("hunspell-cs is not installed (%s): abbreviations are not filtered", dic)
        return None
    try:
        import hunspell  # type: ignore[import-not-found]

        return hunspell.HunSpell(str(dic), str(aff)).spell  # type: ignore[no-any-return]
    except ImportError:
        pass
    try:
        from spylls.hunspell import Dictionary
    except ImportError:
        log.warning("neither python3-hunspell nor spylls (pip) is importable: abbreviations are not filtered")
        return None
    return Dictionary.from_files(str(HUNSPELL_DIC)).lookup  # type: ignore[no-any-return]


def hunspell_abbreviations() -> set[str]:
    """Bare forms of hunspell-cs's dotted abbreviations that it does not accept without the dot."""
    checker = hunspell_checker()
    if checker is None:
        return set()
    dic = HUNSPELL_DIC.with_suffix(".dic").read_text(encoding="utf-8")
    return abbreviations_from_hunspell(dic, checker)


def read_list(path: Path, alphabet: Alphabet) -> list[Override]:
    """An organiser's list file; raises OSError, UnicodeDecodeError or OverrideError (naming file and line)."""
    return parse_overrides(path.read_text(encoding="utf-8-sig"), str(path), alphabet)


ASPELL_FORMS = 3_141_344
"""Word forms aspell-cs 0.51 expands to: the progress bar's expected total (a guess for another version)."""


def _bar(quiet: bool, lang: str, stage: str, total: int | None, unit: str) -> Any:
    """A tqdm progress bar on stderr for one stage of the build (disabled with ``quiet`` or off a terminal)."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc=cli(stage, lang),
        unit=" " + unit,
        unit_scale=True,
        disable=quiet,
        mininterval=0.5,
        file=sys.stderr,
        leave=True,
    )


def _counted(words: Iterable[str], bar: Any) -> Iterator[str]:
    """``words`` passed through, the bar updated every 10,000 words (a per-word update would cost seconds)."""
    n = 0
    for word in words:
        yield word
        n += 1
        if n % 10_000 == 0:
            bar.update(10_000)
    bar.update(n % 10_000)
    bar.close()


def compose_from_args(args: argparse.Namespace, alphabet: Alphabet) -> Composition:
    """Read the source and list files that ``partiar lexicon build`` was given and compose the word set."""
    quiet, lang = getattr(args, "quiet", True), getattr(args, "lang", "cs")
    extra = [read_list(path, alphabet) for path in args.add]
    unit = cli("lexicon_words", lang)
    if args.source == ASPELL_SOURCE:
        abbreviations = hunspell_abbreviations()
        bar = _bar(quiet, lang, "lexicon_stage_source", ASPELL_FORMS, unit)
        return compose_words(_counted(aspell_words(), bar), alphabet, extra, abbreviations)
    text = Path(args.source).read_text(encoding="utf-8-sig")
    source = [word for line in text.splitlines() for word in without_comment(line).split()]
    if not source:
        raise SourceError(f"{args.source}: the word list is empty")
    bar = _bar(quiet, lang, "lexicon_stage_list", len(source), unit)
    return compose_words(_counted(source, bar), alphabet, extra, heuristics=False)


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` so that a reader sees the old file or the whole new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build_lexicon(args: argparse.Namespace, out: TextIO | None = None) -> Path:
    """Compose, build and write the index ``args`` ask for, with progress bars on stderr and the report on
    ``out``; returns the path written. Raises OSError, UnicodeDecodeError or LexiconError."""
    out = out or sys.stdout
    lang = getattr(args, "lang", "cs")
    alphabet = czech_alphabet()
    output = args.output or default_path()
    started = time.perf_counter()
    composition = compose_from_args(args, alphabet)
    bar = _bar(getattr(args, "quiet", True), lang, "lexicon_stage_build", len(composition.codes),
               cli("lexicon_words", lang))
    with bar:
        data, nodes = build_index(composition.codes, alphabet, progress=bar.update)
    write_atomically(output, data)
    report = composition.report
    print(counted("lexicon_read", lang, read=report.read, kept=report.kept), file=out)
    for rule in RULES:
        examples = " ".join(report.examples[rule])
        print(cli("lexicon_dropped", lang).format(count=report.dropped[rule], rule=cli(f"lexicon_rule_{rule}", lang),
                                                  examples=examples), file=out)  # fmt: skip
    print(counted("lexicon_lists", lang, added=composition.added, removed=composition.removed), file=out)
    seconds = time.perf_counter() - started
    print(
        counted(
            "lexicon_wrote", lang, path=output, words=len(composition.codes), nodes=nodes, size=len(data), seconds=seconds
        ),
        file=out,
    )
    return output


def run_build(args: argparse.Namespace) -> int:
    try:
        build_lexicon(args)
    except (OSError, UnicodeDecodeError, LexiconError) as exc:
        print(f"partiar lexicon build: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    path = args.lexicon or default_path()
    try:
        lexicon = Lexicon.load(path)
    except FileNotFoundError:
        print(f"partiar lexicon check: no index at {path}; run 'partiar lexicon build' first", file=sys.stderr)
        return EXIT_ERROR
    except (OSError, LexiconError) as exc:
        print(f"partiar lexicon check: {exc}", file=sys.stderr)
        return EXIT_ERROR
    status = EXIT_OK
    for word in args.words:
        result = lexicon.status(word)
        if result != "known":
            status = EXIT_UNKNOWN
        print(cli("lexicon_status", args.lang).format(word=word, status=text("word_" + result, args.lang)))
    return status
