"""The `segments` system: descending AC read through attack tables summed up by AAC0 (six 20s),
enhanced hit dice, damage multipliers that never stack, d6 group initiative with action types and
weapon speed, and the Spell Initiative Chart.

Modules: `attack_tables` (AAC0 formula and lookups), `hit`, `damage`, `initiative`, `round` (a whole
round and rounds to drop a foe), `forecast` (a whole fight), `saves` (the Monster Save Table),
`generated` (the tables of the pages)."""

from __future__ import annotations

from calc.packages import lazy, lazy_attribute
from calc.systems.contract import Calculator, Fight, Resolve, Turns
from calc.systems.segments.damage import damage
from calc.systems.segments.generated import TABLES
from calc.systems.segments.hit import hit
from calc.systems.segments.initiative import initiative
from calc.systems.segments.round import round_
from calc.systems.segments.saves import save

CALCULATORS: dict[str, Calculator] = {
    "hit": hit,
    "damage": damage,
    "initiative": initiative,
    "round": round_,
    "save": save,
    "forecast": lazy(f"{__name__}.forecast", "forecast"),  # in calc-fight (calc.packages)
}

__all__ = ["CALCULATORS", "FIGHT", "RESOLVE", "TABLES", "TURNS", "damage", "hit", "initiative", "round_", "save"]

# The fight rules, the round's turns and the attack's Resolve at the table are in calc-fight
# (calc.packages): read at their first use, by the tracker. Declared for the contract; their values
# come from __getattr__.
FIGHT: Fight
TURNS: Turns
RESOLVE: Resolve
__getattr__ = lazy_attribute(__name__, {"FIGHT": "fight.FIGHT", "TURNS": "turns", "RESOLVE": "resolve.Resolve"})
