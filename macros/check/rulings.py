"""`rulings.yaml` checked: the rules each ruling applies to, its prose, and its `option`: a real
input of a calculator, declared with `ruling:` this ruling, whose two readings are values of it and
each shown by an example."""

from __future__ import annotations

from macros.check.references import prose_problems, ref_problem
from macros.check.values import value_problem
from macros.load.catalog import Catalog, System
from macros.load.problems import Problem, suggest


def check(system: System, catalog: Catalog, out: list[Problem]) -> None:
    readings: dict[str, set[str]] = {}
    for _rule, example in system.examples():
        if example.get("ruling"):
            readings.setdefault(example["ruling"], set()).add(example.get("reading", ""))
    for rid, ruling in system.rulings.items():
        where = system.where[("ruling", rid)]
        for i, rule_id in enumerate(ruling["applies_to"]):
            problem = ref_problem(where, ("applies_to", i), "rule", rule_id, system.rules)
            if problem:
                out.append(problem)
        for name in ("title", "ruling", "alternative"):
            prose_problems(system, catalog, where, (name,), ruling.get(name), out)
        option = ruling.get("option")
        if not option:
            continue
        calc = system.calculators.get(option["calculator"])
        if calc is None:
            out.append(where.problem(f"no calculator '{option['calculator']}'", "option", "calculator"))
            continue
        declared = {d.get("name"): d for d in calc.get("inputs", [])}
        decl = declared.get(option["input"])
        if decl is None:
            out.append(
                where.problem(
                    f"calculator '{option['calculator']}' has no input '{option['input']}'"
                    f"{suggest(option['input'], declared)}",
                    "option",
                    "input",
                )
            )
            continue
        if decl.get("ruling") != rid:
            out.append(where.problem(f"input '{option['input']}' must say `ruling: {rid}`", "option", "input"))
        for key in ("ruling_value", "alternative_value"):
            why = value_problem(system, decl, option[key])
            if why:
                out.append(where.problem(why, "option", key))
        for reading in ("ruling", "alternative"):
            if reading not in readings.get(rid, set()):
                wanted = f"`ruling: {rid}` and `reading: {reading}`"
                out.append(where.problem(f"needs an example with {wanted} in rules.yaml", "option"))
