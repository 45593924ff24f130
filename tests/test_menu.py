"""The encoder menu: turning and pushing through items and choices yields exactly the confirmed action, pushes
alone never act, and the menu's position survives as plain data."""

import json

from hypothesis import given
from hypothesis import strategies as st

from device.menu import Action, Choice, Item, Menu

ITEMS = [
    Item("pass", "Pas", confirm=True),
    Item("exchange", "Vymena", tuple(Choice(str(n), n) for n in range(1, 8)), confirm=True),
    Item("blank", "Zolik", (Choice("A", "A"), Choice("B", "B"), Choice("hotovo", "done")), repeat=True),
    Item("pause", "Pauza"),
]


def test_closed_menu_opens_on_first_turn_or_push():
    m = Menu(ITEMS)
    assert m.lines() == ("", "")
    m.turn(1)
    assert m.open and m.lines()[1] == "> Pas"


def test_pass_asks_no_yes_with_the_cursor_on_no():
    m = Menu(ITEMS)
    m.push()
    assert m.push() is None
    assert m.lines() == ("Pas?", "> ne")
    m.turn(1)
    assert m.lines() == ("Pas?", "> ano")
    assert m.push() == Action("pass")
    assert not m.open


def test_exchange_picks_a_count_then_confirms():
    m = Menu(ITEMS)
    m.turn(1)
    m.turn(1)
    assert m.lines()[1] == "> Vymena"
    m.push()
    assert m.lines() == ("Vymena", "> < zpet")  # the cursor rests on the neutral entry
    m.turn(4)
    assert m.lines() == ("Vymena", "> 4")
    assert m.push() is None
    assert m.lines() == ("Vymena 4?", "> ne")
    m.turn(-1)
    assert m.push() == Action("exchange", 4)


def test_no_in_a_confirmation_acts_not():
    m = Menu(ITEMS)
    m.open_item("exchange")
    m.turn(3)
    m.push()
    assert m.push() is None and not m.open


def test_turning_wraps_and_back_slot_closes():
    m = Menu(ITEMS)
    m.turn(1)
    m.turn(-1)  # from item 0 back to the "back" slot
    assert m.lines()[1] == "< zpet"
    assert m.push() is None
    assert not m.open


def test_repeat_item_collects_until_done():
    m = Menu(ITEMS)
    assert m.open_item("blank")
    assert m.lines()[1] == "> < zpet"
    m.turn(1)
    m.push()  # A
    m.turn(1)
    m.push()  # B
    assert m.lines()[0] == "Zolik: AB"
    m.turn(1)
    assert m.push() == Action("blank", ("A", "B"))


def test_items_withdrawn_close_an_open_choice():
    m = Menu(ITEMS)
    m.open_item("exchange")
    m.set_items([ITEMS[0]])
    assert not m.open


@given(st.integers(1, 200))
def test_pushes_alone_never_act(pushes):
    for start in ([], ["exchange"], ["blank"], ["pass"]):
        m = Menu(list(ITEMS))
        for kind in start:
            m.open_item(kind)
        assert all(m.push() is None for _ in range(pushes))


@given(st.lists(st.sampled_from(["push", "turn+1", "turn-1", "turn+3"]), max_size=40))
def test_the_position_survives_as_json_exactly_or_comes_back_neutral(inputs):
    m = Menu(list(ITEMS))
    for i in inputs:
        if i == "push":
            m.push()
        else:
            m.turn(int(i[4:]))
    data = json.loads(json.dumps(m.state()))
    again = Menu(list(ITEMS))
    assert again.restore(data) == m.open
    if m.in_confirmation:  # a confirmation comes back on "no": one push cannot confirm it
        assert again.in_confirmation and not again.confirm_yes and again.confirming == m.confirming
        assert again.push() is None
    else:
        assert again.lines() == m.lines() and again.picked == m.picked


def test_values_reordered_under_the_cursor_keep_it_on_the_same_value():
    letters = (Choice("A", "A"), Choice("O", "O"), Choice("hotovo", "done"))
    m = Menu([Item("blank", "Zolik", letters, repeat=True)])
    m.open_item("blank")
    m.turn(2)
    assert m.lines()[1] == "> O"
    m.set_items([Item("blank", "Zolik", (letters[1], letters[0], letters[2]), repeat=True)])  # O ranked first now
    assert m.open and m.lines()[1] == "> O"
    m.set_items([Item("blank", "Zolik", (letters[0], letters[2]), repeat=True)])  # O gone: back to neutral
    assert m.open and m.lines()[1] == "> < zpet"
