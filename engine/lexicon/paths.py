"""Where the table keeps its lexicon index."""

from __future__ import annotations

import os
from pathlib import Path

INDEX_NAME = "lexicon.dawg"


def data_dir() -> Path:
    """The table's data folder: ``$PARTIAR_DATA`` if set, else ``$XDG_DATA_HOME/partiar``, else
    ``~/.local/share/partiar``."""
    explicit = os.environ.get("PARTIAR_DATA")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "partiar"


def default_path() -> Path:
    """Where ``partiar lexicon build`` writes the index and the daemon looks for it by default."""
    return data_dir() / INDEX_NAME
