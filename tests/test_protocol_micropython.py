"""The protocol codec and BoardApp under a real MicroPython unix port (tests/firmware_protocol_selftest.py)."""

from __future__ import annotations

import firmware_protocol_selftest  # tests/ is on sys.path (pytest prepend import mode)
from test_firmware_micropython import needs_micropython, run_micropython


@needs_micropython
def test_protocol_selftest_passes_under_micropython() -> None:
    result = run_micropython("tests/firmware_protocol_selftest.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "protocol selftest: OK" in result.stdout


@needs_micropython
def test_protocol_modules_import_under_micropython() -> None:
    result = run_micropython(
        "-c", "import sys, firmware.protocol, firmware.board_app; print(sys.implementation.name)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "micropython"


def test_protocol_selftest_passes_under_cpython() -> None:
    assert firmware_protocol_selftest.run() > 10
