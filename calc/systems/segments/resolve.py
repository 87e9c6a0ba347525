"""Segments' Resolve at the table (calc/fight/resolve_rules.py `Table`): the hit calculator's roll
needed decides, a hit deals the attack at hand's dice by the round's own damage rule. The attack at
hand is the turn's n-th of its routine (`nth_attack`): a routine of sword and dagger makes the sword,
then the dagger, each at its own dice and to-hit, as the round calculator makes every attack."""

from __future__ import annotations

from typing import Any

from calc.chains import rounds
from calc.fight.resolve_rules import Table, value
from calc.numbers.dice import DiceExpr
from calc.systems.segments import round as sg_round
from calc.systems.segments.damage import hit_damage as sg_hit_damage


class Resolve(Table):
    """The attack at hand (the routine's first, or the turn's n-th): its dice + modifier, the round's
    multipliers on the total (segments/damage.py `hit_damage`, as the round's attack at hand has them)."""

    hit_extra = staticmethod(sg_round.hit_extra)

    @staticmethod
    def nth_attack(attacker: dict[str, Any], action: dict[str, Any], made: int) -> dict[str, Any]:
        """The attacker cut to its routine's attack at hand: `made` attacks of the turn made before
        it, the routine's entries in order, again from the first for each further routine the turn
        makes (a multi-attacker's rest after LOW)."""
        routine = attacker["routine"]
        return attacker | {"routine": [routine[made % len(routine)]]}

    def _attack(self) -> dict[str, Any]:
        return sg_round.one_attack(self.a)["routine"][0]

    def dice(self) -> DiceExpr | None:
        return rounds.attack_dice(self._attack()["dice"], "routine[1].dice")

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        base = {"dice": rolled, "modifier": self._attack()["modifier"], "multipliers": self.a["multipliers"]}
        if "damage_floor" in self.a:
            base["damage_floor"] = self.a["damage_floor"]
        dealt, _, _ = sg_hit_damage(base, self.data)
        return value(dealt)
