"""Action Points: 3 AP a turn; 1d20 + bonus against AC (martial) or SR (magic) with a critical range
that always hits, miss chances, weakness and resistance; initiative 1d20 + bonus, highest first,
with swaps, delays and team initiative.

Every number comes from `rules_data/action-points/` through `SystemData`; the modules here are
split by concept: `weapons` (presets and properties), `attack` (hit and damage), `initiative`,
`round` (a turn's AP spent on attacks, rounds to drop a foe), `defense` (standard and quick
defense against an attacker), `dying` (checks and stabilising), `spells` (spell check DCs),
`planner` (the best use of the turn's AP) and `tables` (the generated tables).
"""

from __future__ import annotations

from calc.systems.action_points import turns as TURNS
from calc.systems.action_points.attack import damage, hit
from calc.systems.action_points.defense import defense
from calc.systems.action_points.dying import dying
from calc.systems.action_points.fight import FIGHT
from calc.systems.action_points.forecast import forecast
from calc.systems.action_points.initiative import initiative
from calc.systems.action_points.planner import ap_plan
from calc.systems.action_points.round import round_
from calc.systems.action_points.spells import spell_check
from calc.systems.action_points.tables import TABLES

CALCULATORS = {
    "hit": hit,
    "damage": damage,
    "initiative": initiative,
    "round": round_,
    "defense": defense,
    "dying": dying,
    "spell_check": spell_check,
    "ap_plan": ap_plan,
    "forecast": forecast,
}

__all__ = [
    "CALCULATORS",
    "TABLES",
    "FIGHT",
    "TURNS",
    "ap_plan",
    "damage",
    "defense",
    "dying",
    "forecast",
    "hit",
    "initiative",
    "round_",
    "spell_check",
]
