"""The `phases` system: six phases a round, each ordered by a d20 that is also the action roll;
hit when the d20 reaches attack target + Defense; damage is the margin of success; damage below
0 Hit Points becomes a Wound of a severity read from the wound table.

Modules: `attack_roll` (attack target, target number, the d20 used, what each face does), `hit`,
`damage`, `wounds`, `order` (phase order and morale), `checks` (non-attack rolls), `maneuver`
(opportunity attacks, grapple, shove), `feint`, `dodge`, `monster_wounds`, `rally`, `round`
(a whole round, rounds to drop the target), `forecast` (a whole fight), `generated` (the tables of the pages)."""

from __future__ import annotations

from calc.packages import lazy, lazy_attribute
from calc.systems.contract import Calculator, Fight, Resolve, Turns
from calc.systems.phases.damage import damage
from calc.systems.phases.dodge import dodge
from calc.systems.phases.feint import feint
from calc.systems.phases.generated import TABLES
from calc.systems.phases.hit import hit
from calc.systems.phases.maneuver import maneuver
from calc.systems.phases.monster_wounds import monster_wounds
from calc.systems.phases.order import initiative
from calc.systems.phases.rally import rally
from calc.systems.phases.round import round_

CALCULATORS: dict[str, Calculator] = {"hit": hit, "damage": damage, "initiative": initiative}
# Issue 13: the actions a GM resolves mid-fight.
CALCULATORS |= {"maneuver": maneuver, "feint": feint, "dodge": dodge, "monster_wounds": monster_wounds, "rally": rally}
CALCULATORS["round"] = round_  # issue 13 item 1: a whole round and rounds to drop the target
CALCULATORS["forecast"] = lazy(f"{__name__}.forecast", "forecast")  # issue 22: the whole fight

__all__ = [
    "CALCULATORS",
    "FIGHT",
    "RESOLVE",
    "TABLES",
    "TURNS",
    "damage",
    "dodge",
    "feint",
    "hit",
    "initiative",
    "maneuver",
    "monster_wounds",
    "rally",
]

# The fight rules, the round's turns and the attack's Resolve at the table are in calc-fight
# (calc.packages): read at their first use, by the tracker. Declared for the contract; their values
# come from __getattr__.
FIGHT: Fight
TURNS: Turns
RESOLVE: Resolve
__getattr__ = lazy_attribute(__name__, {"FIGHT": "fight.FIGHT", "TURNS": "turns", "RESOLVE": "resolve.Resolve"})
