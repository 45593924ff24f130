"""CSV cells a spreadsheet shows as written: a text cell that a spreadsheet would run as a formula (CSV injection:
a player's name like ``=HYPERLINK(...)`` typed at a table or by a referee) gets a leading ``'``. One home for the
hub's results and the duplicate results sheet."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula."""


def csv_cell(value: object) -> object:
    """``value`` as a CSV cell a spreadsheet shows as text: ``=HYPERLINK(...)`` is written ``'=HYPERLINK(...)``;
    numbers (and any other non-text value) stay as they are."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value
