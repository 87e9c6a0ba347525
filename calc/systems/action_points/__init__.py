"""Action Points: 3 AP a turn; 1d20 + bonus against AC (martial) or SR (magic) with a critical range
that always hits, miss chances, weakness and resistance; initiative 1d20 + bonus, highest first,
with swaps, delays and team initiative.

Every number comes from `rules_data/action-points/` through `SystemData`; the modules here are
split by concept: `weapons` (presets and properties), `attack` (hit and damage), `initiative`,
`round` (a turn's AP spent on attacks, rounds to drop a foe) and `tables` (the generated tables).
"""

from __future__ import annotations

from calc.systems.action_points.attack import damage, hit
from calc.systems.action_points.initiative import initiative
from calc.systems.action_points.round import round_
from calc.systems.action_points.tables import TABLES

CALCULATORS = {"hit": hit, "damage": damage, "initiative": initiative, "round": round_}

__all__ = ["CALCULATORS", "TABLES", "damage", "hit", "initiative", "round_"]
