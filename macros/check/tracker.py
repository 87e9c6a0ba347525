"""The encounter tracker's declaration (`tracker:` in calculators.yaml) checked: the list input and
fields it names, its side, rule, health, defenses, status and rulings inputs, its health states'
facts, its fighter block; with `complete`, the engine's `TURNS` module that runs it."""

from __future__ import annotations

from calc import systems
from macros.load.catalog import System
from macros.load.inputs import calculator_input, fighter_inputs, resolved_options, tracker_fields
from macros.load.problems import Problem, suggest


def check(system: System, out: list[Problem], complete: bool = False) -> None:
    """The tracker's declaration names a list input of a calculator, fields of it, and inputs of
    calculators; with `complete`, the engine has the `turns` module that runs it."""
    spec = system.tracker
    if not spec:
        return
    where = system.where[("tracker", "tracker")]
    if complete:
        try:
            turns_module = systems.engine(system.id).TURNS
        except Exception as err:  # any import failure is reported as data, not as a traceback
            out.append(where.problem(f"cannot load the engine's TURNS of {system.module}: {type(err).__name__}: {err}"))
        else:
            for name in ("dice_needed", "turn_order"):
                if not callable(getattr(turns_module, name, None)):
                    out.append(where.problem(f"{system.module}.TURNS has no function {name}"))
    if spec["calculator"] not in system.calculators:
        out.append(where.problem(f"no calculator '{spec['calculator']}'", "calculator"))
        return
    listed, fields = tracker_fields(system)
    if listed is None:
        out.append(where.problem(f"calculator '{spec['calculator']}' has no list input '{spec['list']}'", "list"))
        return
    for i, name in enumerate(spec["inputs"]):
        if name not in fields:
            out.append(where.problem(f"no field '{name}' in {spec['list']}{suggest(name, fields)}", "inputs", i))
    side = spec.get("side")
    if side:
        decl = fields.get(side["input"])
        if decl is None or decl.get("type") != "choice":
            out.append(where.problem(f"no choice field '{side['input']}' in {spec['list']}", "side", "input"))
        else:
            values = {str(o["value"]) for o in resolved_options(system, decl)}
            for key in ("pc", "foe"):
                if side[key] not in values:
                    out.append(where.problem(f"'{side[key]}' is not an option of {side['input']}", "side", key))
    if spec["rule"] not in system.rules:
        out.append(where.problem(f"no rule '{spec['rule']}'{suggest(spec['rule'], system.rules)}", "rule"))
    refs = [(("health",), spec["health"])]
    refs += [((key, i), r) for key in ("defenses", "status", "rulings") for i, r in enumerate(spec.get(key) or [])]
    for field, ref in refs:
        decl = calculator_input(system, ref)
        if decl is None:
            out.append(where.problem(f"no input '{ref['input']}' in calculator '{ref['calculator']}'", *field))
        elif field[0] == "rulings" and not decl.get("ruling"):
            out.append(where.problem(f"input '{ref['input']}' of '{ref['calculator']}' is no ruling's option", *field))
    for i, state in enumerate(spec.get("states") or []):
        problem = _state_problem(system, state) or _state_condition_problem(system, spec, state)
        if problem:
            out.append(where.problem(problem[1], "states", i, problem[0]))
    fled = spec.get("fled")
    if fled and fled["rule"] not in system.rules:
        out.append(where.problem(f"no rule '{fled['rule']}'{suggest(fled['rule'], system.rules)}", "fled", "rule"))
    if spec.get("fighter"):
        for problem in fighter_problems(system, spec["fighter"]):
            out.append(where.problem(problem[1], "fighter", *problem[0]))
    if spec.get("turn"):
        for problem in turn_problems(system, spec["turn"], spec.get("fighter")):
            out.append(where.problem(problem[1], "turn", *problem[0]))
        for i, act in enumerate(spec["turn"]["actions"]):
            if act.get("enters") == "fled" and not fled:
                out.append(
                    where.problem(
                        "enters 'fled', but the tracker declares no fled state", "turn", "actions", i, "enters"
                    )
                )


def turn_problems(system: System, turn: dict, fighter: dict | None) -> list[tuple[tuple, str]]:
    """The turn's economy names rules the data has, number facts for its counts, pools it declares,
    kinds once each, and fighter values (inputs of the round calculator) for `attacks`/`planned`;
    an action whose rule states its `action_type` costs that type's fact (action-points)."""
    out: list[tuple[tuple, str]] = []

    def rule(field: tuple, rule_id: str) -> None:
        if rule_id not in system.rules:
            out.append((field, f"no rule '{rule_id}'{suggest(rule_id, system.rules)}"))

    def count(field: tuple, ref: object) -> None:
        if isinstance(ref, int):
            return
        rule_id, _, fact = str(ref).partition(".")
        facts = (system.rules.get(rule_id) or {}).get("facts") or {}
        if rule_id not in system.rules:
            out.append((field, f"no rule '{rule_id}'{suggest(rule_id, system.rules)}"))
        elif fact not in facts:
            out.append((field, f"rule '{rule_id}' has no fact '{fact}'{suggest(fact, facts)}"))
        elif facts[fact].get("kind") != "number":
            out.append((field, f"'{ref}' is a {facts[fact].get('kind')} fact, not a number"))

    rule(("rule",), turn["rule"])
    if turn.get("roll"):
        rule(("roll", "rule"), turn["roll"]["rule"])
    phase_ids = {str(r["id"]) for r in (system.tables.get("phases") or {}).get("rows", [])}
    pools = set()
    for i, pool in enumerate(turn["pools"]):
        if pool["id"] in pools:
            out.append((("pools", i, "id"), f"pool '{pool['id']}' is declared twice"))
        pools.add(pool["id"])
        count(("pools", i, "amount"), pool["amount"])
        rule(("pools", i, "rule"), pool["rule"])
        if pool.get("off_turn"):
            rule(("pools", i, "off_turn"), pool["off_turn"])
    calc = system.calculators.get((fighter or {}).get("calculator", ""))
    values = {d["name"] for d in (calc or {}).get("inputs", [])}
    kinds: set[str] = set()
    for i, act in enumerate(turn["actions"]):
        if act["kind"] in kinds:
            out.append((("actions", i, "kind"), f"action '{act['kind']}' is declared twice"))
        kinds.add(act["kind"])
        rule(("actions", i, "rule"), act["rule"])
        for pool, ref in act["cost"].items():
            if pool not in pools:
                out.append((("actions", i, "cost", pool), f"no pool '{pool}'{suggest(pool, pools)}"))
            count(("actions", i, "cost", pool), ref)
        if "limit" in act:
            count(("actions", i, "limit"), act["limit"])
        for key in ("attacks", "planned"):
            ref = act.get(key)
            for name in ref if isinstance(ref, list) else [ref]:
                if isinstance(name, str) and name not in values:
                    out.append(
                        (("actions", i, key), f"'{name}' is no fighter value (an input of the round calculator)")
                    )
        if "planned" in act and not act.get("attacks"):
            out.append((("actions", i, "planned"), "a planned action must give attacks (`attacks`)"))
        for phase in act.get("phases") or []:
            if phase not in phase_ids:
                out.append(
                    (("actions", i, "phases"), f"no phase '{phase}' in the phases table{suggest(phase, phase_ids)}")
                )
        decls = {d["name"]: d for d in (calc or {}).get("inputs", [])}
        for name, value in (act.get("inputs") or {}).items():
            decl = decls.get(name)
            if decl is None:
                out.append((("actions", i, "inputs", name), f"'{name}' is no input of the round calculator"))
            elif decl.get("type") == "choice" and value not in {o["value"] for o in resolved_options(system, decl)}:
                out.append((("actions", i, "inputs", name), f"'{value}' is no option of {name}"))
        own = ((system.rules.get(act["rule"]) or {}).get("facts") or {}).get("action_type")
        for pool, ref in act["cost"].items():
            if own and isinstance(ref, str) and not ref.endswith(f".{own['value']}_ap"):
                out.append(
                    (
                        ("actions", i, "cost", pool),
                        f"rule '{act['rule']}' is a {own['value']} action: its cost is that type's fact",
                    )
                )
    return out


def fighter_problems(system: System, fighter: dict) -> list[tuple[tuple, str]]:
    """A fighter block names the round calculator and inputs of it of the right kind; `from:`
    names fields a combatant carries; `labels:` inputs it carries."""
    calc = system.calculators.get(fighter["calculator"])
    if calc is None:
        return [
            (
                ("calculator",),
                f"no calculator '{fighter['calculator']}'{suggest(fighter['calculator'], system.calculators)}",
            )
        ]
    decls = {d["name"]: d for d in calc["inputs"]}
    out: list[tuple[tuple, str]] = []

    def need(field: tuple, name: str, kind: str | None = None) -> dict | None:
        decl = decls.get(name)
        if decl is None:
            out.append((field, f"no input '{name}' in calculator '{fighter['calculator']}'{suggest(name, decls)}"))
        elif kind and decl["type"] != kind:
            out.append((field, f"input '{name}' is a {decl['type']}, not a {kind}"))
            return None
        return decl

    need(("health",), fighter["health"], "integer")
    if "max" in fighter:
        need(("max",), fighter["max"], "integer")
    if "attack" in fighter:
        need(("attack",), fighter["attack"], "choice")
    side = fighter.get("side")
    if side:
        decl = need(("side", "input"), side["input"], "choice")
        if decl:
            values = {str(o["value"]) for o in resolved_options(system, decl)}
            out += [
                (("side", k), f"'{side[k]}' is not an option of {side['input']}")
                for k in ("pc", "foe")
                if side[k] not in values
            ]
    for name in fighter.get("state") or {}:
        need(("state", name), name, "boolean")
    for name in fighter.get("also") or []:
        need(("also",), name)
    for name in fighter.get("neutral") or {}:
        need(("neutral", name), name)
    for name, spec in (fighter.get("derived") or {}).items():
        need(("derived", name), name, "integer")
        if spec["rule"] not in system.rules:
            out.append((("derived", name, "rule"), f"no rule '{spec['rule']}'{suggest(spec['rule'], system.rules)}"))
        for i, part in enumerate(spec["add"]):
            need(("derived", name, "add", i), part["value"] if isinstance(part, dict) else part, "integer")
    spec = system.tracker or {}
    _, fields = tracker_fields(system)
    carried = set(fields) | {r["input"] for key in ("defenses", "status") for r in spec.get(key) or []}
    carried |= {d["name"] for d in fighter_inputs(system, fighter)}
    for name, field in (fighter.get("from") or {}).items():
        need(("from", name), name)
        if field not in carried:
            out.append((("from", name), f"'{field}' is no field a combatant carries"))
    labels = set(fighter.get("labels") or {})
    for name in sorted(labels - carried):
        out.append((("labels", name), f"'{name}' is no input a combatant carries as a fighter"))
    return out


def _state_problem(system: System, state: dict) -> tuple[str, str] | None:
    """A health state names a rule's fact of the kind its `when` compares: a range for `within`,
    a whole number (number, threshold, modifier) otherwise."""
    rule = system.rules.get(state["rule"])
    if rule is None:
        return "rule", f"no rule '{state['rule']}'{suggest(state['rule'], system.rules)}"
    facts = rule.get("facts") or {}
    fact = facts.get(state["fact"])
    if fact is None:
        return "fact", f"rule '{state['rule']}' has no fact '{state['fact']}'{suggest(state['fact'], facts)}"
    kinds = ("range",) if state["when"] == "within" else ("number", "threshold", "modifier")
    if fact.get("kind") not in kinds:
        return "fact", f"'{state['fact']}' is a {fact.get('kind')} fact; `{state['when']}` needs {' or '.join(kinds)}"
    return None


def _state_condition_problem(system: System, spec: dict, state: dict) -> tuple[str, str] | None:
    """A state's `unless` names a boolean status field."""
    if "unless" in state:
        decls = [calculator_input(system, r) for r in spec.get("status") or []]
        if not any(d and d["name"] == state["unless"] and d["type"] == "boolean" for d in decls):
            return "unless", f"'{state['unless']}' is no boolean input of the tracker's status"
    return None
