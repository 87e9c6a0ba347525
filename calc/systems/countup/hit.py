"""Countup hit chance: d20 + bonuses against ascending AC."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.answers.format import number, signed
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.countup.readers import chosen_bonus, minus_term

ATTACK_RULES = {"melee": "attack-melee", "thrown": "attack-ranged", "ranged": "attack-ranged"}
"""Which rule governs each kind of attack roll (a thrown weapon is a ranged attack)."""


def hit_probability(need: int, sides: int, natural_rolls: bool) -> Fraction:
    """P(d{sides} ≥ need); with natural rolls the top face always hits and a 1 always misses."""
    if natural_rolls:
        need = min(max(need, 2), sides)
    return Dist.die(sides).p_ge(need)


def hit(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """Chance that d20 + ability bonus + to-hit + misc (− Hurt) reaches the target's AC."""
    rule = ATTACK_RULES[inputs["attack"]]
    sides = data.die_sides(rule, "attack_die")
    ability = data.fact(rule, "ability")
    ability_value, ability_step = chosen_bonus(
        data, inputs["ability_from"], inputs["ability_score"], inputs["ability_bonus"], ability, "ability_score"
    )
    parts = [(inputs["to_hit"], "to-hit"), (ability_value, ability), (inputs["misc"], "misc")]
    steps = [ability_step]
    if inputs["hurt"]:
        penalty = data.fact("hurt", "hit_penalty")
        parts.append((penalty, "Hurt"))
        steps.append(data.step("hurt", f"The attacker is Hurt: {signed(penalty)} to hit."))
    total = sum(v for v, _ in parts)
    ac = inputs["ac"]
    need = ac - total
    shown = " ".join(f"{signed(v)} ({label})" for v, label in parts)
    steps.insert(0, data.step(rule, f"d{sides} {shown} = d{sides} {signed(total)}; hits when the total ≥ AC {ac}."))

    natural = inputs["natural_rolls"]
    p = hit_probability(need, sides, natural)
    if natural:
        value = min(max(need, 2), sides)
        steps.append(
            data.step(
                "ruling:natural-rolls",
                f"Option on: a natural {sides} always hits and a natural 1 always misses, so {value}+ is needed.",
            )
        )
    else:
        value = need
        steps.append(data.step("natural-rolls", "No natural-roll rule: only the total counts (the site's ruling)."))
    needed = result.roll_needed(value, sides)
    steps.append(
        data.step(rule, f"Needs {number(ac)} {minus_term(total)} = {number(need)} on the d{sides}: {needed['text']}.")
    )
    if p == 0:
        summary = f"Cannot hit AC {ac} (needs {number(need)} on a d{sides})"
    elif p == 1:
        summary = f"Hits AC {ac} on any roll (100%)"
    else:
        summary = f"Hits AC {ac} on {needed['text']} ({result.percent(p)})"
    return {
        "summary": summary,
        "chances": [result.chance("Hit", p), result.chance("Miss", 1 - p)],
        "roll_needed": needed,
        "steps": steps,
    }
