"""Each table unit's link to the hub in one view for the desk: connected, last seen, its pairing of the round
acknowledged, its game of the round started (``table_status``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from hub.store import HubStore


@dataclass(frozen=True)
class UnitStatus:
    """One table unit in round ``round``: ``connected`` (its last will or status: None if never heard of),
    ``last_seen`` (wall clock of its last event or state; None: never), ``acked`` (the table number whose pairing
    of the round it acknowledged; None: none), ``game_started`` (its game of the round has a move or its game time
    runs)."""

    unit: str
    connected: bool | None
    last_seen: float | None
    acked: int | None
    game_started: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def table_status(store: HubStore, round_no: int) -> dict[str, UnitStatus]:
    """Every table unit the hub has heard of or that acknowledged a pairing of round ``round_no``, by unit id."""
    acked = {unit: number for number, unit in store.pairing_acks(round_no).items()}
    units = sorted(set(store.table_ids()) | set(acked))
    out: dict[str, UnitStatus] = {}
    for unit in units:
        table = store.tables.get(unit)
        record = store.current_game(unit)
        clock = (table.state.get("clock") or {}) if table is not None else {}
        started = record is not None and record.round == round_no and (
            bool(record.game.history) or clock.get("game_phase") not in (None, "not started"))  # fmt: skip
        out[unit] = UnitStatus(unit, table.online if table is not None else None,
                               (table.updated or None) if table is not None else None, acked.get(unit),
                               started)  # fmt: skip
    return out
