"""Active Defense damage: dice + Strength − armour with a floor, when the attack lands; with the
chance it lands (same inputs), the expected damage per attack."""

from __future__ import annotations

from typing import Any

from calc.answers import per_attack
from calc.answers.format import signed
from calc.answers.per_attack import PerAttack
from calc.answers.result import chance, dist_json, percent, table
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist
from calc.systems.active_defense.hit import exchange
from calc.systems.active_defense.readers import num


def at_least(dist: Dist) -> list[tuple[int, float]]:
    """(x, P(≥ x)) for every outcome, for display only (floats), in one pass from the top."""
    out, tail = [], 0
    for x, w in reversed(list(dist.weights())):
        tail += w
        out.append((x, tail / dist.total))
    return out[::-1]


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    if inputs["critical_bonus"] and not inputs["critical_penalty"]:
        raise InputError("critical_bonus", "applies only to a critical attack: set a critical attack penalty too")
    ex = exchange(inputs, data, steps)
    lands = ex.p_lands()
    expr: dice.DiceExpr = inputs["damage_dice"]
    flat = inputs["damage_strength"] + inputs["critical_bonus"] - inputs["armor"]
    floor = int(inputs["damage_floor"])
    text = f"{expr} + Strength {signed(inputs['damage_strength'])}"
    if inputs["critical_bonus"]:
        text += f" + critical bonus {inputs['critical_bonus']}"
        steps.append(
            data.step("ruling:critical-damage-bonus", f"Critical damage bonus entered: +{inputs['critical_bonus']}.")
        )
    text += f" − armour {inputs['armor']}"
    steps.append(data.step("damage-roll", f"Damage on a hit: {text}."))
    steps.append(data.step("ruling:damage-floor", f"Least damage from an attack that lands: {floor}."))
    dealt = (expr.dist() + flat).clamp_below(floor)
    x = inputs["at_least"]
    headline = lands * dealt.p_ge(x)
    chances = [
        chance(f"Lands and deals at least {x}", headline),
        chance("Attack lands", lands),
        chance("Lands and deals any damage", lands * dealt.p_ge(1)),
    ]
    attack = PerAttack([("lands", lands, dealt)])
    rule = "critical-attacks" if inputs["critical_penalty"] else "natural-rolls"
    why = (
        "a critical attack is declared before the roll: its bonus is in every landing hit's damage"
        if inputs["critical_penalty"]
        else "a natural 20 only counts as a higher total; no roll adds damage"
    )
    steps.append(data.step(rule, f"Per attack: {why}, so {attack.formula()}."))
    shown = float(lands)
    rows = [[v, percent(q), percent(shown * q)] for v, q in at_least(dealt)]
    shown = dist_json(dealt, "Damage when the attack lands")
    return {
        "summary": (
            f"{per_attack.summary(attack, 'lands')}; {percent(headline)} to land and deal at least {x}; "
            f"mean {num(dealt.mean)} on a hit"
        ),
        "chances": chances,
        "distribution": shown,
        "attack": per_attack.attack_json(attack, (dealt, shown)),
        "table": table("Damage of at least x", ["x", "P(≥ x) when it lands", "P(lands and ≥ x)"], rows),
        "steps": steps,
    }
