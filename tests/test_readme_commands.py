"""The README's commands are the real ones: every ``partiar ...`` row of its commands table names a command the
installed ``partiar`` has (with its subcommand where it names one), and ``scripts/partiar`` runs that command from
any folder and through a symlink, as the README says."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from device.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
WRAPPER = ROOT / "scripts" / "partiar"


def table_commands() -> list[list[str]]:
    """The words after ``partiar`` of each command in the README's commands table (up to the first option)."""
    section = README.split("## Commands", 1)[1].split("\n## ", 1)[0]
    out = []
    for row in section.splitlines():
        if not row.startswith("| `partiar "):
            continue
        for command in re.findall(r"`partiar ([^`]+)`", re.split(r"(?<!\\)\|", row)[1]):  # cells split at "|", not "\\|"
            words = []
            for word in command.split():
                if word.startswith(("-", "[")) or word.isupper() or "." in word:
                    break
                words.append(word)
            out.append(words)
    return out


def test_the_readme_table_lists_the_commands() -> None:
    assert len(table_commands()) >= 12


@pytest.mark.parametrize("words", table_commands(), ids=lambda w: " ".join(w))
def test_every_command_in_the_readme_exists(words: list[str]) -> None:
    if not words:  # an option of ``partiar`` itself (``partiar --version``): the README's row names it
        row = next(r for r in README.splitlines() if r.startswith("| `partiar -"))
        option = re.match(r"\| `partiar (-[-\w]+)", row)
        assert option is not None and option[1] in build_parser()._option_string_actions, row
        return
    parser = build_parser(words[0])
    for word in words:  # each word a subcommand of the one before, or a choice of one of its arguments
        choices = {name: action for action in parser._actions for name in (getattr(action, "choices", None) or ())}
        alternatives = word.split("\\|")  # "generate\|solve\|check" in the table: each one
        assert all(w in choices for w in alternatives), f"partiar {' '.join(words)}: no {word!r} in {sorted(choices)}"
        among = choices[alternatives[0]].choices
        if isinstance(among, dict):  # a subcommand: the next word is one of its own
            parser = among[alternatives[0]]


def test_scripts_partiar_runs_the_command_from_any_folder_and_through_a_symlink(tmp_path: Path) -> None:
    assert "scripts/partiar" in README
    link = tmp_path / "partiar"
    link.symlink_to(WRAPPER)
    for program in (WRAPPER, link):
        done = subprocess.run([str(program), "gcg", "--help"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("použití: partiar gcg")  # Czech unless English is asked for
