"""``python -m hw_sim.daemon``: the simulator's daemon refuses a config it cannot run with the reason (the whole
daemon on its panel runs in tests/test_sim_e2e.py and tests/test_web_chromium.py)."""

from __future__ import annotations

import pytest

from hw_sim.daemon import main


def test_a_broken_config_is_refused_with_the_key(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "daemon.toml"
    config.write_text("[display]\ncount = 7\n", encoding="utf-8")
    assert main(["--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m hw_sim.daemon: ") and "display.count" in err


def test_a_taken_panel_port_is_refused(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        config = tmp_path / "daemon.toml"
        config.write_text(
            f"[table]\npin_factory = 'mock'\nstate_dir = '{tmp_path}'\n[sim]\npanel_port = {port}\n",
            encoding="utf-8",
        )
        assert main(["--config", str(config)]) == 2
    assert "python -m hw_sim.daemon: " in capsys.readouterr().err
