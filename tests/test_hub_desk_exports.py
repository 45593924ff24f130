"""Issue 32 (hub desk), items 5-7: the desk's deník is the one record of results. ``/export/results.csv``, the
round's CSV and the round zip's ``results.csv`` come from it (before: the tables' games); ``/api/standings`` is the
desk's TurČAS standings from the start (before: ranked by spread until players were registered at the desk); the
round zip holds each paired game's GCG and score sheet (before: only results.csv, the games were filed under the
round control's number); the pages' header shows the desk's round ("uzavřeno" once closed); the ladder keeper's
files (deník JSONL, ladder CSV, the rated games, TSH ``.t``) download from the desk."""

from __future__ import annotations

import csv
import io
import json
import zipfile

from desk_rig import PLAYERS, Director, start_desk_hub
from mosquitto_fixture import broker  # noqa: F401 - the fixture
from polling import wait_until

from engine.game import Pass, Start
from engine.game.events import GameInfo, Resign
from hub.director import Desk
from tournament.cli import load_log
from tournament.standings import standings as standings_of


def play(desk: Desk, table: int, game_id: str, resigns: int, stale: int | None = None) -> None:
    """The table's game of round 1 as the table sends it: started from the desk's pairing (its header names the
    round and the ids), no round of its own on the events (the round control never used; ``stale``: the round
    control's old number on them), ended by a resignation of player ``resigns``."""
    pairing = desk.tournament.rounds[1].pairing.by_table(table)
    names = (desk.name(pairing.first), desk.name(pairing.second))
    unit = desk.unit_of(table)
    events = [Start(0.0, names), GameInfo(at=0.0, round="1", table=unit, player_ids=(pairing.first, pairing.second)),
              Pass(1.0), Resign(2.0, player=resigns)]  # fmt: skip
    for seq, event in enumerate(events):
        extra = {} if stale is None or seq else {"round": stale}  # what the hub reads a new game's round from
        desk.store.add_event({"v": 1, "table": unit, "game": game_id, "seq": seq, "event": event.to_json() | extra})


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_every_export_comes_from_the_denik(broker, tmp_path) -> None:  # noqa: F811
    hub = start_desk_hub(broker.url)
    try:
        director = Director(hub.port)
        status, _, body = director.request("GET", "/api/standings")
        assert status == 200 and json.loads(body)["kind"] == "turcas"  # the desk's rule before any player
        director.ok("import", csv=PLAYERS)
        director.ok("pair")
        director.ok("publish", round="1")
        desk = hub.desk
        play(desk, 1, "g1", resigns=1)  # the first player wins 100:0
        play(desk, 2, "g2", resigns=0, stale=5)
        assert wait_until(lambda: len(desk.tournament.rounds[1].results) == 2, 60), desk.unfiled
        one = desk.tournament.rounds[1].pairing.by_table(1)
        director.ok("result", round="1", table="1", first="420", second="380", kind="played", reason="the sheets")
        status, _, text = director.request("GET", "/export/results.csv")
        got = rows(text)
        assert status == 200 and len(got) == 2
        first = next(r for r in got if r["table"] == "1")
        assert (first["player1_id"], first["score1"], first["score2"], first["kind"], first["source"]) == (
            one.first, "420", "380", "played", "manual")  # the director's correction, not the table's 100:0
        assert first["player1"] == desk.name(one.first)
        status, _, text = director.request("GET", "/export/round/1.csv")
        assert rows(text) == got
        status, _, _ = director.request("GET", "/export/round/1.zip")
        archive = zipfile.ZipFile(io.BytesIO(director.raw))
        assert set(archive.namelist()) == {"round1-table-t1.gcg", "round1-table-t1.html", "round1-table-t1.txt",
                                           "round1-table-t2.gcg", "round1-table-t2.html", "round1-table-t2.txt",
                                           "results.csv"}  # fmt: skip
        assert rows(archive.read("results.csv").decode()) == got
        assert desk.name(one.first) in archive.read("round1-table-t1.html").decode()
        standings = json.loads(director.request("GET", "/api/standings")[2])
        assert standings["kind"] == "turcas" and standings["round"]["number"] == 1
        assert standings["round"]["stage"] == "running"
        director.ok("close", round="1")
        overview = json.loads(director.request("GET", "/api/overview")[2])
        assert overview["round"]["number"] == 1 and overview["round"]["stage"] == "closed"
        # the ladder keeper's files, offered on the desk
        page = director.page()
        for href in ("/export/results.csv", "/export/round/1.zip", "/export/denik.jsonl", "/export/ladder.csv",
                     "/export/games.csv", "/export/tournament.t"):  # fmt: skip
            assert f'href="{href}" download' in page
        assert "1. kolo: GCG a partiáře (.zip)" in page and "deník (JSONL)" in page and "TSH (.t)" in page
        status, headers, text = director.request("GET", "/export/denik.jsonl")
        lines = [json.loads(line) for line in text.splitlines()]
        assert status == 200 and [e["type"] for e in lines] == [e["type"] for e in desk.denik.entries()]
        assert lines[-1]["type"] == "RoundClosed" and "attachment" in headers["content-disposition"]
        # what the guide promises: the CLI reads the hub's deník (before: each line wrapped as {n, at, by, type,
        # event}, refused with "SettingsChanged: unknown field 'event'")
        (tmp_path / "denik.jsonl").write_text(text, encoding="utf-8")
        assert standings_of(load_log(tmp_path / "denik.jsonl").tournament) == desk.standings()
        status, _, text = director.request("GET", "/export/ladder.csv")
        assert status == 200 and {r["id"] for r in rows(text)} == set(desk.tournament.players)
        status, _, text = director.request("GET", "/export/games.csv")
        assert status == 200 and len(rows(text)) == 4
        status, _, text = director.request("GET", "/export/tournament.t")
        assert status == 200 and len(text.splitlines()) == 4 and "Eva Mala " in text and "fullname Eva%20Mal%C3%A1" in text
        assert director.request("GET", "/export/nothing.txt")[0] == 404
        anonymous = Director.__new__(Director)
        anonymous.port, anonymous.cookie = hub.port, ""
        assert anonymous.request("GET", "/export/denik.jsonl")[0] == 401
    finally:
        hub.stop()
