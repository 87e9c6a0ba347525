"""Countup: d20 + bonuses against ascending AC, damage with the Hurt penalty, and an initiative
count that runs *up* from 1 (lowest total first, players before NPCs on a tie).

Every number comes from `rules_data/countup/` through `SystemData`: the attack and initiative dice,
the Hurt penalties and thresholds, which attacks add Strength to damage, the ability score table
(a ruling), the damage and healing floors (rulings).

Modules: `readers` (dice facts, the ability score table, number formatting), `hit`, `damage`,
`initiative`, `round` (a whole round, rounds to drop a foe), `saves` (against a Hurt caster),
`healing` (days of natural healing), `generated` (the tables of the pages).
"""

from __future__ import annotations

from calc.packages import lazy, lazy_attribute
from calc.systems.contract import Calculator, Fight, Resolve, Turns
from calc.systems.countup.damage import damage
from calc.systems.countup.generated import TABLES, healing_table, hp_thresholds, natural_healing
from calc.systems.countup.healing import healing
from calc.systems.countup.hit import hit
from calc.systems.countup.initiative import initiative
from calc.systems.countup.readers import ability_bonus_of
from calc.systems.countup.round import round_
from calc.systems.countup.saves import save

CALCULATORS: dict[str, Calculator] = {
    "hit": hit,
    "damage": damage,
    "initiative": initiative,
    "round": round_,
    "forecast": lazy(f"{__name__}.forecast", "forecast"),  # in calc-fight (calc.packages)
    "save": save,
    "healing": healing,
}

__all__ = [
    "CALCULATORS",
    "FIGHT",
    "RESOLVE",
    "TABLES",
    "TURNS",
    "ability_bonus_of",
    "damage",
    "healing",
    "healing_table",
    "hit",
    "hp_thresholds",
    "initiative",
    "natural_healing",
    "round_",
    "save",
]

# The fight rules, the round's turns and the attack's Resolve at the table are in calc-fight
# (calc.packages): read at their first use, by the tracker. Declared for the contract; their values
# come from __getattr__.
FIGHT: Fight
TURNS: Turns
RESOLVE: Resolve
__getattr__ = lazy_attribute(__name__, {"FIGHT": "fight.FIGHT", "TURNS": "turns", "RESOLVE": "resolve.Resolve"})
