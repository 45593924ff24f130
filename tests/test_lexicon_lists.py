"""Word lists that make a lexicon: the cleaning rules on real aspell-cs forms, the ČAS lists, overrides."""

from __future__ import annotations

import pytest

from engine.lexicon import OverrideError, czech_alphabet
from engine.lexicon.cas import cas_lists, cas_overrides
from engine.lexicon.compose import compose_words
from engine.lexicon.overrides import apply_overrides, parse_overrides
from engine.lexicon.wordfilter import abbreviations_from_hunspell, filter_words, has_syllabic_liquid

CZ = czech_alphabet()


def kept(words: list[str], **kwargs) -> set[str]:
    codes, _ = filter_words(words, CZ, **kwargs)
    return {CZ.decode(c) for c in codes}


# ---- the cleaning rules, on forms taken from aspell-cs -------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "dropped", "kept_words"),
    [
        ("capitalised", ["Praha", "Abcházce", "ABC", "kočKa"], ["praha", "kočka"]),
        ("letters", ["whisky", "antidarwinismus", "müsli", "ad-hoc", "rock'n'roll", "k2"], ["viski"]),
        ("length", ["a", "k", "abandonovanostech"], ["ob", "nejzajímavějším"]),
        ("tripled", ["brrr", "hmmm", "pšššt", "škvrrrk"], ["brr", "pšt", "pro"]),
        ("vowelless", ["km", "kg", "cm", "ml", "tzv", "http", "bll", "zkll", "skl", "br"], ["vlk", "krk", "čtvrt"]),
        ("vowelless", ["nbsp", "čj", "sv"], ["hm", "pst", "schl", "smrt", "brr", "chrt"]),
    ],
)
def test_rules_drop_source_forms(rule: str, dropped: list[str], kept_words: list[str]) -> None:
    codes, report = filter_words(dropped + kept_words, CZ)
    assert {CZ.decode(c) for c in codes} == set(kept_words)
    assert report.dropped[rule] == len(dropped)
    assert report.examples[rule] == dropped
    assert report.read == len(dropped) + len(kept_words) and report.kept == len(kept_words)


def test_abbreviations_given_are_dropped_only_as_listed() -> None:
    codes, report = filter_words(["atd", "apod", "tj", "kol", "atdx"], CZ, abbreviations={"atd", "apod", "tj"})
    assert {CZ.decode(c) for c in codes} == {"kol", "atdx"}
    assert report.dropped["abbreviation"] == 3


def test_broken_ll_past_tenses_go_declined_nouns_stay() -> None:
    source = ["zauzlil", "zauzll", "nedovll", "troll", "trollu", "trolla", "baseball", "baseballem", "atoll"]
    assert kept(source) == {"zauzlil", "troll", "trollu", "trolla", "baseball", "baseballem"}


def test_syllabic_r_and_l() -> None:
    assert all(has_syllabic_liquid(w) for w in ("vlk", "krk", "prst", "čtvrt", "brr", "trhl"))
    assert not any(has_syllabic_liquid(w) for w in ("km", "rl", "skl", "bl", "tzv"))


def test_curated_list_is_only_lowercased_and_checked_for_letters_and_length() -> None:
    codes, report = filter_words(["Praha", "km", "brrr", "zauzll", "whisky", "a"], CZ, heuristics=False)
    assert {CZ.decode(c) for c in codes} == {"praha", "km", "brrr", "zauzll"}
    assert report.dropped["letters"] == 1 and report.dropped["length"] == 1


def test_hunspell_abbreviations_are_the_dotted_entries_it_rejects_bare() -> None:
    dic = "7\natd.\nDr.\nkol.\nPh.D.\nkolo/ST\nzač.\n.\n"
    accepted = {"kol", "kolo", "zač"}
    assert abbreviations_from_hunspell(dic, accepted.__contains__) == {"atd", "dr"}


def test_hunspell_cs_abbreviations_with_the_real_dictionary() -> None:
    spylls = pytest.importorskip("spylls.hunspell", reason="spylls (pip) reads hunspell-cs")
    from device.cli.lexicon import HUNSPELL_DIC

    if not HUNSPELL_DIC.with_suffix(".dic").is_file():
        pytest.skip("Debian package hunspell-cs is not installed")
    dictionary = spylls.Dictionary.from_files(str(HUNSPELL_DIC))
    found = abbreviations_from_hunspell(HUNSPELL_DIC.with_suffix(".dic").read_text("utf-8"), dictionary.lookup)
    assert {"atd", "apod", "tj", "tzv", "dr", "sv", "mjr"} <= found
    assert not {"kol", "tel", "dem"} & found  # real words that are also abbreviations stay


# ---- the ČAS lists -------------------------------------------------------------------------------------------


def test_cas_lists_hold_the_seed_lists() -> None:
    lists = cas_lists()
    assert len(lists.czech_letter_names) == 31 == len(set(lists.czech_letter_names))
    assert len(lists.greek_letter_names) == 30 == len(set(lists.greek_letter_names))
    assert {"bé", "cé", "ch", "chá", "ije", "iks", "kvé", "ypsilony", "zet", "žet", "ďé", "ťé"} <= set(
        lists.czech_letter_names
    )
    assert {"gama", "théty", "joty", "omikrony", "ypsilony", "mí", "ksí", "epsílon"} <= set(lists.greek_letter_names)
    assert "gamma" not in lists.greek_letter_names and "mý" not in lists.greek_letter_names
    assert len(lists.tone_names) == 27 == len(set(lists.tone_names))
    assert {"cis", "des", "es", "as", "cisis", "ceses", "aisis", "asas", "eisis", "heses"} <= set(lists.tone_names)
    assert "hes" not in lists.tone_names and all(len(t) >= 2 for t in lists.tone_names)
    assert lists.added == ("ova",) and set(lists.removed) == {"tyt", "mý", "gamma"}
    assert lists.confirmed == ("dut", "kán", "tán")


def test_cas_lists_override_the_source_filter() -> None:
    # "ch" and "es" would be dropped or missing from the source; "tyt", "gamma" and "mý" are struck.
    composition = compose_words(["ch", "tyt", "gamma", "mý", "kočka"], CZ)
    words = composition.words()
    assert {"ch", "ova", "es", "cisis", "kvé", "théty", "dut", "kán", "kočka"} <= words
    assert not {"tyt", "gamma", "mý"} & words
    assert composition.report.dropped["vowelless"] == 1  # ch, then admitted back by the list
    assert composition.removed == 3
    assert composition.added == len(cas_lists().admitted())


def test_cas_overrides_are_all_valid_words() -> None:
    overrides = cas_overrides(CZ)
    assert [o.word for o in overrides if not o.add] == ["tyt", "mý", "gamma"]
    assert {o.word for o in overrides if o.add} == set(cas_lists().admitted())


# ---- organiser overrides -------------------------------------------------------------------------------------


def test_override_file_lines() -> None:
    text = "# organiser's list\nKočka\n+ myš # comment\n\n-pes\n  +kůň  \n"
    overrides = parse_overrides(text, "turnaj.txt", CZ)
    assert [(o.word, o.add, o.origin) for o in overrides] == [
        ("kočka", True, "turnaj.txt:2"),
        ("myš", True, "turnaj.txt:3"),
        ("pes", False, "turnaj.txt:5"),
        ("kůň", True, "turnaj.txt:6"),
    ]
    assert [o.line() for o in overrides] == ["+kočka", "+myš", "-pes", "+kůň"]


def test_overrides_apply_in_order_later_lines_win() -> None:
    first = parse_overrides("-kočka\n+pes\n", "a.txt", CZ)
    second = parse_overrides("+kočka\n-myš\n", "b.txt", CZ)
    codes = {CZ.encode("kočka"), CZ.encode("myš")}
    apply_overrides(codes, first, CZ)  # type: ignore[arg-type]
    assert {CZ.decode(c) for c in codes} == {"myš", "pes"}
    apply_overrides(codes, second, CZ)  # type: ignore[arg-type]
    assert {CZ.decode(c) for c in codes} == {"kočka", "pes"}


def test_organiser_list_wins_over_cas_lists() -> None:
    organiser = parse_overrides("+tyt\n-ova\n", "club.txt", CZ)
    words = compose_words(["kočka"], CZ, [organiser]).words()
    assert "tyt" in words and "ova" not in words


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("whisky", r"list.txt:2: 'whisky' has characters that are not Czech tile letters: 'w'"),
        ("+k2x", r"list.txt:2: 'k2x' has characters .*'2'"),
        ("-a", r"list.txt:2: 'a' has 1 letters; a word has 2..15"),
        ("nejneobhospodařovávatelnější", r"list.txt:2: .* has 28 letters"),
        ("+", r"list.txt:2: '\+' has a sign but no word"),
        ("pes kočka", r"list.txt:2: 'pes kočka' holds more than one word"),
    ],
)
def test_bad_override_lines_name_file_and_line(line: str, message: str) -> None:
    with pytest.raises(OverrideError, match=message):
        parse_overrides(f"kočka\n{line}\n", "list.txt", CZ)
