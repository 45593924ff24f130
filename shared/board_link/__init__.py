"""The board link: the Pi-side reader of the instrumented board's serial protocol (``firmware/PROTOCOL.md``).

``BoardLink`` (reader) runs the link in a thread and reports ``events``; ``HostSession`` is its I/O-free protocol
state; ``diff_move`` turns two board states into a move's new tiles.
"""

from shared.board_link.board_diff import BoardDiffError, diff_move
from shared.board_link.events import BoardChanged, CellFault, Grid, LinkDown, LinkUp, Snapshot
from shared.board_link.reader import BoardLink
from shared.board_link.session import HostSession

__all__ = [
    "BoardChanged",
    "BoardDiffError",
    "BoardLink",
    "CellFault",
    "Grid",
    "HostSession",
    "LinkDown",
    "LinkUp",
    "Snapshot",
    "diff_move",
]
