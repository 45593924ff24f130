"""TSH's ``.t`` both ways (issue 33): the export writes what TSH reads as intended (names TSH reads whatever
encoding it is told, the ČAS id kept, who started on every game, absences as TSH's forfeit to nobody), and
``import-tsh`` turns a ``.t`` file into a tournament folder whose standings give every player TSH's wins and spread,
computed here from the ``.t`` lines by TSH's rules, independently of the import."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from device.cli import main
from tournament.events import PlayerRegistered, PlayerWithdrawn, ResultRecorded, RoundClosed, RoundPaired
from tournament.games import Pairing
from tournament.players import Player
from tournament.settings import TournamentSettings
from tournament.simulate import AT, ev_settings, simulate
from tournament.standings import standings
from tournament.state import Tournament
from tournament.tsh import export_tsh
from tournament.tsh_import import import_tsh


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["tournament", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def tsh_totals(text: str) -> list[tuple[float, int]]:
    """Each player's (wins, spread) as TSH counts them from a ``.t`` file's lines: a round against a player is won,
    tied or lost by the two scores, and its spread is their difference; a round against opponent 0 is won, tied or
    lost by the sign of its score, which is its spread."""
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, score_part = line.split(";")[:2]
        words = head.split()
        at = next(i for i, w in enumerate(words) if w.isdigit())  # the rating: the first number after the name
        rows.append(([int(w) for w in words[at + 1:]], [int(w) for w in score_part.split()]))
    totals = []
    for opps, scores in rows:
        wins, spread = 0.0, 0
        for k, (opp, own) in enumerate(zip(opps, scores, strict=False)):
            diff = own if opp == 0 else own - rows[opp - 1][1][k]
            wins += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
            spread += diff
        totals.append((wins, spread))
    return totals


# A small division as TSH keeps it, written here in TSH's form (a real published one: REAL below):
# Latin-1 (TSH's default), names "Last, First", 5 players so a bye (+50) each round, p12 with 3 (undecided) and
# 0 (unknown), no board field.
DIVISION = (
    "Müller, Jörg          1600 2 3 4 5; 420 390 500 402; p12 1 2 2 1\n"
    "Novák, Jan            1500 1 5 0 4; 380 455 50 288; p12 2 2 0 0\n"
    "# a comment line\n"
    "Smith, Anna           1400 4 1 5 0; 350 410 333 50; p12 3 1 1 0\n"
    "\n"
    "Dvořák, Eva              0 3 0 1 2; 350 50 321 377; p12 0 0 1 0\n"
    "Brown, Tom            1200 0 2 3 1; 50 300 334 399; p12 0 1 2 2\n"
)


def test_a_tsh_division_imports_with_tshs_wins_and_spread_for_every_player(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = DIVISION.replace("ř", "r")  # Latin-1 has no ř: a Latin-1 TSH file cannot hold it
    source = tmp_path / "a.t"
    source.write_bytes(text.encode("latin-1"))
    code, out, err = run(capsys, "import-tsh", str(source), str(tmp_path / "event"))
    assert code == 0, err
    assert "načteno: hráčů 5, kol 4" in out
    assert "partie bez údaje, kdo začínal (p12 0 nebo 3): 2" in err
    data = json.loads(run(capsys, "standings", str(tmp_path / "event"), "--json")[1])
    by_id = {r["id"]: r for r in data["rows"]}
    for number, (wins, spread) in enumerate(tsh_totals(text), 1):
        row = by_id[f"T{number}"]
        assert (row["points"], row["score_difference"]) == (wins, spread), (number, row)
    assert by_id["T1"]["name"] == "Müller, Jörg" and by_id["T4"]["points"] == 2.5  # a tie, the bye, a loss, a win
    players = (tmp_path / "event" / "players.csv").read_text(encoding="utf-8")
    assert "T4,\"Dvorák, Eva\",,\n" in players  # rating 0: no rating
    # who started, from p12 (either line): round 2, Smith (p12 1) started against Müller (p12 2)
    results = (tmp_path / "event" / "results.csv").read_text(encoding="utf-8").splitlines()
    assert "2,1,T3,T1,410,390,played" in results and "2,,T4,,50,0,bye" in results


REAL = Path(__file__).parent / "data" / "tsh" / "real_division_a.t"
"""A division of a real, published event as TSH keeps it (``tests/data/tsh/SOURCES.md``): 26 players, 23 rounds."""


def test_a_real_tsh_event_imports_with_tshs_wins_and_spread_for_every_player(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every player's points are TSH's wins and the score difference TSH's spread, except what ČAS does not count:
    the withdrawn player's trailing forfeits to nobody (-50 each, which the import reports and reads as the
    withdrawal)."""
    text = REAL.read_text(encoding="latin-1")
    code, out, err = run(capsys, "import-tsh", str(REAL), str(tmp_path / "event"))
    assert code == 0, err
    assert "načteno: hráčů 26, kol 23" in out
    withdrawn = re.search(r"T(\d+): (\d+), (-\d+)", err)
    assert withdrawn is not None, err  # Keras: from round 20 no opponent, -50 each: a withdrawal, 4 x -50 not counted
    out_number, out_from, uncounted = int(withdrawn[1]), int(withdrawn[2]), int(withdrawn[3])
    assert (out_number, out_from, uncounted) == (16, 20, -200)
    assert (tmp_path / "event" / "withdrawals.csv").read_text(encoding="utf-8").splitlines()[1].startswith("T16,19,")
    data = json.loads(run(capsys, "standings", str(tmp_path / "event"), "--json")[1])
    by_id = {r["id"]: r for r in data["rows"]}
    assert len(by_id) == 26
    for number, (wins, spread) in enumerate(tsh_totals(text), 1):
        row = by_id[f"T{number}"]
        expected = (wins, spread - uncounted) if number == out_number else (wins, spread)
        assert (row["points"], row["score_difference"]) == expected, (number, row)
    assert by_id["T1"]["name"] == "Smylie, Jackson" and by_id["T16"]["status"] == "withdrawn"


def test_a_utf8_tsh_file_keeps_its_czech_names(tmp_path: Path) -> None:
    imported = import_tsh(DIVISION, "a.t")
    assert [p.name for p in imported.players][3] == "Dvořák, Eva"
    assert imported.rounds == 4 and len([r for r in imported.rows if r.kind == "bye"]) == 4


def _czech_event() -> Tournament:
    """Kaňovský and friends: round 1 a no-show (100:0) and a game; round 2 both absent (0:0), a game, and Šťastná
    out after withdrawing; a late entry from round 2."""
    players = [Player("1203", "Petr Kaňovský", "Brno", 1500), Player("877", "Jiří Čermák", "", 1700),
               Player("15", "Eva Šťastná", "", None), Player("16", "Ota Řehoř", "", 1200)]
    events = [ev_settings(), *(PlayerRegistered(at=AT, by="d", player=p) for p in players)]

    def game(rnd: int, table: int, first: str, second: str, fs: int, ss: int, kind: str = "played") -> ResultRecorded:
        return ResultRecorded(at=AT, by="d", round=rnd, table=table, first=first, second=second, first_score=fs,
                              second_score=ss, kind=kind)  # type: ignore[arg-type]

    events += [RoundPaired(at=AT, by="d", round=1, pairings=(Pairing(1, "1203", "877"), Pairing(2, "16", "15"))),
               game(1, 1, "1203", "877", 412, 398), game(1, 2, "16", "15", 0, 100, "forfeit"),
               RoundClosed(at=AT, by="d", round=1),
               PlayerWithdrawn(at=AT, by="d", player_id="15", reason="nemoc"),
               PlayerRegistered(at=AT, by="d", player=Player("99", "Nový Hráč", "", None)),
               RoundPaired(at=AT, by="d", round=2, pairings=(Pairing(1, "877", "16"), Pairing(2, "99", "1203"))),
               game(2, 1, "877", "16", 0, 0, "forfeit"), game(2, 2, "99", "1203", 350, 420),
               RoundClosed(at=AT, by="d", round=2)]
    return Tournament.from_events(events)


def test_the_export_writes_what_tsh_reads_as_intended() -> None:
    """Before: the names in UTF-8 (TSH, reading Latin-1, showed "KaÅovskÃ½"), the 0:0 double absence a 0:0 game
    (TSH: a draw, ½ each; ČAS: nothing), rounds not played opponent 0 score 0 (a TSH tie), ``p12 0`` on forfeits,
    the ČAS id lost."""
    t = _czech_event()
    text = export_tsh(t)
    assert text.isascii()  # TSH reads it the same whether told Latin-1 or UTF-8
    lines = text.splitlines()
    assert lines[0].startswith("Petr Kanovsky") and "; id 1203;" in lines[0]
    assert "fullname Petr%20Ka%C5%88ovsk%C3%BD" in lines[0]
    # Čermák (line 2): round 1 replied to Kaňovský (line 1), round 2 both absent: opponent 0, a forfeit to nobody
    assert lines[1].split(";")[0].split()[-2:] == ["1", "0"]
    assert lines[1].split(";")[1].split() == ["398", "-50"] and "; p12 2 0;" in lines[1]
    # the no-show keeps its opponent and who was to start: Řehoř (line 4) started, 0:100 against Šťastná (line 3)
    assert lines[3].split(";")[0].split()[-2:] == ["3", "0"] and "; p12 1 0;" in lines[3]
    # Šťastná withdrew after round 1, the new player entered for round 2: opponent 0, a loss to nobody
    assert lines[2].split(";")[1].split() == ["100", "-50"] and lines[4].split(";")[1].split() == ["-50", "350"]
    # TSH's wins from these lines are ČAS's points for everyone
    points = {r.id: r.points for r in standings(t)}
    assert [w for w, _ in tsh_totals(text)] == [points[pid] for pid in t.players]


def test_export_then_import_gives_back_the_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The extra fields (``id``, ``fullname``, ``board``, ``p12``, ``kind``) rebuild every result, who started,
    the tables, the byes, the double absence, the withdrawal and the late entry."""
    no_spread_bye = TournamentSettings(bye_points=0.5, bye_score=0, bye_against=0)
    for name, t in (("czech", _czech_event()), ("sim", simulate(13, 5, seed=7, withdrawals=2).tournament),
                    ("bye00", simulate(7, 3, seed=3, settings=no_spread_bye).tournament)):
        source = tmp_path / f"{name}.t"
        source.write_text(export_tsh(t), encoding="ascii")
        code, _, err = run(capsys, "import-tsh", str(source), str(tmp_path / name))
        assert code == 0, err
        if name == "bye00":  # the settings are the folder's, not the .t file's
            (tmp_path / name / "settings.toml").write_text("bye_points = 0.5\nbye_score = 0\nbye_against = 0\n",
                                                         encoding="utf-8")
        back_data = run(capsys, "standings", str(tmp_path / name), "--json")[1]
        back = {r["id"]: r for r in json.loads(back_data)["rows"]}
        for row in standings(t):
            got = back[row.id]
            assert (got["name"], got["points"], got["score_difference"], got["buchholz"], got["starts_balance"],
                    got["status"]) == (row.name, row.points, row.score_difference, row.buchholz,
                                       row.starts_balance, row.status), row
        folder_results = (tmp_path / name / "results.csv").read_text(encoding="utf-8").splitlines()[1:]
        expected = sorted(f"{r.round},{r.table or ''},{r.first},{r.second or ''},{r.first_score},{r.second_score},"
                          f"{r.kind}" for r in t.all_results())
        assert sorted(folder_results) == expected


@pytest.mark.parametrize(("text", "cs"), [
    ("A, B 1500 2; 400; p12 1\nC, D 1400 0; 50\n",
     "a.t, řádek 1, pole 1: soupeř v tomto kole neuvádí tohoto hráče (číslo soupeře → soupeř soupeře) (2 → 0)"),
    ("A, B 1500 3; 400\nC, D 1400 1; 300\n", "a.t, řádek 1, pole 1: číslo soupeře je větší než počet hráčů (3)"),
    ("A, B 1500 0 2; -50 400\nC, D 1400 0 1; 50 300\n", "a.t, řádek 1, pole 1: kolo bez soupeře s nekladným skóre"),
    ("just a name\n", "a.t, řádek 1, pole -: řádek není hráč ve tvaru TSH"),
])
def test_a_tsh_file_a_folder_cannot_hold_is_refused_naming_line_and_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, cs: str) -> None:
    (tmp_path / "a.t").write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "import-tsh", str(tmp_path / "a.t"), str(tmp_path / "event"))
    assert code == 2 and cs in err, err
    assert not (tmp_path / "event").exists()  # nothing written


def test_import_never_overwrites_a_folder_and_reads_a_trailing_forfeit_as_a_withdrawal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.t").write_text("A, B 1500 2 0; 400 -50\nC, D 1400 1 3; 300 410\nE, F 1300 0 2; 50 380\n",
                                  encoding="utf-8")
    (tmp_path / "event").mkdir()
    (tmp_path / "event" / "players.csv").write_text("id,name\nX,Y\n", encoding="utf-8")
    code, _, err = run(capsys, "import-tsh", str(tmp_path / "a.t"), str(tmp_path / "event"), "--lang", "en")
    assert code == 2 and "the folder exists and is not empty" in err
    assert (tmp_path / "event" / "players.csv").read_text(encoding="utf-8") == "id,name\nX,Y\n"
    code, _, err = run(capsys, "import-tsh", str(tmp_path / "a.t"), str(tmp_path / "new"))
    assert code == 0 and "zapsán jako odstoupivší (ČAS mu skóre nepočítá) – T1: 2, -50" in err
    rows = {r["id"]: r for r in json.loads(run(capsys, "standings", str(tmp_path / "new"), "--json")[1])["rows"]}
    assert rows["T1"]["status"] == "withdrawn" and rows["T1"]["points"] == 1.0


def test_a_round_being_played_is_exported_as_tshs_pairing_ahead_of_its_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: a game of the round being played, without a result yet, was written as opponent 0 and score 0 (for
    TSH a tie to nobody). Now its opponent, board and ``p12`` without a score; the import leaves the round out."""
    t = _czech_event()
    t.apply(RoundPaired(at=AT, by="d", round=3, pairings=(Pairing(1, "1203", "16"), Pairing(2, "877", "99"))))
    t.apply(ResultRecorded(at=AT, by="d", round=3, table=1, first="1203", second="16", first_score=390,
                           second_score=380, kind="played"))
    text = export_tsh(t)
    lines = text.splitlines()
    assert lines[0].split(";")[0].split()[-1] == "4" and lines[0].split(";")[1].split()[-1] == "390"
    assert lines[1].split(";")[0].split()[-1] == "5" and lines[1].split(";")[1].split() == ["398", "-50"]
    assert "; board 1 1 2;" in lines[1] and "; p12 2 0 1;" in lines[1]
    (tmp_path / "a.t").write_text(text, encoding="ascii")
    code, out, err = run(capsys, "import-tsh", str(tmp_path / "a.t"), str(tmp_path / "event"))
    assert code == 0 and "kol 2" in out and "kolo (kola) 3 je v TSH vylosované, ale bez všech výsledků" in err
