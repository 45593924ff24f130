"""The tournament desk's pure core: players, the deník (the log of events), the state rebuilt from it, pairing,
standings by TurČAS, and the ladder (žebříček).

Nothing here reads a file, opens a socket or looks at the clock: every time is an ISO string the caller passes in
an event. The command line (``tournament.cli``), the folder format (``tournament.folder``) and what a folder's own
deník appends from it (``tournament.folder_denik``) sit on top; the hub uses the same modules. docs/tournament.md describes the rules and every default.
"""

from __future__ import annotations

from tournament.errors import TournamentError

SOFTWARE = "partiar"
"""The software's name as the deník records it (seed 004: a computer-run tournament logs software, version,
settings)."""

__all__ = ["SOFTWARE", "TournamentError"]
