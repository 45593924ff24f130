"""The example config in the docs is one the daemon accepts."""

from pathlib import Path

from device.config import load_config

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_example_config_loads():
    config = load_config(ROOT / "docs" / "table.example.toml")
    assert config.display.count == 2 and config.clock == "cas" and config.hub.broker == ""
