"""The maximum weight matching the Swiss pairing is (``tournament.pairing``): rustworkx's (Rust, Edmonds' blossom
algorithm with duals) where it is installed, networkx's (the same algorithm in Python, 20-40x slower) elsewhere.

Both are exact with whole-number weights and find a maximum-cardinality matching of the greatest weight; where two
matchings weigh the same they may pick different ones (the pairing's error function breaks nearly every tie: the
strength part). rustworkx keeps weights in 128 bits: heavier graphs go to networkx, which has no limit.
``force_networkx(True)`` uses networkx anyway (to compare; the tests run both).

rustworkx has wheels for x86-64 and 64-bit ARM (Linux, macOS, Windows); a 32-bit Raspberry Pi OS has none, and a
table unit does not pair rounds: the project installs it where a wheel exists (pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import networkx as nx

_forced = [False]  # networkx even where rustworkx is installed (force_networkx)
RUST_LIMIT = 2**120
"""The heaviest edge rustworkx is given: its weights and duals are 128-bit integers (sums of two weights must fit).
The pairing's heaviest edge has 100 bits with 150 players after 8 rounds, 117 with 400 players after 19."""

_rx: ModuleType | None
try:
    import rustworkx as _rx
except ImportError:  # no wheel for this machine: networkx
    _rx = None


def force_networkx(on: bool) -> None:
    """Match with networkx even where rustworkx is installed (``on``), or as installed (to compare them)."""
    _forced[0] = on


def backend(heaviest: int = 0) -> str:
    """Which library matches a graph whose heaviest edge weighs ``heaviest``: "rustworkx" or "networkx"."""
    if _rx is None or _forced[0] or heaviest >= RUST_LIMIT:
        return "networkx"
    return "rustworkx"


def max_weight_matching(nodes: int, edges: Sequence[tuple[int, int, int]], heaviest: int) -> list[tuple[int, int]]:
    """A matching of as many edges as any matching has, of the greatest total weight among those, in the graph of
    nodes ``0 .. nodes - 1`` and ``edges`` ``(i, j, weight)`` (each pair once, ``i != j``, whole non-negative
    weights, none above ``heaviest``). Each matched edge comes back as ``(i, j)`` with ``i < j``."""
    if backend(heaviest) == "rustworkx":
        assert _rx is not None
        graph = _rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(nodes))
        graph.add_edges_from(edges)
        matched = _rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    else:
        g: nx.Graph[int] = nx.Graph()
        g.add_nodes_from(range(nodes))
        g.add_weighted_edges_from(edges)
        matched = nx.max_weight_matching(g, maxcardinality=True)
    return sorted((min(i, j), max(i, j)) for i, j in matched)
