"""The figures every benchmark prints: a nearest-rank percentile (the median comes from ``statistics``).

The scripts import it as ``stats``: a script's own folder is first on its path.
"""

from __future__ import annotations

from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by nearest rank; raises ValueError for no values."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]
