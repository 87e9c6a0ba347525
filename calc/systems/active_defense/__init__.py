"""Active Defense: an attack roll against Passive Defense that the defender may still block or dodge.

The attacker's d20 turns a natural 20 into 30 and a natural 1 into −10; the attack lands when it
reaches Passive Defense and the defender's active roll (if any) does not match it. Damage is dice +
Strength − armour with a floor. Initiative is 1d20 + Dexterity modifier, highest first. Every number
comes from `rules_data/active-defense/` through `SystemData`; rulings are inputs.

Modules: `readers` (formatting, the dice and natural rolls), `two_weapon`, `hit` (the exchange of
attack and active defense), `damage`, `initiative`, `round` (a whole round against reserve blocks and
dodges), `contest` (counterspell and feint) and `reserve` (where to spend a reserve block or dodge).
"""

from __future__ import annotations

from calc.packages import lazy, lazy_attribute
from calc.systems.active_defense.contest import counterspell, feint
from calc.systems.active_defense.damage import damage
from calc.systems.active_defense.hit import hit
from calc.systems.active_defense.initiative import initiative
from calc.systems.active_defense.reserve import block_plan
from calc.systems.active_defense.round import round_
from calc.systems.active_defense.two_weapon import (
    applicable_rows,
    favourable_row,
    stacked_penalty,
    two_weapon_combinations,
    two_weapon_penalty,
)
from calc.systems.contract import Calculator, Fight, Resolve, Turns

CALCULATORS: dict[str, Calculator] = {
    "hit": hit,
    "damage": damage,
    "initiative": initiative,
    "round": round_,
    "counterspell": counterspell,
    "feint": feint,
    "block_plan": block_plan,
    "forecast": lazy(f"{__name__}.forecast", "forecast"),  # in calc-fight (calc.packages)
}
TABLES = {"two_weapon_combinations": two_weapon_combinations}

__all__ = [
    "CALCULATORS",
    "FIGHT",
    "RESOLVE",
    "TABLES",
    "TURNS",
    "applicable_rows",
    "block_plan",
    "counterspell",
    "damage",
    "favourable_row",
    "feint",
    "hit",
    "initiative",
    "round_",
    "stacked_penalty",
    "two_weapon_combinations",
    "two_weapon_penalty",
]

# The fight rules, the round's turns and the attack's Resolve at the table are in calc-fight
# (calc.packages): read at their first use, by the tracker. Declared for the contract; their values
# come from __getattr__.
FIGHT: Fight
TURNS: Turns
RESOLVE: Resolve
__getattr__ = lazy_attribute(__name__, {"FIGHT": "fight.FIGHT", "TURNS": "turns", "RESOLVE": "resolve.Resolve"})
