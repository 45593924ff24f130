"""The table unit's daemon and its hardware adapters (Raspberry Pi)."""
