"""Action-points' Resolve at the table (calc/fight/resolve_rules.py `Table`): the face against AC or
SR with the critical range, then the d% of a miss chance, and the regular or critical damage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calc.fight.resolve_rules import Outcome, Table, asked, value
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dice import DiceExpr
from calc.systems.action_points import attack as ap_attack
from calc.systems.action_points import round as ap_round


class Resolve(Table):
    """The turn's first attack (its style): the face against AC or SR with the critical range
    (attack.py `face_outcome`); a regular or critical hit's damage, weakness and resistance
    applied (attack.py `damage_parts`, the dice as a power attack rolls them)."""

    hit_extra = staticmethod(ap_round.hit_extra)

    @staticmethod
    def nth_attack(attacker: dict[str, Any], action: dict[str, Any], made: int) -> dict[str, Any]:
        """The turn's attack of `action` (standard, quick, power, charge: its `planned` style), as the
        round calculator makes one of that style (round.py `attack_as`)."""
        return ap_round.attack_as(attacker, action["planned"])

    def __init__(self, attacker: dict[str, Any], data: SystemData, needed: Callable[[], dict[str, Any]]) -> None:
        super().__init__(attacker, data, needed)
        one = ap_round.one_attack(attacker)
        decls = data.calculator("damage")["inputs"]
        given = {k: one[k] for k in {d["name"] for d in decls} & set(one)}
        self.typed = declared.validate(
            decls, given | {"attack": ap_round.hit_extra(one)["attack"], "outcome": "attack"}
        )

    MISS = "miss_roll"

    def rolls(self) -> list[dict[str, Any]]:
        if not self.typed["miss_chance"]:
            return []
        die = f"d{self.data.die_sides('miss-chance', 'roll')}"
        label = f"Miss chance {self.typed['miss_chance']}%"
        return [{"key": self.MISS, "kind": "miss_chance", "label": label, "die": die}]

    def die(self) -> str:
        return f"d{self.data.die_sides('standard-attack', 'attack_die')}"

    def dice(self) -> DiceExpr | None:
        """The dice a hit rolls (a power attack's twice); none for a quick attack, whose hit deals
        the minimum whatever they show (attack.py `hit_damage`)."""
        if self.typed["attack"] == "quick" and self.data.fact("quick-attack", "minimum_damage"):
            return None
        seen: list[DiceExpr] = []

        def record(expr: DiceExpr) -> DiceExpr:
            seen.append(expr)
            return expr

        ap_attack.damage_parts(self.typed, self.data, record)  # the dice as the rule rolls them
        return seen[0]

    def outcome(self, face: int, rolls: dict[str, int]) -> Outcome:
        """The roll against AC or SR, then on a hit the d% of the miss chance (attack.py
        `miss_roll_misses`, by the reading chosen): a critical hit it would miss is a regular hit."""
        attack = ap_attack.resolve_attack(self.typed, self.data)
        always = self.typed["threat_range"] == "always_hits"
        shown = ap_attack.face_outcome(face, attack.bonus, self.typed["defense"], attack.weapon.threshold, always)
        why = f"{face} {attack.bonus:+d} against {self.typed['defense']}"
        if shown != "miss" and self.rolls():
            d = asked(rolls, self.rolls()[0], "the attack hits")
            percent, reading = self.typed["miss_chance"], self.typed["miss_chance_reading"]
            if ap_attack.miss_roll_misses(d, percent, reading):
                demoted = shown == "critical"
                shown = "regular" if demoted else "miss"
                why += f"; d% {d} against a miss chance of {percent}%: " + (
                    "a critical hit that misses, so a regular hit" if demoted else "it misses"
                )
            else:
                why += f"; d% {d} against a miss chance of {percent}%: no miss"
        why += ", a critical hit" if shown == "critical" else ""
        return shown != "miss", shown == "critical", why

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        _, regular, crit, _, _ = ap_attack.damage_parts(self.typed, self.data, lambda expr: rolled or expr)
        return value(crit if critical else regular)
