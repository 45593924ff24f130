"""A pairs tournament (doubles, seed 003) through the hub: the director sets pairs, registers players and pairs of
them (the CSV's pair column and the form), pairs the pairs by the Swiss, publishes; a real Prague doubles table on
the broker gets its four players and the starting team and starts that game; its result comes back and is filed
under the pairs; the standings are the pairs', the ladder rates each member. Real mosquitto and uvicorn."""

from __future__ import annotations

import pytest
from desk_rig import Director, start_desk_hub
from mosquitto_fixture import TABLES, broker  # noqa: F401 - the fixture
from polling import wait_until
from table_rig import Rig

from device import inputs
from device.publish import TablePublisher
from hub.db import Database
from hub.director import Desk
from hub.director_pairs import PairRefused, import_with_pairs
from hub.store import HubStore
from hub.tournament_store import DenikStore
from tournament.ladder import ladder
from tournament.standings import standings

PLAYERS = ("id,name,club,rating,pair\n1,Eva Malá,Brno,1500,D1\n2,Iva Krátká,Brno,1300,D1\n"
           "3,Jan Novák,Praha,1700,D2\n4,Ota Veselý,Praha,1400,D2\n5,Petr Dlouhý,Zlín,1200,D3\n"
           "6,Věra Nová,Zlín,1100,D3\n7,Adam Malý,,,\n8,Bára Velká,Ostrava,1600,\n")  # fmt: skip
SETTINGS = {"doubles": "true", "rounds": "3", "tiebreak": "turcas", "A": "100", "B": "0.05", "C": "1", "D": "15",
            "bye_points": "1.0", "bye_score": "100"}  # fmt: skip
A, B = 0, 1  # the table's buttons: the starting team's, the other's


def test_a_pairs_tournament_runs_through_the_desk_and_a_doubles_table(broker, tmp_path) -> None:  # noqa: F811
    hub = start_desk_hub(broker.url, "t")
    rig = Rig(tmp_path / "t1", clock="prague", players=("Anna", "Bedřich", "Cyril", "Dana"),
              extra='ruleset = "prague"')  # fmt: skip
    publisher = TablePublisher("t1", broker.url, username="t1", password=TABLES["t1"], queue_dir=tmp_path / "q",
                               on_pairing=lambda p: rig.table.inputs.put(inputs.PairingReceived(p)))  # fmt: skip
    rig.table.publisher = publisher
    try:
        rig.start()
        publisher.start()
        director = Director(hub.port)
        assert director.ok("settings", **SETTINGS) == "Hotovo: nastavení uloženo"
        _, error = director.do("import", csv=PLAYERS.replace("6,Věra Nová,Zlín,1100,D3", "6,Věra Nová,Zlín,1100,"))
        assert error.startswith("Odmítnuto: dvojici takto nelze přihlásit (players CSV: pair 'D3' must have two")
        assert not hub.desk.tournament.people  # nothing registered
        assert director.ok("import", csv=PLAYERS) == "Hotovo: načteno hráčů: 8"  # and the 3 pairs of the column
        tm = hub.desk.tournament
        assert list(tm.players) == ["D1", "D2", "D3"] and tm.players["D2"].rating == 1550
        page = director.page()
        assert "Přihlásit dvojici" in page and "bez dvojice" in page and "<h2>Dvojice (3/3)</h2>" in page
        _, error = director.do("register_pair", id="D4", a="7", b="1", name="")
        assert error == "Odmítnuto: 1 už hraje ve dvojici D1 (dvojice D4)"
        _, error = director.do("settings", **(SETTINGS | {"doubles": "false"}))
        assert error == "Odmítnuto: turnaj jednotlivců nebo dvojic nelze změnit, když už jsou přihlášeni hráči"
        assert director.ok("register_pair", id="D4", a="7", b="8", name="") == \
            "Hotovo: přihlášena dvojice Adam Malý + Bára Velká (D4)"  # fmt: skip
        tm = hub.desk.tournament
        assert tm.players["D4"].rating == 1300  # Adam is a newcomer (1000): (1000 + 1600) / 2
        director.ok("pair")
        director.ok("publish", round="1")
        tm = hub.desk.tournament
        game = tm.rounds[1].pairing.by_table(1)
        assert game is not None and {game.first, game.second} & {"D1", "D2"}  # round 1 by halves of strength
        first, second = (tm.players[p].members for p in game.players())
        names = {p.id: p.name for p in tm.people.values()}
        want = tuple(names[i] for i in (first[0], second[0], first[1], second[1]))  # the first pair starts

        assert wait_until(lambda: not rig.table.inputs.empty(), 30), "the pairing did not reach the table"
        rig.table.handle(rig.table.inputs.get())
        played = rig.table.game
        assert played.players == want and played.info["player_ids"] == [first[0], second[0], first[1], second[1]]
        assert played.info["teams"][:2] == [tm.players[game.first].name, tm.players[game.second].name]
        assert rig.notice == ["Kolo 1: začíná", f"{want[0]} + {want[2]}"]
        rig.table.handle(inputs.RoundCommand("start"))  # a paired table follows the chief referee's start
        rig.press(B)  # the other team's press starts the starting team's clock
        rig.lay("ROZUM", "8D")
        rig.press(A)
        rig.menu("resign", f"{want[1]} + {want[3]}", "ano")  # the other team, on move, resigns: 100:0
        assert played.team_result is not None and played.team_result.final == (100, 0)

        def filed() -> bool:
            result = hub.desk.tournament.rounds[1].results.get(1)
            return result is not None and result.source == "table"

        assert wait_until(filed, 60), (hub.desk.unfiled, hub.store.rejected_recent)
        result = hub.desk.tournament.rounds[1].results[1]
        assert (result.first, result.second, result.first_score, result.second_score) == (
            game.first, game.second, 100, 0)  # fmt: skip
        other = tm.rounds[1].pairing.by_table(2)
        assert other is not None
        director.ok("result", round="1", table="2", first="420", second="380", kind="played")
        director.ok("close", round="1")
        tm = hub.desk.tournament
        rows = standings(tm)
        assert {r.id for r in rows} == {"D1", "D2", "D3", "D4"}
        assert {r.id for r in rows if r.points == 1.0} == {game.first, other.first}
        assert "Adam Malý + Bára Velká" in director.page("/live")  # the public standings name the pairs
        rated = {r.id: r for r in ladder(tm)}
        assert set(rated) == {str(i) for i in range(1, 9)} and all(r.games == 1 for r in rated.values())
        director.ok("pair")  # round 2: pairs again, no rematch
        assert not {tuple(sorted(p.players())) for p in hub.desk.tournament.rounds[2].pairing.pairings} & {
            tuple(sorted(game.players())), tuple(sorted(other.players()))}  # fmt: skip
    finally:
        publisher.stop()
        hub.stop()
        rig.close()


def test_a_pair_column_naming_one_player_is_refused_and_registers_nothing() -> None:
    db = Database()
    desk = Desk(HubStore(db), DenikStore(db))
    desk.start("test")
    desk.change_settings({"doubles": True}, "test")
    with pytest.raises(PairRefused, match="pair 'D3' must have two players, has 5"):
        import_with_pairs(desk, PLAYERS.replace("6,Věra Nová,Zlín,1100,D3", "6,Věra Nová,Zlín,1100,D9"), "test")
    assert not desk.tournament.people and not desk.tournament.players
    assert import_with_pairs(desk, "id,name\n1,Eva\n2,Jan\n", "test") == 2  # no pair column: players only
    assert list(desk.tournament.people) == ["1", "2"] and not desk.tournament.players
