"""Dodge: until the next melee phase, attacks against you have disadvantage if you can see the
attacker. Both answers (not dodging, dodging) come from the hit calculator with the attack's roll
mode set accordingly, so the two calculators always agree. One second d20 at most: disadvantage
does not stack, and against advantage the ruling cancels the two."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.inputs.data import SystemData
from calc.systems.phases.hit import hit


def dodged_mode(other: str, sees: bool, reading: str) -> str:
    """The roll mode of an attack with its own `other` mode against someone dodging."""
    if not sees:
        return other
    if other == "advantage":
        return "normal" if reading == "cancel" else "disadvantage"
    return "disadvantage"


def _p(answer: dict[str, Any], label: str) -> Fraction:
    found = [c["p"]["fraction"] for c in answer["chances"] if c["label"] == label]
    return Fraction(found[0]) if found else Fraction(0)


def dodge(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    other = inputs["other_effect"]
    mode = dodged_mode(other, inputs["sees_attacker"], inputs["dodge_reading"])
    plain = hit({**inputs, "roll_mode": other}, data)
    dodged = hit({**inputs, "roll_mode": mode}, data)
    steps = list(dodged["steps"])
    if not inputs["sees_attacker"]:
        steps.append(data.step("dodge", "You cannot see the attacker, so the dodge does not hinder this attack."))
    elif other == "advantage":
        if inputs["dodge_reading"] == "cancel":
            text = "The attack's advantage and the dodge's disadvantage cancel: the phase roll alone counts."
        else:
            text = "Other reading: the dodge's disadvantage wins over the attack's advantage."
        steps.append(data.step("ruling:dodge-and-advantage", text))
    elif other == "disadvantage":
        steps.append(
            data.step(
                "ruling:dodge-and-advantage",
                "The attack already has disadvantage; there is only one second d20, so the dodge adds nothing.",
            )
        )
    else:
        steps.append(data.step("dodge", "Dodging gives the attack disadvantage, until the next melee phase."))
    p_plain, p_dodged = _p(plain, "Hit"), _p(dodged, "Hit")
    chances = [result.chance("Hit, not dodging", p_plain), result.chance("Hit against the dodge", p_dodged)]
    crit = "Critical hit (natural 20)"
    if inputs["natural_rolls"]:
        chances.append(result.chance("Critical hit against the dodge", _p(dodged, crit)))
    rows = [
        [label, result.percent(_p(ans, "Hit")), str(_p(ans, "Hit")), result.percent(_p(ans, crit))]
        for label, ans in (("Not dodging", plain), ("Dodging", dodged))
    ]
    table = result.table("The attack against you", ["", "Hit", "Exact", "Critical hit"], rows)
    summary = f"Dodging: the attack hits {result.percent(p_dodged)} instead of {result.percent(p_plain)}"
    return {
        "summary": summary,
        "chances": chances,
        "roll_needed": dodged["roll_needed"],
        "table": table,
        "steps": steps,
    }
