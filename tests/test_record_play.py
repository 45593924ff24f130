"""Game records as the players' steps at the table (hw_sim/record_play.py): plays laid and pressed, blanks named,
passes, exchanges and challenges on the menu, phonies lifted, racks entered; records the table cannot play are
refused with the reason; the comparable form of a record."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.gcg import read_gcg
from hw_sim.record_play import Unplayable, comparable, plan_record, read_record

GCG = Path(__file__).parent / "data" / "gcg"


def record(name: str):
    return read_record(next(GCG.glob(f"*__{name}.gcg")))


def lines(planned) -> list[str]:
    return [line.step.text() for line in planned.scenario.lines]


def test_the_opponent_starts_the_clock_and_each_play_is_laid_pressed_and_scored() -> None:
    planned = plan_record(record("doug_v_emely"), first_seat=0)
    steps = lines(planned)
    assert steps[:5] == ["press B", "advance 10", "place WINDY at 8D", "press A", "expect score 32 0"]
    assert planned.seat_of == {"doug": 0, "emely": 1}
    assert steps[-1] == "expect final 451 345"
    assert planned.final == (451, 345)
    assert planned.play_presses[4] == (32, 0)  # the press on line 4 shows 32:0


def test_the_first_mover_may_sit_on_seat_b() -> None:
    planned = plan_record(record("doug_v_emely"), first_seat=1)
    steps = lines(planned)
    assert steps[0] == "press A" and steps[3] == "press B"
    assert planned.final == (345, 451)  # by seat: emely on A
    assert steps[-1] == "expect final 451 345"  # in playing order


def test_a_blank_is_named_on_the_menu_after_the_press() -> None:
    steps = lines(plan_record(record("doug_v_emely")))
    # the first play with a blank (a lowercase letter)
    i = next(i for i, s in enumerate(steps) if s.startswith("place ") and any(c.islower() for c in s.split()[1]))
    word = steps[i].split()[1]
    blanks = [c.upper() for c in word if c.islower()]
    assert steps[i + 1].startswith("press ")
    assert steps[i + 2 : i + 2 + len(blanks)] == [f'choose "{b}"' for b in blanks]
    assert steps[i + 2 + len(blanks)] == 'choose "hotovo"'
    assert steps[i + 3 + len(blanks)].startswith("expect score ")


def test_a_phony_is_challenged_upheld_and_its_tiles_lifted_where_the_table_says() -> None:
    steps = lines(plan_record(record("doug_v_emely")))
    i = steps.index('choose "oprávněná"')
    assert steps[i - 4 : i] == ['advance 10', 'choose "Námitka slovo"', steps[i - 2], 'choose "Rozhodnutí"']
    assert steps[i + 1].startswith("wait lcd ")
    removes = []
    for s in steps[i + 2 :]:
        if not s.startswith("remove "):
            break
        removes.append(s.split()[1])
    assert removes and steps[i + 2 + len(removes)].startswith("expect score ")
    place = next(s for s in reversed(steps[:i]) if s.startswith("place "))
    assert len(removes) <= len(place.split()[1])


def test_a_valid_word_challenged_gets_its_bonus_on_a_rejected_ruling() -> None:
    steps = lines(plan_record(record("josh2")))
    assert steps.count('choose "neoprávněná"') == 4  # the record's four (challenge) +5 lines


def test_passes_and_exchanges_are_chosen_and_confirmed_on_the_menu() -> None:
    steps = lines(plan_record(record("guy_vs_bot")))
    i = steps.index('choose "Pas"')
    assert steps[i + 1] == 'choose "ano"' and steps[i + 2].startswith("expect score ")
    j = steps.index('choose "Výměna"')
    assert steps[j + 1].removeprefix('choose "').removesuffix('"').isdigit() and steps[j + 2] == 'choose "ano"'


def test_after_six_scoreless_turns_the_racks_are_entered() -> None:
    steps = lines(plan_record(record("success_six_pass")))
    i = steps.index('choose "Zbylé kameny"')
    rack = []
    for s in steps[i + 1 :]:
        if s == 'choose "hotovo"':
            break
        rack.append(s.removeprefix('choose "').removesuffix('"'))
    assert sorted(rack) in (sorted("?AEEOTT"), sorted("EIOQRRT"))
    assert steps.count('choose "Zbylé kameny"') == 2
    assert steps[-1] == "expect final -6 -16"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("polish_endgame", "not in the english tile set"),
        ("success_standard", "an overtime penalty"),
        ("fivepoint", "a score the rules do not give"),
    ],
)
def test_a_record_the_table_cannot_play_says_why(name: str, reason: str) -> None:
    with pytest.raises(Unplayable, match=reason):
        plan_record(record(name))


def test_a_record_that_stops_before_the_end_is_not_played() -> None:
    text = "#player1 a A\n#player2 b B\n>a: DINNVWY 8D WINDY +32 32\n"
    with pytest.raises(Unplayable, match="stops before the end of the game"):
        plan_record(read_gcg(text, "short.gcg"))


def test_an_old_quackle_withdrawal_compares_by_its_total() -> None:
    game = record("capp")
    seats = {p.nick: i for i, p in enumerate(game.players)}
    withdrawn = [e for e in comparable(game, seats) if e[0] == "withdrawn"]
    assert len(withdrawn) == 1 and withdrawn[0][2] < 0  # written "-- +0", the total lowered by the play's score
