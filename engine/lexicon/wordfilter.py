"""Cleaning a spelling dictionary's word list for Scrabble.

A spell checker's list (aspell-cs expanded: about 3.1 million forms) is made for accepting running text, not for
judging Scrabble words. The rules below drop what can be recognised mechanically; each dropped word is counted
under the rule that dropped it, with a few examples, so ``partiar lexicon build`` can report what it did.
What remains wrong with the source is described in docs/lexicon.md.

Rules, in the order they are tried:

``capitalised``   a capital letter anywhere: proper names (Praha, Abcházce) and acronyms (ABC).
``letters``       a character that is no Czech tile letter: q, w, ä, ü, ö, digits, hyphens, apostrophes.
``length``        fewer than 2 or more than 15 letters.
``tripled``       one letter three times in a row: drawn-out interjections (brrr, hmmm, pššt).
``abbreviation``  the bare form of an abbreviation that hunspell-cs lists with a trailing dot and does not
                  accept without it (atd, apod, tj, sv, dr, mjr).
``vowelless``     no vowel and no syllabic r or l inside the word (km, kg, cm, tzv, http) or a doubled l
                  (bll, zkll: broken past tenses); a few interjections are kept (:data:`VOWELLESS_KEPT`).
``broken_ll``     ends in ``ll`` and the source has no case form of it (zauzll, nedovll: the source's affix rules
                  make them from ``-lit`` verbs; real nouns such as troll, baseball decline and stay).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from .alphabet import Alphabet
from .overrides import MAX_LENGTH, MIN_LENGTH

VOWELS = frozenset("aáeéěiíoóuúůyý")
SYLLABIC = frozenset("rl")
VOWELLESS_KEPT = frozenset({"hm", "pst", "psst", "pšt", "schl"})
"""Vowel-less words of the source that standard Czech dictionaries record (interjections; schnout -> schl)."""

LL_CASE_ENDINGS = ("u", "y", "a", "em", "ů", "ech", "ové", "i")
"""If any of these follows a word in ``-ll`` in the source, the word is a declined noun, not a broken form."""

RULES = ("capitalised", "letters", "length", "tripled", "abbreviation", "vowelless", "broken_ll")
EXAMPLES_PER_RULE = 12

_TRIPLED = re.compile(r"(.)\1\1")


@dataclass
class FilterReport:
    """How many source words each rule dropped, with the first few of them."""

    read: int = 0
    kept: int = 0
    dropped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RULES, 0))
    examples: dict[str, list[str]] = field(default_factory=lambda: {rule: [] for rule in RULES})

    def drop(self, rule: str, word: str) -> None:
        """Count ``word`` as dropped by ``rule``."""
        self.dropped[rule] += 1
        if len(self.examples[rule]) < EXAMPLES_PER_RULE:
            self.examples[rule].append(word)


def has_syllabic_liquid(word: str) -> bool:
    """True if an r or l stands between consonants inside the word (vlk, krk, čtvrt, brr)."""
    return any(
        ch in SYLLABIC and 0 < i < len(word) - 1 and word[i - 1] not in SYLLABIC
        for i, ch in enumerate(word)
    )


def vowelless_rejected(word: str) -> bool:
    """True if ``word`` has no vowel and cannot be a Czech word with a syllabic r/l."""
    if VOWELS.intersection(word) or word in VOWELLESS_KEPT:
        return False
    return "ll" in word or not has_syllabic_liquid(word)


def rule_for(
    word: str, alphabet: Alphabet, abbreviations: Collection[str], heuristics: bool = True
) -> str | None:
    """The first rule (except ``broken_ll``, which needs the whole list) that drops ``word``, or None.

    With ``heuristics=False`` only ``letters`` and ``length`` apply (for a curated list, read lowercased).
    """
    return _rule_and_codes(word, alphabet.encode, abbreviations, heuristics)[0]


def _rule_and_codes(
    word: str, encode: Callable[[str], bytes | None], abbreviations: Collection[str], heuristics: bool
) -> tuple[str | None, bytes | None]:
    """``rule_for`` and the word's code bytes, encoded once (the build filters 3.1 million words)."""
    if heuristics and word != word.lower():
        return "capitalised", None
    codes = encode(word)
    if codes is None:
        return "letters", None
    if not MIN_LENGTH <= len(word) <= MAX_LENGTH:
        return "length", codes
    if not heuristics:
        return None, codes
    if _TRIPLED.search(word):
        return "tripled", codes
    if word in abbreviations:
        return "abbreviation", codes
    if vowelless_rejected(word):
        return "vowelless", codes
    return None, codes


def is_broken_ll(word: str, source: Collection[bytes], alphabet: Alphabet) -> bool:
    """True for a word in ``-ll`` that ``source`` (code bytes) never declines (a broken past tense: zauzll)."""
    if not word.endswith("ll"):
        return False
    return not any(alphabet.encode(word + ending) in source for ending in LL_CASE_ENDINGS)


def filter_words(
    words: Iterable[str],
    alphabet: Alphabet,
    abbreviations: Collection[str] = frozenset(),
    heuristics: bool = True,
) -> tuple[set[bytes], FilterReport]:
    """The source words that pass every rule, as code bytes (:meth:`Alphabet.encode`), and the report.

    Words are kept encoded (about a third of the memory of ``str``), so a full build fits a small Pi.
    ``heuristics=False`` is for a curated word list: words are lowercased and only the letter and length rules
    apply.
    """
    report = FilterReport()
    kept: set[bytes] = set()
    encode = alphabet.encode
    for word in words:
        word = word.strip()
        if not word:
            continue
        report.read += 1
        if not heuristics:
            word = word.lower()
        rule, codes = _rule_and_codes(word, encode, abbreviations, heuristics)
        if rule is None:
            kept.add(codes)  # type: ignore[arg-type]  # no rule: the letters are the alphabet's
        else:
            report.drop(rule, word)
    if heuristics:
        ll = alphabet.encode("ll")
        endings = sorted(codes for codes in kept if codes.endswith(ll))  # type: ignore[arg-type]
        broken = [codes for codes in endings if is_broken_ll(alphabet.decode(codes), kept, alphabet)]
        for codes in broken:
            report.drop("broken_ll", alphabet.decode(codes))
            kept.discard(codes)
    report.kept = len(kept)
    return kept, report


def abbreviations_from_hunspell(dic_text: str, accepts: Callable[[str], bool]) -> set[str]:
    """Bare lowercase forms of the entries a hunspell ``.dic`` lists with a trailing dot (``atd.``, ``Dr.``)
    that ``accepts`` (the same dictionary's spell check) rejects without the dot."""
    out: set[str] = set()
    for line in dic_text.splitlines()[1:]:
        entry = line.split("/", 1)[0].strip()
        if entry.endswith(".") and "." not in entry[:-1]:
            bare = entry[:-1]
            if bare and not accepts(bare) and not accepts(bare.lower()):
                out.add(bare.lower())
    return out
