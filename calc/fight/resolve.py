"""Resolve an attack in the tracker (the fight action `attack`): the attack roll and the damage,
rolled at the table or on the page, applied to the target. The engine decides hit or miss by the
system's hit rules: its hit calculator, asked with the attacker's and the target's values
(`calc.fight.fighter`), says the natural roll needed (`roll_needed`: that value or more hits, as
each engine works it out with its naturals and thresholds); a hit's damage is applied as the
`damage` action applies it (a natural top face counts as the card's "damage from a natural 20").

`{"type": "attack", "id": attacker, "target": id, "roll": face, "damage": amount}`.
"""

from __future__ import annotations

from typing import Any

from calc import inputs, systems
from calc.data import SystemData
from calc.errors import InputError
from calc.fight import fighter
from calc.fight import state as st

HIT_CALCULATOR = "hit"


def needed(fight: dict, attacker: str, target: str, data: SystemData, options: dict, states: dict) -> dict[str, Any]:
    """The hit calculator's `roll_needed` for this attacker against this target, with its reasons."""
    raw = fighter.inputs_for(fight, attacker, target, HIT_CALCULATOR, data, options, states)
    decls = data.calculator(HIT_CALCULATOR)["inputs"]
    answer = systems.engine(data.id).CALCULATORS[HIT_CALCULATOR](inputs.validate(decls, raw), data)
    if not answer.get("roll_needed"):
        raise InputError("action.roll", f"{data.id}'s hit calculator names no roll needed")
    return {"roll_needed": answer["roll_needed"], "steps": answer["steps"], "summary": answer["summary"]}


def _whole(action: dict, key: str, low: int, high: int) -> int:
    value = action.get(key)
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"action.{key}", f"must be a whole number from {low} to {high} (got {inputs.shown(value)})")
    return value


def attack(fight: dict, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[dict, list[dict]]:
    ids = {c["id"]: i for i, c in enumerate(fight["combatants"])}
    who, aim = action.get("id"), action.get("target")
    for key, ident in (("id", who), ("target", aim)):
        if ident not in ids:
            raise InputError(f"action.{key}", f"no combatant has the id {inputs.shown(ident)}")
    if who == aim:
        raise InputError("action.target", "a combatant does not attack itself here")
    states = {c["id"]: rules.health(c, data, options)["state"] for c in fight["combatants"]}
    asked = needed(fight, who, aim, data, options, states)
    rule = asked["roll_needed"]
    top = int(rule["die"].lstrip("d"))
    face = _whole(action, "roll", 1, top)
    amount = _whole(action, "damage", 0, st.HEALTH_MAX)
    attacker, target = fight["combatants"][ids[who]], fight["combatants"][ids[aim]]
    hits = rule["value"] is not None and face >= rule["value"]
    cited = [s for s in asked["steps"] if s.get("url")][:1]
    said = f"{attacker['name']} rolls {face} on the {rule['die']} against {target['name']}: needs {rule['text']}"
    if not hits or not amount:
        what = "a miss" if not hits else "a hit for no damage"
        return fight, [{**(cited[0] if cited else {}), "text": f"{said}, {what}."}]
    after, steps = rules.damage(target, amount, data, options, face == top, fight["round"])
    people = list(fight["combatants"])
    people[ids[aim]] = after
    head = {**(cited[0] if cited else {}), "text": f"{said}, a hit: {amount} damage."}
    return {**fight, "combatants": people}, [head, *steps]
