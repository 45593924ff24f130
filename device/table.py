"""The table: one loop that owns the game, the move clock, the menu and the displays.

Devices never call into the table's state: their callbacks put an input on ``Table.inputs`` and the loop
(``run``) consumes them one at a time. Every game event is checked by the game, appended to the journal (flushed
and fsynced) and only then acted on (clock, displays, buzzer).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from device import inputs
from device.board_link.board_diff import BoardDiffError, diff_move
from device.clock import events as clock_events
from device.clock.core import MoveClock
from device.journal import Journal, read_journal, write_atomic
from device.menu import Action, Choice, Item, Menu
from device.texts import text
from engine import game as g
from engine.board import SIZE, Board, Square
from engine.errors import EngineError
from engine.placement import IllegalPlacement, Placement, validate
from engine.tiles import BLANK, Tile

log = logging.getLogger(__name__)

Grid = tuple[tuple[str | None, ...], ...]
"""A physical board as the link reports it: 15 rows of 15 cells, a letter, ``?`` for a blank, or None."""


def empty_grid() -> Grid:
    return tuple(tuple(None for _ in range(SIZE)) for _ in range(SIZE))


def grid_of(board: Board) -> Grid:
    """What the physical board should read for a game board: a blank reads ``?``."""
    return tuple(
        tuple((t.rack_letter if t else None) for t in board.cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)
    )


@dataclass
class Notice:
    """A short message shown in place of the menu lines until ``until`` (time source seconds) or replaced."""

    lines: tuple[str, str]
    until: float


@dataclass
class TableState:
    """What the table knows beyond the game and the clock (not journaled: rebuilt from them)."""

    physical: Grid = field(default_factory=empty_grid)
    link_up: bool = False
    faults: dict[tuple[int, int], str] = field(default_factory=dict)
    blank_letters: dict[tuple[int, int], str] = field(default_factory=dict)
    exchange_armed: int = 0
    notice: Notice | None = None
    last_score_text: str = ""


class Table:
    """The daemon's state owner. Built from its parts; ``run()`` is the loop (call it on one thread)."""

    def __init__(
        self,
        *,
        config: Any,
        time: Any,
        clock_factory: Callable[[float], MoveClock],
        game_factory: Callable[[], g.Game],
        journal: Journal,
        displays: Sequence[Any] = (),
        render: Callable[[dict[str, Any], int], list[str]] | None = None,
        signal: Any = None,
        led: Any = None,
        on_change: Callable[[], None] | None = None,
        request_snapshot: Callable[[], None] | None = None,
    ) -> None:
        self.config = config
        self.time = time
        self.clock_factory = clock_factory
        self.game_factory = game_factory
        self.journal = journal
        self.displays = list(displays)
        self.render = render
        self.signal = signal
        self.led = led
        self.on_change = on_change
        self.request_snapshot = request_snapshot
        self.inputs: queue.Queue[object] = queue.Queue()
        self.menu = Menu(title=text("menu", config.language))
        self.state = TableState()
        self.game = game_factory()
        self.clock = clock_factory(time.now())
        self.resumed = False
        self._stopped = False

    # ----------------------------------------------------------------------------------------------- startup
    def resume(self) -> bool:
        """Rebuild the game from the journal and the clock from its checkpoint; True if a game was resumed."""
        records = list(read_journal(self.journal.path))
        game_events = [g.event_from_json(r["e"]) for r in records if r.get("t") == "game"]
        if not game_events:
            self._refresh()
            return False
        self.game = self.game_factory()
        self.game.replay(game_events)
        checkpoint = self._read_clock_checkpoint()
        now = self.time.now()
        if checkpoint is not None:
            self.clock = MoveClock.restore(checkpoint, now, self.config.resume)
        self.resumed = True
        lang = self.config.language
        self._notify((text("resumed", lang), text("move_no", lang).format(n=len(self.game.history) + 1)), 10.0)
        log.info("resumed a game of %d events from %s", len(game_events), self.journal.path)
        self._refresh()
        return True

    # -------------------------------------------------------------------------------------------- the loop
    def run(self) -> None:
        """Consume inputs until a Stop arrives. Waits for the next input or the clock's next deadline."""
        self._refresh()
        while not self._stopped:
            timeout = self.time.timeout_until(self.clock.next_deadline())
            try:
                item = self.inputs.get(timeout=timeout)
            except queue.Empty:
                item = inputs.Tick()
            self.handle(item)

    def handle(self, item: object) -> None:
        """Process one input (the loop calls this; tests may call it directly on the loop's thread)."""
        now = self.time.now()
        try:
            if isinstance(item, inputs.Stop):
                self._stopped = True
                return
            self._advance_clock(now)
            if isinstance(item, inputs.ButtonPressed):
                self._on_button(item.player, now)
            elif isinstance(item, inputs.EncoderTurned):
                self.menu.turn(item.steps)
            elif isinstance(item, inputs.EncoderPushed):
                action = self.menu.push()
                if action is not None:
                    self._on_action(action, now)
            elif isinstance(item, inputs.LinkEvent):
                self._on_link(item.event, now)
            elif isinstance(item, inputs.RoundCommand):
                self._on_round(item.command, now)
        except EngineError as e:  # a refused event: the game is untouched; tell the table
            log.warning("refused: %s", e)
            self._notify(("!", str(e)[:40]), 4.0)
        self._advance_clock(self.time.now())
        self._refresh()

    def stop(self) -> None:
        self.inputs.put(inputs.Stop())

    # ------------------------------------------------------------------------------------------- the clock
    def _advance_clock(self, now: float) -> None:
        for ev in self.clock.advance(now):
            self._on_clock_event(ev, now)

    def _on_clock_event(self, ev: object, now: float) -> None:
        if isinstance(ev, clock_events.SignalEdge):
            if self.signal is not None:
                self.signal.edge(ev)
        elif isinstance(ev, clock_events.TimeOut):
            self._apply(g.TimeOut(at=ev.at, player=ev.player))
            self._checkpoint_clock()
        elif isinstance(ev, clock_events.GameTimeWarning):
            self._notify((text("warning", self.config.language), text("ten_minutes", self.config.language)), 10.0)
        elif isinstance(ev, clock_events.GameTimeExpired):
            self._apply(g.GameTimeExpired(at=ev.at))
        elif isinstance(ev, clock_events.NoShowForfeit):
            self._apply(g.Forfeit(at=ev.at, player=ev.player))
        elif isinstance(ev, clock_events.PressIgnored):
            log.info("press by player %s ignored: %s", ev.player, ev.reason)

    def _checkpoint_clock(self) -> None:
        try:
            import json

            write_atomic(self._clock_path(), json.dumps(self.clock.snapshot()))
        except OSError as e:
            log.error("cannot write the clock checkpoint: %s", e)

    def _clock_path(self):  # noqa: ANN202 - a Path
        return self.journal.path.with_name("clock.json")

    def _read_clock_checkpoint(self) -> dict[str, Any] | None:
        import json

        path = self._clock_path()
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            log.error("clock checkpoint %s unreadable (%s): the move restarts from the full time", path, e)
            return None

    # ------------------------------------------------------------------------------------------ the game
    def _apply(self, event: g.Event) -> list[object]:
        """Check an event with the game, journal it durably, then return the game's outputs to act on."""
        outputs = self.game.apply(event)  # raises GameError and leaves the game untouched if refused
        try:
            self.journal.append({"t": "game", "e": event.to_json()})
        except OSError:
            log.exception("journal write failed: rebuilding the game from the journal")
            self.game = self.game_factory()
            self.game.replay([g.event_from_json(r["e"]) for r in read_journal(self.journal.path) if r.get("t") == "game"])
            raise
        for out in outputs:
            if isinstance(out, g.RestartMoveClock):
                self.clock.restart_move(event.at)
                self._checkpoint_clock()
        return outputs

    def _on_button(self, player: int, now: float) -> None:
        if self.game.is_over:
            return
        if not self.clock.started:
            self.clock.press(player, now)
            self._checkpoint_clock()
            return
        if self.clock.paused:
            self._notify((text("paused", self.config.language), ""), 3.0)
            return
        if player != self.clock.player_on_move or player != self.game.player_on_move:
            self.clock.press(player, now)  # the clock logs and ignores it (wrong player / bounce)
            return
        if not self._end_move(player, now):
            return
        self.clock.press(player, now)
        self._checkpoint_clock()

    def _end_move(self, player: int, now: float) -> bool:
        """Turn what lies on the board into the player's move; False (with a notice) if it cannot be."""
        lang = self.config.language
        before = grid_of(self.game.board)
        try:
            detected = diff_move(before, self.state.physical)
        except BoardDiffError as e:
            self._notify((text("board_error", lang), str(e)[:40]), 6.0)
            return False
        if not detected.new_tiles:
            n = self.state.exchange_armed
            self.state.exchange_armed = 0
            self._apply(g.Exchange(at=now, player=player, count=n) if n else g.Pass(at=now, player=player))
            return True
        placements = []
        for row, col, letter in detected.new_tiles:
            if letter == BLANK:
                named = self.state.blank_letters.get((row, col))
                if named is None:
                    self._ask_blank_letters()
                    self._notify((text("name_blank", lang), ""), 6.0)
                    return False
                placements.append(Placement(Square(row, col), Tile(named, blank=True)))
            else:
                placements.append(Placement(Square(row, col), Tile(letter)))
        try:
            validate(self.game.board, placements)
        except IllegalPlacement as e:
            self._notify((text("illegal", lang), e.reason.value[:40]), 6.0)
            return False
        self._apply(g.Play.from_placements(at=now, player=player, placements=placements))
        self.state.blank_letters.clear()
        self.state.exchange_armed = 0
        return True

    def _ask_blank_letters(self) -> None:
        self.menu.set_items(self._menu_items())
        self.menu.open_item("blank")

    # ------------------------------------------------------------------------------------------ the menu
    def _menu_items(self) -> list[Item]:
        lang = self.config.language
        items: list[Item] = []
        game = self.game
        if game.is_over:
            if game.needs_racks:
                items.append(Item("racks", text("racks", lang), self._letter_choices(done=True), repeat=True))
            items.append(Item("new_game", text("new_game", lang)))
            items.append(Item("check", text("check", lang)))
            return items
        if self.clock.paused:
            if game.challenge_pending:
                items.append(Item("ruling", text("ruling", lang), (Choice(text("upheld", lang), True), Choice(text("rejected", lang), False))))
            else:
                items.append(Item("resume", text("resume", lang)))
            if game.appeal_possible:
                items.append(Item("appeal", text("appeal", lang), (Choice(text("for_appellant", lang), True), Choice(text("against", lang), False))))
            return items
        if self._unnamed_blanks():
            items.append(Item("blank", text("blank", lang), self._letter_choices(done=False), repeat=True))
        if game.open_move is not None:
            words = tuple(Choice(w, i) for i, w in enumerate(game.open_move_words()))
            if words:
                items.append(Item("challenge_word", text("challenge_word", lang), words))
            items.append(Item("challenge_score", text("challenge_score", lang)))
        if game.appeal_possible:
            items.append(Item("appeal", text("appeal", lang), (Choice(text("for_appellant", lang), True), Choice(text("against", lang), False))))
        items.append(Item("pass", text("pass", lang)))
        if game.can_exchange():
            items.append(Item("exchange", text("exchange", lang), tuple(Choice(str(n), n) for n in range(1, 8))))
        items.append(Item("pause", text("pause", lang)))
        items.append(Item("new_game", text("new_game", lang)))
        items.append(Item("check", text("check", lang)))
        return items

    def _letter_choices(self, done: bool) -> tuple[Choice, ...]:
        letters = list(self.game.tiles.letters)
        for extra in ("Q", "W", "Ö", "Ä", "Ü"):
            if extra not in letters:
                letters.append(extra)
        choices = [Choice(ch, ch) for ch in letters]
        if done:
            choices.insert(0, Choice(BLANK, BLANK))
        choices.append(Choice(text("done", self.config.language), "done"))
        choices.append(Choice(text("back", self.config.language), "back"))
        return tuple(choices)

    def _unnamed_blanks(self) -> list[tuple[int, int]]:
        before = grid_of(self.game.board)
        out = []
        for r in range(SIZE):
            for c in range(SIZE):
                if self.state.physical[r][c] == BLANK and before[r][c] is None and (r, c) not in self.state.blank_letters:
                    out.append((r, c))
        return out

    def _on_action(self, action: Action, now: float) -> None:
        lang = self.config.language
        player = self.game.player_on_move
        kind = action.kind
        if kind == "pass":
            self.state.exchange_armed = 0
            if self._end_move_with(g.Pass(at=now, player=player)):
                self.clock.press(player, now)
        elif kind == "exchange":
            self.state.exchange_armed = int(action.value)
            self._notify((text("exchange", lang) + f" {action.value}", text("press_button", lang)), 6.0)
        elif kind == "challenge_word":
            self.clock.pause(now)
            self._apply(g.ChallengeWord(at=now, player=player, word_index=int(action.value)))
        elif kind == "challenge_score":
            self.clock.pause(now)
            self._apply(g.ChallengeScore(at=now, player=player))
        elif kind == "ruling":
            self._apply(g.Ruling(at=now, upheld=bool(action.value)))
            self.clock.resume(now)
            self.clock.restart_move(now)
            self._checkpoint_clock()
        elif kind == "appeal":
            self._apply(g.AppealRuling(at=now, for_appellant=bool(action.value)))
            if self.clock.paused:
                self.clock.resume(now)
            self.clock.restart_move(now)
            self._checkpoint_clock()
        elif kind == "pause":
            self.clock.pause(now)
            self._checkpoint_clock()
        elif kind == "resume":
            self.clock.resume(now)
            self.clock.restart_move(now)
            self._checkpoint_clock()
        elif kind == "blank":
            letters = [v for v in action.value if v not in ("done", "back")]
            for square, letter in zip(self._unnamed_blanks(), letters, strict=False):
                self.state.blank_letters[square] = letter
        elif kind == "racks":
            self._apply(g.RackEntry(at=now, player=self.game.rack_entry_player, rack="".join(action.value)))
        elif kind == "new_game":
            self.new_game(now)
        elif kind == "check":
            self._notify((text("check", lang), text("lay_square", lang)), 8.0)

    def _end_move_with(self, event: g.Event) -> bool:
        before = grid_of(self.game.board)
        if any(self.state.physical[r][c] != before[r][c] for r in range(SIZE) for c in range(SIZE)):
            self._notify((text("board_error", self.config.language), text("remove_tiles", self.config.language)), 6.0)
            return False
        self._apply(event)
        return True

    def new_game(self, now: float) -> None:
        """Archive the journal and start a fresh game and clock."""
        self.journal.rotate()
        self.game = self.game_factory()
        self.clock = self.clock_factory(now)
        self.state.blank_letters.clear()
        self.state.exchange_armed = 0
        self._checkpoint_clock()

    # ------------------------------------------------------------------------------------------ the link
    def _on_link(self, event: object, now: float) -> None:
        from device.board_link import events as link_events

        if isinstance(event, link_events.LinkUp):
            self.state.link_up = True
        elif isinstance(event, link_events.LinkDown):
            self.state.link_up = False
            self._notify((text("link_down", self.config.language), ""), 5.0)
        elif isinstance(event, (link_events.BoardChanged, link_events.Snapshot)):
            self.state.physical = tuple(tuple(row) for row in event.board)
            if self._unnamed_blanks() and not self.menu.open:
                self._ask_blank_letters()
        elif isinstance(event, link_events.CellFault):
            self.state.faults[(event.row, event.col)] = event.kind

    def _on_round(self, command: str, now: float) -> None:
        if command == "start":
            self.clock.start_game(now)
        elif command == "end":
            self._apply(g.GameTimeExpired(at=now))

    # ----------------------------------------------------------------------------------------- display
    def _notify(self, lines: tuple[str, str], seconds: float) -> None:
        self.state.notice = Notice(lines, self.time.now() + seconds)

    def view(self) -> dict[str, Any]:
        """The table's state as plain data: for the LCD renderer, the web page and the hub."""
        now = self.time.now()
        notice = self.state.notice
        if notice is not None and now >= notice.until:
            self.state.notice = notice = None
        return {
            "name": self.config.name,
            "language": self.config.language,
            "players": list(self.config.players),
            "game": self.game.to_dict(),
            "clock": self.clock.view(now),
            "menu": list(self.menu.lines(text("back", self.config.language))) if self.menu.open else None,
            "notice": list(notice.lines) if notice else None,
            "link_up": self.state.link_up,
            "faults": [[r, c, k] for (r, c), k in sorted(self.state.faults.items())],
            "resumed": self.resumed,
        }

    def _refresh(self) -> None:
        self.menu.set_items(self._menu_items())
        view = self.view()
        if self.render is not None:
            for i, display in enumerate(self.displays):
                try:
                    display.show(self.render(view, i))
                except OSError as e:  # an LCD error must never stop the table
                    log.error("LCD %d write failed: %s", i, e)
        if self.led is not None:
            self.led.value = 1 if self.state.link_up and not self.state.faults else 0
        if self.on_change is not None:
            self.on_change()
