"""The attack against Passive Defense and the defender's active defense (block or dodge)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from calc.answers.format import signed
from calc.answers.result import chance, percent, roll_needed, table
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.active_defense.readers import attack_die, natural_map, num, plus
from calc.systems.active_defense.two_weapon import (
    side_flags,
    two_weapon_penalty,
)


@dataclass(frozen=True)
class Exchange:
    """One attack: its total's distribution, the Passive Defense, and the defender's roll if any."""

    attack: Dist
    bonus: int
    passive_defense: int
    defense: Dist | None
    defender_wins_ties: bool

    def p_beats_passive(self) -> Fraction:
        return self.attack.p_ge(self.passive_defense)

    def p_negated_at(self, total: int) -> Fraction:
        """Chance the active defense negates an attack total."""
        if self.defense is None:
            return Fraction(0)
        return self.defense.p_ge(total) if self.defender_wins_ties else self.defense.p_gt(total)

    def p_lands(self) -> Fraction:
        return sum(
            (p * (1 - self.p_negated_at(t)) for t, p in self.attack.items() if t >= self.passive_defense),
            Fraction(0),
        )


def exchange(
    inputs: Mapping[str, Any], data: SystemData, steps: list[dict[str, str]], faces: tuple[int, int] | None = None
) -> Exchange:
    """Build the attack and defense rolls from the inputs, recording why in `steps`. `faces`: the
    attack's and the defender's natural rolls, already rolled (the tracker's Resolve): each roll
    is then that one total."""
    skill, ability, other = inputs["attack_skill"], inputs["attack_ability"], inputs["attack_modifier"]
    crit = inputs["critical_penalty"]
    allowed = data.fact("critical-attacks", "penalty")
    if crit and not allowed["min"] <= crit <= allowed["max"]:
        raise InputError("critical_penalty", f"must be 0 or between {allowed['min']} and {allowed['max']}")
    bonus = skill + ability + other + crit
    parts = f"skill {skill} + ability {signed(ability)}"
    if other:
        parts += f" + other {signed(other)}"
    steps.append(data.step("attack-bonus", f"Attack bonus: {parts} = {signed(skill + ability + other)}."))
    if crit:
        steps.append(data.step("critical-attacks", f"Critical attack: {signed(crit)} to hit."))
    reading = inputs["two_weapon_reading"]
    if inputs["attacker_two_weapon"] != "none":
        hand = inputs["attacker_two_weapon"]
        penalty, how = two_weapon_penalty(data, hand, side_flags(inputs, "attacker"), reading)
        bonus += penalty
        steps.append(
            data.step("two-weapon-fighting", f"Two weapons, {hand.replace('-', ' ')}: {signed(penalty)} ({how}).")
        )
        steps.append(
            data.step("ruling:two-weapon-unlisted", f"Unlisted combinations: {reading.replace('-', ' ')} reading.")
        )
    pd = data.fact("passive-defense", "base") + inputs["defender_dex"]
    steps.append(
        data.step(
            "passive-defense",
            f"Passive Defense {data.fact('passive-defense', 'base')} {plus(inputs['defender_dex'])} = {num(pd)}.",
        )
    )
    nat = natural_map(data)
    attack = (attack_die(data) if faces is None else Dist.constant(nat(faces[0]))) + bonus
    high, low = data.fact("natural-rolls", "high_face"), data.fact("natural-rolls", "low_face")
    steps.append(
        data.step(
            "natural-rolls",
            f"Attack total: d20 {plus(bonus)}; a natural {high} counts as {num(nat(high))}, "
            f"a natural {low} as {num(nat(low))}.",
        )
    )
    steps.append(data.step("attack-roll", f"The attack hits when its total is {num(pd)} or more."))
    defense = None
    if inputs["defense"] != "none":
        defense = _defense_roll(inputs, data, steps, None if faces is None else faces[1])
    ties = inputs["defense_ties"] == "defender"
    if defense is not None:
        text = (
            "a block or dodge equal to the attack total negates it"
            if ties
            else "the block or dodge must beat the attack total"
        )
        steps.append(data.step("ruling:active-defense-ties", f"Ties: {text}."))
    return Exchange(attack, bonus, pd, defense, ties)


def _defense_roll(inputs: Mapping[str, Any], data: SystemData, steps: list[dict[str, str]], face: int | None) -> Dist:
    kind = inputs["defense"]
    if kind == "block":
        bonus = inputs["block_skill"] + inputs["defender_str"]
        text = f"Block: d20 + weapon skill {inputs['block_skill']} + Strength {signed(inputs['defender_str'])}"
    else:
        bonus = inputs["dodge_skill"] + inputs["defender_dex"]
        text = f"Dodge: d20 + Defense skill {inputs['dodge_skill']} + Dexterity {signed(inputs['defender_dex'])}"
    if inputs["defender_modifier"]:
        bonus += inputs["defender_modifier"]
        text += f" + other {signed(inputs['defender_modifier'])}"
    steps.append(data.step(kind, text + "."))
    if inputs["defender_ranged"]:
        penalty = data.fact("ranged-in-melee", "penalty")
        bonus += penalty
        steps.append(data.step("ranged-in-melee", f"Ranged weapon in melee: {signed(penalty)}."))
    if inputs["defender_two_weapon"] != "none":
        hand = inputs["defender_two_weapon"]
        if kind == "block":
            penalty, how = two_weapon_penalty(data, hand, side_flags(inputs, "defender"), inputs["two_weapon_reading"])
            bonus += penalty
            steps.append(
                data.step(
                    "two-weapon-fighting", f"Blocking while fighting with two weapons: {signed(penalty)} ({how})."
                )
            )
        else:
            steps.append(
                data.step("two-weapon-fighting", "Two-weapon penalties touch attack and block rolls, not dodges.")
            )
    die = Dist.die(data.die_sides(kind, "die")) if face is None else Dist.constant(face)
    if inputs["natural_rolls_on_defense"]:
        die = die.map(natural_map(data))
        steps.append(
            data.step(
                "ruling:natural-rolls-scope", "Natural 20 and 1 substituted on the defender's roll too (other reading)."
            )
        )
    else:
        steps.append(
            data.step(
                "ruling:natural-rolls-scope", "The defender's die counts as rolled (natural-roll rule on attacks only)."
            )
        )
    steps.append(data.step("active-defense", f"{kind.capitalize()} total: d20 {plus(bonus)}."))
    return die + bonus


def needed_face(data: SystemData, bonus: int, target: int) -> int | None:
    """The lowest natural face whose counted value + bonus reaches the target (None: no face does)."""
    nat = natural_map(data)
    for face in range(1, data.die_sides("attack-roll", "die") + 1):
        if nat(face) + bonus >= target:
            return face
    return None


def hit(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    ex = exchange(inputs, data, steps)
    sides = data.die_sides("attack-roll", "die")
    face = needed_face(data, ex.bonus, ex.passive_defense)
    nat = natural_map(data)
    text = None
    if face == sides and sides + ex.bonus < ex.passive_defense:
        text = f"natural {sides} only (counts as {num(nat(sides))})"
    needed = roll_needed(face, sides, text)
    beats, lands = ex.p_beats_passive(), ex.p_lands()
    chances = [chance("Attack lands", lands), chance(f"Beats Passive Defense {num(ex.passive_defense)}", beats)]
    summary = f"Beats Passive Defense {num(ex.passive_defense)} on {needed['text']} ({percent(beats)})"
    if ex.defense is not None:
        negated_given_hit = (beats - lands) / beats if beats else Fraction(0)
        chances.append(
            chance(f"{inputs['defense'].capitalize()} negates an attack that beat Passive Defense", negated_given_hit)
        )
        summary += f"; the {inputs['defense']} negates {percent(negated_given_hit)} of those; lands {percent(lands)}"
    rows = []
    for f in range(1, sides + 1):
        total = nat(f) + ex.bonus
        reaches = total >= ex.passive_defense
        negate = ex.p_negated_at(total) if reaches else None
        rows.append(
            [
                f,
                num(total),
                "yes" if reaches else "no",
                "—" if negate is None else percent(negate),
            ]
        )
    columns = ["Natural roll", "Attack total", "Beats Passive Defense", "Negated by the active defense"]
    if ex.defense is None:
        columns, rows = columns[:3], [r[:3] for r in rows]
    return {
        "summary": summary,
        "chances": chances,
        "roll_needed": needed,
        "table": table("Each face of the attack die", columns, rows),
        "steps": steps,
    }
