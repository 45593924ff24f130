"""The organiser's guide run as written (issue 32: "a guide is code: its commands run in a test").

``guide_block`` reads the command lines of a ``sh`` code block of ``docs/cs/poradatel.md`` under a heading;
``GuideShell`` runs them with bash as the reader would in the checkout's root, in a fresh home folder (``~``),
changing only what the guide tells the reader to choose or what this machine has instead: the ports (free loopback
ports for the guide's 1884, 8884, 8070, ...), ``scripts/partiar`` (this checkout's ``python -m device.cli``) and,
when the tests run as root, ``brokerconf --run-as root`` (mosquitto started by root would become "mosquitto"). A
line ending in `` &`` starts a background process, kept until ``stop``; every other line must succeed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "cs" / "poradatel.md"
ONE_PC = "### Zkouška na jednom počítači"


def guide_block(heading: str = ONE_PC) -> list[str]:
    """The command lines of the first ``sh`` block after ``heading`` in the organiser's guide."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index(heading):]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, f"no sh block under {heading!r} in {GUIDE}"
    return [line for line in block.group(1).splitlines() if line.strip()]


class GuideShell:
    """Runs guide lines with bash in the checkout's root, ``HOME`` a fresh folder, ports mapped by ``ports``."""

    def __init__(self, home: Path, ports: dict[int, int], env: dict[str, str] | None = None) -> None:
        self.home = home
        self.ports = ports
        self.env = os.environ | {"HOME": str(home), "PYTHONUNBUFFERED": "1"} | (env or {})
        self.background: list[tuple[subprocess.Popen[str], Path]] = []

    def literal(self, line: str) -> str:
        """The line as this test runs it (the guide's ports, ``scripts/partiar``, root's broker user)."""
        for guide_port, port in self.ports.items():
            line = re.sub(rf"\b{guide_port}\b", str(port), line)
        line = line.replace("scripts/partiar", f"{sys.executable} -m device.cli")
        if " hub brokerconf " in line and os.geteuid() == 0:
            line += " --run-as root"
        return line

    def path(self, text: str) -> Path:
        """A guide path (``~/turnaj/...``) in this shell's home."""
        return Path(text.replace("~", str(self.home), 1))

    def run(self, line: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        """Run one line to its end; raises AssertionError with its output if it fails."""
        assert not line.rstrip().endswith("&"), line
        done = subprocess.run(["bash", "-c", self.literal(line)], input=stdin, capture_output=True, text=True,
                              env=self.env, timeout=300, cwd=ROOT,
                              start_new_session=True)  # no terminal: getpass reads the typed password from stdin
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        return done

    def start(self, line: str) -> tuple[subprocess.Popen[str], Path]:
        """Start a `` &`` line in its own process group (its output to a log file in the home folder)."""
        command = self.literal(line.rstrip().removesuffix("&").rstrip())
        log = self.home / f"background-{len(self.background) + 1}.log"
        with open(log, "w", encoding="utf-8") as out:
            process = subprocess.Popen(["bash", "-c", f"exec {command}"], stdout=out, stderr=subprocess.STDOUT,
                                       text=True, env=self.env, cwd=ROOT, start_new_session=True)  # fmt: skip
        self.background.append((process, log))
        return process, log

    def stop(self) -> None:
        """SIGTERM each background process group (the last started first), SIGKILL what does not end in 60 s."""
        for process, _ in reversed(self.background):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(60)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(30)
