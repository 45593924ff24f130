"""The tournament desk on the hub: what the director does between rounds, each action a new entry in the deník
(``hub.tournament_store``) made from the ``tournament`` package's events, and the round's pairing sent to the
tables (``HubLink.send_pairing``).

Registration (one player, or a players CSV ``id,name,club,rating``), the software and settings (logged at the
start and at every change), pairing (``tournament.pairing.draw`` with a seed drawn here and logged), a change of
the pairing before it is published (a swap of players or of who starts, with the reason), publishing (each table
gets its players and who starts), results (filed from the tables' games under the round's pairing, or typed in
for a table without a unit; forfeits, exclusions, corrections as new entries), warnings and protests, withdrawal
and exclusion, closing the round. Player identity is the ČAS id: a game is filed by the ids the table's pairing
carried, never by the names typed at a table.

A tournament table number ``n`` is the table unit ``<unit_prefix><n>`` on the broker (``"5"`` by default).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import Any

from hub.director_pairs import pair_ids, pairs_table_pairing
from hub.errors import Refusal
from hub.store import ROUND_KEY, GameResult, HubStore
from hub.tournament_store import DenikStore
from shared.version import version_text as software_version  # the build the deník names (seed 004)
from tablelink.pairing import MAX_LABEL, MAX_NAME, PairedPlayer, TablePairing, parse_pairing
from tournament import SOFTWARE
from tournament.errors import PairingError, TournamentError
from tournament.events import (
    Event,
    PairingChanged,
    PlayerExcluded,
    PlayerRegistered,
    PlayerUpdated,
    PlayerWithdrawn,
    ProtestRecorded,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPublished,
    SettingsChanged,
    WarningRecorded,
)
from tournament.folder import read_players
from tournament.games import GAME_KINDS, MAX_SCORE, MIN_SCORE, Pairing
from tournament.pairing import draw
from tournament.players import BadText, Player, check_player, check_text, printable
from tournament.settings import TournamentSettings
from tournament.standings import StandingRow, complete_rounds, standings, turcas_rounds
from tournament.state import Result, Tournament

log = logging.getLogger(__name__)

REJECTED_KEY = "desk_rejected"
"""The hub's ``meta`` key of the tables' games the director rejected: ``[[round, unit, game id], ...]``."""
INFO_KEY = "desk_info"
"""The hub's ``meta`` key of the tournament's name, place and date (what the tables' score sheets print)."""
MAX_PLAYERS = 1000
MAX_REASON = 300


class DeskError(Refusal):
    """An action the desk refuses, in the director's words (a key of ``hub.director_texts`` and its fields); a
    tournament rule's refusal keeps the rule's error as ``rule``."""

    rule: TournamentError | None = None

    @classmethod
    def of(cls, exc: TournamentError) -> DeskError:
        """The desk's refusal of what the tournament's rules refused (``hub.director_pages.refusal_text`` says it)."""
        error = cls("refused_rule", why=str(exc))
        error.rule = exc
        return error


@dataclass(frozen=True)
class TournamentInfo:
    """The tournament's name, place and date: the pages' titles and the tables' score sheet header."""

    name: str = ""
    place: str = ""
    date: str = ""


@dataclass(frozen=True)
class Unfiled:
    """A table's finished game the desk did not file as the result: it waits on the desk for the director's one
    click (accept: it becomes the result, or corrects the one recorded; reject: it is set aside for good), unless
    ``acceptable`` is False (a game for a round not published: refused, shown only). ``reason`` is a key of
    ``hub.director_texts`` (its fields in ``why``); ``ids`` are the players' ids in playing order (the first
    started)."""

    round: int
    table: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    reason: str
    game_id: str = ""
    ids: tuple[str, ...] = ()
    kind: str = "played"
    why: tuple[tuple[str, str], ...] = ()
    acceptable: bool = True

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.round, self.table, self.game_id)
    error: DeskError | None = None
    """The refusal itself, so the page says ``reason`` in its language (``hub.director_pages.refusal_text``)."""


@dataclass(frozen=True)
class TableLink:
    """What the desk shows of one table of the running round: its unit, whether the unit acknowledged the
    pairing (``acked``: the unit that did), connected (None: never reported), last seen, its game started, its
    result in, the link's error sending it the pairing, and ``late``: no game begun ``NO_SHOW_AFTER`` after the
    round was published (a no-show to rule on, 004)."""

    table: int
    unit: str
    acked: str | None
    online: bool | None
    seen: float | None
    started: bool
    result: bool
    send_error: str | None
    late: bool


SETTLE = 15.0
"""Seconds a table's finished game must stay as it is (no new event) before the desk files it by itself: the play
that closed it may still be challenged (004: an upheld challenge reopens the game), and a result once recorded is
never changed by a table (``Desk(settle=...)``)."""
NO_SHOW_AFTER = 10 * 60.0
"""Seconds after the round is published when a table whose game has not begun is flagged on the desk (a setting:
``Desk(no_show_after=...)``, ``partiar hub`` passes ``--no-show-minutes``)."""


def parse_players_csv(text: str) -> list[Player]:
    """Players from a players list (``tournament.folder.read_players``, the one reader of the command line and the
    desk: ``id,name,club,rating`` with or without a header, commas or semicolons). Raises DeskError carrying the
    reader's FolderError, which names the line and the field."""
    try:
        return read_players(text, "CSV")
    except BadText:
        raise  # its own words in both languages (refusal_text)
    except TournamentError as exc:
        raise DeskError.of(exc) from None


def result_kind(result: GameResult) -> str:
    """The deník's kind of a table's finished game (``tournament.games.GameKind``)."""
    if result.end == "forfeit":
        return "forfeit"  # a no-show 100:0, or both absent 0:0 (forfeit_all)
    if result.end == "dispute_forfeit":
        # the referee's kontumace in a dispute (004 E): 100:0 / 0:100 a forfeit, 0:0 void (no points, no score)
        return "void" if result.forfeit_all else "forfeit"
    if result.end == "disqualified":
        return "exclusion"
    return "played"


class Desk:
    """The director's actions on one tournament (``denik``), the tables' results filed from ``store``, the
    pairing sent through ``send_pairing`` (``HubLink.send_pairing``; None: no broker, nothing is sent)."""

    def __init__(
        self,
        store: HubStore,
        denik: DenikStore,
        send_pairing: Callable[[TablePairing], None] | None = None,
        *,
        unit_prefix: str = "",
        clock: Callable[[], float] = time.time,
        no_show_after: float = NO_SHOW_AFTER,
        settle: float = SETTLE,
    ) -> None:
        self.store = store
        self.no_show_after = no_show_after
        self.settle = settle
        self.denik = denik
        self.send_pairing = send_pairing
        self.unit_prefix = unit_prefix
        self.clock = clock
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.unfiled: dict[tuple[int, str, str], Unfiled] = {}
        """The tables' games waiting on the desk, by (round, unit, game id)."""
        self.send_failures: tuple[int, dict[int, str]] = (0, {})
        """The last round sent and the tables its pairing did not go out to (the link's error)."""
        self._payload: tuple[int, dict[str, Any]] | None = None
        """``standings_payload`` as made at a deník version: every open standings page asks for it."""
        raw = store.db.get_meta(INFO_KEY)
        self.info = TournamentInfo(**json.loads(raw)) if raw else TournamentInfo()
        raw = store.db.get_meta(REJECTED_KEY)  # read once: a read commits the hub's queued writes (hub.db)
        self._rejected: set[tuple[int, str, str]] = (
            {(int(r), str(u), str(g)) for r, u, g in json.loads(raw)} if raw else set())

    # ------------------------------------------------------------------------------------------ plumbing
    @property
    def tournament(self) -> Tournament:
        return self.denik.tournament

    def _at(self) -> str:
        return datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="seconds")

    def _append(self, *events: Event) -> Tournament:
        try:
            state = self.denik.append(*events)
        except TournamentError as exc:
            raise DeskError.of(exc) from None
        self.store.feed.bump(DESK_KEY)
        if any(isinstance(e, RoundPublished | RoundClosed) for e in events):
            self.store.feed.bump(ROUND_KEY)  # the pages' header shows the desk's round
        return state

    def unit_of(self, table: int) -> str:
        return f"{self.unit_prefix}{table}"

    def table_of(self, unit: str) -> int | None:
        rest = unit.removeprefix(self.unit_prefix) if unit.startswith(self.unit_prefix) else ""
        return int(rest) if rest.isdigit() and len(rest) <= 4 else None

    def name(self, pid: str | None) -> str:
        if pid is None:
            return ""
        player = self.tournament.players.get(pid) or self.tournament.people.get(pid)
        return player.label if player is not None else pid

    # ------------------------------------------------------------------------------------------ settings
    def start(self, by: str = "hub") -> None:
        """Log the software, its version and the settings if the deník has no entry yet, or if the software's
        version differs from the one last logged (an upgrade during the tournament: seed 004)."""
        with self._lock:
            logged = self.tournament.software
            version = software_version()
            if logged and (logged[-1][1], logged[-1][2]) == (SOFTWARE, version):
                return
            settings = self.tournament.settings if logged else TournamentSettings()
            self._append(SettingsChanged(at=self._at(), by=by, software=SOFTWARE, version=version,
                                         settings=settings.to_dict()))  # fmt: skip

    def change_settings(self, changes: dict[str, Any], by: str) -> bool:
        """A change of settings: the whole new settings, the software and its version logged (seed 004); False
        (nothing logged) if nothing changed."""
        with self._lock:
            current = self.tournament.settings.to_dict()
            merged = {**current, **{k: v for k, v in changes.items() if k != "standings"}}
            if "standings" in changes:
                merged["standings"] = {**current["standings"], **changes["standings"]}
            try:
                settings = TournamentSettings.from_dict(merged)
            except TournamentError as exc:
                raise DeskError.of(exc) from None
            if settings == self.tournament.settings:
                return False
            self._append(SettingsChanged(at=self._at(), by=by, software=SOFTWARE, version=software_version(),
                                         settings=settings.to_dict()))  # fmt: skip
            return True

    def set_info(self, info: TournamentInfo, by: str) -> None:
        for label, value in asdict(info).items():
            if len(value) > MAX_LABEL or any(ord(c) < 32 for c in value):
                raise DeskError("refused_info", label=[f"t_{label}" if label == "name" else label], longest=MAX_LABEL)
        with self._lock:
            self.info = TournamentInfo(**{k: v.strip() for k, v in asdict(info).items()})
            self.store.db.set_meta(INFO_KEY, json.dumps(asdict(self.info), ensure_ascii=False))
            self.store.feed.bump(DESK_KEY)
            log.info("tournament info set by %s: %s", by, self.info)

    # ------------------------------------------------------------------------------------------ players
    def register(self, players: Iterable[Player], by: str) -> int:
        """Register players (one transaction: all or none); a known id with new details is an update."""
        with self._lock:
            known = {**self.tournament.players, **self.tournament.people}  # a pairs tournament's players too
            events: list[Event] = []
            for player in players:
                check_player(player)  # a line break or U+202E in a name would stop the round reaching the tables
                if player.id in known:
                    if known[player.id] != player:
                        events.append(PlayerUpdated(at=self._at(), by=by, player_id=player.id, player=player,
                                                    reason="registered again"))  # fmt: skip
                else:
                    events.append(PlayerRegistered(at=self._at(), by=by, player=player))
            if events:
                self._append(*events)
            return len(events)

    def import_csv(self, text: str, by: str) -> int:
        return self.register(parse_players_csv(text), by)

    def change_id(self, old: str, new: str, by: str, reason: str = "") -> None:
        """The player ``old`` is ``new`` from now on (a ČAS id registered after round 1): every earlier pairing and
        result counts for the new id, so the player is never split."""
        with self._lock:
            player = self.tournament.players.get(old)
            if player is None:
                raise DeskError("refused_no_player_id", pid=old)
            new = check_text("id", new.strip())
            self._append(PlayerUpdated(at=self._at(), by=by, player_id=old, player=replace(player, id=new),
                                       reason=reason or "ČAS id"))  # fmt: skip

    def withdraw(self, pid: str, by: str, reason: str = "") -> None:
        self._append(PlayerWithdrawn(at=self._at(), by=by, player_id=pid, reason=_reason(reason)))

    def exclude(self, pid: str, by: str, reason: str = "") -> None:
        self._append(PlayerExcluded(at=self._at(), by=by, player_id=pid, reason=_reason(reason)))

    def warning(self, round_number: int, pid: str, by: str, reason: str = "") -> None:
        table = self._table_of_player(round_number, pid)
        self._append(WarningRecorded(at=self._at(), by=by, round=round_number, table=table, player_id=pid,
                                     reason=_reason(reason)))  # fmt: skip

    def protest(self, round_number: int, pid: str, text: str, decision: str, by: str) -> None:
        table = self._table_of_player(round_number, pid)
        self._append(ProtestRecorded(at=self._at(), by=by, round=round_number, table=table, player_id=pid,
                                     text=_reason(text), decision=_reason(decision)))  # fmt: skip

    def _table_of_player(self, round_number: int, pid: str) -> int | None:
        rnd = self.tournament.rounds.get(round_number)
        game = rnd.pairing.table_of(pid) if rnd is not None else None
        return game.table if game is not None else None

    # ------------------------------------------------------------------------------------------ rounds
    def pair(self, by: str) -> int:
        """Pair the next round (the seed of the draw drawn here and logged with it); returns its number."""
        with self._lock:
            seed = secrets.randbelow(2**31)
            try:
                event = draw(self.tournament, seed, self._at(), by)
            except TournamentError as exc:
                raise DeskError.of(exc) from None
            self._append(event)
            log.info("round %d paired by %s (seed %d)", event.round, by, seed)
            return event.round

    def change_pairing(self, round_number: int, pairings: list[Pairing], bye: str | None, reason: str, by: str) -> None:
        if not reason.strip():
            raise DeskError("refused_change_reason")
        self._append(PairingChanged(at=self._at(), by=by, round=round_number, pairings=tuple(pairings), bye=bye,
                                    reason=_reason(reason)))  # fmt: skip

    def swap_start(self, round_number: int, table: int, reason: str, by: str) -> None:
        """Who starts at ``table`` turned round (before publishing)."""
        with self._lock:
            rnd = self._round(round_number)
            pairings = [Pairing(p.table, p.second, p.first) if p.table == table else p for p in rnd.pairing.pairings]
            if rnd.pairing.by_table(table) is None:
                raise DeskError("refused_no_table", n=round_number, table=table)
            self.change_pairing(round_number, pairings, rnd.pairing.bye, reason, by)

    def swap_players(self, round_number: int, a: str, b: str, reason: str, by: str) -> None:
        """Players ``a`` and ``b`` change places in the round's pairing (tables, starts, the bye)."""
        with self._lock:
            rnd = self._round(round_number)
            named = set(rnd.pairing.players())
            for pid in (a, b):
                if pid not in named:
                    raise DeskError("refused_not_in_round", pid=pid, n=round_number)
            if a == b:
                raise DeskError("refused_same_two")

            def other(pid: str) -> str:
                return b if pid == a else a if pid == b else pid

            pairings = [Pairing(p.table, other(p.first), other(p.second)) for p in rnd.pairing.pairings]
            bye = other(rnd.pairing.bye) if rnd.pairing.bye is not None else None
            self.change_pairing(round_number, pairings, bye, reason, by)

    def publish(self, round_number: int, by: str) -> list[TablePairing]:
        """Publish the round, whole or not at all: every table's pairing is made and checked as the table will
        read it first (a pairing a table would refuse refuses the publishing, nothing logged, nothing sent), then
        the publishing is logged and each table gets its pairing (retained on the broker). A table the broker
        link fails for is in ``send_failures``; "send again" (``send``) sends the round again."""
        with self._lock:
            rnd = self._round(round_number)
            if not rnd.published:
                self._checked_pairings(round_number, rnd)
            self._append(RoundPublished(at=self._at(), by=by, round=round_number))
            return self.send(round_number)

    def _checked_pairings(self, round_number: int, rnd: Any) -> list[TablePairing]:
        made = [self.table_pairing(round_number, p) for p in rnd.pairing.pairings]
        for pairing in made:
            try:
                parse_pairing(pairing.payload(), pairing.table)
            except ValueError as exc:  # tablelink's SchemaError
                raise DeskError("refused_pairing_refused", table=pairing.table, why=str(exc)) from None
        return made

    def send(self, round_number: int) -> list[TablePairing]:
        """Send (again) each table its pairing of a published round. Every table is tried: one the link fails
        for (``send_failures`` says which and why) does not keep the pairing from the tables after it."""
        with self._lock:
            rnd = self._round(round_number)
            if not rnd.published:
                raise DeskError("refused_not_published", n=round_number)
            made = self._checked_pairings(round_number, rnd)
            failures: dict[int, str] = {}
            if self.send_pairing is not None:
                for game, pairing in zip(rnd.pairing.pairings, made, strict=True):
                    try:
                        self.send_pairing(pairing)
                    except Exception as exc:  # the link's: the other tables still get theirs, the desk shows it
                        log.error("round %d, table %d: the pairing was not sent: %s", round_number, game.table, exc)
                        failures[game.table] = str(exc)[:200]
            self.send_failures = (round_number, failures)
            self.store.feed.bump(DESK_KEY)
            return made

    def table_pairing(self, round_number: int, game: Pairing) -> TablePairing:
        if self.tournament.settings.doubles:  # a pairs tournament: the four players and the starting pair
            return pairs_table_pairing(self, round_number, game)
        # printable: an id or name in a deník written before the check (tournament.players) still reaches the table
        players = tuple(PairedPlayer(printable(pid), printable(self.name(pid))[:MAX_NAME]) for pid in game.players())
        return TablePairing(f"r{round_number}-t{game.table}-{self.denik.version}", round_number,
                            self.unit_of(game.table), players, self.info.name, self.info.place, self.info.date,
                            self.clock(), number=game.table)  # fmt: skip

    def expected_players(self, unit: str, number: int) -> tuple[str, ...] | None:
        """The players (their names as the table got them) the desk's running round, the last one published and
        not closed, sends to table unit ``unit``; None when no such round pairs that table
        (``HubStore.expected_players``'s hook: the hub takes in that game and sets any other aside). ``number``,
        the hub's round control's round, is not used: the desk's round is what the tables were sent (a referee
        who did not move the round control on must not push the paired games aside). Reads the state without the
        desk's lock (the state is replaced whole), as the store calls it under its own."""
        table = self.table_of(unit)
        running = [r for n, r in sorted(self.tournament.rounds.items()) if r.published and not r.closed]
        if table is None or not running:
            return None
        for game in running[-1].pairing.pairings:
            if game.table == table:
                return self.table_pairing(running[-1].number, game).names
        return None

    def round_state(self) -> tuple[int, str] | None:
        """The desk's last round and where it is ("paired", "published", "closed"); None before round 1. Reads
        the state without the desk's lock (the state is replaced whole), as the store calls it under its own."""
        tm = self.tournament
        rnd = tm.rounds.get(tm.last_round)
        if rnd is None:
            return None
        return rnd.number, "closed" if rnd.closed else "published" if rnd.published else "paired"

    def close_round(self, round_number: int, by: str) -> None:
        self.file_table_results()
        self._append(RoundClosed(at=self._at(), by=by, round=round_number))

    def _round(self, number: int) -> Any:
        rnd = self.tournament.rounds.get(number)
        if rnd is None:
            raise DeskError.of(PairingError.refuse("not_paired", n=number))
        return rnd

    # ------------------------------------------------------------------------------------------ results
    def enter_result(self, round_number: int, table: int, first_score: int, second_score: int, kind: str, by: str,
                     reason: str = "") -> None:  # fmt: skip
        """The director's result for ``table`` (scores in the pairing's order: the starting player first); a
        table that has one already gets a correction (``reason`` required)."""
        if kind not in GAME_KINDS or kind == "bye":
            raise DeskError("refused_kind", kind=kind, kinds=[f"kind_{k}" for k in GAME_KINDS if k != "bye"])
        for score in (first_score, second_score):
            if not MIN_SCORE <= score <= MAX_SCORE:
                raise DeskError("refused_score", score=score, low=MIN_SCORE, high=MAX_SCORE)
        with self._lock:
            rnd = self._round(round_number)
            if not rnd.published:
                raise DeskError("refused_result_unpublished", n=round_number)
            game = rnd.pairing.by_table(table)
            if game is None:
                raise DeskError("refused_no_table", n=round_number, table=table)
            first, second = game.first, game.second
            current: Result | None = rnd.results.get(table)
            if current is not None and current.first == game.second:
                # the table's game was started by the replying player (accepted so): a correction keeps who
                # really started, the scores typed in the pairing's order follow them
                first, second, first_score, second_score = game.second, game.first, second_score, first_score
            fields = dict(at=self._at(), by=by, round=round_number, table=table, first=first, second=second,
                          first_score=first_score, second_score=second_score, kind=kind, source="manual")  # fmt: skip
            if table in rnd.results:
                if not reason.strip():
                    raise DeskError("refused_correction", table=table)
                self._append(ResultCorrected(**fields, reason=_reason(reason)))
            else:
                self._append(ResultRecorded(**fields))

    def forfeit(self, round_number: int, table: int, absent: str, by: str) -> None:
        """A no-show (004): ``absent`` "first" or "second" loses 0:100; "both": 0:0 and no points."""
        scores = {"first": (0, 100), "second": (100, 0), "both": (0, 0)}.get(absent)
        if scores is None:
            raise DeskError("refused_absent", absent=absent)
        self.enter_result(round_number, table, *scores, "forfeit", by, reason=f"no-show: {absent}")

    def exclusion_result(self, round_number: int, table: int, excluded: str, margin: int, by: str) -> None:
        """A game ended by the third warning (004): the excluded player loses 0:100, or 0:margin above 100."""
        loss = max(100, margin)
        rnd = self._round(round_number)
        game = rnd.pairing.by_table(table)
        if game is None or excluded not in game.players():
            raise DeskError("refused_not_at_table", pid=excluded, table=table, n=round_number)
        scores = (0, loss) if excluded == game.first else (loss, 0)
        self.enter_result(round_number, table, *scores, "exclusion", by, reason=f"exclusion of {excluded}")

    def file_table_results(self) -> int:
        """File the tables' finished games of a published, open round as results. A game is filed by itself only
        when it is the one game of its round at that table, comes from the unit the desk sent the table's pairing
        to (the unit that acknowledged it, when one did), and names the paired players by their ids in the
        pairing's order, and the table has no result yet. Anything else waits in ``unfiled`` for the director's
        one click (``accept`` / ``reject``): a table never changes a result already recorded and never causes a
        correction (a leaked table password cannot make the standings flip). A game is filed once it has had no
        new event for ``settle`` seconds (the closing play may still be challenged). Returns how many were
        filed."""
        filed = 0
        with self._lock:
            rejected = self._rejected
            by_table: dict[tuple[int, str], list[GameResult]] = {}
            for result in self.store.results():
                if (result.round, result.table, result.game_id) not in rejected:
                    by_table.setdefault((result.round, result.table), []).append(result)
            waiting: dict[tuple[int, str, str], Unfiled] = {}
            for games in by_table.values():
                for result in games:
                    pending = self._check(result, len(games))
                    if pending is None:
                        continue
                    if pending.reason == "filed":
                        last = self.store.last_received(result.table, result.game_id)
                        if last is None or time.time() - last >= self.settle:  # the store's clock
                            filed += self._record(result)
                    else:
                        waiting[pending.key] = pending
            for key in waiting.keys() - self.unfiled.keys():
                log.warning("round %d, table %s, game %s waits for the director: %s", *key, waiting[key].reason)
            if waiting.keys() != self.unfiled.keys():
                self.store.feed.bump(DESK_KEY)
            self.unfiled = waiting
        return filed

    def _check(self, result: GameResult, games: int) -> Unfiled | None:
        """None for a game the desk has nothing to do with (no such round or table in the tournament, the round
        closed, or the game is the table's recorded result); an ``Unfiled`` with reason "filed" for one to file
        now; else the ``Unfiled`` waiting for the director, saying why."""
        rnd = self.tournament.rounds.get(result.round)
        table = self.table_of(result.table)
        if rnd is None or table is None or rnd.closed:
            return None
        kind = result_kind(result)
        scores = (0, 0) if kind == "void" else tuple(result.scores)
        ids = pair_ids(self, result.player_ids)  # a doubles table's teams: the pairs
        made = Unfiled(result.round, result.table, tuple(result.players), scores, "filed", result.game_id, ids, kind)
        game = rnd.pairing.by_table(table)
        if not rnd.published:
            return replace(made, reason="pending_unpublished", why=(("n", str(rnd.number)),), acceptable=False)
        if game is None:
            return replace(made, reason="pending_no_table", why=(("n", str(rnd.number)), ("table", str(table))),
                           acceptable=False)  # fmt: skip
        fits = len(ids) == 2 and set(ids) == {game.first, game.second}
        current: Result | None = rnd.results.get(table)
        if current is not None:
            same = fits and (current.first, current.first_score, current.second_score, current.kind) == (
                ids[0], scores[0], scores[1], kind)  # fmt: skip
            return None if same else replace(made, reason="pending_recorded", acceptable=fits)
        if not fits:
            return replace(made, reason="pending_players", why=(("pairing", f"{game.first} – {game.second}"),),
                           acceptable=False)  # fmt: skip
        acked = self.store.pairing_acks(result.round).get(table)
        if acked is not None and acked != result.table:
            return replace(made, reason="pending_unit", why=(("unit", acked),))
        if ids != (game.first, game.second):
            return replace(made, reason="pending_order", why=(("first", game.first),))
        if games > 1:
            return replace(made, reason="pending_several", why=(("games", str(games)),))
        return made

    def _record(self, result: GameResult) -> int:
        """File ``result`` (checked by ``_check``) as the table's result in the deník."""
        table = self.table_of(result.table)
        pending = self._check(result, 1)
        if table is None or pending is None or pending.reason != "filed":
            return 0
        fields: dict[str, Any] = dict(at=self._at(), by=f"table {result.table}", round=result.round, table=table,
                                      first=pending.ids[0], second=pending.ids[1], first_score=pending.scores[0],
                                      second_score=pending.scores[1], kind=pending.kind, source="table")  # fmt: skip
        self._append(ResultRecorded(**fields))
        return 1

    def accept(self, round_number: int, unit: str, game_id: str, by: str) -> Unfiled:
        """The director's one click: the table's game waiting on the desk becomes the table's result (a
        correction of the one recorded, saying so), with the players in the order the game was played (who
        started, as the table recorded it)."""
        with self._lock:
            self.file_table_results()
            pending = self.unfiled.get((round_number, unit, game_id))
            if pending is None:
                raise DeskError("refused_no_waiting_game", n=round_number, table=unit, game=game_id)
            if not pending.acceptable:
                raise DeskError("refused_not_acceptable", n=round_number, table=unit, game=game_id)
            table = self.table_of(unit)
            assert table is not None
            fields: dict[str, Any] = dict(at=self._at(), by=by, round=round_number, table=table, first=pending.ids[0],
                                          second=pending.ids[1], first_score=pending.scores[0],
                                          second_score=pending.scores[1], kind=pending.kind, source="table")  # fmt: skip
            if table in self.tournament.rounds[round_number].results:
                self._append(ResultCorrected(**fields, reason=f"the director accepted table {unit}'s game {game_id}"))
            else:
                self._append(ResultRecorded(**fields))
            del self.unfiled[pending.key]
            return pending

    def reject(self, round_number: int, unit: str, game_id: str, by: str) -> None:
        """The director's one click: the table's game waiting on the desk is set aside for good (kept in the
        hub's database; it never comes back on the desk)."""
        with self._lock:
            key = (round_number, unit, game_id)
            if key not in self.unfiled:
                raise DeskError("refused_no_waiting_game", n=round_number, table=unit, game=game_id)
            self.store.db.set_meta(REJECTED_KEY, json.dumps(sorted(self._rejected | {key}), ensure_ascii=False))
            self._rejected.add(key)
            del self.unfiled[key]
            self.store.feed.bump(DESK_KEY)
            log.info("round %d, table %s: game %s rejected by %s", round_number, unit, game_id, by)

    # ------------------------------------------------------------------------------------------ views
    def links(self, round_number: int) -> list[TableLink]:
        """Each table of a published round: the link to its unit as the desk shows it (``TableLink``)."""
        rnd = self.tournament.rounds.get(round_number)
        if rnd is None or not rnd.published:
            return []
        acks = self.store.pairing_acks(round_number)
        units = {game.table: self.unit_of(game.table) for game in rnd.pairing.pairings}
        view = self.store.link_view(list(units.values()), round_number)
        failed_round, failures = self.send_failures
        published = self._published_at(round_number)
        overdue = published is not None and self.clock() - published >= self.no_show_after and not rnd.closed
        out = []
        for table, unit in units.items():
            seen = view[unit]
            has_result = table in rnd.results
            out.append(TableLink(table, unit, acks.get(table), seen["online"], seen["seen"], seen["started"],
                                 has_result, failures.get(table) if failed_round == round_number else None,
                                 overdue and not seen["started"] and not has_result))  # fmt: skip
        return out

    def _published_at(self, round_number: int) -> float | None:
        """When the round was published (its deník entry's time), seconds since the epoch."""
        for event in reversed(self.denik.events()):
            if isinstance(event, RoundPublished) and event.round == round_number:
                try:
                    return datetime.fromisoformat(event.at).timestamp()
                except ValueError:
                    return None
        return None

    def standings(self, up_to: int | None = None) -> list[StandingRow]:
        return standings(self.tournament, None, up_to)

    def standings_payload(self) -> dict[str, Any]:
        """The hub's ``/api/standings`` for a tournament on the desk: after every round paired, each player's
        line of the TurČAS standings (``tournament.standings``), the rounds each counts (``counted``: a round still
        being played is not, as ``complete_rounds`` says), and the coefficients to print under them."""
        cached = self._payload
        if cached is not None and cached[0] == self.denik.version:
            return cached[1]
        version, tm = self.denik.version, self.tournament
        settings = tm.settings.standings
        soft = tm.software[-1] if tm.software else ("", SOFTWARE, software_version())
        rounds = {}
        for number in sorted(tm.rounds):
            rounds[str(number)] = [{
                "rank": r.rank, "rank_to": r.rank_to, "id": r.id, "player": r.name or r.id, "games": r.games, "points": r.points,
                "wins": r.wins, "turcas": r.turcas, "buchholz": r.buchholz, "scored": r.own_score,
                "spread": r.score_difference, "starts": r.starts_balance, "status": r.status,
                "excluded": r.status == "excluded",
            } for r in standings(tm, None, number)]  # fmt: skip
        # the rounds each table counts (the tie-break's: a round still being played is left out), for its footer
        counted = {str(number): complete_rounds(tm, number) for number in sorted(tm.rounds)}
        kol = {n: turcas_rounds(tm, c) for n, c in counted.items()}  # TurČAS's Kol: the planned rounds
        payload = {"kind": "turcas", "rounds": rounds, "counted": counted, "kol": kol,
                   "coefficients": {**settings.coefficients, "tiebreak": settings.tiebreak,
                                    "software": soft[1], "version": soft[2]}}  # fmt: skip
        self._payload = (version, payload)
        return payload

    # ------------------------------------------------------------------------------------------ thread
    def start_filing(self) -> None:
        """File the tables' results as they arrive (a thread woken by the store's change feed)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._filing_loop, name="hub-desk", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def _filing_loop(self) -> None:
        feed = self.store.feed
        seen = 0
        while not self._stop.is_set():
            got = feed.wait(seen, None, 1.0)
            if got is None:
                return
            seen, changed = got
            if any(k.startswith("table:") for k in changed) or not changed:
                try:
                    self.file_table_results()
                except Exception:  # the filing thread must go on: the director sees the game on the pages
                    log.exception("hub: filing the tables' results failed")


DESK_KEY = "desk"
"""The ``ChangeFeed`` key bumped at every deník entry."""


def open_desk(store: HubStore, send_pairing: Callable[[TablePairing], None] | None = None, unit_prefix: str = "",
              by: str = "hub", no_show_after: float = NO_SHOW_AFTER) -> Desk:  # fmt: skip
    """The desk over the store's database: its deník opened (the software and settings logged on a new one) and
    the tables' results filed as they arrive (``Desk.stop`` ends that)."""
    desk = Desk(store, DenikStore(store.db), send_pairing, unit_prefix=unit_prefix, no_show_after=no_show_after)
    store.pairing = desk.expected_players  # a flood of made-up games at a table cannot push its paired game out
    store.tournament_round = desk.round_state  # one round number: the desk's, on every page and for every game
    desk.start(by)
    desk.file_table_results()
    desk.start_filing()
    return desk


def _reason(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > MAX_REASON:
        raise DeskError("refused_reason_long", longest=MAX_REASON, got=len(text))
    return text


__all__ = ["Desk", "DeskError", "TableLink", "TournamentInfo", "Unfiled", "parse_players_csv", "result_kind"]
