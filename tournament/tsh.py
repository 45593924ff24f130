"""Export to TSH's ``.t`` file (John Chew's tournament software for Scrabble), so an event run here can be read
by tools that know TSH.

One line per player, in registration order (TSH's player numbers are 1-based line numbers):
``Name  rating  opp1 opp2 ...; score1 score2 ...; p12 f1 f2 ...``. An opponent 0 is a round without an opponent
(a bye or a round not played); its score is the spread TSH credits (a bye: this event's bye score minus what the
bye's fictitious opponent gets; an unplayed round: 0). ``p12`` says who started: 1 first, 2 second, 0 neither.
Void games are written as unplayed rounds; a forfeit keeps its opponent and its 100:0.
"""

from __future__ import annotations

from tournament.state import Tournament


def export_tsh(tournament: Tournament) -> str:
    """The tournament as TSH ``.t`` text."""
    number = {pid: i + 1 for i, pid in enumerate(tournament.players)}
    rounds = sorted(tournament.rounds)
    lines = []
    for pid, player in tournament.players.items():
        opps: list[str] = []
        scores: list[str] = []
        p12: list[str] = []
        by_round = {r.round: r for r in tournament.results_of(pid)}
        for k in rounds:
            r = by_round.get(k)
            if r is None or r.kind == "void":
                opps.append("0")
                scores.append("0")
                p12.append("0")
            elif r.kind == "bye":
                opps.append("0")
                scores.append(str(r.first_score - r.second_score))
                p12.append("0")
            else:
                other = r.opponent_of(pid)
                assert other is not None
                opps.append(str(number[other]))
                scores.append(str(r.score_of(pid)[0]))
                p12.append(("1" if r.first == pid else "2") if r.met else "0")
        name = (player.name or pid).replace(";", ",")
        rating = player.rating if player.rating is not None else 0
        lines.append(f"{name:<30} {rating:4d} {' '.join(opps)}; {' '.join(scores)}; p12 {' '.join(p12)}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")
