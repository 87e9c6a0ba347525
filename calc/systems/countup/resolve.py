"""Countup's Resolve at the table (calc/fight/resolve_rules.py `Table`): the hit calculator's roll
needed decides, a hit deals its dice + Strength + misc (− Hurt) by the round's own damage rule."""

from __future__ import annotations

from calc.fight.resolve_rules import Table, value
from calc.numbers.dice import DiceExpr
from calc.systems.countup import round as cu_round
from calc.systems.countup.damage import hit_damage as cu_hit_damage


class Resolve(Table):
    """Dice + Strength + misc (− Hurt), floored by the ruling (countup/damage.py `hit_damage`)."""

    hit_extra = staticmethod(cu_round.hit_extra)

    def dice(self) -> DiceExpr | None:
        return cu_round.one_attack(self.a)["dice"]

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        dealt, _, _ = cu_hit_damage(cu_round.damage_inputs(self.a) | {"dice": rolled}, self.data)
        return value(dealt)
