"""Active Defense's round for the encounter tracker: initiative is rolled once, when the fight
begins (1d20 + Dexterity modifier, or Agility under the other reading), and holds for the whole
encounter; the highest score acts first each round. The order comes from the initiative calculator."""

from __future__ import annotations

from typing import Any

from calc.inputs.data import SystemData
from calc.systems.active_defense.readers import num, plus
from calc.turns import helpers as kit

ROUND_INPUTS: tuple[str, ...] = ()
"""Initiative calculator inputs the round sets itself: none (every other input is an option)."""


def dice_needed(people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict) -> list[dict]:
    sides = data.die_sides("initiative", "die")
    return [
        kit.die(data, f"init:{p['id']}", sides, f"{p['name']}: initiative for the encounter", "initiative")
        for p in people
    ]


def turn_order(people: list[dict[str, Any]], rolls: dict, round_no: int, data: SystemData, options: dict) -> dict:
    sides = data.die_sides("initiative", "die")
    by_agility = options["initiative_ability"] == "agility"
    by_dex = options["initiative_ties"] == "dexterity"
    entries, totals = [], []
    for i, p in enumerate(people):
        roll = kit.rolled(rolls, f"init:{p['id']}", 1, sides, f"{p['name']}'s d{sides}")
        entries.append({"name": kit.tag(i), "dexterity": p["dexterity"], "agility": p["agility"], "roll": roll})
        totals.append(roll + (p["agility"] if by_agility else p["dexterity"]))
    order = kit.initiative(data, {**options, "combatants": entries}, people)["order"]
    added = "Agility score" if by_agility else "Dexterity modifier"
    again = f" (rolled once, in round 1; this is round {round_no})" if round_no > 1 else ""

    def why(group: dict, i: int) -> list[dict]:
        p = people[i]
        bonus = p["agility"] if by_agility else p["dexterity"]
        steps = [
            data.step(
                "initiative",
                f"{p['name']}: {entries[i]['roll']} {plus(bonus)} ({added}) = {num(totals[i])}{again}; highest first.",
            ),
            data.step(
                "ruling:initiative-ability",
                "The prose's Agility score is added." if by_agility else "The formula's Dexterity modifier is added.",
            ),
        ]
        same = [people[j]["name"] for j in range(len(people)) if j != i and totals[j] == totals[i]]
        if same and by_dex:
            steps.append(
                data.step(
                    "ruling:initiative-ties",
                    f"Same total as {', '.join(same)}: the higher Dexterity modifier acts first"
                    + (" (equal: tied)." if group["tied"] else "."),
                )
            )
        elif same:
            steps.append(data.step("ruling:initiative-ties", f"Tied with {', '.join(same)}: the table settles it."))
        return steps

    listed = kit.turns_from_order(order, people, lambda g, i: f"initiative {num(totals[i])}", why)
    notes = [
        data.step(
            "ruling:initiative-ties",
            f"Initiative {g['score']}: "
            + ", ".join(people[kit.untag(n)]["name"] for n in g["names"])
            + " are tied; the table settles their order.",
        )
        for g in order
        if g["tied"]
    ]
    return {"turns": listed, "notes": notes}
