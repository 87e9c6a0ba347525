"""The damage calculator: dice plus every modifier, then the single highest multiplier applied to
that total (multipliers never stack), as an exact distribution; with the hit chance from the same
inputs, the expected damage per attack."""

from __future__ import annotations

from math import prod
from typing import Any

from calc.answers import per_attack, result
from calc.answers.per_attack import PerAttack
from calc.chains.rounds import chance_of
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.segments.hit import hit

FLOOR_RULING = "0"
"""The damage-floor ruling's reading (a total below 0 deals 0), for callers whose inputs do not
offer the choice (the round calculator)."""


def hit_damage(inputs: dict[str, Any], data: SystemData) -> tuple[Dist, str, list[dict[str, str]]]:
    """The damage of one hit: dice + modifier, floored by the damage-floor ruling's reading, then
    the highest multiplier on that total; its text and steps. The round calculator uses it too."""
    expr = inputs["dice"]
    modifier = inputs["modifier"]
    base = expr.dist() + modifier
    base_text = str(expr.plus(modifier))
    steps = [data.step("damage-multipliers", f"{base_text}: dice and every modifier are added first")]
    factors = [m["factor"] for m in inputs["multipliers"]]
    if data.fact("damage-multipliers", "stack"):
        factor = prod(factors)
        how = "multipliers stack"
    else:
        factor = max(factors, default=1)
        how = "multipliers do not stack: the highest applies"
    if factors:
        names = ", ".join(f"{m['source']} ×{m['factor']}" for m in inputs["multipliers"])
        steps.append(data.step("damage-multipliers", f"{names}: {how}, ×{factor} on the total"))
    floor = int(inputs.get("damage_floor", FLOOR_RULING))
    total = base.clamp_below(floor).scale(factor)
    if base.min < floor:
        steps.append(
            data.step(
                "ruling:damage-floor",
                "a total below 0 deals no damage (counted as 0)"
                if floor == 0
                else "other reading: every hit deals at least 1 (a total below 1 counts as 1)",
            )
        )
    label = f"×{factor} ({base_text})" if factor > 1 else base_text
    return total, label, steps


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """The hit chance (the hit calculator, same inputs), a hit's damage and the expected damage per
    attack: no critical hits, so P(hit) × mean damage."""
    to_hit = hit(inputs, data)
    p_hit = chance_of(to_hit, "Hit")
    total, label, steps = hit_damage(inputs, data)
    attack = PerAttack([("Hit", p_hit, total)])
    steps = [*to_hit["steps"], *steps]
    steps.append(
        data.step(
            "critical-hits",
            f"No critical hits: a natural 20 only hits, every hit deals this damage, so {attack.formula()}",
        )
    )
    shown = result.dist_json(total, "Damage of a hit")
    return {
        "summary": f"{per_attack.summary(attack)}; "
        + f"{label}: {total.min}–{total.max}, mean {float(total.mean):.2f}".replace(".00", ""),
        "chances": [result.chance("Hit", p_hit), result.chance("Miss", 1 - p_hit)],
        "roll_needed": to_hit["roll_needed"],
        "distribution": shown,
        "attack": per_attack.attack_json(attack, (total, shown)),
        "steps": steps,
    }
