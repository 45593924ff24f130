"""The encoder menu: what the board cannot see (pass, exchange, challenges, rulings, blanks, racks, new game...).

A pure state machine: ``turn(steps)`` and ``push()`` move through the menu and return an ``Action`` when the
player confirms one. The table decides which items are offered now (``set_items``) and renders ``lines()``.

Pushes alone never act. Choosing an item puts the cursor on a neutral entry ("< back" in a list of values, "no"
in a confirmation), where a push only goes back; only a turn of the encoder reaches a value. An item without
values, and every item marked ``confirm`` (the ones that record a turn or end the game), asks "no / yes" after
the value, again with the cursor on "no". So any number of pushes, fast or slow, bounced or repeated, only ever
opens and closes the menu: an action needs a turn after the last push.

``state()`` and ``restore()`` carry the menu's position as plain data over a restart (``device.table`` keeps it
next to the journal): the same item, the same value under the cursor, the values already picked; a confirmation
comes back on "no".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

BACK = "back"
"""The value of the neutral entry of a list of values: a push on it goes back."""
DONE = "done"
"""The value that ends a ``repeat`` item."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One value an item can take (label shown, value handed to the action)."""

    label: str
    value: object = None
    short: str = ""
    """The label in the "no / yes" question, where it shares the row with the item's head; default ``label``."""


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
    confirm: bool = False
    """Ask "no / yes" after the value is picked (an action that records a turn or ends the game)."""


@dataclass(frozen=True, slots=True)
class Action:
    """What the player confirmed."""

    kind: str
    value: object = None


_NOT_CONFIRMING = object()


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
    back_label: str = "< zpet"
    yes_label: str = "ano"
    no_label: str = "ne"
    confirming: object = _NOT_CONFIRMING
    """The value waiting for "yes" (the confirmation step), or the sentinel when there is none."""
    confirm_yes: bool = False
    """The cursor of the confirmation step: on "yes" (True) or on "no"."""

    # ---------------------------------------------------------------------------------------------- items
    def set_items(self, items: Sequence[Item]) -> None:
        """Offer these items (the table calls this whenever the situation changes)."""
        current = self.items[self.index].kind if self.items and self.index < len(self.items) else None
        self.items = list(items)
        kinds = [i.kind for i in self.items]
        self.index = kinds.index(current) if current in kinds else 0
        if self.chosen is not None:
            same = next((i for i in self.items if i.kind == self.chosen.kind), None)
            if same is None:
                self.close()  # withdrawn
            elif (wrapped := self._wrap(same)) != self.chosen:
                self._rechoose(wrapped)
        if not self.items:
            self.close()

    def open_item(self, kind: str) -> bool:
        """Open the menu straight on an item (e.g. blank letters when a blank appears), the cursor on its neutral
        entry; False if not offered."""
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
        self.confirming = _NOT_CONFIRMING
        self.confirm_yes = False

    @property
    def in_confirmation(self) -> bool:
        return self.confirming is not _NOT_CONFIRMING

    # --------------------------------------------------------------------------------------------- inputs
    def turn(self, steps: int) -> None:
        """Rotate the encoder by ``steps`` detents (negative = counter-clockwise)."""
        if not self.items:
            return
        if not self.open:
            self.open, self.index = True, 0
            return
        if self.in_confirmation:
            if steps % 2:
                self.confirm_yes = not self.confirm_yes
        elif self.chosen is not None:
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
        if self.in_confirmation:
            assert self.chosen is not None
            kind, value, yes = self.chosen.kind, self.confirming, self.confirm_yes
            self.close()
            return Action(kind, value) if yes else None
        if self.chosen is None:
            if self.index >= len(self.items):
                self.close()
                return None
            self._choose(self.items[self.index])
            return None
        item = self.chosen
        choice = item.choices[self.choice_index]
        if choice.value == BACK:
            self.close()
            return None
        if item.repeat:
            if choice.value == DONE:
                return self._decide(tuple(self.picked))
            self.picked.append(choice.value)
            return None
        return self._decide(choice.value)

    def _decide(self, value: object) -> Action | None:
        assert self.chosen is not None
        if self.chosen.confirm:
            self.confirming, self.confirm_yes = value, False
            return None
        kind = self.chosen.kind
        self.close()
        return Action(kind, value)

    def _rechoose(self, item: Item) -> None:
        """The open item's values changed (e.g. the likely blank letters re-ranked as tiles are laid): the cursor
        stays on the same value, or goes to the neutral entry if it is gone; values picked that are gone close it."""
        values = [c.value for c in item.choices]
        gone = self.in_confirmation and item.choices and not item.repeat and self.confirming not in values
        if gone or any(p not in values for p in self.picked):
            self.close()
            return
        old = self.chosen.choices[self.choice_index].value if self.chosen and self.chosen.choices else None
        self.chosen = item
        if item.choices:
            self.choice_index = values.index(old) if old in values else values.index(BACK)

    def _wrap(self, item: Item) -> Item:
        """The item as the menu runs it: a neutral "back" entry in its values, or "no / yes" if it has none."""
        if not item.choices:
            return replace(item, confirm=True)  # nothing to pick: a push must not act by itself
        if not any(c.value == BACK for c in item.choices):
            return replace(item, choices=(Choice(self.back_label, BACK), *item.choices))
        return item

    def _choose(self, item: Item) -> None:
        """Enter an item: its values with the cursor on the neutral entry, or straight to "no / yes"."""
        item = self._wrap(item)
        self.chosen = item
        self.picked = []
        self.confirming, self.confirm_yes = _NOT_CONFIRMING, False
        if item.choices:
            self.choice_index = next(i for i, c in enumerate(item.choices) if c.value == BACK)
        else:
            self.choice_index = 0
            self.confirming = None

    # -------------------------------------------------------------------------------------------- display
    def lines(self, back_label: str | None = None) -> tuple[str, str]:
        """Two lines of text describing where the menu is (empty when closed)."""
        back = self.back_label if back_label is None else back_label
        if not self.open or not self.items:
            return ("", "")
        if self.chosen is None:
            if self.index >= len(self.items):
                return (self.title, back)
            return (self.title, "> " + self.items[self.index].label)
        item = self.chosen
        if self.in_confirmation:
            value = self.confirming
            shown = "".join(map(str, value)) if isinstance(value, tuple) else self._label_of(value)
            label = item.head or item.label
            head = f"{label} {shown}?" if shown else f"{label}?"
            return (head, "> " + (self.yes_label if self.confirm_yes else self.no_label))
        head = item.label
        if item.repeat and self.picked:
            head = f"{item.head or item.label}: {''.join(str(p) for p in self.picked)}"
        return (head, "> " + item.choices[self.choice_index].label)

    def _label_of(self, value: object) -> str:
        if value is None or self.chosen is None:
            return ""
        return next((c.short or c.label for c in self.chosen.choices if c.value == value), str(value))

    # ------------------------------------------------------------------------------------ over a restart
    def state(self) -> dict[str, Any] | None:
        """Where the menu is, as JSON data (None when closed): the item, the value under the cursor, the values
        picked, and whether it was asking "no / yes" for a value."""
        if not self.open:
            return None
        if self.chosen is None:
            kind = self.items[self.index].kind if self.index < len(self.items) else BACK
            return {"item": kind}
        cursor = self.chosen.choices[self.choice_index].value if self.chosen.choices else None
        data: dict[str, Any] = {"chosen": self.chosen.kind, "cursor": cursor, "picked": list(self.picked)}
        if self.in_confirmation:
            value = self.confirming
            data["confirming"] = list(value) if isinstance(value, tuple) else value
        return data

    def restore(self, data: object) -> bool:
        """Go back to a ``state()`` over the items offered now; False (menu closed, a neutral state) if the item
        or a value is no longer offered. A confirmation comes back with the cursor on "no"."""
        self.close()
        if not isinstance(data, dict):
            return False
        kinds = [i.kind for i in self.items]
        if "chosen" not in data:
            if data.get("item") in kinds or data.get("item") == BACK:
                self.open = True
                self.index = kinds.index(data["item"]) if data["item"] in kinds else len(self.items)
                return True
            return False
        if data["chosen"] not in kinds or not self.open_item(str(data["chosen"])):
            return False
        item = self.chosen
        assert item is not None
        values = [c.value for c in item.choices]
        picked = data.get("picked") or []
        if not isinstance(picked, list) or any(_value(p) not in values for p in picked):
            self.close()
            return False
        if item.choices:
            cursor = _value(data.get("cursor"))
            if cursor not in values:
                self.close()
                return False
            self.choice_index = values.index(cursor)
        self.picked = [_value(p) for p in picked]
        if "confirming" in data:
            value = _value(data["confirming"])
            if item.choices and not item.repeat and value not in values:
                self.close()
                return False
            self.confirming, self.confirm_yes = value, False
        return True


def _value(data: object) -> object:
    """A choice's value as ``Menu.state()`` data read back from JSON: its tuples (players) came back as lists."""
    return tuple(_value(v) for v in data) if isinstance(data, list) else data
