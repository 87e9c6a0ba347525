"""Active Defense initiative: 1d20 + Dexterity (or Agility) modifier, highest first."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers.result import chance, order_groups, pairwise, percent
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.active_defense.readers import num
from calc.turns import order as who_first


def initiative(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    sides = data.die_sides("initiative", "die")
    by_agility = inputs["initiative_ability"] == "agility"
    break_by_dex = inputs["initiative_ties"] == "dexterity"
    steps = [
        data.step(
            "initiative",
            f"Initiative: 1d{sides} + {'Agility score' if by_agility else 'Dexterity modifier'}, highest first.",
        ),
        data.step(
            "ruling:initiative-ability",
            "Agility score added (the prose's reading)."
            if by_agility
            else "Dexterity modifier added (the formula wins).",
        ),
    ]
    people = inputs["combatants"]
    names, rolls, dex = [], [], []
    for i, c in enumerate(people, start=1):
        if c["roll"] > sides:
            raise InputError(f"combatants[{i}].roll", f"must be between 1 and {sides}, or 0 when not rolled yet")
        add = c["agility"] if by_agility else c["dexterity"]
        rolls.append(Dist.constant(c["roll"] + add) if c["roll"] else Dist.die(sides) + add)
        names.append(c["name"])
        dex.append(c["dexterity"])

    priority = [-d for d in dex] if break_by_dex else None  # the higher Dexterity wins a tie

    def chances(i: int, j: int) -> tuple[Fraction, Fraction, Fraction]:
        pair = (priority[i], priority[j]) if priority else None
        return who_first.acts_before(rolls[i], rolls[j], high_first=True, priority=pair)

    entries = [(names[i], i) for i in range(len(people))]
    rolled = [bool(c["roll"]) for c in people]

    def score(i: int) -> Fraction:
        return rolls[i].mean

    def tie_key(i: int) -> tuple[Any, ...]:
        return (score(i), rolled[i], dex[i] if break_by_dex else None)

    order = order_groups(
        entries,
        key=lambda i: (-score(i), not rolled[i], -dex[i] if break_by_dex else 0),
        tie_key=tie_key,
        score=lambda i: num(score(i)) if rolled[i] else f"≈ {num(score(i))}",
        note=lambda group: "" if rolled[group[0]] else "not rolled yet: expected score",
    )
    if break_by_dex:
        steps.append(
            data.step(
                "ruling:initiative-ties", "Equal totals: the higher Dexterity modifier acts first (other reading)."
            )
        )
    else:
        steps.append(data.step("ruling:initiative-ties", "Equal totals are shown as tied; the table settles them."))
    first = order[0]
    lead = ", ".join(first["names"])
    alone = who_first.first_chances(rolls, high_first=True, priority=priority, alone=True)
    if all(rolled):
        summary = f"{lead} {'tie for' if first['tied'] else 'acts'} first"
    else:
        best = max(range(len(rolls)), key=lambda i: alone[i])
        summary = f"{names[best]} is likeliest to act first alone ({percent(alone[best])})"
    return {
        "summary": summary,
        "chances": [chance(f"{names[i]} acts first, tied with no one", alone[i]) for i in range(len(rolls))],
        "order": order,
        "pairwise": pairwise(names, chances),
        "steps": steps,
    }
