"""Replaying a saved event log gives exactly the same state, for every prefix of every log; refused events
leave the state untouched; events survive their JSON form."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import (
    AppealRuling,
    ChallengeScore,
    ChallengeWord,
    Correction,
    EventFormatError,
    Exchange,
    Game,
    GameError,
    Pass,
    Play,
    RackEntry,
    Ruling,
    Start,
    TimeOut,
    decode_event,
    encode_event,
    event_from_json,
)
from engine.game.sample import random_events
from engine.placement import Placement
from engine.ruleset import ENGLISH, HOME, preset

RULESETS = [
    preset("cas"),
    HOME,
    ENGLISH,
    preset("cas", score_challenge="corrected_cross", record_announced_score=True),
]


def states_along(events) -> list[dict]:
    game = Game()
    out = []
    for event in events:
        game.apply(event)
        out.append(game.to_dict())
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULESETS), players=st.integers(2, 4))
def test_every_prefix_of_a_saved_log_replays_to_the_same_state(seed, rules, players):
    rules = rules if players <= rules.max_players else HOME
    names = tuple("ABCD"[:players])
    events = random_events(random.Random(seed), rules, names, max_events=90)
    expected = states_along(events)
    # the journal: one JSON line per event, read back
    journal = [encode_event(e) for e in events]
    decoded = [decode_event(line, "journal", n) for n, line in enumerate(journal, 1)]
    assert decoded == events
    # applying the decoded events one by one is replaying every prefix of the log
    assert states_along(decoded) == expected
    # and the whole log at once
    rebuilt = Game.replay(decoded)
    assert rebuilt.to_dict() == expected[-1]
    assert json.loads(json.dumps(rebuilt.to_dict())) == expected[-1]  # JSON-able state
    # the summary the hub's pages take: the same state without the moves, naming the last one
    summary = rebuilt.to_dict(history=False)
    assert summary["history"] is None
    assert summary["last_move"] == (expected[-1]["history"][-1] if expected[-1]["history"] else None)
    assert {k: v for k, v in summary.items() if k != "history"} == {
        k: v for k, v in expected[-1].items() if k != "history"}


WRONG_NOW = [
    Pass(1e6),
    TimeOut(1e6),
    Exchange(1e6, 7),
    Exchange(1e6, 1),
    Ruling(1e6, True),
    AppealRuling(1e6, False),
    ChallengeWord(1e6, 0),
    ChallengeWord(1e6, "NOTAWORD"),
    ChallengeScore(1e6),
    RackEntry(1e6, 0, "A"),
    Play(1e6, (Placement.at(7, 7, "A"), Placement.at(7, 8, "B"))),
    Play(1e6, (Placement.at(0, 0, "A"),)),
    Start(1e6, ("X", "Y")),
    Correction(1e6, 9, 5),
]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_refused_events_leave_the_state_untouched(seed, cut):
    events = random_events(random.Random(seed), max_events=70)
    game = Game.replay(events[: max(1, int(len(events) * cut))])
    for event in WRONG_NOW:
        before = game.to_dict()
        count = len(game.events)
        try:
            game.apply(event)
        except GameError:
            assert game.to_dict() == before
            assert len(game.events) == count
        else:  # the event was allowed here: the log and the state moved on together
            assert len(game.events) == count + 1
            assert Game.replay(game.events).to_dict() == game.to_dict()


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        "[]",
        '{"type": "fly", "at": 1}',
        '{"type": "pass"}',
        '{"type": "pass", "at": "now"}',
        '{"type": "pass", "at": 1, "extra": 2}',
        '{"type": "exchange", "at": 1, "count": 0}',
        '{"type": "play", "at": 1, "placements": [[7, 7, "a", false]]}',
        '{"type": "play", "at": 1, "placements": [[7, 17, "A", false]]}',
        '{"type": "play", "at": 1, "placements": [[7, 7, "A"]]}',
        '{"type": "start", "at": 0, "players": ["A", "B", "C"], "ruleset": {"name": "cas"}}',
        '{"type": "start", "at": 0, "players": ["A", "B"], "ruleset": {"colour": "red"}}',
        '{"type": "ruling", "at": 1, "upheld": "yes"}',
    ],
)
def test_bad_journal_lines_are_refused_with_their_line_number(line):
    with pytest.raises(EventFormatError, match="journal.txt:7"):
        decode_event(line, "journal.txt", 7)


@pytest.mark.parametrize(
    "line",
    ['{"type":"pass","at":1}', '  {"type": "pass", "at": 1}  ', '{"type":"pass","at":1}\t', '\ufeff{"type":"pass","at":1}',
     '{"type":"pass","at":1} {}', '{"type":"pass","at":1', ""],
)  # fmt: skip
def test_a_journal_line_reads_as_json_loads_reads_it(line):
    """decode_event scans a line straight away when it is exactly one value: the same event or the same error as
    json.loads gives, blanks around it, a byte order mark or trailing data included."""
    try:
        expected = event_from_json(json.loads(line))
    except json.JSONDecodeError as exc:
        with pytest.raises(EventFormatError, match=re.escape(f"journal.txt:7: not JSON ({exc.msg})")):
            decode_event(line, "journal.txt", 7)
    else:
        assert decode_event(line, "journal.txt", 7) == expected


def test_event_json_round_trip_keeps_blanks_and_rulesets():
    play = Play(3.5, (Placement.at(7, 7, "q"), Placement.at(7, 8, "Á")), announced=12)
    assert event_from_json(play.to_json()) == play
    assert play.to_json()["placements"] == [[7, 7, "Q", True], [7, 8, "Á", False]]
    start = Start(0, ("Jan", "Eva"), ENGLISH)
    assert Start.from_json(json.loads(json.dumps(start.to_json()))) == start
