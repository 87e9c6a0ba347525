"""The `segments` system: descending AC read through attack tables summed up by AAC0 (six 20s),
enhanced hit dice, damage multipliers that never stack, d6 group initiative with action types and
weapon speed, and the Spell Initiative Chart.

Modules: `attack_tables` (AAC0 formula and lookups), `hit`, `damage`, `initiative`, `round` (a whole
round and rounds to drop a foe), `forecast` (a whole fight), `saves` (the Monster Save Table),
`generated` (the tables of the pages)."""

from __future__ import annotations

from calc.systems.segments import turns as TURNS
from calc.systems.segments.damage import damage
from calc.systems.segments.fight import FIGHT
from calc.systems.segments.forecast import forecast
from calc.systems.segments.generated import TABLES
from calc.systems.segments.hit import hit
from calc.systems.segments.initiative import initiative
from calc.systems.segments.round import round_
from calc.systems.segments.saves import save

CALCULATORS = {
    "hit": hit,
    "damage": damage,
    "initiative": initiative,
    "round": round_,
    "save": save,
    "forecast": forecast,
}

__all__ = ["CALCULATORS", "TABLES", "FIGHT", "TURNS", "damage", "forecast", "hit", "initiative", "round_", "save"]
