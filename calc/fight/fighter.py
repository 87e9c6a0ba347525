"""A combatant is a fighter: the one mapping from a fight's combatants to a calculator's inputs.

The `fighter:` block of a system's `tracker:` declaration (calc/rules.json) names the round
calculator and the inputs a combatant carries as attacker and as target (its `role: attacker` and
`role: target` inputs, under the same names, in the combatant's `values`); the block also says
which input the target's current hit points fill (`health`), its maximum (`max`), its side
(`side`: countup's PC target is a character), which inputs come from a field of another name
(`from`: action-points' target_wounds from the combatant's own wounds) and which booleans the
combatant's health state sets (`state`: countup's Hurt attacker). Anything the combatants do not
hold takes the fight's ruling of that name, else the calculator's declared default.

`inputs_for` gives a calculator's inputs for one combatant attacking another, by input name (only
those that differ from the declared default, and the target's hit points always), as JSON, so
`request(...)` is exactly what `calc.evaluate` takes and what the tracker's odds send.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import applies, inputs
from calc.data import SystemData
from calc.errors import InputError
from calc.turn_helpers import tracker

ATTACKERS = "attackers"
"""The round calculator's list of several attackers: one attacker here, so never filled."""


def declaration(data: SystemData) -> dict[str, Any] | None:
    """The system's exported `fighter:` block (None when its tracker declares none)."""
    return tracker(data).get("fighter")


def carried(data: SystemData) -> list[dict[str, Any]]:
    """The declarations of the round calculator's inputs a combatant carries as a fighter."""
    spec = declaration(data)
    return list(spec["inputs"]) if spec else []


def checked_values(data: SystemData, raw: Mapping[str, Any], known: set[str], where: str) -> dict[str, Any]:
    """The fighter inputs among a combatant's given values (those not already `known` fields),
    typed by their declarations and kept as JSON (dice as text); left out when not given."""
    decls = [d for d in carried(data) if d["name"] not in known and raw.get(d["name"]) is not None]
    typed = {d["name"]: inputs.value(d, raw[d["name"]], f"{where}.{d['name']}") for d in decls}
    return inputs.to_json(decls, typed)


def _by_id(fight: Mapping[str, Any], ident: Any, where: str) -> dict[str, Any]:
    for c in fight["combatants"]:
        if c["id"] == ident:
            return c
    raise InputError(where, f"no combatant has the id {inputs.shown(ident)}")


def health_input(data: SystemData, calculator: str) -> str | None:
    """The input of `calculator` the target's current hit points fill (None: it has none)."""
    spec = declaration(data) or {}
    if spec.get("calculator") == calculator:
        return str(spec["health"])
    health = tracker(data)["health"]
    return str(health["input"]) if health["calculator"] == calculator else None


def inputs_for(
    fight: Mapping[str, Any],
    attacker_id: str,
    target_id: str,
    calculator: str,
    data: SystemData,
    options: Mapping[str, Any] | None = None,
    states: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """`calculator`'s inputs (JSON, by input name) for combatant `attacker_id` attacking
    `target_id` in `fight`: the attacker's attacker-role values, the target's target-role values,
    its current hit points, maximum, side and state as the `fighter:` block maps them, the fight's
    rulings (`options`, typed) for inputs of their names; inputs equal to the declared default and
    inputs whose `when` does not hold are left out (the health input is always given).
    `states`: each combatant's health state label by id (the fight's view), for `state:`."""
    spec = declaration(data) or {}
    attacker = _by_id(fight, attacker_id, "attacker")
    target = _by_id(fight, target_id, "target")
    options = options or {}
    states = states or {}
    decls = [d for d in data.calculator(calculator)["inputs"] if d["name"] != ATTACKERS]
    health = health_input(data, calculator)
    side = spec.get("side") or {}
    renamed = spec.get("from") or {}
    by_state = spec.get("state") or {}
    also = set(spec.get("also") or [])
    values: dict[str, Any] = {}
    for d in decls:
        name = d["name"]
        own = attacker if d.get("role") == "attacker" or name in also else target
        if name == health:
            values[name] = _within(d, target["hp"], target["name"], "hit points")
        elif name == spec.get("max"):
            values[name] = _within(d, target["max"], target["name"], "maximum hit points")
        elif name == side.get("input"):
            values[name] = side[target["side"]]
        elif name in renamed and renamed[name] in own["values"]:
            values[name] = own["values"][renamed[name]]
        elif name in by_state:
            values[name] = states.get(own["id"]) == by_state[name]
        elif (d.get("role") or name in also or name in target["values"]) and name in own["values"]:
            values[name] = own["values"][name]
        elif name in options:
            values[name] = options[name]
    typed = {d["name"]: inputs.value(d, values.get(d["name"]), d["name"]) for d in decls}
    plain = inputs.to_json(decls, typed)
    defaults = inputs.to_json(decls, {d["name"]: inputs.value(d, None, d["name"]) for d in decls})
    return {
        d["name"]: plain[d["name"]]
        for d in decls
        if d["name"] == health or (plain[d["name"]] != defaults[d["name"]] and applies.holds(d, typed))
    }


def _within(decl: Mapping[str, Any], value: int, who: str, what: str) -> int:
    """The target's hit points as the calculator's input takes them, or an error naming it."""
    lo, hi = decl.get("min"), decl.get("max")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InputError(
            decl["name"],
            f"{who} has {inputs.shown(value)} {what}; the {decl.get('label', decl['name'])} of this "
            f"calculator runs from {lo} to {hi}",
        )
    return value


def request(
    fight: Mapping[str, Any],
    attacker_id: str,
    target_id: str,
    data: SystemData,
    options: Mapping[str, Any] | None = None,
    states: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The round calculator's request (`{"system", "calculator", "inputs"}`, as `calc.evaluate`
    takes it) for the odds of `attacker_id`'s attack on `target_id`."""
    spec = declaration(data)
    if spec is None:
        raise InputError("fighter", f"{data.id}'s tracker declares no fighter (`fighter:` in calculators.yaml)")
    calculator = str(spec["calculator"])
    return {
        "system": data.id,
        "calculator": calculator,
        "inputs": inputs_for(fight, attacker_id, target_id, calculator, data, options, states),
    }
