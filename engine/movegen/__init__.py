"""The move generator: every legal play of a rack on a position, scored by the engine (docs/engine.md).

``MoveGenerator(WordGraph.load(path), tile_set("czech")).plays(board, "KOČKA?E")`` lists every play best first;
``.best(board, rack, n)`` gives the n best with shadow bounds (much faster).
"""

from __future__ import annotations

from .generator import Line, MoveGenerator, Rack
from .graph import WordGraph
from .move import Move, rank_key

__all__ = ["Line", "Move", "MoveGenerator", "Rack", "WordGraph", "rank_key"]
