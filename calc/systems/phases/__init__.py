"""The `phases` system: six phases a round, each ordered by a d20 that is also the action roll;
hit when the d20 reaches attack target + Defense; damage is the margin of success; damage below
0 Hit Points becomes a Wound of a severity read from the wound table.

Modules: `attack_roll` (attack target, target number, the d20 used, what each face does), `hit`,
`damage`, `wounds`, `order` (phase order and morale), `generated` (the tables of the pages)."""

from __future__ import annotations

from calc.systems.phases.damage import damage
from calc.systems.phases.generated import TABLES
from calc.systems.phases.hit import hit
from calc.systems.phases.order import initiative

CALCULATORS = {"hit": hit, "damage": damage, "initiative": initiative}

__all__ = ["CALCULATORS", "TABLES", "damage", "hit", "initiative"]
