"""The referee's side of a game (004 "Sankce", "Námitky", "Nesprávné složení kamenů"): the tile-set check, the
announced score, warnings, wrong rack counts, the challenges against a player rather than a play, the sheet's
header. Handlers of ``Game.apply`` kept apart from the turn machinery (``engine.game.machine``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.game import doubles, teams
from engine.game.errors import (
    AlreadyRuled,
    BadPlayer,
    BadSetCheck,
    ChallengePending,
    GameNotOver,
    GameOver,
    NoOpenMove,
)
from engine.game.events import (
    Announce,
    ChallengeRack,
    ChallengeSheet,
    DisputeForfeit,
    GameInfo,
    RackReport,
    RefereeWarning,
    SetChecked,
)
from engine.game.records import (
    Challenge,
    EndReason,
    GameEnded,
    Incident,
    IncidentKind,
    Output,
    ScoreAnnounced,
    WarningGiven,
)
from engine.game.state import GameState


def _incident(game: GameState, kind: IncidentKind, player: int, at: float, note: str = "") -> None:
    game.incidents.append(Incident(kind, player, at, len(game.history), note))


def on_set_checked(game: GameState, event: SetChecked) -> list[Output]:
    """The set as found at the check before the first move gives the bag count from then on; a set found wrong
    with the referee called keeps the game waiting for the ruling (``set_question``); the referee's ``put_right``
    gives the standard set back."""
    game._require_running("tile-set check")
    if game.history:
        raise BadSetCheck(
            f"tile-set check refused: the game has begun ({len(game.history)} turns); 004: the game is finished "
            "with the set it started with"
        )
    bag = game.tiles.bag()
    missing = Counter(event.missing)
    short = missing - bag
    if short:
        raise BadSetCheck(
            f"tile-set check refused: {''.join(short.elements())} missing, but the {game.tiles.name} set has "
            "no more of them"
        )
    counts = bag - missing
    counts.update(event.extra)
    if sum(counts.values()) < game.ruleset.scoring.rack_size * len(game.players) and event.referee != "put_right":
        raise BadSetCheck(f"tile-set check refused: {sum(counts.values())} tiles are too few to deal the racks")
    if event.referee == "called" and not (event.missing or event.extra):
        raise BadSetCheck("tile-set check refused: the referee is called to a set found complete")
    game.use_set(bag if event.referee in ("called", "put_right") else counts)
    game.set_check = (event.missing, event.extra)
    game.set_ruling = event.referee
    return []


def on_announce(game: GameState, event: Announce) -> list[Output]:
    """The announced score of the open play. Under ``record_announced_score`` (004, 000) it is what counts unless
    an upheld score challenge corrects it; otherwise it is only kept with the move."""
    if game._fixed is not None:
        raise GameOver("announced score refused: the game has ended")
    if game.pending is not None:
        raise ChallengePending("announced score refused: a challenge waits for a ruling")
    om = game.open_move
    if game.ruleset.doubles != "polish":  # Polish doubles: each play of the double move, as it is made
        if om is None:
            raise NoOpenMove(f"announced score {event.score} refused: no play is open")
        if om.score_ruled:
            raise AlreadyRuled(f"announced score {event.score} refused: the score has been ruled on")
    index = doubles.announce_target(game)
    if index is None:
        raise NoOpenMove(f"announced score {event.score} refused: no play waits for its announced score")
    move = game.history[index]
    recorded = event.score if game.ruleset.record_announced_score else move.engine_score
    delta = recorded - move.score
    game.history[index] = replace(move, announced=event.score, score=recorded, total=move.total + delta)
    game.shift_totals(index, delta)
    game.scores[move.player] += delta
    return [ScoreAnnounced(move.player, event.score, move.engine_score)]


def on_warning(game: GameState, event: RefereeWarning) -> list[Output]:
    """A warning on the sheet; from ``warnings_to_disqualify`` (004: the third) on, the exclusion is due: it is the
    chief referee's decision (``WarningGiven.exclusion_due``; recorded as ``Resign(disqualified=True)``), never
    the game's by itself."""
    game._require_running("warning")
    game._require_player(event.player, "warning")
    _incident(game, IncidentKind.WARNING, event.player, event.at, event.note)
    count = game.warnings(event.player)
    limit = game.ruleset.warnings_to_disqualify
    return [WarningGiven(event.player, count, exclusion_due=bool(limit) and count >= limit)]


def on_rack_report(game: GameState, event: RackReport) -> list[Output]:
    """A wrong rack count reported at once by its player: put right, no penalty (004). Under the alternative
    rule of a rack over the limit (001) the count is what the rack holds from now on."""
    game._require_running("rack report")
    game._require_player(event.player, "rack report")
    p = event.player
    if game.ruleset.rack_over_limit:
        more = event.count - game.rack_counts[p]
        if more > game.bag_count:
            raise BadPlayer(
                f"rack report refused: player {p} cannot hold {event.count} tiles, {game.bag_count} in the bag"
            )
        game.rack_counts[p] = event.count
    _incident(game, IncidentKind.RACK_REPORTED, p, event.at, str(event.count))
    return []


def on_challenge_player(game: GameState, event: ChallengeRack | ChallengeSheet) -> list[Output]:
    """A challenge of a player's rack count or of their not keeping the sheet: waits for the referee's ruling.
    Only against an opponent (004 "soupeř má právo vznést námitku"; doubles: not the partner)."""
    kind = "rack" if isinstance(event, ChallengeRack) else "sheet"
    what = f"{kind} challenge"
    game._require_turn(what)
    game._require_player(event.player, what)
    by = game.player_on_move if event.by is None else event.by
    game._require_player(by, what)
    if by == event.player:
        raise BadPlayer(f"{what} refused: player {by} cannot challenge themselves")
    if game.side_of(by) == game.side_of(event.player):  # 004: "soupeř má právo vznést námitku"
        raise BadPlayer(f"{what} refused: player {event.player} is on the same team as player {by}")
    game.pending = Challenge(kind, None, by, event.player, event.at)
    game._last_ruling = None
    return []


def rule_on_player(game: GameState, challenge: Challenge, upheld: bool, at: float, out: list[Output]) -> None:
    """A ruling on a rack or sheet challenge. Upheld rack: the player loses their next turn (004). Upheld sheet:
    recorded for the referee (004 gives no fixed penalty; a warning is the referee's). Not upheld: the
    ruleset's penalty for a rejected challenge (a cross)."""
    if not upheld:
        game._reject(challenge, at, out)
        return
    if challenge.kind == "rack":
        game.turns_owed[game.side_of(challenge.challenged)] += 1  # doubles: the team's next turn
        _incident(game, IncidentKind.RACK_UPHELD, challenge.challenged, at)
    else:
        _incident(game, IncidentKind.SHEET_UPHELD, challenge.challenged, at)


def on_info(game: GameState, event: GameInfo) -> list[Output]:
    """The sheet's header; a later one replaces the earlier."""
    if event.teams and len(event.teams) != len(game.players):
        raise BadPlayer(f"info refused: {len(event.teams)} teams for {len(game.players)} players")
    if event.player_ids and len(event.player_ids) != len(game.players):
        raise BadPlayer(f"info refused: {len(event.player_ids)} player ids for {len(game.players)} players")
    game.info = {"place": event.place, "competition": event.competition, "round": event.round,
                 "started": event.started, "table": event.table, "teams": list(event.teams),
                 "player_ids": list(event.player_ids)}  # fmt: skip
    return []



_NOT_DISPUTED = (EndReason.FORFEIT, EndReason.DISPUTE_FORFEIT)
"""Ends whose result no dispute over the cleared tiles can change: a no-show (no game on the board) and a dispute
forfeit already ruled."""


def on_dispute_forfeit(game: GameState, event: DisputeForfeit) -> list[Output]:
    """004 E: the tiles were cleared before the sheets were accepted and the dispute cannot be settled without them:
    the referee forfeits the game 100:0, 0:100 or 0:0 (``forfeit_points``; doubles: the winner's team). A 0:0 is
    what the referee said (``event.draw``; the seed does not say): void as in a game nobody came to (no winner, no
    draw points: ``Result.void``), or a draw. Replaces the result."""
    if game.ended is None:
        raise GameNotOver("dispute forfeit refused: the game is still on (004 E: after the game, over the sheets)")
    if game.ended in _NOT_DISPUTED:
        raise GameOver(f"dispute forfeit refused: the game ended by {game.ended.value}")
    if game.pending is not None:
        raise ChallengePending("dispute forfeit refused: a challenge waits for a ruling")
    winner = event.winner
    if winner is not None:
        game._require_player(winner, "dispute forfeit")
    points = game.ruleset.forfeit_points
    if game.doubles:
        won = None if winner is None else teams.team_of(winner)
        game._fixed = teams.fixed_result((points if won == 0 else 0, points if won == 1 else 0))
    else:
        game._fixed = tuple(points if p == winner else 0 for p in range(len(game.players)))
    game._void = winner is None and not event.draw
    game.ended, game.went_out = EndReason.DISPUTE_FORFEIT, None
    game.open_move, game._last_ruling = None, None
    return [GameEnded(EndReason.DISPUTE_FORFEIT)]
