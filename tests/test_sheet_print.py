"""The score sheet (partiář) printed by headless Chromium, as an organiser prints it: one A4 page.

004 "Zápis partie": the sheet both players sign and hand to the referee. Skipped where Debian's chromium is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from test_game_scripted import GOLDEN_SCRIPT

from engine.game import GameInfo
from engine.game.script import run_script
from engine.scoresheet import render_html

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="needs Debian's chromium")

A4_POINTS = (595.0, 842.0)


def test_the_full_sheet_prints_on_one_a4_page(tmp_path):
    game = run_script(GOLDEN_SCRIPT.replace("exchange 3", "warn 0 ruší\nexchange 3"))
    game.apply(GameInfo(99, "Praha", "Mistrovství ČR", "5", "23.11.2026 13:05", "Stůl 7", ("Praha", "Brno")))
    page = tmp_path / "sheet.html"
    page.write_text(render_html(game), encoding="utf-8")
    pdf = tmp_path / "sheet.pdf"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    data = pdf.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page(?!s)", data)) == 1
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert boxes and all(abs(float(w) - A4_POINTS[0]) < 1 and abs(float(h) - A4_POINTS[1]) < 1 for w, h in boxes)
