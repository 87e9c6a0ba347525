"""Each system's Resolve at the table (calc/fight/resolve.py): from the attack at hand's inputs (the
round calculator's, as `calc.fight.fighter` maps the two combatants, cut to the first attack by the
system's own `one_attack`), what the rolled faces decide and what they deal, by the engines' own
code run on the faces (`calc.numbers.dice.Rolled`): no rule is written again here.

A system's `Table(attacker inputs, data)` says the dice a hit rolls for damage (`dice()`: None when
nothing is rolled, as a phases margin), the other dice the attack rolls (`rolls()`: active-defense's
block or dodge, action-points' d% of a miss chance, phases' second d20 of advantage), each under
the `attack` action's key; for given faces `used(face, rolls)` → the attack face the rule keeps
(phases' advantage) and how it was read, `outcome(face, rolls)` → (lands, critical, what decided
it), `amount(face, rolled dice, critical)` → the damage of that hit, and `spends(face, rolls)` →
whether the defender spent a reserve action on it (active-defense).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calc.chains import rounds
from calc.errors import InputError
from calc.fight import fighter
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dice import DiceExpr
from calc.systems.action_points import attack as ap_attack
from calc.systems.action_points import round as ap_round
from calc.systems.active_defense import round as ad_round
from calc.systems.active_defense.damage import damage as ad_damage
from calc.systems.active_defense.hit import exchange as ad_exchange
from calc.systems.countup import round as cu_round
from calc.systems.countup.damage import hit_damage as cu_hit_damage
from calc.systems.phases import attack_roll as ph_roll
from calc.systems.phases import round as ph_round
from calc.systems.phases.damage import _hit_damage as ph_hit_damage
from calc.systems.phases.damage import hit_dice as ph_hit_dice
from calc.systems.phases.damage import margin_damage as ph_margin_damage
from calc.systems.segments import round as sg_round
from calc.systems.segments.damage import hit_damage as sg_hit_damage
from calc.turns import party

Outcome = tuple[bool, bool, str]
"""(the attack lands, it is a critical hit for the fight's damage rules, the sentence saying why)."""


def attacker_inputs(fight: dict, who: str, aim: str, data: SystemData, options: dict, states: dict) -> dict[str, Any]:
    """The round calculator's typed inputs for `who` attacking `aim` (one attacker)."""
    calculator = str(fighter.declaration(data)["calculator"])  # type: ignore[index]
    raw = fighter.inputs_for(fight, who, aim, calculator, data, options, states)
    typed = declared.validate(data.calculator(calculator)["inputs"], raw)
    return party.each(typed)[0] | {party.LIST: []}


def _value(dist: Any) -> int:
    """The one total of a distribution of rolled dice."""
    assert dist.min == dist.max, "rolled dice give one total"
    return max(0, int(dist.min))  # a total below 0 (a floor ruling off) deals nothing: no hit heals


class _Table:
    """By the hit calculator's roll needed: a face at least the value hits (countup, segments);
    the die's top face is the card's "damage from a natural 20"."""

    def __init__(self, attacker: dict[str, Any], data: SystemData, needed: Callable[[], dict[str, Any]]) -> None:
        self.a, self.data, self.needed = attacker, data, needed  # needed(): the hit calculator's roll_needed

    def die(self) -> str:
        """The attack die, "d20"."""
        return str(self.needed()["die"])

    def defense(self) -> dict[str, Any] | None:
        return None

    def rolls(self) -> list[dict[str, Any]]:
        """The dice besides the attack die and the damage: `[{"key", "kind", "label", "die"}]`."""
        return []

    def used(self, face: int, rolls: dict[str, int]) -> tuple[int, str]:
        """The attack face the rule keeps, and the words for the roll."""
        return face, f"{face} on the {self.die()}"

    def dice(self) -> DiceExpr | None:
        raise NotImplementedError

    def outcome(self, face: int, rolls: dict[str, int]) -> Outcome:
        rule = self.needed()
        lands = rule["value"] is not None and face >= rule["value"]
        return lands, face == int(rule["die"].lstrip("d")), f"needs {rule['text']}"

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        raise NotImplementedError

    def spends(self, face: int, rolls: dict[str, int]) -> bool:
        """Whether the defender spends a reserve action on this attack (none here)."""
        return False


def _asked(rolls: dict[str, int], roll: dict[str, Any], why: str) -> int:
    """A face of one of the table's other dice, or the error asking for it."""
    if roll["key"] not in rolls:
        raise InputError(f"action.{roll['key']}", f"{why}: roll the {roll['label']} ({roll['die']})")
    return rolls[roll["key"]]


class Countup(_Table):
    """Dice + Strength + misc (− Hurt), floored by the ruling (countup/damage.py `hit_damage`)."""

    def dice(self) -> DiceExpr | None:
        return cu_round.one_attack(self.a)["dice"]

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        dealt, _, _ = cu_hit_damage(cu_round.damage_inputs(self.a) | {"dice": rolled}, self.data)
        return _value(dealt)


class Segments(_Table):
    """The routine's first attack: its dice + modifier, the round's multipliers on the total
    (segments/damage.py `hit_damage`, as the round's attack at hand has them)."""

    def _attack(self) -> dict[str, Any]:
        return sg_round.one_attack(self.a)["routine"][0]

    def dice(self) -> DiceExpr | None:
        return rounds.attack_dice(self._attack()["dice"], "routine[1].dice")

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        base = {"dice": rolled, "modifier": self._attack()["modifier"], "multipliers": self.a["multipliers"]}
        if "damage_floor" in self.a:
            base["damage_floor"] = self.a["damage_floor"]
        dealt, _, _ = sg_hit_damage(base, self.data)
        return _value(dealt)


class Phases(_Table):
    """The face against the target number (naturals, cover: attack_roll.py `face_outcome`); a hit
    deals the margin of success + modifiers, or the weapon property's or monster's dice
    (phases/damage.py `margin_damage`, `_hit_damage`); the natural 20 is the critical hit."""

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
        other = _asked(rolls, second, f"the attack has {second['kind']}")
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
        return _value(ph_hit_damage(base, self.a, self.data, rolled))


class ActionPoints(_Table):
    """The turn's first attack (its style): the face against AC or SR with the critical range
    (attack.py `face_outcome`); a regular or critical hit's damage, weakness and resistance
    applied (attack.py `damage_parts`, the dice as a power attack rolls them)."""

    def __init__(self, attacker: dict[str, Any], data: SystemData, needed: Callable[[], dict[str, Any]]) -> None:
        super().__init__(attacker, data, needed)
        one = ap_round.one_attack(attacker)
        decls = data.calculator("damage")["inputs"]
        asked = {k: one[k] for k in {d["name"] for d in decls} & set(one)}
        self.typed = declared.validate(
            decls, asked | {"attack": ap_round.hit_extra(one)["attack"], "outcome": "attack"}
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
            d = _asked(rolls, self.rolls()[0], "the attack hits")
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
        return _value(crit if critical else regular)


class ActiveDefense(_Table):
    """The attack total against Passive Defense, then the defender's block or dodge when it holds
    a reserve (hit.py `exchange` on the faces); a landing hit's dice + Strength − armour, floored
    (active_defense/damage.py). A natural 20 only counts as a higher total: no critical damage."""

    def __init__(self, attacker: dict[str, Any], data: SystemData, needed: Callable[[], dict[str, Any]]) -> None:
        super().__init__(attacker, data, needed)
        one = ad_round.one_attack(attacker)
        decls = data.calculator("damage")["inputs"]
        asked = {k: one[k] for k in {d["name"] for d in decls} & set(one)} | {"at_least": 1}
        self.typed = declared.validate(decls, asked | ad_round.hit_extra(one))

    def die(self) -> str:
        return f"d{self.data.die_sides('attack-roll', 'die')}"

    def defense(self) -> dict[str, Any] | None:
        kind = self.typed["defense"]
        if kind == "none":
            return None
        return {"kind": kind, "label": kind.capitalize(), "die": f"d{self.data.die_sides(kind, 'die')}"}

    def rolls(self) -> list[dict[str, Any]]:
        said = self.defense()
        return [] if said is None else [{"key": "defense_roll", **said}]

    def dice(self) -> DiceExpr | None:
        return self.typed["damage_dice"]

    def _beats(self, face: int) -> bool:
        return ad_exchange(self.typed, self.data, [], (face, 1)).p_beats_passive() == 1

    def spends(self, face: int, rolls: dict[str, int]) -> bool:
        """A reserve held is spent on an attack that beats Passive Defense (the ruling), or on
        each attack in turn until none is left (the other reading of `spend_reserve`)."""
        if self.defense() is None:
            return False
        return self.a["spend_reserve"] == "each-attack" or self._beats(face)

    def outcome(self, face: int, rolls: dict[str, int]) -> Outcome:
        beats = self._beats(face)
        said = self.defense()
        if not beats or said is None:
            return beats, False, "beats Passive Defense" if beats else "short of Passive Defense"
        defense_face = _asked(rolls, self.rolls()[0], "the attack beats Passive Defense")
        lands = ad_exchange(self.typed, self.data, [], (face, defense_face)).p_lands() == 1
        return (
            lands,
            False,
            f"beats Passive Defense; the {said['kind']} ({defense_face}) " + ("fails" if lands else "negates it"),
        )

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        answer = rounds.uncut(ad_damage, self.typed | {"damage_dice": rolled}, self.data)
        return _value(rounds.dist_of(answer))


HIT_EXTRA: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "countup": cu_round.hit_extra,
    "segments": sg_round.hit_extra,
    "phases": ph_round.hit_extra,
    "action-points": ap_round.hit_extra,
    "active-defense": ad_round.hit_extra,
}
"""Each round calculator's hit inputs of its attack at hand beyond those of the same name."""

TABLES: dict[str, type[_Table]] = {
    "countup": Countup,
    "segments": Segments,
    "phases": Phases,
    "action-points": ActionPoints,
    "active-defense": ActiveDefense,
}
