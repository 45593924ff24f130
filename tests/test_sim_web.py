"""The sim's web server: board API, panel proxy, daemon supervision, scenario runner (with a stub daemon)."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

import pytest

from hw_sim.scenario import Scenario, ScenarioFailed, run_scenario
from hw_sim.sim import BoardOpError, BoardSide, Sim, daemon_config, premium_rows
from hw_sim.sim_client import SimClient, SimClientError

STUB = str(Path(__file__).with_name("sim_stub_daemon.py"))


class FakeBoard:
    """Records what the sim asks of the virtual board."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def place(self, row: int, col: int, letter: str) -> None:
        self.calls.append(("place", row, col, letter))

    def remove(self, row: int, col: int) -> None:
        self.calls.append(("remove", row, col))

    def set_fault(self, row: int, col: int, kind: str | None) -> None:
        self.calls.append(("fault", row, col, kind))

    def flicker(self, row: int, col: int, times: int) -> None:
        self.calls.append(("flicker", row, col, times))


class FakeDevice:
    port_path = "/dev/pts/fake"

    def __init__(self) -> None:
        self.plugged = True

    def unplug(self) -> None:
        self.plugged = False

    def replug(self) -> None:
        self.plugged = True


@pytest.fixture
def board_only(tmp_path):
    board, device = FakeBoard(), FakeDevice()
    sim = Sim(tmp_path, port=0, board=board, device=device, daemon_argv=[])
    sim.start()
    client = SimClient(sim.url)
    yield sim, client, board, device
    client.close()
    sim.stop()


def test_board_api_places_removes_and_reports(board_only) -> None:
    sim, client, board, device = board_only
    view = client.board("place", row=7, col=7, letter="Ř")
    assert view["cells"][7][7] == "Ř"
    client.board("place", row=7, col=8, letter="?")
    client.board("remove", row=7, col=7)
    client.board("fault", row=0, col=14, kind="short")
    client.board("flicker", row=7, col=8, times=4)
    client.board("unplug")
    assert device.plugged is False
    view = client.request("GET", "/api/board")
    assert view["cells"][7][7] is None and view["cells"][7][8] == "?"
    assert (
        view["faults"] == [[0, 14, "short"]] and view["plugged"] is False and view["port"] == "/dev/pts/fake"
    )
    assert board.calls == [
        ("place", 7, 7, "Ř"),
        ("place", 7, 8, "?"),
        ("remove", 7, 7),
        ("fault", 0, 14, "short"),
        ("flicker", 7, 8, 4),
    ]
    client.board("replug")
    assert device.plugged is True


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"op": "place", "row": 7, "col": 7, "letter": "W"}, "'W'"),
        ({"op": "place", "row": 15, "col": 0, "letter": "A"}, "off the board"),
        ({"op": "remove", "row": 3, "col": 3}, "empty"),
        ({"op": "fault", "row": 3, "col": 3, "kind": "wet"}, "'wet'"),
        ({"op": "spin"}, "'spin'"),
        ({"op": "place", "row": "7", "col": 7, "letter": "A"}, "'row'"),
    ],
)
def test_board_api_refuses_bad_ops_with_the_reason(board_only, body, reason) -> None:
    _sim, client, board, _device = board_only
    with pytest.raises(SimClientError, match="400") as info:
        client.request("POST", "/api/board", body)
    assert reason in str(info.value)
    assert board.calls == []


def test_a_refused_board_op_answers_its_problem_in_both_languages(board_only) -> None:
    _sim, client, _board, _device = board_only
    with pytest.raises(SimClientError) as info:
        client.board("remove", row=7, col=7)
    assert (info.value.problem, info.value.values) == ("board_empty", {"cell": "H8"})
    status, answer = _post_raw(client, {"op": "remove", "row": 7, "col": 7})
    assert status == 400 and answer == {"error": "cell H8 is empty", "problem": "board_empty", "values": {"cell": "H8"},
                                        "says": {"cs": "pole H8 je prázdné", "en": "cell H8 is empty"}}  # fmt: skip


def _post_raw(client: SimClient, body: dict) -> tuple[int, dict]:
    import json
    import urllib.error
    import urllib.request

    req = urllib.request.Request(client.base_url + "/api/board", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_placing_on_a_taken_cell_is_refused(board_only) -> None:
    _sim, client, _board, _device = board_only
    client.board("place", row=1, col=1, letter="A")
    with pytest.raises(SimClientError, match="already holds 'A'"):
        client.board("place", row=1, col=1, letter="B")


def test_check_square_lays_out_the_whole_set(board_only) -> None:
    sim, client, board, _device = board_only
    client.board("place", row=14, col=14, letter="X")
    view = client.board("check_square")
    flat = [view["cells"][r][c] for r in range(10) for c in range(10)]
    assert flat[:7] == ["A"] * 5 + ["Á"] * 2 and flat[-2:] == ["?", "?"]
    assert sum(x is not None for row in view["cells"] for x in row) == 100
    assert view["cells"][14][14] is None
    client.board("clear")
    assert all(x is None for row in client.request("GET", "/api/board")["cells"] for x in row)


def test_state_events_and_static_page(board_only) -> None:
    sim, client, _board, _device = board_only
    assert client.wait_for(lambda s: s["board"]["cells"][0][0] is None, 60)
    client.board("place", row=0, col=0, letter="Ž")
    state = client.wait_for(lambda s: s["board"]["cells"][0][0] == "Ž", 60)
    assert state is not None
    assert state["premiums"] == premium_rows() and state["premiums"][7][7] == "D"
    assert "Ž" in state["tiles"]["letters"] and state["daemon"]["running"] is False
    for path, kind in (("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css")):
        with urllib.request.urlopen(sim.url.rstrip("/") + path, timeout=5) as r:
            assert r.headers["Content-Type"].startswith(kind) and len(r.read()) > 500
    with pytest.raises(SimClientError, match="503"):
        client.press("a")


def test_daemon_config_forces_the_sim_keys(tmp_path) -> None:
    import tomllib

    from device.config import parse_config

    text = daemon_config(
        {"table": {"name": 'Stůl "7"', "pin_factory": "lgpio"}, "display": {"count": 2}},
        state_dir=tmp_path,
        serial_url="/dev/pts/9",
        time_mode="manual",
    )
    data = tomllib.loads(text)
    assert data["table"] == {
        "name": 'Stůl "7"',
        "pin_factory": "mock",
        "serial_url": "/dev/pts/9",
        "state_dir": str(tmp_path),
    }
    config = parse_config(text)
    assert config.sim.time == "manual" and config.display.count == 2 and config.pin_factory == "mock"


@pytest.mark.parametrize(
    ("script", "czech", "english"),
    [
        ("remove H8", "inline:1: remove H8: pole H8 je prázdné", "inline:1: remove H8: cell H8 is empty"),
        ("place WAX at 8H", "inline:1: place WAX at 8H: sada czech nemá kámen 'W' (žolík je '?')",
         "inline:1: place WAX at 8H: no tile 'W' in the czech set (a blank is '?')"),
        ("flicker A1 3", "inline:1: flicker A1 3: pole A1 je prázdné: není čím blikat",
         "inline:1: flicker A1 3: cell A1 is empty: nothing to flicker"),
    ],
)
def test_what_the_board_refuses_reaches_a_scenario_in_its_language(board_only, script, czech, english) -> None:
    _sim, client, _board, _device = board_only
    with pytest.raises(ScenarioFailed) as info:
        run_scenario(client, Scenario.parse(script, "inline"))
    assert info.value.describe("cs") == czech
    assert info.value.describe("en") == english


def test_daemon_config_keeps_the_tables_rules(tmp_path) -> None:
    """A config with ``[table.rules]`` (a ruleset's customisation, e.g. a short base time to try the playout) could
    not start the sim: "cannot write {'game_time_seconds': 60} to the daemon's TOML config"."""
    import tomllib

    from device.config import parse_config

    rules = {"game_time_seconds": 60, "blank_swap": True, "odd key": "x"}
    text = daemon_config({"table": {"ruleset": "cas", "rules": rules}}, state_dir=tmp_path, serial_url="loop://",
                         time_mode="manual")  # fmt: skip
    assert tomllib.loads(text)["table"]["rules"] == rules
    rules.pop("odd key")
    config = parse_config(daemon_config({"table": {"rules": rules}}, state_dir=tmp_path, serial_url="loop://",
                                        time_mode="manual"))  # fmt: skip
    assert config.rules == rules


def test_board_side_without_a_device() -> None:
    side = BoardSide(FakeBoard())
    with pytest.raises(BoardOpError, match="no board device"):
        side.unplug()


# ------------------------------------------------------------------------------- with a (stub) daemon child
def counts(state: dict) -> dict:
    return ((state.get("panel") or {}).get("table") or {}).get("counts") or {}


@pytest.fixture
def with_daemon(tmp_path):
    sim = Sim(
        tmp_path,
        port=0,
        board=FakeBoard(),
        device=FakeDevice(),
        daemon_argv=[sys.executable, STUB, "manual"],
        time_mode="manual",
    )
    sim.start()
    client = SimClient(sim.url)
    assert client.wait_daemon(20), sim.log_path.read_text()
    yield sim, client
    client.close()
    sim.stop()


def test_panel_proxy_drives_the_daemons_gpiozero_devices(with_daemon) -> None:
    sim, client = with_daemon
    client.press("a")
    client.press("a")
    client.turn(3)
    client.turn(-1)
    client.press("encoder")
    state = client.wait_for(lambda s: counts(s) == {"a": 2, "b": 0, "push": 1, "enc": 2}, 60)
    assert state is not None, client.latest()
    assert state["panel"]["lcds"][0]["rows"] == ["A:2 B:0".ljust(16), "ENC:2 P:1".ljust(16)]
    assert client.advance(30)["time"] == 30.0
    with pytest.raises(SimClientError, match="400.*'x'"):
        client.press("x")


def test_killed_daemon_is_restarted(with_daemon) -> None:
    sim, client = with_daemon
    first = client.latest()["daemon"]["pid"]
    client.daemon("kill")
    state = client.wait_for(
        lambda s: s["daemon"]["ready"] and s["daemon"]["pid"] not in (None, first) and s["panel"], 20
    )
    assert state is not None and state["daemon"]["restarts"] == 1
    client.press("b")
    assert client.wait_for(lambda s: counts(s).get("b") == 1, 60)


def test_scenario_runs_against_the_sim(with_daemon) -> None:
    _sim, client = with_daemon
    scenario = Scenario.parse(
        """
        place ROZUM at 8D     # across from D8
        press A
        wait lcd "A:1"
        turn encoder +3
        wait lcd "ENC:3"
        expect score 1 0
        remove 8D..8E
        kill daemon
        wait daemon
        press B
        expect score 0 1
        """,
        "inline",
    )
    run_scenario(client, scenario)
    cells = client.request("GET", "/api/board")["cells"]
    assert [cells[7][c] for c in range(3, 8)] == [None, None, "Z", "U", "M"]
    with pytest.raises(ScenarioFailed, match=r"inline:2: wait lcd \"NEVER\" within 0.2"):
        run_scenario(client, Scenario.parse('press A\nwait lcd "NEVER" within 0.2', "inline"))


def test_choose_walks_the_menu(with_daemon) -> None:
    _sim, client = with_daemon
    run_scenario(client, Scenario.parse('choose "Pas"\nchoose "ano"\nchoose "Výměna"\nchoose "3"', "inline"))
    state = client.wait_for(lambda s: len(s["panel"]["table"]["actions"]) == 2, 60)
    assert state is not None and state["panel"]["table"]["actions"] == [["pass", None], ["exchange", 3]]
    with pytest.raises(ScenarioFailed, match="no menu entry 'Hop'"):
        run_scenario(client, Scenario.parse('choose "Hop"', "inline"))


def test_events_stream_is_json_per_change(with_daemon) -> None:
    sim, _client = with_daemon
    with urllib.request.urlopen(sim.url + "api/events", timeout=5) as stream:
        first = json.loads(stream.readline().removeprefix(b"data: "))
        assert first["daemon"]["ready"] is True


def test_the_sim_starts_on_a_full_card_and_the_table_says_so(tmp_path) -> None:
    """The sim's own files (daemon config, log, panel port) stay out of the table's state folder: on a full card
    the sim starts, and its table shows what a Pi's would (the journal cannot be written)."""
    from full_card import full_card

    from hw_sim.scenario import lcd_rows
    from shared.texts import text

    with full_card(tmp_path / "card") as card:
        card.fill()
        sim = Sim(card.path, port=0, time_mode="manual", run_dir=tmp_path / "run")
        try:
            sim.start()
            with SimClient(sim.url) as client:
                assert client.wait_daemon(120), sim.log_path.read_text(encoding="utf-8", errors="replace")
                shows = client.wait_for(lambda s: any(text("journal_failed") in row for row in lcd_rows(s)), 120)
                assert shows is not None, lcd_rows(client.latest() or {})
        finally:
            sim.stop()
        # the card holds the filler and the table's own files (its journal, its reserve), none of the simulator's
        assert {p.name for p in card.path.iterdir()} <= {".filler", "journal.jsonl", "card-reserve"}
    assert {p.name for p in (tmp_path / "run").iterdir()} >= {"daemon.toml", "daemon.log", "panel.port"}
