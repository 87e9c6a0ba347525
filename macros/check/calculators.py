"""`calculators.yaml` checked: each calculator's engine (`complete`), rule and prose; each input's
declaration (a choice's options, a range, a list's fields, its default, its `when`, its ruling);
the stress blocks' values; and inputs sharing a role carrying the same kind of value."""

from __future__ import annotations

from macros.check.engine import engine_attr
from macros.check.references import prose_problems, ref_problem
from macros.check.values import broken_options, options_from_problem, value_problem
from macros.load.catalog import Catalog, System, Where
from macros.load.inputs import resolved_options
from macros.load.problems import Problem, suggest


def check(system: System, catalog: Catalog, out: list[Problem], complete: bool) -> None:
    engines = engine_attr(system, "CALCULATORS") if complete else None
    for name, calc in system.calculators.items():
        where = system.where[("calculator", name)]
        if isinstance(engines, str):
            out.append(where.problem(engines))
        elif engines is not None and name not in engines:
            known = suggest(name, engines)
            out.append(where.problem(f"no engine '{name}' in {system.module}.CALCULATORS{known}"))
        problem = ref_problem(where, ("rule",), "rule", calc["rule"], system.rules)
        if problem:
            out.append(problem)
        prose_problems(system, catalog, where, ("summary",), calc.get("summary"), out)
        names: set[str] = set()
        # inputs copied by `inputs_from` come first and are checked where they are declared
        inherited = system.inherited.get(name, 0)
        for i, decl in enumerate(calc["inputs"]):
            own = i - inherited  # the index in this calculator's own `inputs`
            if own < 0:
                names.add(decl["name"])
                continue
            if decl["name"] in names:
                taken = f" (it comes from `inputs_from: {calc['inputs_from']}`)" if inherited else ""
                out.append(where.problem(f"duplicate input name '{decl['name']}'{taken}", "inputs", own, "name"))
            names.add(decl["name"])
            _check_input(system, where, ("inputs", own), decl, out)
            _check_when(system, where, i, decl, calc["inputs"][:i], out, own)
            why = _ruling_input_problem(system, name, decl) if "ruling" in decl else None
            if why:
                out.append(where.problem(why, "inputs", own, "ruling"))
        for block in ("stress", "stress_party"):
            for key, value in (calc.get(block) or {}).items():
                decl = next((d for d in calc["inputs"] if d["name"] == key), None)
                if decl is None:
                    out.append(where.problem(f"no input '{key}'{suggest(key, names)}", block, key))
                else:
                    why = value_problem(system, decl, value)
                    if why:
                        out.append(where.problem(why, block, key))


def _ruling_input_problem(system: System, calculator: str, decl: dict) -> str | None:
    """Why an input's `ruling: <id>` is wrong; None when it is right. The input is that ruling's
    option: the one its `option` names, or the same option taken again by another calculator (the
    forecast reads the round's rulings for every fighter and cites each reading by this
    declaration), under the option's input name and with exactly its two readings as values."""
    rid = decl["ruling"]
    ruling = system.rulings.get(rid)
    if ruling is None:
        return f"no ruling '{rid}'{suggest(rid, system.rulings)}"
    option = ruling.get("option")
    if not option:
        return f"ruling '{rid}' has no `option`: no reading an input can choose"
    if (option.get("calculator"), option.get("input")) == (calculator, decl["name"]):
        return None
    if option.get("input") != decl["name"]:
        return (
            f"ruling '{rid}' has no `option` naming calculator '{calculator}' input '{decl['name']}' "
            f"(its option is '{option.get('input')}' of '{option.get('calculator')}')"
        )
    readings = {key: option.get(key) for key in ("ruling_value", "alternative_value")}
    for key, value in readings.items():
        why = value_problem(system, decl, value)
        if why:
            return f"ruling '{rid}' option.{key} {value!r} is no value of this input: {why}"
    if decl.get("type") == "choice" and not broken_options(system, decl):
        extra = [o["value"] for o in resolved_options(system, decl) if o["value"] not in readings.values()]
        if extra:
            return f"value(s) {', '.join(map(repr, extra))} are no reading of ruling '{rid}'"
    return None


def check_roles(system: System, out: list[Problem]) -> None:
    """An input with a `role` carries its value to the system's other calculators (and into
    presets) by name, so every input of that name and role must be the same kind of value: same
    type and, for a choice, options in common (a value a calculator does not offer is left at its
    own default there)."""
    first: dict[str, tuple[str, dict]] = {}
    for name, calc in system.calculators.items():
        inherited = system.inherited.get(name, 0)  # copies made by `inputs_from` are checked where declared
        for i, decl in enumerate(calc["inputs"][inherited:]):
            if "role" not in decl:
                continue
            seen = first.setdefault(decl["name"], (name, decl))
            other_calc, other = seen
            if other is decl:
                continue
            why = _role_mismatch(system, other, decl)
            if why:
                where = system.where[("calculator", name)]
                text = f"input '{decl['name']}' shares its value with calculator '{other_calc}' but {why}"
                out.append(where.problem(text, "inputs", i, "role"))


def _role_mismatch(system: System, a: dict, b: dict) -> str | None:
    if a["role"] != b["role"]:
        return f"has role '{b['role']}' here, '{a['role']}' there"
    if a["type"] != b["type"]:
        return f"is {b['type']} here, {a['type']} there"
    if a["type"] == "choice" and not (broken_options(system, a) or broken_options(system, b)):
        values = [{str(o["value"]) for o in resolved_options(system, d)} for d in (a, b)]
        if not values[0] & values[1]:
            return "they have no option in common"
    return None


def _check_when(
    system: System, where: Where, i: int, decl: dict, earlier: list[dict], out: list[Problem], at: int | None = None
) -> None:
    """`when` names inputs declared before this one (the form shows them first), with values they take.
    `at`: the input's index in the file when it differs from `i` (inputs copied by `inputs_from`)."""
    at = i if at is None else at
    before = {d["name"]: d for d in earlier}
    for other, value in (decl.get("when") or {}).items():
        if other not in before:
            problem = f"no input '{other}' declared before this one{suggest(other, before)}"
            out.append(where.problem(problem, "inputs", at, "when", other))
            continue
        why = value_problem(system, before[other], value)
        if why:
            out.append(where.problem(why, "inputs", at, "when", other))


def _check_input(system: System, where: Where, field: tuple, decl: dict, out: list[Problem]) -> None:
    kind = decl["type"]
    if kind == "choice":
        has_options, has_from = "options" in decl, "options_from" in decl
        if has_options == has_from:
            out.append(where.problem("a choice needs exactly one of `options` or `options_from`", *field))
            return
        if has_from:
            why = options_from_problem(system, decl["options_from"])
            if why:
                out.append(where.problem(why[1], *field, "options_from", why[0]))
                return
        values = [str(o["value"]) for o in resolved_options(system, decl)]
        if len(set(values)) != len(values):
            out.append(where.problem("option values are not unique", *field))
    elif kind == "integer" and decl["min"] > decl["max"]:
        out.append(where.problem(f"min {decl['min']} is above max {decl['max']}", *field))
    elif kind == "list":
        fields = decl["fields"]
        seen: set[str] = set()
        for j, sub in enumerate(fields):
            if sub["name"] in seen:
                out.append(where.problem(f"duplicate field name '{sub['name']}'", *field, "fields", j, "name"))
            seen.add(sub["name"])
            _check_input(system, where, (*field, "fields", j), sub, out)
        lo, hi = decl.get("min_items", 0), decl["max_items"]
        if lo > hi:
            out.append(where.problem(f"min_items {lo} is above max_items {hi}", *field))
    why = value_problem(system, decl, decl["default"])
    if why:
        out.append(where.problem(why, *field, "default"))
