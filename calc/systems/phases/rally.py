"""Rally: while moving toward the enemy, roll Courage modified by the enemies' highest Hit Dice
(your target + HD, as Defense modifies the other rolls); the party regains Hit Points equal to the
margin of success. A failure restores nothing; the healing never exceeds what the party lost."""

from __future__ import annotations

from typing import Any

from calc.answers import result
from calc.inputs.data import SystemData
from calc.systems.phases.attack_roll import phase_die
from calc.systems.phases.checks import check_roll, margin_step


def rally(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    courage, hd = inputs["courage"], inputs["enemy_hd"]
    number = courage + hd
    steps = [data.step("rally", f"Roll against Courage {courage} + the enemies' highest Hit Dice {hd} = {number}.")]
    roll = check_roll(inputs, data, steps)
    steps.append(data.step("rally", "Not an attack roll: natural 20 and natural 1 have no special effect here."))
    steps.append(margin_step(data, "rally", number, "the Hit Points restored"))
    cap = inputs["missing_hp"]

    def healed(face: int) -> int:
        margin = face - number if face >= number else 0
        return min(margin, cap) if cap else margin

    if cap:
        steps.append(data.step("rally", f"No more than the {cap} Hit Points the party has lost can come back."))
    else:
        steps.append(data.step("rally", "Shared out among the party as you choose."))
    dist = roll.map(healed)
    p_ok = roll.p_ge(number)
    chances = [result.chance("Rally succeeds", p_ok), result.chance("Restores at least 1 Hit Point", dist.p_ge(1))]
    needed = result.roll_needed(max(number, 1), phase_die(data).max)
    summary = f"Succeeds on {needed['text']} ({result.percent(p_ok)}); "
    summary += f"restores {float(dist.mean):.2f} Hit Points on average"
    return {
        "summary": summary,
        "chances": chances,
        "roll_needed": needed,
        "distribution": result.dist_json(dist, "Hit Points restored"),
        "steps": steps,
    }
