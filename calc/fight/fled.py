"""Fleeing and coming back, where a system declares a Fled state (`tracker.fled`: phases' morale,
segments' Flee fast action).

`{"type": "flee", "id"}` marks a combatant fled (the GM's word, as for segments' Flee; phases' morale
roll marks it by itself as a round starts): its turns leave the round's order (a once-rolled
initiative roll with them), so it takes no more turns and is no one's target. `{"type": "return",
"id"}` brings it back: it rolls in again as the next round starts (it keeps its hit points and
Wounds). A combatant that is dead stays so either way."""

from __future__ import annotations

from typing import Any

from calc.errors import InputError
from calc.fight import rounds
from calc.fight.hit_points import fled_state
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker

Fight = dict[str, Any]


def _find(fight: Fight, action: dict, data: SystemData) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """(index, combatant, the declared fled state), or the refusal of a system without one."""
    spec = fled_state(data)
    if not spec:
        raise InputError(
            "action.type", f"{data.name}'s rules name no fled state: '{action.get('type')}' is no action here"
        )
    ident = action.get("id")
    for i, c in enumerate(fight["combatants"]):
        if c["id"] == ident:
            return i, c, spec
    raise InputError("action.id", f"no combatant has the id {declared.shown(ident)}")


def flee(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[Fight, list[dict]]:
    i, c, spec = _find(fight, action, data)
    if c["fled"]:
        return fight, []
    if rules.health(c, data, options).get("final"):
        raise InputError("action.id", f"{c['name']} is dead: the dead do not flee")
    people = list(fight["combatants"])
    people[i] = {**c, "fled": True}
    before = sum(1 for t in fight["order"][: fight["turn"]] if t["id"] == c["id"])
    order = [t for t in fight["order"] if t["id"] != c["id"]]
    kept = fight["rolls"]
    if fight["round"] and kept and _once(data):  # a once-rolled initiative: it rolls anew on coming back
        kept = {k: v for k, v in kept.items() if not k.endswith(f":{c['id']}")}
    out = {
        **fight,
        "combatants": people,
        "order": order,
        "rolls": kept,
        "turn": min(fight["turn"] - before, len(order)),
    }
    out["turn"] = rounds.step(out, out["turn"], 1, data, rules, options, inclusive=True)
    text = f"{c['name']} flees ({spec['label']}): out of the round's order and no target, until brought back."
    return out, [data.step(spec["rule"], text)]


def come_back(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[Fight, list[dict]]:
    i, c, spec = _find(fight, action, data)
    if not c["fled"]:
        raise InputError("action.id", f"{c['name']} has not fled: only one that fled comes back")
    people = list(fight["combatants"])
    people[i] = {**c, "fled": False}
    text = f"{c['name']} is back in the fight: it rolls in again as the next round starts."
    return {**fight, "combatants": people}, [data.step(spec["rule"], text)]


def _once(data: SystemData) -> bool:
    return tracker(data)["rolled"] == "once"
