"""Feint: a d20 against your Cunning target (the text adds no Defense); on a success the next
attack against the foe ignores its Defense. The next attack's chances, with and without the feint,
come from the hit calculator itself, so the two always agree."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.inputs.data import SystemData
from calc.systems.phases.attack_roll import phase_die
from calc.systems.phases.checks import check_roll
from calc.systems.phases.hit import hit


def _hit_chance(inputs: dict[str, Any], data: SystemData, feinted: bool) -> tuple[Fraction, dict[str, Any]]:
    """The next attack (its own fresh d20, no advantage) against the foe, feinted or not."""
    answer = hit({**inputs, "feinted": feinted, "roll_mode": "normal", "phase_roll": 0}, data)
    (p,) = [c["p"]["fraction"] for c in answer["chances"] if c["label"] == "Hit"]
    return Fraction(p), answer


def feint(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    cunning = inputs["cunning"]
    steps.append(data.step("feint", f"Roll against Cunning: a d20 of {cunning} or more tricks the foe."))
    roll = check_roll(inputs, data, steps, inputs["phase_roll"])
    p_ok = roll.p_ge(cunning)
    p_plain, _ = _hit_chance(inputs, data, False)
    p_feinted, feinted_answer = _hit_chance(inputs, data, True)
    steps += feinted_answer["steps"]
    combined = p_ok * p_feinted + (1 - p_ok) * p_plain
    steps.append(
        data.step(
            "feint",
            "On a success the next attack against the foe ignores its Defense: it hits "
            f"{result.percent(p_feinted)} instead of {result.percent(p_plain)}.",
        )
    )
    chances = [
        result.chance("Feint succeeds", p_ok),
        result.chance("Next attack hits, feinted", p_feinted),
        result.chance("Next attack hits, not feinted", p_plain),
        result.chance("Next attack hits, after this feint attempt", combined),
    ]
    needed = result.roll_needed(max(cunning, 1), phase_die(data).max)
    summary = (
        f"Feint succeeds on {needed['text']} ({result.percent(p_ok)}); the next attack then hits "
        f"{result.percent(p_feinted)} instead of {result.percent(p_plain)}"
    )
    return {"summary": summary, "chances": chances, "roll_needed": needed, "steps": steps}
