"""``partiar lexicon build`` and ``partiar lexicon check``, and a build from the real aspell-cs dictionary."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from device.cli import main as partiar
from device.cli.lexicon import SourceError, aspell_words
from engine.lexicon import Lexicon, czech_alphabet
from engine.lexicon.builder import build_index
from engine.lexicon.compose import compose_words


@pytest.fixture
def word_list(tmp_path):
    path = tmp_path / "slova.txt"
    path.write_text("kočka\nKOČKY\nkm\npes\npsa\nWhisky\ntyt\n", encoding="utf-8")
    return path


def test_build_from_a_word_list_with_organiser_lists(tmp_path, word_list, capsys) -> None:
    remove = tmp_path / "ven.txt"
    remove.write_bytes("\ufeff# club list, saved by Notepad\r\n-pes\r\n+žížala\r\n".encode())
    readd = tmp_path / "zpet.txt"
    readd.write_text("pes\n", encoding="utf-8")
    out = tmp_path / "out" / "lex.dawg"
    args = ["lexicon", "build", "--source", str(word_list), "--add", str(remove), "--add", str(readd), "-o", str(out)]
    assert partiar(args) == 0
    captured = capsys.readouterr()
    report = captured.out
    assert "zdroj: 7 slov, ponecháno: 6 slov" in report and f"zapsáno {out}: 95 slov" in report
    # each rule's reason in Czech (before: "capitalised", "vowelless" in the Czech report)
    assert re.search(r"vyřazeno +1 cizí znak +např\. whisky", report), report
    assert "capitalised" not in report and "vowelless" not in report
    assert "čtu seznam slov" in captured.err and "stavím index" in captured.err  # tqdm's bars on stderr
    assert "95.0/95.0" in captured.err
    assert partiar([*args, "--lang", "en", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "source: 7 words, kept: 6 words" in captured.out and f"wrote {out}: 95 words" in captured.out
    assert re.search(r"dropped +1 letters +e\.g\. whisky", captured.out), captured.out
    assert captured.err == ""
    lexicon = Lexicon.load(out)
    # a curated list keeps km; the ČAS lists strike tyt and add ch; the later organiser list puts pes back
    assert {"kočka", "kočky", "km", "pes", "psa", "žížala", "ch", "cisis", "ova"} <= set(lexicon)
    assert "tyt" not in lexicon and "whisky" not in lexicon
    assert not list(out.parent.glob(".*.tmp"))


def test_a_source_lists_comments_are_not_words(tmp_path, capsys) -> None:
    """``#`` starts a comment in a ``--source`` list as in an organiser's list: the words of a comment line
    ("seznam pro klub") or after a word do not go into the referee's index."""
    source = tmp_path / "slova.txt"
    source.write_text("# seznam pro klub\nkočka  # doplněno\npes\n", encoding="utf-8")
    out = tmp_path / "lex.dawg"
    assert partiar(["lexicon", "build", "--source", str(source), "-o", str(out), "--quiet"]) == 0
    assert "zdroj: 2 slova" in capsys.readouterr().out
    lexicon = Lexicon.load(out)
    assert {"kočka", "pes"} <= set(lexicon)
    assert not {"seznam", "pro", "klub", "doplněno"} & set(lexicon)


def test_check_prints_status_and_exit_code(tmp_path, word_list, capsys) -> None:
    out = tmp_path / "lex.dawg"
    assert partiar(["lexicon", "build", "--source", str(word_list), "-o", str(out)]) == 0
    capsys.readouterr()
    assert partiar(["lexicon", "check", "--lexicon", str(out), "Kočka", "psa"]) == 0
    assert capsys.readouterr().out == "Kočka\tve slovníku\npsa\tve slovníku\n"
    assert partiar(["lexicon", "check", "--lexicon", str(out), "--lang", "en", "psa", "kocka"]) == 1
    assert capsys.readouterr().out == "psa\tin lexicon\nkocka\tnot in lexicon\n"


def test_default_path_from_environment(tmp_path, word_list, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PARTIAR_DATA", str(tmp_path / "data"))
    assert partiar(["lexicon", "build", "--source", str(word_list)]) == 0
    assert (tmp_path / "data" / "lexicon.dawg").is_file()
    assert partiar(["lexicon", "check", "pes"]) == 0
    assert "pes\tve slovníku" in capsys.readouterr().out


def test_check_without_or_with_a_broken_index(tmp_path, capsys) -> None:
    assert partiar(["lexicon", "check", "--lexicon", str(tmp_path / "none.dawg"), "pes"]) == 2
    assert "no index at" in capsys.readouterr().err
    broken = tmp_path / "broken.dawg"
    broken.write_bytes(b"PARTIDAW" + bytes(30))
    assert partiar(["lexicon", "check", "--lexicon", str(broken), "pes"]) == 2
    assert f"{broken}: index version 0" in capsys.readouterr().err


def test_build_errors_exit_2_with_the_reason(tmp_path, word_list, capsys) -> None:
    out = tmp_path / "lex.dawg"
    assert partiar(["lexicon", "build", "--source", str(tmp_path / "missing.txt"), "-o", str(out)]) == 2
    assert "missing.txt" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("+kočka\n+quark\n", encoding="utf-8")
    assert partiar(["lexicon", "build", "--source", str(word_list), "--add", str(bad), "-o", str(out)]) == 2
    assert f"{bad}:2: 'quark' has characters that are not Czech tile letters: 'q'" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("\n", encoding="utf-8")
    assert partiar(["lexicon", "build", "--source", str(empty), "-o", str(out)]) == 2
    assert "the word list is empty" in capsys.readouterr().err
    assert not out.exists()


def test_missing_aspell_is_named(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SourceError, match="install the Debian packages aspell and aspell-cs"):
        next(aspell_words())


def aspell_cs_installed() -> bool:
    if shutil.which("aspell") is None:
        return False
    result = subprocess.run(["aspell", "dicts"], capture_output=True, text=True, check=False)
    return "cs" in result.stdout.split()


@pytest.mark.skipif(not aspell_cs_installed(), reason="Debian packages aspell and aspell-cs are not installed")
def test_real_aspell_cs_subset_builds_and_is_cleaned() -> None:
    # The whole source streams through (about 3.1 million forms); words of a few prefixes are built so the
    # test stays fast. The full build is measured by bench/lexicon.py.
    prefixes = ("kr", "km", "kg", "zauzl", "ch", "Pra", "tz")
    alphabet = czech_alphabet()
    total = 0
    chosen = []
    for word in aspell_words():
        total += 1
        if word.startswith(prefixes):
            chosen.append(word)
    assert total > 3_000_000
    composition = compose_words(chosen, alphabet)
    data, _ = build_index(composition.codes, alphabet)
    lexicon = Lexicon.from_bytes(data, "aspell-subset")
    assert {"krk", "krok", "kráva", "krávy", "zauzlil", "chléb", "chlebem", "chrt", "ch"} <= set(lexicon)
    for word in ("km", "kg", "tzv", "zauzll", "praha", "Praha"):
        assert word not in lexicon, word
    report = composition.report
    assert report.dropped["capitalised"] > 0 and report.dropped["broken_ll"] > 0
    assert report.dropped["vowelless"] > 0
    assert len(lexicon) == len(composition.codes) > 10_000
    # the lookup table against the source list: every word, and every word with its last letter changed
    words = {alphabet.decode(codes) for codes in composition.codes}
    assert all(word in lexicon for word in words)
    for letter in "aáčeěřy":
        for word in words:
            variant = word[:-1] + letter
            assert (variant in lexicon) == (variant in words), variant



def aspell_children() -> list[str]:
    """Child processes of this test process named aspell (zombies included), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name_end = text.rindex(")")
        name, fields = text[text.index("(") + 1 : name_end], text[name_end + 2 :].split()
        if name == "aspell" and int(fields[1]) == os.getpid():
            found.append(f"{stat.parent.name} {fields[0]}")
    return found


@pytest.mark.skipif(not aspell_cs_installed(), reason="Debian packages aspell and aspell-cs are not installed")
def test_stopping_early_ends_both_aspell_processes() -> None:
    words = aspell_words()
    assert all(next(words) for _ in range(5))
    assert len(aspell_children()) == 2
    words.close()  # the generator's cleanup kills and reaps both processes
    assert aspell_children() == []


def test_the_sim_builds_a_missing_lexicon_first_and_says_so(tmp_path, monkeypatch, capsys) -> None:
    from device.cli import lexicon as lexicon_cli
    from hw_sim.cli import ensure_lexicon

    monkeypatch.setattr(lexicon_cli, "aspell_words", lambda: iter(["kočka", "pes", "Praha"]))
    monkeypatch.setattr(lexicon_cli, "hunspell_abbreviations", set)
    path = tmp_path / "data" / "lexicon.dawg"
    config = tmp_path / "table.toml"
    config.write_text(f'[table]\nlexicon = "{path}"\n', encoding="utf-8")
    assert ensure_lexicon(str(config)) == path
    captured = capsys.readouterr()
    assert f"slovník pro námitky chybí ({path}); stavím ho z aspell-cs (jednou, asi 1 minutu" in captured.out
    assert "partiar sim: slovník hotov za" in captured.out
    assert "čtu slova z aspell-cs" in captured.err and "stavím index" in captured.err
    assert "kočka" in Lexicon.load(path) and "praha" not in Lexicon.load(path)
    assert ensure_lexicon(str(config)) is None and capsys.readouterr().out == ""  # built once


def test_the_sim_goes_on_without_a_lexicon_it_cannot_build(tmp_path, monkeypatch, capsys) -> None:
    from device.cli import lexicon as lexicon_cli
    from hw_sim.cli import ensure_lexicon

    def missing():
        raise SourceError("the aspell program is missing: install the Debian packages aspell and aspell-cs")

    monkeypatch.setattr(lexicon_cli, "aspell_words", missing)
    monkeypatch.setattr(lexicon_cli, "hunspell_abbreviations", set)
    config = tmp_path / "table.toml"
    config.write_text(f'[table]\nlanguage = "en"\nlexicon = "{tmp_path / "lex.dawg"}"\n', encoding="utf-8")
    assert ensure_lexicon(str(config)) is None
    err = capsys.readouterr().err
    assert "cannot build the lexicon (the aspell program is missing" in err and "partiar lexicon build" in err


def test_the_sim_sets_an_unreadable_lexicon_aside_and_builds_a_new_one(tmp_path, monkeypatch, capsys) -> None:
    from device.cli import lexicon as lexicon_cli
    from hw_sim.cli import ensure_lexicon

    monkeypatch.setattr(lexicon_cli, "aspell_words", lambda: iter(["kočka", "pes"]))
    monkeypatch.setattr(lexicon_cli, "hunspell_abbreviations", set)
    path = tmp_path / "lexicon.dawg"
    path.write_bytes(b"not an index of any version")  # what an old or damaged file looks like to the reader
    config = tmp_path / "table.toml"
    config.write_text(f'[table]\nlexicon = "{path}"\n', encoding="utf-8")
    assert ensure_lexicon(str(config)) == path
    out = capsys.readouterr().out
    assert "slovník pro námitky nelze načíst (" in out and f"odkládám ho jako {path}.unusable" in out
    assert (tmp_path / "lexicon.dawg.unusable").read_bytes() == b"not an index of any version"
    assert "pes" in Lexicon.load(path)
    assert ensure_lexicon(str(config)) is None  # readable now: left alone


def test_the_build_report_puts_counted_nouns_in_the_right_form() -> None:
    """"načteno 2 slov" was the report of a two-word list: every count of the report goes through one formatter."""
    from shared.texts import counted

    assert counted("lexicon_read", "cs", read=2, kept=1) == "zdroj: 2 slova, ponecháno: 1 slovo"
    assert counted("lexicon_read", "en", read=1, kept=5) == "source: 1 word, kept: 5 words"
    wrote = counted("lexicon_wrote", "cs", path="x", words=5, nodes=3, size=1, seconds=0.04)
    assert wrote == "zapsáno x: 5 slov, 3 uzly, 1 bajt za 0.0 s"
