"""Countup's round for the encounter tracker: every round each combatant rolls their initiative die
(d10, or d8 with the racial ability or Talent) plus modifiers; the GM counts up from 1, and on the
same count a player acts before an NPC. The order comes from the initiative calculator."""

from __future__ import annotations

from typing import Any

from calc.answers.format import number, signed
from calc.inputs.data import SystemData
from calc.systems.countup.initiative import PLAYER, initiative_dice
from calc.turns import helpers as kit

ROUND_INPUTS: tuple[str, ...] = ()
"""Initiative calculator inputs the round sets itself: none (every other input is an option)."""


def dice_needed(people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict) -> list[dict]:
    sides = initiative_dice(data)
    return [
        kit.die(
            data,
            f"init:{p['id']}",
            sides[p["die"]],
            f"{p['name']}: initiative, {p['die']} {signed(p['modifier'])}",
            "initiative",
        )
        for p in people
    ]


def turn_order(people: list[dict[str, Any]], rolls: dict, round_no: int, data: SystemData, options: dict) -> dict:
    sides = initiative_dice(data)
    side_of = kit.tracker(data)["side"]
    entries, totals = [], []
    for i, p in enumerate(people):
        roll = kit.rolled(rolls, f"init:{p['id']}", 1, sides[p["die"]], f"{p['name']}'s {p['die']}")
        entries.append(
            {"name": kit.tag(i), "side": side_of[p["side"]], "die": p["die"], "modifier": p["modifier"], "roll": roll}
        )
        totals.append(roll + p["modifier"])
    order = kit.initiative(data, {**options, "combatants": entries}, people)["order"]
    start = data.fact("initiative-count", "count_start")

    def why(group: dict, i: int) -> list[dict]:
        p, e = people[i], entries[i]
        steps = [
            data.step(
                "initiative",
                f"{p['name']} rolled {e['roll']} on the {p['die']} {signed(p['modifier'])} = {number(totals[i])}.",
            ),
            data.step(
                "initiative-count", f"The GM counts up from {start}: {p['name']} acts on count {group['score']}."
            ),
        ]
        same = [people[j]["name"] for j in range(len(people)) if j != i and totals[j] == totals[i]]
        if same:
            player = e["side"] == PLAYER
            if group["tied"] and player:
                text = f"Tied with {', '.join(same)}: a player acts before an NPC; tied players choose their order."
            else:
                text = f"Same count as {', '.join(same)}: a player acts before an NPC or monster."
            steps.append(data.step("initiative-ties", text))
            if group["tied"] and not player:
                steps.append(data.step("ruling:initiative-npc-ties", "NPCs on the same count: the GM orders them."))
        return steps

    listed = kit.turns_from_order(order, people, lambda g, i: f"count {g['score']}", why)
    notes = []
    for g in order:
        if g["tied"]:
            names = ", ".join(people[kit.untag(n)]["name"] for n in g["names"])
            if entries[kit.untag(g["names"][0])]["side"] == PLAYER:
                notes.append(
                    data.step("initiative-ties", f"Count {g['score']}: {names} tie; the players choose their order.")
                )
            else:
                notes.append(
                    data.step("ruling:initiative-npc-ties", f"Count {g['score']}: {names} tie; the GM orders them.")
                )
    return {"turns": listed, "notes": notes}
