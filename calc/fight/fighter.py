"""A combatant is a fighter: the one mapping from a fight's combatants to a calculator's inputs.

The `fighter:` block of a system's `tracker:` declaration (calc/rules.json) names the round
calculator and the inputs a combatant carries as attacker and as target (its `role: attacker` and
`role: target` inputs, under the same names, in the combatant's `values`); the block also says
which input the target's current hit points fill (`health`), its maximum (`max`), its side
(`side`: countup's PC target is a character), which inputs come from a field of another name
(`from`: action-points' target_wounds from the combatant's own wounds) and which booleans the
combatant's health state sets (`state`: countup's Hurt attacker), which inputs a combatant that does
not give them fills with the neutral value rather than the calculator's example default (`neutral`:
action-points' Strength 0) and which it works out from its own values (`derived`: action-points'
damage bonus, Strength + half the level). Anything else the combatants do not hold takes the
fight's ruling of that name, else the calculator's declared default.

`inputs_for` gives a calculator's inputs for one combatant attacking another, by input name (only
those that differ from the declared default, and the target's hit points always), as JSON, so
`request(...)` is exactly what `calc.evaluate` takes and what the tracker's odds send.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.answers.round_answer import HEADLINE_ROUNDS
from calc.errors import CalcError, InputError
from calc.fight import aim
from calc.inputs import applies, declared
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker

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
    typed = {d["name"]: declared.value(d, raw[d["name"]], f"{where}.{d['name']}") for d in decls}
    return declared.to_json(decls, typed)


def _by_id(fight: Mapping[str, Any], ident: Any, where: str) -> dict[str, Any]:
    for c in fight["combatants"]:
        if c["id"] == ident:
            return c
    raise InputError(where, f"no combatant has the id {declared.shown(ident)}")


def with_values(fight: Mapping[str, Any], ident: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The fight with combatant `ident` carrying `values` over its own (a turn's share of its
    attacks: segments' multi-attacker makes 1 routine before group initiative and the rest after LOW)."""
    if not values:
        return dict(fight)
    return {
        **fight,
        "combatants": [
            {**c, "values": {**c["values"], **values}} if c["id"] == ident else c for c in fight["combatants"]
        ],
    }


def health_input(data: SystemData, calculator: str) -> str | None:
    """The input of `calculator` the target's current hit points fill (None: it has none)."""
    spec = declaration(data) or {}
    if spec.get("calculator") == calculator:
        return str(spec["health"])
    health = tracker(data)["health"]
    return str(health["input"]) if health["calculator"] == calculator else None


def holding(
    fight: Mapping[str, Any], c: Mapping[str, Any], data: SystemData, options: Mapping[str, Any]
) -> dict[str, Any]:
    """`c` as a target while it holds actions until its next turn (the fight's `held`, with their
    rolls): its values as its system's fight rules raise them (`holding`: action-points' standard and
    quick defense to AC and SR, capped by the defense roll under the fight's ruling)."""
    kinds = (fight.get("held") or {}).get(c["id"])
    if not kinds:
        return dict(c)
    return systems.engine(data.id).FIGHT.holding(dict(c), kinds, data, options)


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
    attacker = _by_id(fight, attacker_id, "attacker")
    target = holding(fight, _by_id(fight, target_id, "target"), data, options or {})
    own = _attacker_part(data, calculator, attacker, states or {})
    return _finish(data, calculator, own, target, options or {}, states or {})


def inputs_for_targets(
    fight: Mapping[str, Any],
    attacker_id: str,
    target_ids: list[str],
    calculator: str,
    data: SystemData,
    options: Mapping[str, Any] | None = None,
    states: Mapping[str, str] | None = None,
) -> dict[str, dict[str, Any] | InputError]:
    """`inputs_for` of one attacker against each of `target_ids` (the attacker's part worked out
    once): by target id, the inputs, or the `InputError` that refuses them (a target whose hit
    points the calculator does not take, an attacker's value it does not)."""
    attacker = _by_id(fight, attacker_id, "attacker")
    out: dict[str, dict[str, Any] | InputError] = {}
    own: Part | None = None
    for ident in target_ids:
        try:
            own = own or _attacker_part(data, calculator, attacker, states or {})
            target = holding(fight, _by_id(fight, ident, "target"), data, options or {})
            out[ident] = _finish(data, calculator, own, target, options or {}, states or {})
        except InputError as err:
            out[ident] = err
    return out


Part = tuple[dict[str, Any], dict[str, Any]]
"""Values given by one side, typed and as JSON, by input name."""


def _plan(data: SystemData, calculator: str) -> list[tuple[dict[str, Any], str, str, Any]]:
    """Each input of `calculator` (but the list of attackers): (declaration, whose value it is:
    "attacker" | "target", how it is filled: health | max | side | from | state | value, and
    what that needs), worked out once per loaded data."""
    key = ("plan", data.id, calculator, id(data.raw))
    if key not in _DEFAULTS:
        spec = declaration(data) or {}
        health = health_input(data, calculator)
        side = spec.get("side") or {}
        renamed = spec.get("from") or {}
        by_state = spec.get("state") or {}
        also = set(spec.get("also") or [])
        neutral = spec.get("neutral") or {}
        derived = spec.get("derived") or {}
        plan = []
        for d in data.calculator(calculator)["inputs"]:
            name = d["name"]
            if name == ATTACKERS:
                continue
            whose = "attacker" if d.get("role") == "attacker" or name in also else "target"
            if name == health:
                plan.append((d, "target", "health", None))
            elif name == spec.get("max"):
                plan.append((d, "target", "max", None))
            elif name == side.get("input"):
                plan.append((d, "target", "side", side))
            elif name in renamed:
                plan.append((d, whose, "from", renamed[name]))
            elif name in by_state:
                plan.append((d, whose, "state", by_state[name]))
            elif name in derived:
                plan.append((d, whose, "derived", (derived[name], neutral)))
            elif name in neutral:
                plan.append((d, whose, "neutral", neutral[name]))
            else:
                plan.append((d, whose, "value", bool(d.get("role")) or name in also))
        _DEFAULTS[key] = (data.raw, plan, {})  # the data kept: its id is not reused
    return _DEFAULTS[key][1]


def _filled(how: str, extra: Any, d: dict[str, Any], c: Mapping[str, Any], states: Mapping[str, str]) -> Any:
    """The value combatant `c` gives input `d` (None: none)."""
    name = d["name"]
    if how == "health":
        return _within(d, c["hp"], c["name"], "hit points")
    if how == "max":
        return _within(d, c["max"], c["name"], "maximum hit points")
    if how == "side":
        return extra[c["side"]]
    if how == "from":
        return c["values"].get(extra)
    if how == "state":
        return states.get(c["id"]) == extra
    if how == "neutral":
        return c["values"].get(name, extra)
    if how == "derived":
        return c["values"].get(name, _derived(extra[0], extra[1], c["values"]))
    return c["values"].get(name)  # a role's value, or one of no role the combatant carries


def _derived(spec: Mapping[str, Any], neutral: Mapping[str, Any], values: Mapping[str, Any]) -> int:
    """An input the combatant does not give, from its own values (`derived`: the sum of its `add`
    terms, each a value or `{value, divide}` rounded down); a value it does not give counts as its
    neutral one, else 0, never the calculator's example default."""
    total = 0
    for term in spec["add"]:
        name, divide = (term, 1) if isinstance(term, str) else (term["value"], term.get("divide", 1))
        given = values.get(name, neutral.get(name, 0))
        total += int(given) // int(divide)
    return total


def _typed(decls: list[dict[str, Any]], values: dict[str, Any]) -> Part:
    typed = {d["name"]: declared.value(d, values[d["name"]], d["name"]) for d in decls}
    return typed, declared.to_json(decls, typed)


def _attacker_part(data: SystemData, calculator: str, attacker: Mapping[str, Any], states: Mapping[str, str]) -> Part:
    """The values the attacker gives the calculator (the same against every target)."""
    given, decls = {}, []
    for d, whose, how, extra in _plan(data, calculator):
        if whose == "attacker":
            value = _filled(how, extra, d, attacker, states)
            if value is not None:
                given[d["name"]] = value
                decls.append(d)
    return _typed(decls, given)


def _finish(
    data: SystemData,
    calculator: str,
    own: Part,
    target: Mapping[str, Any],
    options: Mapping[str, Any],
    states: Mapping[str, str],
) -> dict[str, Any]:
    """The request's inputs: the attacker's part, the target's, the fight's rulings; only those
    that differ from the declared default and apply (`when`), and the health input always."""
    if target.get("fled"):  # out of the fight: no one's target until brought back (calc/fight/fled.py)
        raise InputError("target", f"{target['name']} has fled: no target until the GM brings it back (return)")
    given, decls, health = {}, [], None
    for d, whose, how, extra in _plan(data, calculator):
        name = d["name"]
        if whose == "target":
            value = _filled(how, extra, d, target, states)
            if how == "value" and not extra and name not in target["values"]:
                value = None  # an input of no role the target does not carry
            if value is not None:
                given[name] = value
                decls.append(d)
                health = name if how == "health" else health
                continue
        if name not in own[0] and name in options:
            given[name] = options[name]
            decls.append(d)
    typed_defaults, plain_defaults = _defaults(data, calculator)
    typed_target, plain_target = _typed(decls, given)
    typed = {**typed_defaults, **own[0], **typed_target}
    plain = {**own[1], **plain_target}
    return {
        d["name"]: plain[d["name"]]
        for d, _, _, _ in _plan(data, calculator)
        if d["name"] in plain
        and (d["name"] == health or (plain[d["name"]] != plain_defaults[d["name"]] and applies.holds(d, typed)))
    }


_DEFAULTS: dict[tuple, tuple[Any, Any, Any]] = {}


def _defaults(data: SystemData, calculator: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A calculator's declared defaults, typed and as JSON, worked out once per loaded data (the
    tracker's view asks for a request per target on every action)."""
    key = ("defaults", data.id, calculator, id(data.raw))
    if key not in _DEFAULTS:
        decls = [d for d in data.calculator(calculator)["inputs"] if d["name"] != ATTACKERS]
        typed = {d["name"]: declared.value(d, None, d["name"]) for d in decls}
        _DEFAULTS[key] = (data.raw, typed, declared.to_json(decls, typed))  # the data kept: its id is not reused
    return _DEFAULTS[key][1], _DEFAULTS[key][2]


def _within(decl: Mapping[str, Any], value: int, who: str, what: str) -> int:
    """The target's hit points as the calculator's input takes them, or an error naming it."""
    lo, hi = decl.get("min"), decl.get("max")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InputError(
            decl["name"],
            f"{who} has {declared.shown(value)} {what}; the {decl.get('label', decl['name'])} of this "
            f"calculator runs from {lo} to {hi}",
        )
    return value


CHECKED_KEPT = 2048
_CHECKED: dict[str, InputError | None] = {}
"""Each request checked once (by system, calculator and inputs as `refusal` asks them)."""


def refusal(data: SystemData, calculator: str, inputs: Mapping[str, Any]) -> InputError | None:
    """Why `calc.evaluate` refuses `calculator`'s request with `inputs` (None: it answers it), so
    that the view builds no request its calculator refuses but says why (issue #38): the
    calculator's own checks (its declarations, then the rules its engine reads), never a copy.
    Asked with the target's hit points at no more than the lowest its input takes above 0: a
    round's chain is then a round or two long while every input check runs as for the real
    request (a refusal that reads the hit points reads them at or below 0: already down or dead)."""
    from calc import evaluate  # the entry point imports the engines; the fight is loaded after them

    asked = dict(inputs)
    health, lowest = _lowest(data, calculator)
    if health is not None and isinstance(asked.get(health), int):
        asked[health] = min(asked[health], lowest)
    key = f"{data.id}|{calculator}|{json.dumps(asked, sort_keys=True)}"
    if key not in _CHECKED:
        if len(_CHECKED) >= CHECKED_KEPT:
            _CHECKED.clear()
        try:
            evaluate({"system": data.id, "calculator": calculator, "inputs": asked}, first_attack=False)
            _CHECKED[key] = None
        except CalcError as err:
            _CHECKED[key] = InputError(err.input, err.reason)
    return _CHECKED[key]


def _lowest(data: SystemData, calculator: str) -> tuple[str | None, int]:
    """The calculator's health input and the fewest hit points above 0 it takes (worked out once)."""
    key = ("lowest", data.id, calculator, id(data.raw))
    if key not in _DEFAULTS:
        health = health_input(data, calculator)
        decl = next((d for d in data.calculator(calculator)["inputs"] if d["name"] == health), {})
        lowest = max(int(decl.get("min", 1)), 1)
        _DEFAULTS[key] = (data.raw, (health, lowest), {})  # the data kept: its id is not reused
    return _DEFAULTS[key][1]


def accepted(data: SystemData, calculator: str, got: dict[str, Any] | InputError) -> dict[str, Any] | InputError:
    """`got` (a request's inputs, or the error that refused them) with the calculator's own
    refusal in place of inputs it would refuse."""
    if isinstance(got, InputError):
        return got
    return refusal(data, calculator, got) or got


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


def odds(
    fight: Mapping[str, Any], data: SystemData, options: Mapping[str, Any], health: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any] | None:
    """What the acting combatant's card needs for the odds of its attack (the view's `odds`):
    `{"attacker", "target" (the default target, else the first of the other side the rules let act),
    "default_target" (calc/fight/aim.py: the last target while it stands, else focus fire) | None,
    "attack" (the choice the data offers as the attack, with its value) | None, "targets": [{"id",
    "name", "side", "state", "request"} | {... "error": {"input", "message"}}], "assumption"}`;
    None when nobody acts now or the system declares no fighter. `health`: each combatant's
    health (`rules.health`) by id."""
    spec = declaration(data)
    turn = fight["turn"]
    if spec is None or turn >= len(fight["order"]):
        return None
    attacker = _by_id(fight, fight["order"][turn]["id"], "attacker")
    states = {ident: str(h["state"]) for ident, h in health.items()}
    calculator = str(spec["calculator"])
    others = [c for c in fight["combatants"] if c["id"] != attacker["id"] and not health[c["id"]].get("fled")]
    asked = inputs_for_targets(fight, attacker["id"], [c["id"] for c in others], calculator, data, options, states)
    asked = {ident: accepted(data, calculator, got) for ident, got in asked.items()}
    targets = []
    for c in others:
        entry: dict[str, Any] = {"id": c["id"], "name": c["name"], "side": c["side"], "state": states[c["id"]]}
        got = asked[c["id"]]
        if isinstance(got, InputError):
            entry["error"] = {"input": got.input, "message": got.reason}
        else:
            entry["request"] = {"system": data.id, "calculator": calculator, "inputs": got}
        targets.append(entry)
    ranked = sorted(targets, key=lambda t: (t["side"] == attacker["side"], not health[t["id"]]["acts"], "error" in t))
    stands = {ident: bool(h["acts"]) for ident, h in health.items()}
    chosen = aim.default_target(fight, attacker, targets, stands, data, options)
    attack = None
    if spec.get("attack"):
        decl = next(d for d in spec["inputs"] if d["name"] == spec["attack"])
        value = attacker["values"].get(decl["name"], decl.get("default"))
        attack = {k: decl[k] for k in ("name", "label", "card_label", "options") if k in decl} | {"value": value}
    return {
        "attacker": attacker["id"],
        "target": chosen or (ranked[0]["id"] if ranked else None),
        "default_target": chosen,  # the last target while it stands, else the side's focus fire (calc/fight/aim.py)
        "attack": attack,
        "targets": targets,
        "within": HEADLINE_ROUNDS,  # the card's "within N rounds": the round answer's headline
        "assumption": (
            f"Before the target acts again: {attacker['name']}'s attacks and those of every foe of the target "
            "who acts before its next turn, all on it (focus fire); the rounds to drop it and the chance within "
            f"{HEADLINE_ROUNDS}: {attacker['name']}'s attacks alone, round after round."
        ),
    }
