"""The encoder menu: turning and pushing through items and choices yields exactly the confirmed action."""

from device.menu import Action, Choice, Item, Menu

ITEMS = [
    Item("pass", "Pas"),
    Item("exchange", "Vymena", tuple(Choice(str(n), n) for n in range(1, 8))),
    Item("blank", "Zolik", (Choice("A", "A"), Choice("B", "B"), Choice("hotovo", "done")), repeat=True),
]


def test_closed_menu_opens_on_first_turn_or_push():
    m = Menu(ITEMS)
    assert m.lines() == ("", "")
    m.turn(1)
    assert m.open and m.lines()[1] == "> Pas"


def test_pass_is_confirmed_directly():
    m = Menu(ITEMS)
    m.push()
    assert m.push() == Action("pass")
    assert not m.open


def test_exchange_picks_a_count():
    m = Menu(ITEMS)
    m.turn(1)
    m.turn(1)
    assert m.lines()[1] == "> Vymena"
    m.push()
    m.turn(3)
    assert m.lines() == ("Vymena", "> 4")
    assert m.push() == Action("exchange", 4)


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
    assert m.push() is None  # opens
    assert m.push() == Action("pass")
