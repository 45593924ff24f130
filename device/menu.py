"""The encoder menu: what the board cannot see (pass, exchange, challenges, rulings, blanks, racks, new game...).

A pure state machine: ``turn(steps)`` and ``push()`` move through the menu and return an ``Action`` when the
player confirms one. The table decides which items are offered now (``set_items``) and renders ``lines()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Choice:
    """One value an item can take (label shown, value handed to the action)."""

    label: str
    value: object = None


@dataclass(frozen=True)
class Item:
    """A menu entry: an action kind, its label, and the values to pick from (empty: confirm directly)."""

    kind: str
    label: str
    choices: tuple[Choice, ...] = ()
    repeat: bool = False
    """Pick several values one after another (blank letters, rack letters); a ``done`` choice ends."""
    head: str = ""
    """A short label for the first line while values are picked (it shows them after it); default ``label``."""


@dataclass(frozen=True, slots=True)
class Action:
    """What the player confirmed."""

    kind: str
    value: object = None


@dataclass
class Menu:
    """Encoder-driven menu over the items the table offers."""

    items: list[Item] = field(default_factory=list)
    open: bool = False
    index: int = 0
    chosen: Item | None = None
    choice_index: int = 0
    picked: list[object] = field(default_factory=list)
    title: str = "MENU"

    def set_items(self, items: Sequence[Item]) -> None:
        """Offer these items (the table calls this whenever the situation changes)."""
        current = self.items[self.index].kind if self.items and self.index < len(self.items) else None
        self.items = list(items)
        kinds = [i.kind for i in self.items]
        self.index = kinds.index(current) if current in kinds else 0
        if self.chosen is not None and self.chosen.kind not in kinds:
            self.close()
        if not self.items:
            self.close()

    def open_item(self, kind: str) -> bool:
        """Open the menu straight on an item (e.g. blank letters when a blank appears); False if not offered."""
        for i, item in enumerate(self.items):
            if item.kind == kind:
                self.open, self.index = True, i
                self._choose(item)
                return True
        return False

    def close(self) -> None:
        self.open = False
        self.chosen = None
        self.choice_index = 0
        self.picked = []

    def turn(self, steps: int) -> None:
        """Rotate the encoder by ``steps`` detents (negative = counter-clockwise)."""
        if not self.items:
            return
        if not self.open:
            self.open, self.index = True, 0
            return
        if self.chosen is not None and self.chosen.choices:
            self.choice_index = (self.choice_index + steps) % len(self.chosen.choices)
        else:
            self.index = (self.index + steps) % (len(self.items) + 1)  # the extra slot is "back"

    def push(self) -> Action | None:
        """Press the encoder: open, choose an item, pick a value or confirm; returns the confirmed action."""
        if not self.items:
            return None
        if not self.open:
            self.open, self.index = True, 0
            return None
        if self.chosen is None:
            if self.index >= len(self.items):
                self.close()
                return None
            item = self.items[self.index]
            if not item.choices:
                self.close()
                return Action(item.kind)
            self._choose(item)
            return None
        item = self.chosen
        choice = item.choices[self.choice_index]
        if choice.value == "back":
            self.close()
            return None
        if item.repeat:
            if choice.value == "done":
                picked = tuple(self.picked)
                self.close()
                return Action(item.kind, picked)
            self.picked.append(choice.value)
            return None
        self.close()
        return Action(item.kind, choice.value)

    def _choose(self, item: Item) -> None:
        self.chosen = item
        self.choice_index = 0
        self.picked = []

    def lines(self, back_label: str = "< zpet") -> tuple[str, str]:
        """Two lines of text describing where the menu is (empty when closed)."""
        if not self.open or not self.items:
            return ("", "")
        if self.chosen is None:
            if self.index >= len(self.items):
                return (self.title, back_label)
            return (self.title, "> " + self.items[self.index].label)
        item = self.chosen
        head = item.label
        if item.repeat and self.picked:
            head = f"{item.head or item.label}: {''.join(str(p) for p in self.picked)}"
        return (head, "> " + item.choices[self.choice_index].label)
