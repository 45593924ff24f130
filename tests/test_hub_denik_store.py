"""The hub's deník in SQLite is append-only for real: ``INSERT OR REPLACE`` over an entry (which deletes the old row
without firing the delete trigger) and an entry slipped in before the last one are refused, as ``UPDATE`` and
``DELETE`` are; a database made before the trigger gets it when opened."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from hub.db import Database
from hub.tournament_store import DenikStore
from tournament.events import PlayerRegistered, SettingsChanged, encode_event
from tournament.players import Player
from tournament.settings import TournamentSettings

AT = "2026-12-06T09:00:00+00:00"


def entries(n: int) -> list:
    return [SettingsChanged(at=AT, by="test", software="partiar", version="test",
                            settings=TournamentSettings().to_dict()),
            *(PlayerRegistered(at=AT, by="test", player=Player(f"P{i}", f"Hráč {i}")) for i in range(n))]


def forged(n: int | None) -> tuple:
    event = PlayerRegistered(at=AT, by="someone", player=Player("X", "Podvrh"))
    return (n, event.at, event.by, "PlayerRegistered", json.dumps(encode_event(event), ensure_ascii=False))


@pytest.mark.parametrize("sql", ["INSERT OR REPLACE INTO denik(n, at, by, type, event) VALUES(?, ?, ?, ?, ?)",
                                 "REPLACE INTO denik(n, at, by, type, event) VALUES(?, ?, ?, ?, ?)"])
def test_an_entry_cannot_be_replaced(tmp_path: Path, sql: str) -> None:
    db = Database(tmp_path / "hub.sqlite")
    store = DenikStore(db)
    store.append(*entries(3))
    before = store.entries()
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute(sql, forged(2))
    assert DenikStore(db).entries() == before


def test_an_entry_cannot_be_slipped_in_before_the_last(tmp_path: Path) -> None:
    db = Database(tmp_path / "hub.sqlite")
    store = DenikStore(db)
    store.append(*entries(1))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("INSERT INTO denik(n, at, by, type, event) VALUES(?, ?, ?, ?, ?)", forged(0))
    store.append(PlayerRegistered(at=AT, by="test", player=Player("Q", "Nový")))  # the end is open as before
    assert [e["n"] for e in DenikStore(db).entries()] == [1, 2, 3]


def test_a_database_from_before_gets_the_trigger(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE denik(n INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, by TEXT NOT NULL, "
                 "type TEXT NOT NULL, event TEXT NOT NULL)")
    conn.execute("INSERT INTO denik(at, by, type, event) VALUES(?, ?, ?, ?)", forged(None)[1:])
    conn.commit()
    conn.close()
    db = Database(path)
    DenikStore(db)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("INSERT OR REPLACE INTO denik(n, at, by, type, event) VALUES(?, ?, ?, ?, ?)", forged(1))
