"""Phases' Resolve at the table (calc/fight/resolve_rules.py `Table`): its own target number,
naturals, cover and advantage decide, a hit deals the margin of success or the weapon's dice."""

from __future__ import annotations

from typing import Any

from calc.fight.resolve_rules import Outcome, Table, asked, value
from calc.numbers.dice import DiceExpr
from calc.systems.phases import attack_roll as ph_roll
from calc.systems.phases import round as ph_round
from calc.systems.phases.damage import _hit_damage as ph_hit_damage
from calc.systems.phases.damage import hit_dice as ph_hit_dice
from calc.systems.phases.damage import margin_damage as ph_margin_damage


class Resolve(Table):
    """The face against the target number (naturals, cover: attack_roll.py `face_outcome`); a hit
    deals the margin of success + modifiers, or the weapon property's or monster's dice
    (phases/damage.py `margin_damage`, `_hit_damage`); the natural 20 is the critical hit."""

    hit_extra = staticmethod(ph_round.hit_extra)

    def die(self) -> str:
        return f"d{ph_roll.phase_die(self.data).max}"

    def _number(self) -> ph_roll.TargetNumber:
        return ph_roll.target_number(ph_round.one_attack(self.a) | ph_round.hit_extra(self.a), self.data, [])

    SECOND = "second_roll"

    def rolls(self) -> list[dict[str, Any]]:
        mode = self.a["roll_mode"]
        if mode == "normal":
            return []
        return [{"key": self.SECOND, "kind": mode, "label": f"Second roll, {mode}", "die": self.die()}]

    def used(self, face: int, rolls: dict[str, int]) -> tuple[int, str]:
        """The phase roll, or under advantage or disadvantage the face the ruling keeps of it and
        the second d20 (attack_roll.py `kept_face`): both faces shown."""
        (second,) = self.rolls() or [None]
        if second is None:
            return face, f"{face} on the {self.die()}"
        other = asked(rolls, second, f"the attack has {second['kind']}")
        reading = self.a["advantage_reading"]
        kept = ph_roll.kept_face(face, other, self.a["roll_mode"], reading)
        how = "the second roll (the text word for word)" if reading == "literal" else "keeps"
        return kept, f"{face} and {other} on the {self.die()}s ({second['kind']}: {how} {kept})"

    def dice(self) -> DiceExpr | None:
        return ph_hit_dice(self.a, self.data)

    def outcome(self, face: int, rolls: dict[str, int]) -> Outcome:
        number, natural = self._number(), self.a["natural_rolls"]
        shown = ph_roll.face_outcome(face, number, natural, self.data)
        crit = natural and face == self.data.fact("critical-hits", "critical_roll")
        why = ", stopped by cover" if shown == ph_roll.COVER else ""
        return shown == ph_roll.HIT, crit, f"target number {number.value}{why}"

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        monster = self.a["mode"] == "monster"
        base = 0 if monster else ph_margin_damage(face, self._number(), self.a, self.data)
        return value(ph_hit_damage(base, self.a, self.data, rolled))
