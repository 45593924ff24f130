"""The table-hub contract (``tablelink``): round commands carrying their round's state, the pairing's
acknowledgement, and why a broker connection failed, each checked as both sides read them."""

from __future__ import annotations

import socket
import ssl

import pytest

from tablelink import rounds, topics
from tablelink.broker import BrokerLink, problem_of
from tablelink.pairing import PairedPlayer, TablePairing, pairing_ack, parse_pairing, parse_pairing_ack
from tablelink.topics import SchemaError


def test_a_round_command_carries_every_earlier_command_of_its_round_only() -> None:
    start = rounds.round_command("start_round", 3, "a", now=100.0)
    warning = rounds.round_command("warning", 3, "b", start, now=1900.0)
    again = rounds.round_command("start_round", 3, "c", warning, now=2000.0)  # given again: keeps its first time
    assert warning.given == {"start_round": 100.0, "warning": 1900.0} and warning.started == 100.0
    assert again.given["start_round"] == 100.0
    nxt = rounds.round_command("start_round", 4, "d", again, now=3000.0)
    assert nxt.given == {"start_round": 3000.0}  # another round starts its own state
    assert rounds.parse_round_command(topics.decode(topics.encode(warning.payload()), "t")) == warning


def test_which_game_a_round_command_is_for() -> None:
    command = rounds.round_command("end_base_time", 3, "x", rounds.round_command("start_round", 3, "s", now=100.0),
                                   now=2500.0)  # fmt: skip
    assert command.applies_to(3, 0.0) and not command.applies_to(4, 0.0)  # a paired game: its round only
    assert command.applies_to(None, 50.0) and not command.applies_to(None, 150.0)  # unpaired: a round after it began


@pytest.mark.parametrize(("change", "message"), [
    ({"command": "stop"}, "unknown"), ({"round": 0}, "'round' must be"), ({"round": True}, "'round' must be"),
    ({"id": ""}, "'id' must be"), ({"sent": "now"}, "'sent' must be"), ({"given": {"stop": 1.0}}, "'given' must"),
    ({"given": {"warning": "x"}}, "'given' must"),
])  # fmt: skip
def test_a_bad_round_command_is_refused_naming_the_field(change: dict, message: str) -> None:
    payload = rounds.round_command("warning", 2, "w", now=5.0).payload() | change
    with pytest.raises(SchemaError, match=message):
        rounds.parse_round_command(payload)


def test_an_earlier_hubs_command_without_given_counts_as_given_when_sent() -> None:
    command = rounds.parse_round_command({"id": "x", "command": "start_round", "round": 2, "sent": 42.0})
    assert command.started == 42.0


def test_the_pairing_carries_the_table_number_and_its_acknowledgement_reads_back() -> None:
    pairing = TablePairing("p1", 2, "t57", (PairedPlayer("1", "Jan"), PairedPlayer("2", "Eva")), number=12)
    assert parse_pairing(pairing.payload(), "t57").number == 12 and pairing.table_label == "12"
    assert TablePairing("p1", 2, "t57", pairing.players).table_label == "t57"  # no number: the unit id
    with pytest.raises(SchemaError, match="'number' must be an integer 0-999"):
        parse_pairing(pairing.payload() | {"number": 1000}, "t57")
    ack = pairing_ack(pairing)
    assert parse_pairing_ack(topics.decode(topics.encode(ack.payload()), "t"), "t57") == ack
    with pytest.raises(SchemaError, match="names table"):
        parse_pairing_ack(ack.payload(), "t58")
    with pytest.raises(SchemaError, match="'round' must be"):
        parse_pairing_ack(ack.payload() | {"round": 0}, "t57")


class Reason:
    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


@pytest.mark.parametrize(("error", "problem"), [
    (ssl.SSLCertVerificationError("certificate verify failed"), "tls"),
    (socket.gaierror(-2, "Name or service not known"), "name"),
    (ConnectionRefusedError(111, "Connection refused"), "refused"),
    (TimeoutError("timed out"), "unreachable"),
    (Reason("Not authorized"), "auth"),
    (Reason("Bad user name or password"), "auth"),
])  # fmt: skip
def test_why_a_connection_failed(error: object, problem: str) -> None:
    assert problem_of(error) == problem


def test_the_link_says_only_what_changed() -> None:
    link = BrokerLink()
    assert link.down(ConnectionRefusedError(111, "refused")) and link.problem == "refused"
    assert not link.down(ConnectionRefusedError(111, "refused"))  # the same reason again: nothing new to say
    assert not link.lost("gone")  # not up: a drop after a refusal says nothing
    assert link.up() and not link.up()
    assert link.lost("keepalive") and link.problem == "lost" and not link.connected
