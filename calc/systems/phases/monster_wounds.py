"""How to kill a monster: it carries half its Hit Dice in Wounds (rounded down, at least one) and
dies at the next. Under the ruling each Wound counts one; the other reading counts Severity, as a
character's inventory does, so which next Wound kills depends on its Severity."""

from __future__ import annotations

from typing import Any

from calc.answers import result
from calc.inputs.data import SystemData


def wound_capacity(hit_dice: int, data: SystemData) -> int:
    """Wounds a monster of `hit_dice` HD can carry."""
    return max(data.fact("killing-monsters", "minimum_wounds"), hit_dice // data.fact("killing-monsters", "hd_divisor"))


def monster_wounds(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    hd = inputs["hit_dice"]
    cap = wound_capacity(hd, data)
    divisor = data.fact("killing-monsters", "hd_divisor")
    least = data.fact("killing-monsters", "minimum_wounds")
    by_severity = inputs["count_reading"] == "severity"
    taken = inputs["severity_taken"] if by_severity else inputs["wounds_taken"]
    steps = [
        data.step(
            "killing-monsters",
            f"{hd} Hit Dice ÷ {divisor}, rounded down, at least {least}: it carries {cap} Wound{'s' * (cap != 1)}.",
        )
    ]
    unit = "points of Severity" if by_severity else "Wounds"
    if by_severity:
        steps.append(data.step("ruling:monster-wound-count", "Other reading: each point of Severity counts."))
    else:
        steps.append(data.step("ruling:monster-wound-count", "Each Wound counts one, whatever its Severity."))
    rows = []
    if taken > cap:
        summary = f"Dead: {taken} {unit} is more than the {cap} it can carry"
        steps.append(data.step("killing-monsters", "More Wounds than it can carry: it died instantly."))
    else:
        left = cap - taken
        if by_severity:
            summary = f"Carries {cap}; has {taken}, {left} to spare: a Wound of Severity {left + 1} or more kills it"
        else:
            summary = f"Carries {cap} Wounds; has {taken}: it survives {left} more, and the one after kills it"
            if left == 0:
                summary = f"Carries {cap} Wounds; has {taken}: its next Wound kills it"
        for row in data.table("wound-severity"):
            cost = row["severity"] if by_severity else 1
            after = taken + cost
            fate = "dies instantly" if after > cap else f"lives ({cap - after} to spare)"
            rows.append([row["name"], str(row["severity"]), str(cost), fate])
        if taken == 0:
            steps.append(data.step("morale", "Its first Wound calls for a morale roll."))
    text = "A morale roll is also due when half the monsters are Wounded or out of the fight."
    steps.append(data.step("morale", text))
    table = None
    if rows:
        table = result.table("Its next Wound", ["Wound", "Severity", "Counts", "Then it"], rows)
    return {"summary": summary, "table": table, "steps": steps}
