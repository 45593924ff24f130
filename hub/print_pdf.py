"""A page printed to an A4 PDF by headless Chromium, as ``engine.scoresheet``'s sheet is printed
(``chromium --headless --print-to-pdf``, docs/game.md): the printed lists of the tournament desk."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from hub.errors import HubError

PRINT_SECONDS = 120.0
"""How long one print may take (Chromium's start on a busy Pi is the most of it)."""


_ONE_AT_A_TIME = threading.Lock()
"""One print at a time: a Chromium takes a few hundred MB and a core for a few seconds."""


def chromium() -> str | None:
    """The Chromium binary (Debian's ``chromium``, or ``chromium-browser``), None if there is none."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def html_to_pdf(html: str) -> bytes:
    """``html`` (a whole page, its CSS inside it) printed to PDF. Raises HubError if Chromium is missing or
    fails."""
    binary = chromium()
    if binary is None:
        raise HubError("no Chromium to print with (apt-get install chromium); print the HTML page instead")
    with _ONE_AT_A_TIME, tempfile.TemporaryDirectory(prefix="partiar-print-") as tmp:
        folder = Path(tmp)
        source, target = folder / "page.html", folder / "page.pdf"
        source.write_text(html, encoding="utf-8")
        try:
            done = subprocess.run(
                [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={folder / 'p'}",
                 "--no-pdf-header-footer", f"--print-to-pdf={target}", source.as_uri()],
                capture_output=True, timeout=PRINT_SECONDS, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise HubError(f"Chromium did not print within {PRINT_SECONDS:.0f} s") from None
        if done.returncode != 0 or not target.exists():
            raise HubError(f"Chromium could not print (exit {done.returncode}): {done.stderr.decode()[-300:]}")
        return target.read_bytes()
