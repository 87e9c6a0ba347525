"""Which Wound a blow causes: damage that takes a character below 0 Hit Points is read on the wound
table, less the armour's wound protection (the ruling reads only the part below 0 HP)."""

from __future__ import annotations

from typing import Any

from calc.inputs.data import SystemData
from calc.systems.phases.attack_roll import in_range


def wound_row(damage: int, current_hp: int, protection: int, reading: str, data: SystemData) -> dict[str, Any] | None:
    """The wound-table row a blow of `damage` gives, or None when it causes no Wound (the
    character stays at 0 HP or above, or the armour's protection leaves nothing to read).

    `reading` is "overflow" (the ruling: only the damage below 0 HP) or "whole" (the whole blow).
    """
    if damage <= current_hp:
        return None
    read = damage - current_hp if reading == "overflow" else damage
    read -= protection
    if read < 1:
        return None
    for row in data.table("wound-severity"):
        if in_range(read, row["damage"]):
            return row
    return None
