"""TSH's ``.t`` file (John Chew's tournament software for Scrabble): the line form both ways share, and the export.

A ``.t`` file is one division: a line a player, TSH's player number being the line's number (1-based):

    Name  rating  opp1 opp2 ...; score1 score2 ...; board t1 t2 ...; p12 s1 s2 ...; id X; fullname ...; kind ...

- Name: what TSH shows. TSH reads a ``.t`` file as Latin-1 unless told otherwise, so "Kaňovský" written in UTF-8
  shows as "KaÅovskÃ½". The export writes names TSH reads whatever it is told: ASCII, the diacritics taken off
  ("Kanovsky"); digits are left out (TSH takes the first number after the name for the rating). The exact name
  is kept in the extra field ``fullname``, percent-encoded UTF-8 (ASCII again), which the import reads back.
- rating: the ladder strength, 0 for none.
- Opponents: TSH player numbers; 0 is a round without an opponent.
- Scores: the player's own score in each round; against opponent 0 it is the spread TSH credits: positive a
  win (a bye), negative a loss (a forfeit to nobody), 0 a tie.
- Extra fields ``; key values ...``: ``board`` (the table; 0 for a bye or a round not in), ``p12`` (1 started, 2 replied,
  0 neither or unknown, 3 undecided), and this project's ``id`` (the ČAS id), ``fullname`` and ``kind`` (the ČAS
  kind of each round: ``p`` played, ``f`` forfeit, ``x`` exclusion, ``b`` bye, ``a`` both absent 0:0, ``v`` void,
  ``-`` not in the round; a capital for the first-named player of the pairing, who starts), so that
  ``tsh_import`` rebuilds exactly the tournament exported.

How ČAS results are written so TSH counts them as ČAS does, as far as TSH's conventions allow:

- a game played, or ended by an exclusion: against the real opponent, the scores, ``p12`` 1/2 from the pairing;
- a no-show (forfeit 100:0): against the real opponent, 100 and 0, ``p12`` from the pairing (who was to start):
  TSH counts a win and a spread of 100, as ČAS does;
- the bye: opponent 0, the bye's score minus the score of its fictitious opponent (100 by default);
- both absent (0:0, no points for either), a void game (no points, no score), a round the player was not in
  (before a late entry, after a withdrawal or an exclusion): opponent 0 and ``FORFEIT_SPREAD`` (-50), TSH's
  forfeit to nobody: a loss. Written as 0 TSH would count a tie (½); ČAS gives no point. TSH's spread then differs
  from ČAS's score difference by 50 for each such round (ČAS counts no score); the ``kind`` field keeps the ČAS
  reading for the import.
"""

from __future__ import annotations

import unicodedata
import urllib.parse

from tournament.games import GameKind
from tournament.state import Tournament

FORFEIT_SPREAD = -50
"""What a round without a game and without a point is written as: TSH's forfeit to nobody (a negative score
against opponent 0 is a loss; -50 is its usual figure)."""

KIND_CODES: dict[GameKind, str] = {"played": "p", "forfeit": "f", "exclusion": "x", "bye": "b", "void": "v"}
"""The ``kind`` field's letter of each ČAS result kind; ``a`` is a 0:0 forfeit (both absent), ``-`` no result."""
BOTH_ABSENT = "a"
NOT_IN_ROUND = "-"


def tsh_name(name: str) -> str:
    """``name`` as TSH reads it whatever encoding it is told: ASCII without diacritics, no digits (TSH reads the
    first number as the rating) and no ``;`` (TSH's field separator)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    kept = "".join(c for c in plain if c.isprintable() and not c.isdigit() and c not in ";#")
    return " ".join(kept.split())


def field_value(text: str) -> str:
    """An extra field's value in ASCII without spaces (percent-encoded UTF-8); ``unquote`` reads it back."""
    return urllib.parse.quote(text, safe="")


def _round_entry(tournament: Tournament, k: int, pid: str,
                 number: dict[str, int]) -> tuple[int, int | None, int, int, str]:
    """(opponent, score, board, p12, kind letter) of ``pid``'s round ``k``; the score None for a game paired and
    not finished yet (TSH's pairing ahead of its score)."""
    result = tournament.result_in(pid, k)
    if result is None:
        game = tournament.rounds[k].pairing.table_of(pid)
        if game is None:
            return 0, FORFEIT_SPREAD, 0, 0, NOT_IN_ROUND
        first = game.first == pid
        return number[game.opponent(pid)], None, game.table, 1 if first else 2, "P" if first else "p"
    if result.kind == "bye":
        return 0, result.first_score - result.second_score, 0, 0, KIND_CODES["bye"]
    own, other = result.score_of(pid)
    first = result.first == pid
    if result.kind == "void" or (result.kind == "forfeit" and own == other == 0):
        code = KIND_CODES["void"] if result.kind == "void" else BOTH_ABSENT
        return 0, FORFEIT_SPREAD, result.table or 0, 0, code.upper() if first else code
    opponent = result.opponent_of(pid)
    assert opponent is not None
    code = KIND_CODES[result.kind]
    return number[opponent], own, result.table or 0, 1 if first else 2, code.upper() if first else code


def export_tsh(tournament: Tournament) -> str:
    """The tournament as TSH ``.t`` text (module docstring): every round paired so far (a game of the round being
    played without a result yet: its opponent, board and ``p12``, no score, as TSH has a pairing before its
    score), players in registration order. Pure ASCII."""
    number = {pid: i + 1 for i, pid in enumerate(tournament.players)}
    rounds = sorted(tournament.rounds)
    lines = []
    for pid, player in tournament.players.items():
        entries = [_round_entry(tournament, k, pid, number) for k in rounds]
        opps, boards, p12, kinds = ([str(e[i]) for e in entries] for i in (0, 2, 3, 4))
        scores = [str(e[1]) for e in entries if e[1] is not None]  # only the last round can be unfinished
        name = tsh_name(player.name) or tsh_name(pid) or "Player"
        rating = player.rating if player.rating is not None else 0
        extra = [f"board {' '.join(boards)}", f"p12 {' '.join(p12)}"] if rounds else []
        extra += [f"id {field_value(pid)}", f"fullname {field_value(player.name)}"]
        extra += [f"kind {' '.join(kinds)}"] if rounds else []
        lines.append(f"{name:<30} {rating:4d} {' '.join(opps)}; {' '.join(scores)}; " + "; ".join(extra))
    return "\n".join(line.rstrip() for line in lines) + ("\n" if lines else "")
