"""The tournament package's errors: one base class that is also a ValueError, a subclass per kind of mistake.

Every message names the input it refused: the event (its type, round, table or player) or the field."""

from __future__ import annotations

from typing import Any

REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_player": ("neznámý hráč {pid}", "unknown player {pid!r}"),
    "already_registered": ("hráč {pid} už je přihlášen", "player {pid!r} is already registered"),
    "id_taken": ("id {old} nelze změnit na {new}: {new} už je přihlášen",
                 "cannot change {old!r} to {new!r}: {new!r} is already registered"),
    "already_withdrawn": ("{pid}: hráč už odstoupil (od {n}. kola)", "{pid!r} has already withdrawn (from round {n})"),
    "already_excluded": ("{pid}: hráč už je vyloučen (od {n}. kola)", "{pid!r} has already excluded (from round {n})"),
    "not_closed": ("{n}. kolo ještě není uzavřeno: další kolo až po jeho uzavření",
                   "round {n} is not closed yet: the next round is paired after it"),
    "already_closed": ("{n}. kolo je už uzavřeno", "round {n} is already closed"),
    "missing": ("{n}. kolo nelze uzavřít, chybí výsledek: stůl {tables}",
                "round {n} cannot be closed, result missing: table {tables}"),
    "not_paired": ("{n}. kolo ještě není vylosováno", "round {n} has not been paired"),
    "published_no_change": ("{n}. kolo je zveřejněno: jeho los už nelze měnit",
                            "round {n} is published; its pairing can no longer change"),
    "already_published": ("{n}. kolo je už zveřejněno", "round {n} is already published"),
    "bye_has_result": ("{n}. kolo: volný los hráče {pid} už má výsledek; opravte ho",
                       "round {n}: the bye of {pid!r} already has a result; correct it"),
    "table_has_result": ("{n}. kolo, stůl {table} už má výsledek; opravte ho",
                         "round {n} table {table} already has a result; correct it"),
    "no_result_to_correct": ("{n}. kolo, stůl {table} nemá výsledek k opravě",
                             "round {n} table {table} has no result to correct"),
    "all_rounds": ("všechna kola turnaje jsou odehrána (počet kol {planned}); pro {n}. kolo zvyšte počet kol v "
                   "nastavení", "every round of the event has been played ({planned} planned); raise the rounds "
                   "planned in the settings for round {n}"),
    "nothing_to_pair": ("{n}. kolo: hrajících hráčů {count}, není koho losovat",
                        "round {n}: {count} active player(s), nothing to pair"),
}
"""What the tournament's rules refuse, in the words of the people who read it (the director's page, the command
line): ``key: (Czech, English)``; the English is also the error's message (logs)."""


class TournamentError(ValueError):
    """Base of every error the tournament core raises. One raised by ``refuse`` carries its words: ``key`` (of
    ``REFUSALS``) and ``values``, said in either language by ``said``."""

    def __init__(self, message: str = "", *, key: str | None = None, **values: Any) -> None:
        super().__init__(message)
        self.key, self.values = key, values

    @classmethod
    def refuse(cls, key: str, **values: Any) -> TournamentError:
        """The error of ``REFUSALS[key]`` with ``values`` (its message the English words)."""
        return cls(REFUSALS[key][1].format(**values), key=key, **values)

    def said(self, lang: str) -> str:
        """The refusal in ``lang`` (``cs`` or ``en``); without words of its own, its message."""
        if self.key is None:
            return str(self)
        return REFUSALS[self.key][lang == "en"].format(**self.values)


class DecodeError(TournamentError):
    """A deník entry (a JSON-able dict) that is not a valid event; the message names the field."""


class UnknownPlayer(TournamentError):
    """An event names a player id that is not registered (or no longer exists after an id change)."""


class DuplicatePlayer(TournamentError):
    """A registration or id change would give two players the same id."""


class PlayerNotActive(TournamentError):
    """A withdrawn or excluded player is paired, or withdrawn/excluded again."""


class PairingError(TournamentError):
    """A pairing that cannot stand: a player twice in a round, a round out of order, a change after publishing,
    or no pairing possible at all."""


class AllRoundsPlayed(PairingError):
    """The next round would come after the planned last one (``TournamentSettings.rounds``): the event is over."""


class ResultError(TournamentError):
    """A result that does not fit the round's pairing, a second result for a game without a correction, or
    scores that do not fit the result's kind."""


class RoundIncomplete(TournamentError):
    """A round closed while a game has neither a result nor a ruling; or the next round paired before it."""


class SettingsError(TournamentError):
    """A setting with a value it cannot take."""


class PairError(TournamentError):
    """A pair (doubles team) that cannot stand: in a singles tournament, members who are not registered players
    of the tournament, a player in two pairs, a strength that is not its members' average; or a change of the
    tournament's kind (singles or pairs) once anyone is registered."""
