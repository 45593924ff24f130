"""The ČAS taxative word lists (letter names, Greek letter names, tone names) and the 2000 rulings on the
overview of two- and three-letter words (words added, confirmed and removed).

They come from the data file ``data/cas_lists.toml``; the assembly of ČAS ruled that these lists override the
other sources, so :func:`cas_overrides` is applied after the dictionary source.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .alphabet import Alphabet
from .overrides import Override, check_word

DATA_FILE = "cas_lists.toml"


@dataclass(frozen=True)
class CasLists:
    """The lists as the data file holds them."""

    czech_letter_names: tuple[str, ...]
    greek_letter_names: tuple[str, ...]
    tone_names: tuple[str, ...]
    added: tuple[str, ...]
    confirmed: tuple[str, ...]
    removed: tuple[str, ...]

    def admitted(self) -> tuple[str, ...]:
        """Every word the lists admit, each once, in file order."""
        words = self.czech_letter_names + self.greek_letter_names + self.tone_names + self.added + self.confirmed
        return tuple(dict.fromkeys(words))


@cache
def cas_lists() -> CasLists:
    """The ČAS lists from the package's data file."""
    text = (resources.files(__package__) / "data" / DATA_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return CasLists(**{name: tuple(data[name]) for name in CasLists.__dataclass_fields__})


def cas_overrides(alphabet: Alphabet) -> list[Override]:
    """The lists as overrides: removals first, then every admitted word (so an admitted word always stays)."""
    lists = cas_lists()
    origin = f"{DATA_FILE}"
    removed = [Override(check_word(w, alphabet, f"{origin} removed"), False, origin) for w in lists.removed]
    admitted = [Override(check_word(w, alphabet, origin), True, origin) for w in lists.admitted()]
    return removed + admitted
