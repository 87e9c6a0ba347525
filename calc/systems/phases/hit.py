"""Hit chance: a d20 (the phase roll, or the second d20 of advantage/disadvantage) against attack
target + Defense, natural 20 and natural 1 per the ruling, and the chance to strike cover."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.inputs.data import SystemData
from calc.systems.phases.attack_roll import (
    COVER,
    HIT,
    face_outcome,
    needed_face,
    phase_die,
    target_number,
    used_roll,
)


def natural_rolls_step(data: SystemData, natural: bool) -> dict[str, str]:
    if natural:
        return data.step("ruling:natural-rolls", "A natural 20 always hits; a natural 1 always misses.")
    return data.step(
        "ruling:natural-rolls",
        "Other reading: only the total counts; a natural 20 or 1 is just a number (no critical Wound, no fumble).",
    )


def hit(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    number = target_number(inputs, data, steps)
    roll = used_roll(inputs, data, steps)
    natural = inputs["natural_rolls"]
    steps.append(natural_rolls_step(data, natural))
    crit = data.fact("critical-hits", "critical_roll")
    fumble = data.fact("fumbles", "fumble_roll")
    p_hit = p_cover = p_crit = p_fumble = Fraction(0)
    for face, p in roll.items():
        outcome = face_outcome(face, number, natural, data)
        if outcome == HIT:
            p_hit += p
            if face == crit:
                p_crit += p
        elif outcome == COVER:
            p_cover += p
        elif face == fumble:
            p_fumble += p
    face = needed_face(number, natural, data)
    needed = result.roll_needed(face, phase_die(data).max)
    chances = [result.chance("Hit", p_hit)]
    if number.cover:
        chances.append(result.chance(f"Hits the cover instead (cover takes {number.cover})", p_cover))
    if natural:  # with the natural-roll rule off a natural 20 or 1 is just a number
        chances.append(result.chance("Critical hit (natural 20)", p_crit))
        chances.append(result.chance("Fumble (natural 1)", p_fumble))
    summary = f"Needs {needed['text']} on the d20: hits {result.percent(p_hit)}"
    if number.cover:
        summary += f", strikes the cover {result.percent(p_cover)}"
    return {"summary": summary, "chances": chances, "roll_needed": needed, "steps": steps}
