"""The damage calculator: dice plus every modifier, then the single highest multiplier applied to
that total (multipliers never stack), as an exact distribution."""

from __future__ import annotations

from math import prod
from typing import Any

from calc import result
from calc.data import SystemData


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
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
    total = base.clamp_below(0).scale(factor)
    if base.min < 0:
        steps.append(data.step("damage-multipliers", "a total below 0 deals no damage (counted as 0)"))
    label = f"×{factor} ({base_text})" if factor > 1 else base_text
    dist = result.dist_json(total, "Damage")
    return {
        "summary": f"{label}: {total.min}–{total.max}, mean {float(total.mean):.2f}".replace(".00", ""),
        "distribution": dist,
        "steps": steps,
    }
