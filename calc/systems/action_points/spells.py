"""Spell checks: the Intelligence check that keeps a partly cast spell you did not advance this
turn (DC 10 + 2 × tier, + the highest tier of your other spells) and the one that starts another
spell while casting (DC 10 + 2 × the new tier + the highest tier already being cast)."""

from __future__ import annotations

from typing import Any

from calc.answers import result
from calc.answers.format import signed
from calc.inputs.data import SystemData
from calc.systems.action_points.dying import check_pass

RULES = {"partial": "partially-cast-spells", "start": "casting-multiple-spells"}
TIERS_SHOWN = range(0, 10)
"""The spell tiers listed in the table (a display choice, not a rule)."""


def spell_dc(data: SystemData, check: str, tier: int, other: int) -> int:
    rule = RULES[check]
    return data.fact(rule, "dc_base") + data.fact(rule, "tier_multiple") * tier + other


def spell_check(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    check, tier, other, intel = inputs["check"], inputs["tier"], inputs["other_tier"], inputs["intelligence"]
    rule = RULES[check]
    sides = data.die_sides(rule, "check_die")
    meets = inputs["dc_ties"] == "meets"
    dc = spell_dc(data, check, tier, other)
    p = check_pass(sides, intel, dc, meets)
    base, times = data.fact(rule, "dc_base"), data.fact(rule, "tier_multiple")
    what = "the spell" if check == "partial" else "the new spell"
    others = f" + highest other tier {other}" if other or check == "start" else ""
    steps = [
        data.step(rule, f"DC {base} + {times} × {what}'s tier {tier}{others} = {dc}."),
        data.step(
            "ruling:ability-check-dc",
            f"Intelligence check 1d{sides} {signed(intel)}: "
            + ("equal to the DC passes (ruling)." if meets else "must exceed the DC (other reading)."),
        ),
    ]
    if check == "partial":
        steps.append(data.step(rule, "A failure: the spell fizzles at once."))
        fail = "Spell fizzles"
    else:
        steps.append(data.step(rule, "A failure: the action is wasted and the new spell fizzles."))
        fail = "Action wasted, new spell fizzles"
    need = dc - intel if meets else dc - intel + 1
    needed = result.roll_needed(max(need, 1) if need <= sides else None, sides)
    rows = []
    for t in TIERS_SHOWN:
        d = spell_dc(data, check, t, other)
        rows.append([str(t), str(d), result.percent(check_pass(sides, intel, d, meets))])
    return {
        "summary": f"DC {dc}: passes {result.percent(p)} (needs {needed['text']} on the d{sides})",
        "chances": [result.chance("Passes", p), result.chance(fail, 1 - p)],
        "roll_needed": needed,
        "table": result.table(
            f"DC and chance by tier (Intelligence {signed(intel)}, other tier {other})", ["Tier", "DC", "Passes"], rows
        ),
        "steps": steps,
    }
