"""Segments' round for the encounter tracker: every round each side rolls one d6 (group
initiative: higher is HIGH, lower LOW, a tie puts both in HIGH); the round then runs fast actions,
each initiative by action type (D1–D4, weapon speed settling ties between groups), spells by the
segment they complete on, and complex activities last. A multi-attacker in melee (2 attack
routines) has two turns, the flowchart's multi-attack steps: its first routine before group
initiative, the other after LOW; each turn carries the routines it makes (`inputs`), which "drops
before it acts again" counts. The order comes from the round-order calculator, with one group per
side."""

from __future__ import annotations

from collections import Counter
from typing import Any

from calc.inputs.data import SystemData
from calc.turns import helpers as kit

ROUND_INPUTS: tuple[str, ...] = ()
"""Initiative calculator inputs the round sets itself: none (every other input is an option)."""

GROUPS = {"pc": "PCs", "foe": "Foes"}
"""The group each side forms (its name shows in the steps)."""

TURN_INPUT = "routines"
"""The round calculator's input a turn's share of its combatant's attacks fills: a multi-attacker's
turn before group initiative makes 1 routine, its turn after LOW the rest."""


def dice_needed(people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict) -> list[dict]:
    sides = data.die_sides("group-initiative", "die")
    return [
        kit.die(data, f"side:{side}", sides, f"{name}: group initiative, one d{sides} for the side", "group-initiative")
        for side, name in GROUPS.items()
    ]


def turn_order(people: list[dict[str, Any]], rolls: dict, round_no: int, data: SystemData, options: dict) -> dict:
    sides = data.die_sides("group-initiative", "die")
    groups = [
        {"name": name, "roll": kit.rolled(rolls, f"side:{side}", 1, sides, f"the {name}' d{sides}")}
        for side, name in GROUPS.items()
    ]
    entries = [
        {
            "name": kit.tag(i),
            "group": GROUPS[p["side"]],
            **{k: p[k] for k in ("action", "weapon", "minor_actions", "minor_after", "delayed", "casting_time")},
            TURN_INPUT: _routines(p),
        }
        for i, p in enumerate(people)
    ]
    answer = kit.initiative(data, {**options, "groups": groups, "combatants": entries}, people)
    by_person = kit.steps_by_person(answer["steps"], len(people))
    named_any = {id(s) for steps in by_person.values() for s in steps}
    shared = [s for s in answer["steps"] if id(s) not in named_any]

    def when(group: dict, i: int) -> str:
        note = group["note"]
        if ", groups tied: time" in note:  # a weapon-speed tie between groups: label, then the time
            label = note.split(", groups tied:")[0]
            return f"{label} · speed {group['score']}"
        return group["score"]

    # the round's shared reasons, picked once (each combatant's reasons take those that concern it)
    rolled = [s for s in shared if s["rule"] == "group-initiative" and " rolled " in s["text"]]
    kind = [s for s in shared if s["rule"] == "action-order"]
    delayed = [s for s in shared if s["rule"] == "delayed-condition"]
    spell = [s for s in shared if s["rule"] == "spell-initiative"]
    multi = [s for s in shared if s["rule"] == "ruling:multi-attack-in-melee"]
    listed_at = Counter(kit.untag(name) for group in answer["order"] for name in group["names"])
    split = {i for i, n in listed_at.items() if n > 1}  # a multi-attacker: its first routine, then the rest

    def why(group: dict, i: int) -> list[dict]:
        own = [{**s, "text": kit.named(s["text"], people)} for s in by_person[i]]
        steps = rolled + kind
        steps += delayed if people[i]["delayed"] else []
        steps += spell if people[i]["action"] == "spell" else []
        steps += multi if i in split else []
        steps += own
        if group["note"]:
            steps.append(data.step("action-order", kit.named(group["note"], people) + "."))
        return steps

    listed = kit.turns_from_order(answer["order"], people, when, why)
    index = {p["id"]: k for k, p in enumerate(people)}
    first_made: set[str] = set()
    for t in listed:
        i = index[t["id"]]
        if i in split:
            t["inputs"] = {TURN_INPUT: _routines(people[i]) - 1 if t["id"] in first_made else 1}
            first_made.add(t["id"])
    notes = [{**s, "text": kit.named(s["text"], people)} for s in shared]
    return {
        "turns": listed,
        "notes": notes,
        "high": [side for side, g in zip(GROUPS, groups, strict=True) if _high(answer, g)],
    }


def _routines(person: dict[str, Any]) -> Any:
    """The attack routines a combatant carries as a fighter (the round calculator's input), 1 when
    it carries none; the round-order calculator checks the value."""
    return person["given"].get(TURN_INPUT, 1)


def _high(answer: dict, group: dict) -> bool:
    """Whether a group is HIGH (its chance, from known rolls, is 1)."""
    return any(c["label"] == f"{group['name']} is HIGH" and c["p"]["fraction"] == "1" for c in answer["chances"])
