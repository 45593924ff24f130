"""The Swiss pairing's maximum weight matching (tournament/matching.py): rustworkx and networkx find matchings of
the same cardinality and weight as networkx called directly, on random graphs of small and huge weights; weights
past rustworkx's 128 bits go to networkx; ``force_networkx`` chooses networkx."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from tournament import matching
from tournament.matching import RUST_LIMIT, backend, force_networkx, max_weight_matching

Edges = list[tuple[int, int, int]]


def _reference(nodes: int, edges: Edges) -> tuple[int, int]:
    """(cardinality, weight) of networkx's maximum-cardinality maximum weight matching, called directly."""
    g: nx.Graph[int] = nx.Graph()
    g.add_nodes_from(range(nodes))
    g.add_weighted_edges_from(edges)
    m = nx.max_weight_matching(g, maxcardinality=True)
    return len(m), sum(g[a][b]["weight"] for a, b in m)


def _random_graph(rng: random.Random, nodes: int, density: float, top: int) -> Edges:
    return [(i, j, rng.randint(0, top)) for i in range(nodes) for j in range(i + 1, nodes) if rng.random() < density]


@pytest.mark.usefixtures("matching_backend")
@pytest.mark.parametrize("seed", range(40))
def test_the_matching_is_of_most_edges_and_then_greatest_weight(seed: int) -> None:
    rng = random.Random(seed)
    nodes = rng.randint(2, 30)
    top = rng.choice((3, 1000, 10**30))
    edges = _random_graph(rng, nodes, rng.choice((0.1, 0.3, 0.8)), top)
    chosen = max_weight_matching(nodes, edges, top)
    weight = {(i, j): w for i, j, w in edges}
    assert all(i < j and (i, j) in weight for i, j in chosen)
    ends = [v for e in chosen for v in e]
    assert len(ends) == len(set(ends))  # a matching
    assert (len(chosen), sum(weight[e] for e in chosen)) == _reference(nodes, edges)


def test_the_backend_is_rustworkx_where_installed_unless_told() -> None:
    if matching._rx is None:
        assert backend() == "networkx"
        return
    assert backend() == "rustworkx"
    assert backend(RUST_LIMIT) == "networkx"  # past 128 bits
    force_networkx(True)
    try:
        assert backend() == "networkx"
    finally:
        force_networkx(False)
    assert backend() == "rustworkx"


def test_weights_past_128_bits_are_matched_exactly() -> None:
    big = 2**200
    # a path 0-1-2-3: the two outer edges beat the heavier middle one by cardinality
    assert max_weight_matching(4, [(0, 1, big), (1, 2, big + 5), (2, 3, big + 1)], big + 5) == [(0, 1), (2, 3)]
    # a square: of the two perfect matchings the heavier, by one in 2**200
    square = [(0, 1, big + 1), (0, 2, big + 2), (1, 3, big + 2), (2, 3, big)]
    assert max_weight_matching(4, square, big + 2) == [(0, 2), (1, 3)]


def test_a_graph_without_edges_has_an_empty_matching() -> None:
    assert max_weight_matching(3, [], 0) == []
