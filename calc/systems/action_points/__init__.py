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

from calc.packages import lazy, lazy_attribute
from calc.systems.action_points.attack import damage, hit
from calc.systems.action_points.defense import defense
from calc.systems.action_points.dying import dying
from calc.systems.action_points.initiative import initiative
from calc.systems.action_points.planner import ap_plan
from calc.systems.action_points.round import round_
from calc.systems.action_points.spells import spell_check
from calc.systems.action_points.tables import TABLES
from calc.systems.contract import Calculator, Fight, Resolve, Turns

CALCULATORS: dict[str, Calculator] = {
    "hit": hit,
    "damage": damage,
    "initiative": initiative,
    "round": round_,
    "defense": defense,
    "dying": dying,
    "spell_check": spell_check,
    "ap_plan": ap_plan,
    "forecast": lazy(f"{__name__}.forecast", "forecast"),  # in calc-fight (calc.packages)
}

__all__ = [
    "CALCULATORS",
    "FIGHT",
    "RESOLVE",
    "TABLES",
    "TURNS",
    "ap_plan",
    "damage",
    "defense",
    "dying",
    "hit",
    "initiative",
    "round_",
    "spell_check",
]

# The fight rules, the round's turns and the attack's Resolve at the table are in calc-fight
# (calc.packages): read at their first use, by the tracker. Declared for the contract; their values
# come from __getattr__.
FIGHT: Fight
TURNS: Turns
RESOLVE: Resolve
__getattr__ = lazy_attribute(__name__, {"FIGHT": "fight.FIGHT", "TURNS": "turns", "RESOLVE": "resolve.Resolve"})
