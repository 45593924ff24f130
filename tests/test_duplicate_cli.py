"""``partiar duplicate`` through its standard input: a round, a kill -9 in the middle, the resume, the results."""

from __future__ import annotations

import csv
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from small_lexicon import CAT_WORDS, write_index

ROOT = Path(__file__).resolve().parent.parent
WORDS = CAT_WORDS


@pytest.fixture
def index(tmp_path: Path) -> Path:
    return write_index(tmp_path / "english.dawg", WORDS)


class Program:
    """``partiar duplicate`` as a child process; its output lines arrive on a queue read by a thread."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "device.cli", "duplicate", *args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, text: str) -> str:
        while True:
            line = self.lines.get(timeout=60)
            self.seen.append(line)
            if text in line:
                return line

    def finish(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        rc = self.proc.wait(timeout=60)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return rc


def test_round_survives_kill_9_and_writes_results(tmp_path: Path, index: Path) -> None:
    folder = tmp_path / "game"
    options = ["--draw", "referee", "--tiles", "english", "--lexicon", str(index), "--lang", "en"]
    first = Program(str(folder), "--players", "Ann,Bob", "--strict-scores", *options)
    first.send("CATSEAX")
    first.send("")  # starts the clock
    first.send("Ann 8H CAT 10")
    assert "Ann: credited, 10 points." in first.wait_for("Ann:")
    first.send("Bob 8G TAXES 30")
    first.send("n")  # the referee refuses the unknown word
    assert "REFUSED, word not allowed" in first.wait_for("Bob:")
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=60)

    second = Program(str(folder), *options)
    assert "move 1" in second.wait_for("resumed")
    second.send("")
    assert second.wait_for("Move 1 (rack CATSEAX)") == "Move 1 (rack CATSEAX): 2 of 2 slips entered.\n"
    second.send("Bob 8H CAT 9")  # wrong score under the strict rule
    assert "wrong score" in second.wait_for("Bob: REFUSED")
    second.send("close")
    top = second.wait_for("On the board:")
    assert second.finish() == 0
    results = list(csv.reader((folder / "vysledky.csv").open(encoding="utf-8")))
    assert results[0] == ["Move", "Rack", "Returned to the bag", "Top play", "Score", "Ann", "Bob"]
    top_score = top.split(" for ")[1].split()[0]
    assert results[1] == ["1", "CATSEAX", "", results[1][3], top_score, "10", "0"]
    assert results[1][3] in top
    page = (folder / "vysledky.html").read_text(encoding="utf-8")
    assert "<table" in page and "Ann" in page
    journal = (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(journal) == 7  # header, rules, draw, 3 slips, close


def test_the_first_wrong_score_asks_the_referee_for_the_rule(tmp_path: Path, index: Path) -> None:
    """No rule chosen at the start: the first slip with a wrong score asks for it (seed 001, item 8); the choice is
    journaled before the slip, so a resume keeps it; an earlier version's journal (no ``score_rule`` in its header)
    keeps crediting the right score as it did."""
    folder = tmp_path / "game"
    options = ["--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    first = Program(str(folder), "--players", "Ann,Bob", *options)
    assert "rozhodnete u prvního lístku" in first.wait_for("Špatně spočítané body")
    first.send("CATSEAX")
    first.send("")
    first.send("Ann 8H CAT 10")
    assert "uznáno, 10 bodů" in first.wait_for("Ann:")
    first.send("Bob 8H CAT 9")
    first.send("nevím")  # not an answer: asked again
    first.send("přísně")
    assert "tah neuznán" in first.wait_for("Špatně spočítané body:")
    assert "NEUZNÁNO, špatně spočítané body" in first.wait_for("Bob:")
    first.send("mírně")
    assert "nelze ho změnit" in first.wait_for("Pravidlo o bodech")
    assert first.finish() == 0
    asked = [line for line in first.seen if "Bob uvádí 9 bodů, tah má 10" in line]
    assert len(asked) >= 1
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    assert journal[0]["score_rule"] == "referee"
    kinds = [(r["type"], r.get("player")) for r in journal[1:]]
    assert kinds == [("draw", None), ("slip", "Ann"), ("rules", None), ("slip", "Bob")]
    assert journal[3]["strict_scores"] is True

    old = tmp_path / "old"
    old.mkdir()
    header = {key: value for key, value in journal[0].items() if key != "score_rule"}
    lines = [header, journal[1], {**journal[4], "player": "Ann"}]  # Ann's wrong score, no rule chosen
    (old / "journal.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    resumed = Program(str(old), *options, "--lang", "en")
    assert "the right score is credited" in resumed.wait_for("Wrong scores:")
    assert resumed.finish() == 0


def test_bad_journal_and_missing_players_exit_2(tmp_path: Path, index: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "journal.jsonl").write_text('{"type": "draw", "tiles": "A"}\n{"x": 1}\n', encoding="utf-8")

    def run(folder: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "device.cli", "duplicate", str(folder), "--lexicon", str(index)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )

    bad_run = run(bad)
    assert bad_run.returncode == 2 and "not a game header" in bad_run.stderr
    new_run = run(tmp_path / "new")
    assert new_run.returncode == 2 and "--players" in new_run.stderr


def test_resume_refuses_a_changed_lexicon(tmp_path: Path, index: Path) -> None:
    folder = tmp_path / "game"
    options = ["--draw", "referee", "--tiles", "english", "--lexicon", str(index), "--lang", "en"]
    first = Program(str(folder), "--players", "Ann", *options)
    first.send("CATSEAX")
    first.wait_for("Rack: CATSEAX")
    assert first.finish() == 0
    write_index(index, [*WORDS, "taxes"])
    run = subprocess.run(
        [sys.executable, "-m", "device.cli", "duplicate", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 2 and "changed since the game started" in run.stderr
    assert len((folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()) == 2  # header and draw


def run_in_process(folder: Path, lines: list[str], *options: str) -> tuple[int, str]:
    """``partiar duplicate`` in this process, its input given line by line; the exit status and what it printed."""
    import io

    from desk.duplicate import run_duplicate
    from device.cli import build_parser

    args = build_parser().parse_args(["duplicate", str(folder), *options])
    out = io.StringIO()
    rc = run_duplicate(args, io.StringIO("".join(line + "\n" for line in lines)), out)
    return rc, out.getvalue()


def test_the_referees_ruling_on_an_unknown_word_takes_a_clear_yes_or_no(tmp_path: Path, index: Path) -> None:
    """The ruling is final and journaled (seed 001, item 8): a typo or a command is no ruling, the question stays."""
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    lines = ["CATSEAX", "", "Ann 8H TAXES 30", "konec", "asi", "ne", "Bob 8H TAXES 30", "ano"]
    rc, out = run_in_process(folder, lines, *options, "--lenient-scores")
    assert rc == 0
    assert out.count("Slovo TAXES není ve slovníku") == 4  # asked again after "konec" and "asi"
    assert "Ann: NEUZNÁNO, nepřípustné slovo" in out and "Bob: uznáno" in out
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    rulings = [(r["player"], r["accept_unknown"]) for r in journal if r["type"] == "slip"]
    assert rulings == [("Ann", False), ("Bob", True)]
    assert all(r["type"] != "close" for r in journal)  # "konec" answered no question and closed nothing


def test_the_referee_reads_why_a_draw_or_a_slip_is_not_taken_in_czech(tmp_path: Path, index: Path) -> None:
    """A typing error at the terminal gets a specific Czech message and changes nothing; a name in another case
    is the player's."""
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    lines = [
        "", "CAT", "CATSEA1", "ZZCATSE", "CATSEAX", "",
        "Ann 8H CAT", "Dan 8H CAT 10", "Ann 8H CAT x", "'Ann 8H CAT 10", "bob 8H CAT 10",
    ]
    rc, out = run_in_process(folder, lines, *options, "--lenient-scores")
    assert rc == 0
    assert "Chyba: CAT: počet kamenů k losování 7, zadáno 3" in out
    assert "Chyba: nezadán žádný kámen: počet kamenů k losování 7 (zadejte je)" in out  # Enter alone: no ": ..."
    assert "Chyba: zásobník CATSEA1: písmeno 1 není v sadě english" in out
    assert "Chyba: zásobník ZZCATSE má Z 2krát, celá sada jen 1krát" in out
    assert out.count("čekám 4 údaje HRÁČ POZICE SLOVO BODY") == 2
    assert "hráč 'Dan' nehraje (hráči: Ann, Bob)" in out and "body 'x' nejsou číslo" in out
    assert "Bob: uznáno, 10 bodů" in out
    assert "Traceback" not in out and "invalid literal" not in out
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["type"], r.get("player")) for r in journal[1:]] == [("rules", None), ("draw", None), ("slip", "Bob")]


def test_the_referees_texts_put_the_nouns_in_the_right_form() -> None:
    from desk.referee_texts import say

    assert [say("verdict_credited", "cs", player="Ann", score=n) for n in (1, 3, 5, 0)] == [
        "Ann: uznáno, 1 bod.",
        "Ann: uznáno, 3 body.",
        "Ann: uznáno, 5 bodů.",
        "Ann: uznáno, 0 bodů.",
    ]
    assert say("verdict_credited", "en", player="Ann", score=1) == "Ann: credited, 1 point."
    assert "aspoň 1 samohlásku a 1 souhlásku" in say("refused_rack", "cs", rack="BCD", need=1)
    assert "aspoň 2 samohlásky a 2 souhlásky" in say("refused_rack", "cs", rack="BCD", need=2)
    assert say("q_count", "cs", racks=3, answers=10) == "Úloha má 3 zásobníky, odpověď 10 tahů."


def test_the_programs_draw_is_journaled_before_the_referee_reads_it(
    tmp_path: Path, index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rack announced to the room and lost in a crash would come back different: the journal comes first."""
    from shared.journal import Journal

    append = Journal.append

    def fail_on_draw(self: Journal, record: dict[str, object]) -> None:
        if record.get("type") == "draw":
            raise OSError("disk full")
        append(self, record)

    monkeypatch.setattr(Journal, "append", fail_on_draw)
    import io

    from desk.duplicate import run_duplicate
    from device.cli import build_parser

    options = ["--players", "Ann,Bob", "--tiles", "english", "--lexicon", str(index), "--seed", "1"]
    args = build_parser().parse_args(["duplicate", str(tmp_path / "game"), *options])
    out = io.StringIO()
    with pytest.raises(OSError, match="disk full"):
        run_duplicate(args, io.StringIO(""), out)
    assert "Nová hra" in out.getvalue() and "vylosováno" not in out.getvalue()


def test_a_folder_reused_for_a_new_game_is_not_quietly_resumed(
    tmp_path: Path, index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``partiar duplicate kolo1 --players ...`` on last round's folder: refused, naming what would not apply; the
    same options, or none, resume; a score rule given at the resume is the referee's choice if still open."""
    folder = tmp_path / "kolo1"
    options = ["--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    assert run_in_process(folder, ["CATSEAX"], "--players", "Ann,Bob", *options)[0] == 0
    capsys.readouterr()
    rc, out = run_in_process(folder, [], "--players", "Eva,Jan", "--minutes", "2", "--draw", "program")
    err = capsys.readouterr().err
    assert rc == 2 and out == ""
    assert "složka" in err and "už má hru (Ann, Bob)" in err and "--players, --draw, --minutes se nemění" in err
    rc, out = run_in_process(folder, [], "--players", "Ann, Bob", *options, "--lenient-scores")
    assert rc == 0 and "Hra obnovena" in out and "připíší se správné body" in out
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["type"] for r in journal] == ["game", "draw", "rules"] and journal[2]["strict_scores"] is False
    assert run_in_process(tmp_path / "new", [], "--players", "Ann", "--minutes", "0", *options)[0] == 2
    assert "--minutes musí být kladné" in capsys.readouterr().err
    assert run_in_process(tmp_path / "new", [], "--players", "Ann,ann", *options)[0] == 2
    assert "hráči Ann, ann: každý potřebuje jiné jméno" in capsys.readouterr().err


def test_a_rack_with_no_play_is_the_referees_decision(tmp_path: Path, index: Path) -> None:
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    rc, out = run_in_process(folder, ["QZJKUUV", "ano", "losovat", "QZJKUUV", "konec"], *options)
    assert rc == 0
    assert out.count("Se zásobníkem nelze položit žádné slovo.") == 2 and out.count("ukončit hru (konec)") == 3
    assert "Zásobník vrácen do sáčku, tah 1 se losuje znovu." in out and "Konec hry: se zásobníkem nelze táhnout" in out
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r.get("no_play") for r in journal if r["type"] == "close"] == ["redraw", "end"]


def test_a_slip_typed_instead_of_enter_starts_the_clock_and_counts(tmp_path: Path, index: Path) -> None:
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    rc, out = run_in_process(folder, ["CATSEAX", "Ann 8H CAT 10", "konec"], *options)
    assert rc == 0 and "Ann: uznáno, 10 bodů." in out and "Tah 1: Ann 10, Bob 0" in out


def test_a_slip_entered_for_the_wrong_player_is_struck_out(tmp_path: Path, index: Path) -> None:
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    lines = ["CATSEAX", "", "Ann 8H CAT 10", "Bob 8H CAT 10", "smazat bob", "smazat Bob", "smazat", "konec"]
    rc, out = run_in_process(folder, lines, *options)
    assert rc == 0 and "Lístek hráče Bob škrtnut." in out and "Bob v tomto tahu žádný lístek nemá." in out
    assert "Nerozumím 'smazat': smazat HRÁČ (hráči: Ann, Bob)" in out and "Tah 1: Ann 10, Bob 0" in out
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {"type": "withdraw", "player": "Bob"} in journal
    rc, out = run_in_process(folder, [])
    assert rc == 0 and "Hra obnovena" in out
    assert (folder / "vysledky.csv").read_text(encoding="utf-8").splitlines()[1].endswith(",10,0")


def test_the_board_shows_the_squares_names_the_slips_use(tmp_path: Path, index: Path) -> None:
    from desk.duplicate import board_diagram
    from engine.board import Board, Notation

    board = Board.from_rows(["." * 15] * 7 + [".......KOčKA..."] + ["." * 15] * 7)
    cas = board_diagram(board, Notation.CAS).splitlines()
    assert cas[0].split() == [str(c) for c in range(1, 16)]
    assert cas[8].split() == ["H", *"......." + "KOčKA" + "..."]  # row H, the word from column 8: H8V
    classic = board_diagram(board, Notation.CLASSIC).splitlines()
    assert classic[0].split() == list("ABCDEFGHIJKLMNO") and classic[8].split()[:9] == ["8", *".......", "K"]
    options = ["--players", "Ann", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    rc, out = run_in_process(tmp_path / "game", ["CATSEAX", "", "deska"], *options)
    assert rc == 0 and "     A  B  C  D  E  F  G  H  I  J  K  L  M  N  O" in out


def test_a_seeded_game_resumed_after_a_crash_draws_the_racks_of_an_uninterrupted_one(
    tmp_path: Path, index: Path
) -> None:
    """Two rooms on one ``--seed`` play the same racks: the program's draws are a function of the seed and the draws
    before them, so stopping the program at any point and resuming it changes none of them (main restarted the
    seed's sequence at every start: the racks after a resume were another game's)."""
    options = ["--players", "Ann,Bob", "--tiles", "english", "--lexicon", str(index), "--seed", "4", "--lang", "en"]
    lines = ["", "close"] * 3  # this seed's first three racks have plays in the small word list

    def draws(folder: Path) -> list[str]:
        journal = (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()
        return [r["tiles"] for r in map(json.loads, journal) if r["type"] == "draw"]

    assert run_in_process(tmp_path / "whole", lines, *options)[0] == 0
    whole = draws(tmp_path / "whole")
    assert len(whole) >= 2  # draws after the first, which a resume could change
    for cut in (0, 1, 2, 4, 6):
        folder = tmp_path / f"cut{cut}"
        run_in_process(folder, lines[:cut], *options)
        rc, out = run_in_process(folder, lines[cut:], *options)
        assert rc == 0, out
        assert draws(folder) == whole, f"stopped after {cut} lines"


def test_a_second_program_on_the_same_folder_is_refused_in_czech(tmp_path: Path, index: Path) -> None:
    """Issue 29, item 1: while one ``partiar duplicate`` runs on a folder, a second one started on it exits 2 with
    a Czech message and writes nothing; after the first is killed (the system drops its lock), the game resumes."""
    folder = tmp_path / "game"
    options = ["--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    first = Program(str(folder), "--players", "Ann,Bob", *options)
    first.send("CATSEAX")
    first.wait_for("Zásobník: CATSEAX")
    journal = (folder / "journal.jsonl").read_bytes()

    def second() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "device.cli", "duplicate", str(folder)],
            cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=60, input="CATSEAX\n\n",
        )  # fmt: skip

    refused = second()
    assert refused.returncode == 2, refused.stderr
    assert f"složka {folder} už má spuštěný jiný program partiar duplicate (PID {first.proc.pid}" in refused.stderr
    assert (folder / "journal.jsonl").read_bytes() == journal
    first.send("Ann 8H CAT 10")
    assert "uznáno" in first.wait_for("Ann:")
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=60)
    resumed = second()
    assert resumed.returncode == 0, resumed.stderr
    assert "Hra obnovena" in resumed.stdout


def test_after_a_crash_the_referee_lists_the_slips_already_entered(tmp_path: Path, index: Path) -> None:
    """Issue 29, item 7: ``--slips`` lists the open move's slips from the journal, also while the program runs
    (read only, no lock); after a ``kill -9`` the resumed program lists them by itself, and ``lístky`` on demand."""
    folder = tmp_path / "game"
    options = ["--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    first = Program(str(folder), "--players", "Ann,Bob,Cy", "--lenient-scores", *options)
    first.send("CATSEAX")
    first.send("")
    first.send("Ann 8H CAT 10")
    first.wait_for("Ann:")
    first.send("Bob 8H TAC 5")
    first.send("n")  # TAC is not in the lexicon: the referee refuses it
    first.wait_for("Bob:")

    def listed() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "device.cli", "duplicate", str(folder), "--slips"],
            cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    expected = [
        "Tah 1 (zásobník CATSEAX): zadáno 2 z 3 lístků.",
        "  Ann: 8H CAT 10: uznáno, 10 bodů",
        "  Bob: 8H TAC 5: neuznáno, nepřípustné slovo",
        "  Lístek chybí: Cy",
    ]
    while_running = listed()
    assert while_running.returncode == 0, while_running.stderr
    assert while_running.stdout.splitlines() == expected
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=60)
    assert listed().stdout.splitlines() == expected
    second = Program(str(folder), *options)
    second.wait_for("Hra obnovena")
    assert second.wait_for("Tah 1 (zásobník") == expected[0] + "\n"
    second.send("")
    second.send("lístky")
    second.send("Cy 8H CAT 10")
    second.wait_for("Cy:")
    second.send("konec")
    second.wait_for("Na desku jde")
    assert second.finish() == 0
    assert second.seen.count(expected[1] + "\n") == 2  # on resuming, and asked for
    assert "Žádný tah není otevřený (další je tah 2)" in listed().stdout


def test_a_slip_after_konec_is_booked_to_the_move_the_referee_names(tmp_path: Path, index: Path) -> None:
    """A slip typed after ``konec`` was read as the next move's (and started its clock): judged on a board with the
    top play on it, and credited to the wrong move when legal there. Now the referee is asked which move it is for;
    the closed move's slip is judged on that move's board, journaled with its move and the results rewritten."""
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob,Cyril", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    lines = [
        "CATSEAX", "", "Ann 8H CAT 10", "konec",  # the top play H6 AXE goes on the board: H8 is taken
        "EOT", "Bob 8H CAT 10", "3", "1",  # a slip after konec: not an answer, asked again; move 1
        "tah 1 Cyril 8H ACT 10",  # the explicit form, also before the clock starts
        "tah 7 Cyril 8H ACT 10",  # no such move
        "", "konec",
    ]  # fmt: skip
    rc, out = run_in_process(folder, lines, *options, "--lenient-scores")
    assert rc == 0
    assert out.count("Lístek po konci tahu 1: ke kterému tahu patří?") == 2
    assert "Bob: uznáno, 10 bodů." in out and "Cyril: uznáno, 10 bodů." in out
    assert out.count("Zapsáno k uzavřenému tahu 1; výsledky přepsány.") == 2
    assert "Tah '7' nelze: lístek jde zapsat k uzavřenému tahu 1-1 nebo k otevřenému tahu 2." in out
    assert "Tah 2: Ann 0, Bob 0, Cyril 0" in out
    journal = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    late = [r for r in journal if r["type"] == "slip" and r.get("move") == 1]
    assert [r["player"] for r in late] == ["Bob", "Cyril"]
    rows = list(csv.reader((folder / "vysledky.csv").open(encoding="utf-8")))
    assert rows[1][-3:] == ["10", "10", "10"] and rows[2][-3:] == ["0", "0", "0"]
    rc, out = run_in_process(folder, [])  # resumed from the journal: the same results
    assert rc == 0
    assert list(csv.reader((folder / "vysledky.csv").open(encoding="utf-8")))[1][-3:] == ["10", "10", "10"]


def test_the_sheet_tells_a_missing_slip_from_a_struck_out_one_and_shows_a_corrected_score(
    tmp_path: Path, index: Path
) -> None:
    """Both used to show a bare 0, and the lenient rule credited the right score without a word."""
    folder = tmp_path / "game"
    options = ["--players", "Ann,Bob,Cyril", "--draw", "referee", "--tiles", "english", "--lexicon", str(index)]
    lines = ["CATSEAX", "", "Ann 8H CAT 12", "Bob 8H CAT 10", "smazat Bob", "konec"]
    rc, out = run_in_process(folder, lines, *options, "--lenient-scores")
    assert rc == 0
    assert "Ann: uznáno se správnými body, 10 bodů (na lístku 12: špatně spočítáno)." in out
    page = (folder / "vysledky.html").read_text(encoding="utf-8")
    assert "<td>10 (napsáno 12)</td>" in page
    assert "<td>0 (lístek škrtnut)</td>" in page and "<td>0 (bez lístku)</td>" in page
    rows = list(csv.reader((folder / "vysledky.csv").open(encoding="utf-8")))
    assert rows[1][-3:] == ["10", "0", "0"]  # the CSV keeps numbers
